"""Title: Image classification with ConvMixer (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/1ae3fe4775e9c5a996e86eeb531501c273fe437e/examples/keras_io/vision/convmixer.py
Licence: Apache-2.0 (keras-team/keras)
Changed: keras.datasets.cifar10.load_data() (downloaded; 50000/10000 uint8 32x32x3 images) ->
320/64 synthetic uint8 images and (n, 1) uint8 labels from a seeded NumPy generator;
batch_size 128 -> 32; num_epochs 10 -> 2; the default filters 256 -> 32 (depth 8 kept);
the checkpoint /tmp/checkpoint.keras -> a file in a temporary directory; verbose=0;
keras.utils.set_random_seed(0) (shuffle, the augmentation layers and the initializers are
unseeded) and tf.config.experimental.enable_op_determinism() (without it, two runs of the
training under TensorFlow differ: the augmentation runs in a parallel map); the model's kernels
fixed (fix_weights); matplotlib removed (visualization_plot keeps
its min-max normalization, and its result is recorded instead of plotted); prints -> RESULTS.
"""

import keras
from keras import layers

import os
import tempfile
import tensorflow as tf
import numpy as np
from _corpus import fix_weights

keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()
RESULTS = {}
_rng = np.random.default_rng(0)

learning_rate = 0.001
weight_decay = 0.0001
batch_size = 32
num_epochs = 2

(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (320, 32, 32, 3)).astype(np.uint8), _rng.integers(0, 10, (320, 1)).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 32, 32, 3)).astype(np.uint8), _rng.integers(0, 10, (64, 1)).astype(np.uint8)))
val_split = 0.1

val_indices = int(len(x_train) * val_split)
new_x_train, new_y_train = x_train[val_indices:], y_train[val_indices:]
x_val, y_val = x_train[:val_indices], y_train[:val_indices]

print(f"Training data samples: {len(new_x_train)}")
print(f"Validation data samples: {len(x_val)}")
print(f"Test data samples: {len(x_test)}")

image_size = 32
auto = tf.data.AUTOTUNE

augmentation_layers = [
    keras.layers.RandomCrop(image_size, image_size),
    keras.layers.RandomFlip("horizontal"),
]


def augment_images(images):
    for layer in augmentation_layers:
        images = layer(images, training=True)
    return images


def make_datasets(images, labels, is_train=False):
    dataset = tf.data.Dataset.from_tensor_slices((images, labels))
    if is_train:
        dataset = dataset.shuffle(batch_size * 10)
    dataset = dataset.batch(batch_size)
    if is_train:
        dataset = dataset.map(
            lambda x, y: (augment_images(x), y), num_parallel_calls=auto
        )
    return dataset.prefetch(auto)


train_dataset = make_datasets(new_x_train, new_y_train, is_train=True)
val_dataset = make_datasets(x_val, y_val)
test_dataset = make_datasets(x_test, y_test)


def activation_block(x):
    x = layers.Activation("gelu")(x)
    return layers.BatchNormalization()(x)


def conv_stem(x, filters: int, patch_size: int):
    x = layers.Conv2D(filters, kernel_size=patch_size, strides=patch_size)(x)
    return activation_block(x)


def conv_mixer_block(x, filters: int, kernel_size: int):
    # Depthwise convolution.
    x0 = x
    x = layers.DepthwiseConv2D(kernel_size=kernel_size, padding="same")(x)
    x = layers.Add()([activation_block(x), x0])  # Residual.

    # Pointwise convolution.
    x = layers.Conv2D(filters, kernel_size=1)(x)
    x = activation_block(x)

    return x


def get_conv_mixer_256_8(
    image_size=32,
    filters=32,
    depth=8,
    kernel_size=5,
    patch_size=2,
    num_classes=10,
):
    """ConvMixer-256/8: https://openreview.net/pdf?id=TVHS5Y4dNvM.
    The hyperparameter values are taken from the paper.
    """
    inputs = keras.Input((image_size, image_size, 3))
    x = layers.Rescaling(scale=1.0 / 255)(inputs)

    # Extract patch embeddings.
    x = conv_stem(x, filters, patch_size)

    # ConvMixer blocks.
    for _ in range(depth):
        x = conv_mixer_block(x, filters, kernel_size)

    # Classification block.
    x = layers.GlobalAvgPool2D()(x)
    outputs = layers.Dense(num_classes, activation="softmax")(x)

    return keras.Model(inputs, outputs)


def run_experiment(model):
    optimizer = keras.optimizers.AdamW(
        learning_rate=learning_rate, weight_decay=weight_decay
    )

    model.compile(
        optimizer=optimizer,
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )

    checkpoint_filepath = os.path.join(tempfile.mkdtemp(), "checkpoint.keras")
    checkpoint_callback = keras.callbacks.ModelCheckpoint(
        checkpoint_filepath,
        monitor="val_accuracy",
        save_best_only=True,
        save_weights_only=False,
    )

    history = model.fit(
        train_dataset,
        validation_data=val_dataset,
        epochs=num_epochs,
        callbacks=[checkpoint_callback],
        verbose=0,
    )

    model.load_weights(checkpoint_filepath)
    _, accuracy = model.evaluate(test_dataset, verbose=0)
    print(f"Test accuracy: {round(accuracy * 100, 2)}%")
    RESULTS["test_accuracy"] = accuracy

    return history, model


conv_mixer_model = get_conv_mixer_256_8()
fix_weights(conv_mixer_model)
history, conv_mixer_model = run_experiment(conv_mixer_model)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["n_layers"] = len(conv_mixer_model.layers)


def visualization_plot(weights, idx=1):
    # First, apply min-max normalization to the
    # given weights to avoid isotrophic scaling.
    p_min, p_max = weights.min(), weights.max()
    weights = (weights - p_min) / (p_max - p_min)
    return weights


# We first visualize the learned patch embeddings.
patch_embeddings = conv_mixer_model.layers[2].get_weights()[0]
RESULTS["patch_embeddings"] = visualization_plot(patch_embeddings)

# First, print the indices of the convolution layers that are not
# pointwise convolutions.
_depthwise = []
for i, layer in enumerate(conv_mixer_model.layers):
    if isinstance(layer, layers.DepthwiseConv2D):
        if layer.get_config()["kernel_size"] == (5, 5):
            print(i, layer)
            _depthwise.append(i)
RESULTS["depthwise_indices"] = _depthwise

idx = 26  # Taking a kernel from the middle of the network.

kernel = conv_mixer_model.layers[idx].get_weights()[0]
kernel = np.expand_dims(kernel.squeeze(), axis=2)
RESULTS["kernel"] = visualization_plot(kernel)
