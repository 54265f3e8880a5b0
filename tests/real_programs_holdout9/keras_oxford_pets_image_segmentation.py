"""Title: Image segmentation with a U-Net-like architecture (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/2588a15440a10de8d0cc10b50c21ede333a2bd01/examples/keras_io/vision/oxford_pets_image_segmentation.py
Licence: Apache-2.0 (keras-team/keras)
Changed: the Oxford-IIIT Pets download (images/*.jpg, annotations/trimaps/*.png with values 1-3)
-> 14 synthetic 96x80 RGB JPEG images and 1-3 valued grayscale PNG trimaps (pixels from a seeded
NumPy generator, written with PIL) in a temporary directory, which holds input_dir and
target_dir; img_size (160, 160) -> (64, 64), val_samples 1000 -> 4, epochs 15 -> 1, so the
displayed validation image i = 10 -> 2; fit and predict verbose=0; IPython's display removed (the
PIL images it would show -> RESULTS); the checkpoint "oxford_segmentation.keras" -> the same name
in the temporary directory, and reloaded at the end to predict; keras.utils.set_random_seed(0)
(the initializers are unseeded); the losses, predictions, masks and file order -> RESULTS.
"""

import os
import tempfile

import numpy as np
import keras
from PIL import Image as _PILImage

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_tmp = tempfile.mkdtemp()
os.makedirs(os.path.join(_tmp, "images"))
os.makedirs(os.path.join(_tmp, "annotations", "trimaps"))
for _i in range(14):
    _name = "pet_%02d" % _i
    _PILImage.fromarray(_rng.integers(0, 256, (80, 96, 3)).astype(np.uint8)).save(
        os.path.join(_tmp, "images", _name + ".jpg"), quality=90)
    _PILImage.fromarray(_rng.integers(1, 4, (80, 96)).astype(np.uint8)).save(
        os.path.join(_tmp, "annotations", "trimaps", _name + ".png"))

input_dir = os.path.join(_tmp, "images/")
target_dir = os.path.join(_tmp, "annotations/trimaps/")
img_size = (64, 64)
num_classes = 3
batch_size = 32

input_img_paths = sorted(
    [
        os.path.join(input_dir, fname)
        for fname in os.listdir(input_dir)
        if fname.endswith(".jpg")
    ]
)
target_img_paths = sorted(
    [
        os.path.join(target_dir, fname)
        for fname in os.listdir(target_dir)
        if fname.endswith(".png") and not fname.startswith(".")
    ]
)

print("Number of samples:", len(input_img_paths))

for input_path, target_path in zip(input_img_paths[:10], target_img_paths[:10]):
    print(input_path, "|", target_path)


from keras.utils import load_img
from PIL import ImageOps


# Display auto-contrast version of corresponding target (per-pixel categories)
img = ImageOps.autocontrast(load_img(target_img_paths[9]))
RESULTS["target_9_autocontrast"] = np.asarray(img)[:6, :6]


import keras
import numpy as np
from tensorflow import data as tf_data
from tensorflow import image as tf_image
from tensorflow import io as tf_io


def get_dataset(
    batch_size,
    img_size,
    input_img_paths,
    target_img_paths,
    max_dataset_len=None,
):
    """Returns a TF Dataset."""

    def load_img_masks(input_img_path, target_img_path):
        input_img = tf_io.read_file(input_img_path)
        input_img = tf_io.decode_png(input_img, channels=3)
        input_img = tf_image.resize(input_img, img_size)
        input_img = tf_image.convert_image_dtype(input_img, "float32")

        target_img = tf_io.read_file(target_img_path)
        target_img = tf_io.decode_png(target_img, channels=1)
        target_img = tf_image.resize(target_img, img_size, method="nearest")
        target_img = tf_image.convert_image_dtype(target_img, "uint8")

        # Ground truth labels are 1, 2, 3. Subtract one to make them 0, 1, 2:
        target_img -= 1
        return input_img, target_img

    # For faster debugging, limit the size of data
    if max_dataset_len:
        input_img_paths = input_img_paths[:max_dataset_len]
        target_img_paths = target_img_paths[:max_dataset_len]
    dataset = tf_data.Dataset.from_tensor_slices(
        (input_img_paths, target_img_paths)
    )
    dataset = dataset.map(load_img_masks, num_parallel_calls=tf_data.AUTOTUNE)
    return dataset.batch(batch_size)


