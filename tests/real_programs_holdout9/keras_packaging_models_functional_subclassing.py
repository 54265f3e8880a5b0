"""Title: Packaging Keras models for wide distribution using Functional Subclassing (Keras example)
Source: https://github.com/keras-team/keras-io/blob/078873d23f34c15d795565b5eb113882b8d689ae/examples/keras_recipes/packaging_keras_models_for_wide_distribution.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: tf.keras.datasets.mnist.load_data() (a download; 60000/10000 uint8 28x28 images, uint8
labels) -> 512/128 synthetic ones of the same dtypes from a seeded NumPy generator (so
STEPS_PER_EPOCH, derived by the program, is 2); EPOCHS 5 -> 1; fit verbose=0;
keras.utils.set_random_seed(0) (the shuffle, dropout and initializers are unseeded); the three
histories, the first model's predictions on two 40x36 images (the point of its unconstrained
input shape), the walked layer types and the surgered model's layer and parameter counts ->
RESULTS.
"""

import keras
import numpy as np

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)

print("Keras version", keras.version())
print("Keras is running on", keras.config.backend())

import tensorflow as tf  # only for tf.data

# tf.data is a great API for putting together a data stream.
# It works wether you use the TensorFlow, PyTorch or Jax backend,
# as long as you use it in the data stream only and not inside of a model.

BATCH_SIZE = 256

(x_train, train_labels), (x_test, test_labels) = (
    (_rng.integers(0, 256, (512, 28, 28)).astype(np.uint8),
     _rng.integers(0, 10, 512).astype(np.uint8)),
    (_rng.integers(0, 256, (128, 28, 28)).astype(np.uint8),
     _rng.integers(0, 10, 128).astype(np.uint8)),
)

train_data = tf.data.Dataset.from_tensor_slices((x_train, train_labels))
train_data = train_data.map(
    lambda x, y: (tf.expand_dims(x, axis=-1), y)
)  # 1-channel monochrome
train_data = train_data.batch(BATCH_SIZE)
train_data = train_data.cache()
train_data = train_data.shuffle(5000, reshuffle_each_iteration=True)
train_data = train_data.repeat()

test_data = tf.data.Dataset.from_tensor_slices((x_test, test_labels))
test_data = test_data.map(
    lambda x, y: (tf.expand_dims(x, axis=-1), y)
)  # 1-channel monochrome
test_data = test_data.batch(10000)
test_data = test_data.cache()

STEPS_PER_EPOCH = len(train_labels) // BATCH_SIZE
EPOCHS = 1


class MnistModel(keras.Model):
    def __init__(self, **kwargs):
        # Keras Functional model definition. This could have used Sequential as
        # well. Sequential is just syntactic sugar for simple functional models.

        # 1-channel monochrome input
        inputs = keras.layers.Input(shape=(None, None, 1), dtype="uint8")
        # pixel format conversion from uint8 to float32
        y = keras.layers.Rescaling(1 / 255.0)(inputs)

        # 3 convolutional layers
        y = keras.layers.Conv2D(
            filters=16, kernel_size=3, padding="same", activation="relu"
        )(y)
        y = keras.layers.Conv2D(
            filters=32, kernel_size=6, padding="same", activation="relu", strides=2
        )(y)
        y = keras.layers.Conv2D(
            filters=48, kernel_size=6, padding="same", activation="relu", strides=2
        )(y)

        # 2 dense layers
        y = keras.layers.GlobalAveragePooling2D()(y)
        y = keras.layers.Dense(48, activation="relu")(y)
        y = keras.layers.Dropout(0.4)(y)
        outputs = keras.layers.Dense(
            10, activation="softmax", name="classification_head"  # 10 classes
        )(y)

        # A Keras Functional model is created by calling keras.Model(inputs, outputs)
        super().__init__(inputs=inputs, outputs=outputs, **kwargs)


model = MnistModel()

model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["sparse_categorical_accuracy"],
)

