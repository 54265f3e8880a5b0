"""Title: Deep Learning with Python, 3rd ed., chapter 9: Convnet architecture patterns (residual connections, batch normalization, depthwise separable convolutions, a mini Xception-like model trained with data augmentation on image_dataset_from_directory)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter09_convnet-architecture-patterns.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's code cells 7-18 in order; the `!pip` cell, the `KERAS_BACKEND = "jax"`
cell and the IPython cell-magic cell removed (the program runs on Keras's TensorFlow backend);
keras.utils.set_random_seed(0) at the top; the Kaggle login and download cells (13-14) ->
a synthetic `train/` folder of 64 cat and 64 dog 32x32 RGB images (seeded NumPy noise with a
per-class tint, written as PNG files by a small zlib-based writer, in a temporary working
directory), so make_subset's file names end in ".png" instead of ".jpg" and its index ranges
shrink (train 0-32, validation 32-48, test 48-64 instead of 0-1000, 1000-1500, 1500-2500);
image_size (180, 180) -> (32, 32) and the model's Input shape with it; epochs 100 -> 2; the
three small residual models of cells 7-9 are built as published and also called on a seeded
batch, and their outputs, the datasets' first batches, the augmented batch, the mini Xception's
parameter count, history, evaluation and predictions -> RESULTS.
"""
RESULTS = {}

import keras
keras.utils.set_random_seed(0)
import os
import struct
import tempfile
import zlib
import numpy as np

os.chdir(tempfile.mkdtemp())

def _write_png(path, image):
    h, w, _ = image.shape
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(h))
    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                 + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

_rng = np.random.default_rng(0)
os.makedirs("train")
for _i in range(64):
    for _category, _tint in (("cat", (60, 0, 0)), ("dog", (0, 0, 60))):
        _img = np.clip(_rng.integers(0, 196, (32, 32, 3)) + np.array(_tint), 0, 255)
        _write_png(os.path.join("train", f"{_category}.{_i}.png"), _img.astype(np.uint8))

# [cell 7]
import keras
from keras import layers

inputs = keras.Input(shape=(32, 32, 3))
x = layers.Conv2D(32, 3, activation="relu")(inputs)
residual = x
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
residual = layers.Conv2D(64, 1)(residual)
x = layers.add([x, residual])
_probe = _rng.random((2, 32, 32, 3)).astype("float32")
RESULTS["cell7_output_shape"] = list(x.shape[1:])
RESULTS["cell7_output_sum"] = np.sum(keras.Model(inputs, x)(_probe))
# [cell 8]
inputs = keras.Input(shape=(32, 32, 3))
x = layers.Conv2D(32, 3, activation="relu")(inputs)
residual = x
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
x = layers.MaxPooling2D(2, padding="same")(x)
residual = layers.Conv2D(64, 1, strides=2)(residual)
x = layers.add([x, residual])
RESULTS["cell8_output_shape"] = list(x.shape[1:])
RESULTS["cell8_output_first"] = keras.Model(inputs, x)(_probe)[0, :3, :3, :4]
# [cell 9]
inputs = keras.Input(shape=(32, 32, 3))
x = layers.Rescaling(1.0 / 255)(inputs)

def residual_block(x, filters, pooling=False):
    residual = x
    x = layers.Conv2D(filters, 3, activation="relu", padding="same")(x)
    x = layers.Conv2D(filters, 3, activation="relu", padding="same")(x)
    if pooling:
        x = layers.MaxPooling2D(2, padding="same")(x)
        residual = layers.Conv2D(filters, 1, strides=2)(residual)
    elif filters != residual.shape[-1]:
        residual = layers.Conv2D(filters, 1)(residual)
    x = layers.add([x, residual])
    return x

x = residual_block(x, filters=32, pooling=True)
x = residual_block(x, filters=64, pooling=True)
x = residual_block(x, filters=128, pooling=False)

x = layers.GlobalAveragePooling2D()(x)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs=inputs, outputs=outputs)
RESULTS["cell9_count_params"] = model.count_params()
RESULTS["cell9_predictions"] = model(_probe * 255.0)
# [cell 15]
import os, shutil, pathlib
from keras.utils import image_dataset_from_directory

original_dir = pathlib.Path("train")
new_base_dir = pathlib.Path("dogs_vs_cats_small")

def make_subset(subset_name, start_index, end_index):
    for category in ("cat", "dog"):
        dir = new_base_dir / subset_name / category
        os.makedirs(dir)
        fnames = [f"{category}.{i}.png" for i in range(start_index, end_index)]
        for fname in fnames:
            shutil.copyfile(src=original_dir / fname, dst=dir / fname)

make_subset("train", start_index=0, end_index=32)
make_subset("validation", start_index=32, end_index=48)
make_subset("test", start_index=48, end_index=64)

batch_size = 64
image_size = (32, 32)
train_dataset = image_dataset_from_directory(
    new_base_dir / "train",
    image_size=image_size,
    batch_size=batch_size,
)
validation_dataset = image_dataset_from_directory(
    new_base_dir / "validation",
    image_size=image_size,
    batch_size=batch_size,
)
test_dataset = image_dataset_from_directory(
    new_base_dir / "test",
    image_size=image_size,
    batch_size=batch_size,
)
RESULTS["class_names"] = " ".join(train_dataset.class_names)
_images, _labels = next(iter(train_dataset))
RESULTS["train_first_batch_labels"] = _labels
RESULTS["train_first_batch_image_mean"] = np.mean(_images, axis=(1, 2, 3))
_vimages, _vlabels = next(iter(validation_dataset))
RESULTS["validation_first_batch_labels"] = _vlabels
RESULTS["validation_first_batch_pixels"] = _vimages[0, :2, :2]
# [cell 16]
import tensorflow as tf
from keras import layers

data_augmentation_layers = [
    layers.RandomFlip("horizontal"),
    layers.RandomRotation(0.1),
    layers.RandomZoom(0.2),
]

def data_augmentation(images, targets):
    for layer in data_augmentation_layers:
        images = layer(images)
    return images, targets

augmented_train_dataset = train_dataset.map(
    data_augmentation, num_parallel_calls=8
)
augmented_train_dataset = augmented_train_dataset.prefetch(tf.data.AUTOTUNE)
# [cell 17]
import keras

inputs = keras.Input(shape=(32, 32, 3))
x = layers.Rescaling(1.0 / 255)(inputs)
x = layers.Conv2D(filters=32, kernel_size=5, use_bias=False)(x)

for size in [32, 64, 128, 256, 512]:
    residual = x

    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)
    x = layers.SeparableConv2D(size, 3, padding="same", use_bias=False)(x)

    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)
    x = layers.SeparableConv2D(size, 3, padding="same", use_bias=False)(x)

    x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

    residual = layers.Conv2D(
        size, 1, strides=2, padding="same", use_bias=False
    )(residual)
    x = layers.add([x, residual])

x = layers.GlobalAveragePooling2D()(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs=inputs, outputs=outputs)
RESULTS["xception_count_params"] = model.count_params()
RESULTS["xception_output_shape"] = str(model.output_shape)
# [cell 18]
model.compile(
    loss="binary_crossentropy",
    optimizer="adam",
    metrics=["accuracy"],
)
history = model.fit(
    augmented_train_dataset,
    epochs=2,
    validation_data=validation_dataset,
)
for _k, _v in history.history.items():
    RESULTS["history_" + _k] = _v
RESULTS["test_evaluate"] = model.evaluate(test_dataset)
RESULTS["test_predictions"] = model.predict(test_dataset)
