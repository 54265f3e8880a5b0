"""Title: Learning to Resize in Computer Vision (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/2588a15440a10de8d0cc10b50c21ede333a2bd01/examples/keras_io/vision/learnable_resizer.py
Licence: Apache-2.0 (keras-team/keras)
Changed: tfds.load("cats_vs_dogs", ...) (a download; uint8 RGB images of varying sizes with int64
labels) -> tf.data.Dataset.from_tensor_slices of synthetic uint8 120x160x3 images (6 train, 3
validation) and int64 labels from a seeded NumPy generator; EPOCHS 5 -> 1; fit verbose=0;
matplotlib (the two 3x4 grids) removed, the resized images the first shows -> RESULTS (the
second's, after training, are left out: TF's own two runs disagreed on them);
keras.utils.set_random_seed(0) (the shuffle and the initializers are unseeded); the history,
resized images and validation predictions -> RESULTS.
"""

from keras import layers
import keras
from keras import ops

from tensorflow import data as tf_data
from tensorflow import image as tf_image
from tensorflow import one_hot as tf_one_hot

import numpy as np
from tensorflow import data as _tf_data_for_stand_in

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)


INP_SIZE = (300, 300)
TARGET_SIZE = (150, 150)
INTERPOLATION = "bilinear"

AUTO = tf_data.AUTOTUNE
BATCH_SIZE = 50
EPOCHS = 1


def _cats_vs_dogs(n):
    return _tf_data_for_stand_in.Dataset.from_tensor_slices(
        (_rng.integers(0, 256, (n, 120, 160, 3)).astype(np.uint8), _rng.integers(0, 2, n).astype(np.int64))
    )


train_ds, validation_ds = _cats_vs_dogs(6), _cats_vs_dogs(3)


def preprocess_dataset(image, label):
    image = tf_image.resize(image, (INP_SIZE[0], INP_SIZE[1]))
    label = tf_one_hot(label, depth=2)
    return (image, label)


train_ds = (
    train_ds.shuffle(BATCH_SIZE * 100)
    .map(preprocess_dataset, num_parallel_calls=AUTO)
    .batch(BATCH_SIZE)
    .prefetch(AUTO)
)
validation_ds = (
    validation_ds.map(preprocess_dataset, num_parallel_calls=AUTO)
    .batch(BATCH_SIZE)
    .prefetch(AUTO)
)


def conv_block(
    x, filters, kernel_size, strides, activation=layers.LeakyReLU(0.2)
):
    x = layers.Conv2D(
        filters, kernel_size, strides, padding="same", use_bias=False
    )(x)
    x = layers.BatchNormalization()(x)
    if activation:
        x = activation(x)
    return x


def res_block(x):
    inputs = x
    x = conv_block(x, 16, 3, 1)
    x = conv_block(x, 16, 3, 1, activation=None)
    return layers.Add()([inputs, x])


def get_learnable_resizer(
    filters=16, num_res_blocks=1, interpolation=INTERPOLATION
):
    inputs = layers.Input(shape=[None, None, 3])

    # First, perform naive resizing.
    naive_resize = layers.Resizing(*TARGET_SIZE, interpolation=interpolation)(
        inputs
    )

    # First convolution block without batch normalization.
    x = layers.Conv2D(
        filters=filters, kernel_size=7, strides=1, padding="same"
    )(inputs)
    x = layers.LeakyReLU(0.2)(x)

    # Second convolution block with batch normalization.
    x = layers.Conv2D(
        filters=filters, kernel_size=1, strides=1, padding="same"
    )(x)
    x = layers.LeakyReLU(0.2)(x)
    x = layers.BatchNormalization()(x)

    # Intermediate resizing as a bottleneck.
    bottleneck = layers.Resizing(*TARGET_SIZE, interpolation=interpolation)(x)

    # Residual passes.
    for _ in range(num_res_blocks):
        x = res_block(bottleneck)

    # Projection.
    x = layers.Conv2D(
        filters=filters,
        kernel_size=3,
        strides=1,
        padding="same",
        use_bias=False,
    )(x)
    x = layers.BatchNormalization()(x)

    # Skip connection.
    x = layers.Add()([bottleneck, x])

    # Final resized image.
    x = layers.Conv2D(filters=3, kernel_size=7, strides=1, padding="same")(x)
    final_resize = layers.Add()([naive_resize, x])

    return keras.Model(inputs, final_resize, name="learnable_resizer")


learnable_resizer = get_learnable_resizer()


sample_images, _ = next(iter(train_ds))

get_np = lambda image: ops.convert_to_numpy(
    ops.squeeze(image)
)  # Helper to convert image from any backend to numpy

_resized = []
for i, image in enumerate(sample_images[:6]):
    image = image / 255

    resized_image = learnable_resizer(image[None, ...])
    _resized.append(get_np(resized_image)[::16, ::16])
RESULTS["resized_before"] = _resized


def get_model():
    backbone = keras.applications.DenseNet121(
        weights=None,
        include_top=True,
        classes=2,
        input_shape=((TARGET_SIZE[0], TARGET_SIZE[1], 3)),
    )
    backbone.trainable = True

    inputs = layers.Input((INP_SIZE[0], INP_SIZE[1], 3))
    x = layers.Rescaling(scale=1.0 / 255)(inputs)
    x = learnable_resizer(x)
    outputs = backbone(x)

    return keras.Model(inputs, outputs)


model = get_model()
model.compile(
    loss=keras.losses.CategoricalCrossentropy(label_smoothing=0.1),
    optimizer="sgd",
    metrics=["accuracy"],
)
history = model.fit(train_ds, validation_data=validation_ds, epochs=EPOCHS, verbose=0)
RESULTS["history"] = [history.history[k] for k in ("accuracy", "loss", "val_accuracy", "val_loss")]


_resized = []
for i, image in enumerate(sample_images[:6]):
    image = image / 255

    resized_image = learnable_resizer(image[None, ...])
    _resized.append(get_np(resized_image)[::16, ::16] / 10)
RESULTS["predictions"] = model.predict(validation_ds, verbose=0)