history = model.fit(
    train_data,
    steps_per_epoch=STEPS_PER_EPOCH,
    epochs=EPOCHS,
    validation_data=test_data,
    verbose=0,
)
RESULTS["history"] = [history.history[k] for k in ("loss", "sparse_categorical_accuracy", "val_loss", "val_sparse_categorical_accuracy")]
RESULTS["predictions_40x36"] = model.predict(_rng.integers(0, 256, (2, 40, 36, 1)).astype(np.uint8), verbose=0)

model = MnistModel()

# Model summary works
model.summary()

_walked = []


# Recursively walking the layer graph works as well
def walk_layers(layer):
    if hasattr(layer, "layers"):
        for layer in layer.layers:
            walk_layers(layer)
    else:
        print(layer.name)
        _walked.append(type(layer).__name__)


print("\nWalking model layers:\n")
walk_layers(model)
RESULTS["walked_layer_types"] = _walked

model = MnistModel()

input = model.input
# cut before the classification head
y = model.get_layer("classification_head").input

# add a new classification head
output = keras.layers.Dense(
    1,  # single class for binary classification
    activation="sigmoid",
    name="binary_classification_head",
)(y)

# create a new functional model
binary_model = keras.Model(input, output)

binary_model.summary()
RESULTS["binary_model_layer_count"] = len(binary_model.layers)
RESULTS["binary_model_params"] = binary_model.count_params()

# new dataset with 0 / 1 labels (1 = digit '0', 0 = all other digits)
bin_train_data = train_data.map(
    lambda x, y: (x, tf.cast(tf.math.equal(y, tf.zeros_like(y)), dtype=tf.uint8))
)
bin_test_data = test_data.map(
    lambda x, y: (x, tf.cast(tf.math.equal(y, tf.zeros_like(y)), dtype=tf.uint8))
)

# appropriate loss and metric for binary classification
binary_model.compile(
    optimizer="adam", loss="binary_crossentropy", metrics=["binary_accuracy"]
)

history = binary_model.fit(
    bin_train_data,
    steps_per_epoch=STEPS_PER_EPOCH,
    epochs=EPOCHS,
    validation_data=bin_test_data,
    verbose=0,
)
RESULTS["binary_history"] = [history.history[k] for k in ("loss", "binary_accuracy", "val_loss", "val_binary_accuracy")]


class MnistDictModel(keras.Model):
    def __init__(self, **kwargs):
        #
        # The input is a dictionary
        #
        inputs = {
            "image": keras.layers.Input(
                shape=(None, None, 1),  # 1-channel monochrome
                dtype="uint8",
                name="image",
            )
        }

        # pixel format conversion from uint8 to float32
        y = keras.layers.Rescaling(1 / 255.0)(inputs["image"])

        # 3 conv layers
        y = keras.layers.Conv2D(
            filters=16, kernel_size=3, padding="same", activation="relu"
        )(y)
        y = keras.layers.Conv2D(
            filters=32, kernel_size=6, padding="same", activation="relu", strides=2
        )(y)
        y = keras.layers.Conv2D(
            filters=48, kernel_size=6, padding="same", activation="relu", strides=2
        )(y)

        # 2 dense layers
        y = keras.layers.GlobalAveragePooling2D()(y)
        y = keras.layers.Dense(48, activation="relu")(y)
        y = keras.layers.Dropout(0.4)(y)
        outputs = keras.layers.Dense(
            10, activation="softmax", name="classification_head"  # 10 classes
        )(y)

        # A Keras Functional model is created by calling keras.Model(inputs, outputs)
        super().__init__(inputs=inputs, outputs=outputs, **kwargs)


model = MnistDictModel()

# reformat the dataset as a dictionary
dict_train_data = train_data.map(lambda x, y: ({"image": x}, y))
dict_test_data = test_data.map(lambda x, y: ({"image": x}, y))

model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["sparse_categorical_accuracy"],
)

history = model.fit(
    dict_train_data,
    steps_per_epoch=STEPS_PER_EPOCH,
    epochs=EPOCHS,
    validation_data=dict_test_data,
    verbose=0,
)
RESULTS["dict_history"] = [history.history[k] for k in ("loss", "sparse_categorical_accuracy", "val_loss", "val_sparse_categorical_accuracy")]
