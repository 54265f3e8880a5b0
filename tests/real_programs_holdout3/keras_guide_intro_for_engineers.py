"""Title: Introduction to Keras for engineers (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/1806537c4333fbff1f9fd038b78179beeda480fb/guides/intro_to_keras_for_engineers.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: KERAS_BACKEND "jax" -> "tensorflow" (the guide says any backend runs it the same);
keras.datasets.mnist.load_data() (downloaded; 60000/10000 28x28 uint8 images) -> 192/64
synthetic images and labels from a seeded NumPy generator; batch_size 128 -> 64; epochs 20 -> 3;
run in a temporary directory (the checkpoints and final_model.keras are written in the working
directory); keras.utils.set_random_seed(0) (initializers, dropout and the validation split's
model are unseeded); the models' kernels fixed (fix_weights, after building each subclassed model
on a batch); verbose=0 (fit, predict); the PyTorch DataLoader section dropped (torch is not a
dependency here); summary() and prints -> RESULTS (shapes, histories, scores, predictions).
"""
import numpy as np
import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"

# Note that Keras should only be imported after the backend
# has been configured. The backend cannot be changed once the
# package is imported.
import keras
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)

# Load the data and split it between train and test sets
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (192, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 192).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)),
)

# Scale images to the [0, 1] range
x_train = x_train.astype("float32") / 255
x_test = x_test.astype("float32") / 255
# Make sure images have shape (28, 28, 1)
x_train = np.expand_dims(x_train, -1)
x_test = np.expand_dims(x_test, -1)
RESULTS["x_train_shape"] = list(x_train.shape)
RESULTS["y_train_shape"] = list(y_train.shape)

# Model parameters
num_classes = 10
input_shape = (28, 28, 1)

model = keras.Sequential(
    [
        keras.layers.Input(shape=input_shape),
        keras.layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        keras.layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        keras.layers.MaxPooling2D(pool_size=(2, 2)),
        keras.layers.Conv2D(128, kernel_size=(3, 3), activation="relu"),
        keras.layers.Conv2D(128, kernel_size=(3, 3), activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(num_classes, activation="softmax"),
    ]
)
fix_weights(model)

RESULTS["count_params"] = model.count_params()

model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(),
    optimizer=keras.optimizers.Adam(learning_rate=1e-3),
    metrics=[
        keras.metrics.SparseCategoricalAccuracy(name="acc"),
    ],
)

batch_size = 64
epochs = 3

callbacks = [
    keras.callbacks.ModelCheckpoint(filepath="model_at_epoch_{epoch}.keras"),
    keras.callbacks.EarlyStopping(monitor="val_loss", patience=2),
]

history = model.fit(
    x_train,
    y_train,
    batch_size=batch_size,
    epochs=epochs,
    validation_split=0.15,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
score = model.evaluate(x_test, y_test, verbose=0)
RESULTS["score"] = score
RESULTS["checkpoints"] = sorted(int(f.split("_")[-1].split(".")[0]) for f in os.listdir(".")
                                if f.startswith("model_at_epoch_"))

model.save("final_model.keras")

model = keras.saving.load_model("final_model.keras")

predictions = model.predict(x_test, verbose=0)
RESULTS["predictions"] = predictions


class MyDense(keras.layers.Layer):
    def __init__(self, units, activation=None, name=None):
        super().__init__(name=name)
        self.units = units
        self.activation = keras.activations.get(activation)

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self.w = self.add_weight(
            shape=(input_dim, self.units),
            initializer=keras.initializers.GlorotNormal(),
            name="kernel",
            trainable=True,
        )

        self.b = self.add_weight(
            shape=(self.units,),
            initializer=keras.initializers.Zeros(),
            name="bias",
            trainable=True,
        )

    def call(self, inputs):
        # Use Keras ops to create backend-agnostic layers/metrics/etc.
        x = keras.ops.matmul(inputs, self.w) + self.b
        return self.activation(x)


class MyDropout(keras.layers.Layer):
    def __init__(self, rate, name=None):
        super().__init__(name=name)
        self.rate = rate
        # Use seed_generator for managing RNG state.
        # It is a state element and its seed variable is
        # tracked as part of `layer.variables`.
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        # Use `keras.random` for random ops.
        return keras.random.dropout(inputs, self.rate, seed=self.seed_generator)


class MyModel(keras.Model):
    def __init__(self, num_classes):
        super().__init__()
        self.conv_base = keras.Sequential(
            [
                keras.layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
                keras.layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
                keras.layers.MaxPooling2D(pool_size=(2, 2)),
                keras.layers.Conv2D(128, kernel_size=(3, 3), activation="relu"),
                keras.layers.Conv2D(128, kernel_size=(3, 3), activation="relu"),
                keras.layers.GlobalAveragePooling2D(),
            ]
        )
        self.dp = MyDropout(0.5)
        self.dense = MyDense(num_classes, activation="softmax")

    def call(self, x):
        x = self.conv_base(x)
        x = self.dp(x)
        return self.dense(x)


model = MyModel(num_classes=10)
model(x_train[:1])
fix_weights(model)
model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(),
    optimizer=keras.optimizers.Adam(learning_rate=1e-3),
    metrics=[
        keras.metrics.SparseCategoricalAccuracy(name="acc"),
    ],
)

history = model.fit(
    x_train,
    y_train,
    batch_size=batch_size,
    epochs=1,  # For speed
    validation_split=0.15,
    verbose=0,
)
RESULTS["subclassed_history"] = [history.history[k] for k in sorted(history.history)]

import tensorflow as tf

train_dataset = (
    tf.data.Dataset.from_tensor_slices((x_train, y_train))
    .batch(batch_size)
    .prefetch(tf.data.AUTOTUNE)
)
test_dataset = (
    tf.data.Dataset.from_tensor_slices((x_test, y_test))
    .batch(batch_size)
    .prefetch(tf.data.AUTOTUNE)
)

model = MyModel(num_classes=10)
model(x_train[:1])
fix_weights(model)
model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(),
    optimizer=keras.optimizers.Adam(learning_rate=1e-3),
    metrics=[
        keras.metrics.SparseCategoricalAccuracy(name="acc"),
    ],
)
history = model.fit(train_dataset, epochs=1, validation_data=test_dataset, verbose=0)
RESULTS["tf_data_history"] = [history.history[k] for k in sorted(history.history)]