from keras import layers


def get_model(img_size, num_classes):
    inputs = keras.Input(shape=img_size + (3,))

    ### [First half of the network: downsampling inputs] ###

    # Entry block
    x = layers.Conv2D(32, 3, strides=2, padding="same")(inputs)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    previous_block_activation = x  # Set aside residual

    # Blocks 1, 2, 3 are identical apart from the feature depth.
    for filters in [64, 128, 256]:
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

        # Project residual
        residual = layers.Conv2D(filters, 1, strides=2, padding="same")(
            previous_block_activation
        )
        x = layers.add([x, residual])  # Add back residual
        previous_block_activation = x  # Set aside next residual

    ### [Second half of the network: upsampling inputs] ###

    for filters in [256, 128, 64, 32]:
        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.UpSampling2D(2)(x)

        # Project residual
        residual = layers.UpSampling2D(2)(previous_block_activation)
        residual = layers.Conv2D(filters, 1, padding="same")(residual)
        x = layers.add([x, residual])  # Add back residual
        previous_block_activation = x  # Set aside next residual

    # Add a per-pixel classification layer
    outputs = layers.Conv2D(
        num_classes, 3, activation="softmax", padding="same"
    )(x)

    # Define the model
    model = keras.Model(inputs, outputs)
    return model


# Build model
model = get_model(img_size, num_classes)
model.summary()


import random

# Split our img paths into a training and a validation set
val_samples = 4
random.Random(1337).shuffle(input_img_paths)
random.Random(1337).shuffle(target_img_paths)
train_input_img_paths = input_img_paths[:-val_samples]
train_target_img_paths = target_img_paths[:-val_samples]
val_input_img_paths = input_img_paths[-val_samples:]
val_target_img_paths = target_img_paths[-val_samples:]

# Instantiate dataset for each split
# Limit input files in `max_dataset_len` for faster epoch training time.
# Remove the `max_dataset_len` arg when running with full dataset.
train_dataset = get_dataset(
    batch_size,
    img_size,
    train_input_img_paths,
    train_target_img_paths,
    max_dataset_len=1000,
)
valid_dataset = get_dataset(
    batch_size, img_size, val_input_img_paths, val_target_img_paths
)


# Configure the model for training.
# We use the "sparse" version of categorical_crossentropy
# because our target data is integers.
model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")

callbacks = [
    keras.callbacks.ModelCheckpoint(
        os.path.join(_tmp, "oxford_segmentation.keras"), save_best_only=True
    )
]

# Train the model, doing validation at the end of each epoch.
epochs = 1
history = model.fit(
    train_dataset,
    epochs=epochs,
    validation_data=valid_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]
RESULTS["train_paths"] = [os.path.basename(p) for p in train_input_img_paths]


# Generate predictions for all images in the validation set

val_dataset = get_dataset(
    batch_size, img_size, val_input_img_paths, val_target_img_paths
)
val_preds = model.predict(val_dataset, verbose=0)
RESULTS["val_preds"] = val_preds[:, ::8, ::8]


def display_mask(i):
    """Quick utility to display a model's prediction."""
    mask = np.argmax(val_preds[i], axis=-1)
    mask = np.expand_dims(mask, axis=-1)
    img = ImageOps.autocontrast(keras.utils.array_to_img(mask))
    return np.asarray(img)


# Display results for validation image #10
i = 2


# Display ground-truth target mask
img = ImageOps.autocontrast(load_img(val_target_img_paths[i]))
RESULTS["val_target_autocontrast"] = np.asarray(img)[:6, :6]

# Display mask predicted by our model
RESULTS["mask"] = display_mask(i)  # Note that the model only sees inputs at 150x150.
RESULTS["reloaded_preds"] = keras.models.load_model(os.path.join(_tmp, "oxford_segmentation.keras")).predict(val_dataset, verbose=0)[:, ::8, ::8]
