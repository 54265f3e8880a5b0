"""Title: Image classification from scratch (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0e918412690b44285f82f699ce19d919fb14cee2/examples/vision/image_classification_from_scratch.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the Kaggle Cats vs Dogs download (curl + unzip; 25000 JPEGs of assorted sizes, some
corrupted) -> a PetImages folder in a temporary directory with 24 JPEGs per class (seeded NumPy
noise of sizes 56..88 saved by PIL) and one non-JFIF file (a PNG) per class for the filter to
delete; every "PetImages/..." path and the checkpoint paths put under that directory;
image_size (180, 180) -> (64, 64); batch_size 128 -> 8; the Xception-like widths [128, 256,
512, 728] -> [16, 24, 32, 48], 32/64 -> 8/16 and 1024 -> 64; epochs 25 -> 2; verbose=0;
matplotlib cells and plot_model removed; keras.utils.set_random_seed(0) (augmentation and
dropout are unseeded) and tf.config.experimental.enable_op_determinism() (the augmentation runs
in a parallel map); the model's kernels fixed (fix_weights); the inference image is PetImages/Cat/3.jpg
(6779.jpg does not exist here); the last print formats score[0] (NumPy refuses :.2f on an
array); prints -> RESULTS.
"""
import tempfile

import numpy as np
from PIL import Image

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
RESULTS = {}
_tmp = tempfile.mkdtemp()
_rng = np.random.default_rng(0)

import os

for _folder in ("Cat", "Dog"):
    os.makedirs(os.path.join(_tmp, "PetImages", _folder))
    for _i in range(24):
        _h, _w = _rng.integers(56, 89, 2)
        Image.fromarray(_rng.integers(0, 256, (_h, _w, 3)).astype(np.uint8)).save(
            os.path.join(_tmp, "PetImages", _folder, f"{_i}.jpg"), format="JPEG", quality=90)
    Image.fromarray(_rng.integers(0, 256, (40, 40, 3)).astype(np.uint8)).save(
        os.path.join(_tmp, "PetImages", _folder, "666.jpg"), format="PNG")

num_skipped = 0
for folder_name in ("Cat", "Dog"):
    folder_path = os.path.join(_tmp, "PetImages", folder_name)
    for fname in os.listdir(folder_path):
        fpath = os.path.join(folder_path, fname)
        try:
            fobj = open(fpath, "rb")
            is_jfif = tf.compat.as_bytes("JFIF") in fobj.peek(10)
        finally:
            fobj.close()

        if not is_jfif:
            num_skipped += 1
            # Delete corrupted image
            os.remove(fpath)

print("Deleted %d images" % num_skipped)
RESULTS["num_skipped"] = num_skipped

image_size = (64, 64)
batch_size = 8

train_ds, val_ds = tf.keras.preprocessing.image_dataset_from_directory(
    os.path.join(_tmp, "PetImages"),
    validation_split=0.2,
    subset="both",
    seed=1337,
    image_size=image_size,
    batch_size=batch_size,
)
RESULTS["class_names"] = [len(train_ds.class_names), int(train_ds.class_names == ["Cat", "Dog"])]
RESULTS["cardinality"] = [int(train_ds.cardinality()), int(val_ds.cardinality())]

for images, labels in train_ds.take(1):
    RESULTS["first_images"] = images
    RESULTS["first_labels"] = labels

data_augmentation = keras.Sequential(
    [
        layers.RandomFlip("horizontal"),
        layers.RandomRotation(0.1),
    ]
)

for images, _ in train_ds.take(1):
    augmented_images = data_augmentation(images)
    RESULTS["augmented_shape"] = list(augmented_images.shape)

train_ds = train_ds.prefetch(buffer_size=32)
val_ds = val_ds.prefetch(buffer_size=32)


def make_model(input_shape, num_classes):
    inputs = keras.Input(shape=input_shape)

    # Entry block
    x = layers.Rescaling(1.0 / 255)(inputs)
    x = layers.Conv2D(8, 3, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    x = layers.Conv2D(16, 3, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    previous_block_activation = x  # Set aside residual

    for size in [16, 24, 32, 48]:
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(size, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(size, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

        # Project residual
        residual = layers.Conv2D(size, 1, strides=2, padding="same")(
            previous_block_activation
        )
        x = layers.add([x, residual])  # Add back residual
        previous_block_activation = x  # Set aside next residual

    x = layers.SeparableConv2D(64, 3, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    x = layers.GlobalAveragePooling2D()(x)
    if num_classes == 2:
        activation = "sigmoid"
        units = 1
    else:
        activation = "softmax"
        units = num_classes

    x = layers.Dropout(0.5)(x)
    outputs = layers.Dense(units, activation=activation)(x)
    return keras.Model(inputs, outputs)


model = make_model(input_shape=image_size + (3,), num_classes=2)
fix_weights(model)
RESULTS["num_params"] = model.count_params()

# Apply `data_augmentation` to the training images.
train_ds = train_ds.map(
    lambda img, label: (data_augmentation(img), label),
    num_parallel_calls=tf.data.AUTOTUNE,
)
# Prefetching samples in GPU memory helps maximize GPU utilization.
train_ds = train_ds.prefetch(tf.data.AUTOTUNE)

epochs = 2

callbacks = [
    keras.callbacks.ModelCheckpoint(os.path.join(_tmp, "save_at_{epoch}.keras")),
]
model.compile(
    optimizer=keras.optimizers.Adam(1e-3),
    loss="binary_crossentropy",
    metrics=["accuracy"],
    jit_compile=True,  # Enable XLA compilation for faster execution
)
history = model.fit(
    train_ds,
    epochs=epochs,
    callbacks=callbacks,
    validation_data=val_ds,
    verbose=0,
)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]
RESULTS["checkpoints"] = sorted(f for f in os.listdir(_tmp) if f.endswith(".keras"))  == [
    "save_at_1.keras", "save_at_2.keras"]

img = keras.preprocessing.image.load_img(
    os.path.join(_tmp, "PetImages/Cat/3.jpg"), target_size=image_size
)
img_array = keras.preprocessing.image.img_to_array(img)
img_array = tf.expand_dims(img_array, 0)  # Create batch axis

predictions = model.predict(img_array, verbose=0)
score = predictions[0]
print(f"This image is {100 * (1 - score[0]):.2f}% cat and {100 * score[0]:.2f}% dog.")
RESULTS["img_array"] = img_array
RESULTS["score"] = score
