"""Title: Simple MNIST convnet (Keras example)
Source: https://github.com/keras-team/keras-io/blob/02cfe8063b505adc073986c91729f22039f77ad0/examples/vision/mnist_convnet.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: MNIST (60000/10000 uint8 28x28 images) -> 256/64 synthetic uint8 images and labels from a
seeded NumPy generator; epochs 15 -> 2; verbose=0; keras.utils.set_random_seed(0) (validation
split is not shuffled; fit's shuffling and Dropout are seeded by it); the model's kernels fixed
(fix_weights); prints and summary() -> RESULTS (the parameter count, the history, the score).
"""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)

# Model / data parameters
num_classes = 10
input_shape = (28, 28, 1)

# Load the data and split it between train and test sets
x_train = _rng.integers(0, 256, (256, 28, 28)).astype(np.uint8)
y_train = _rng.integers(0, 10, 256).astype(np.uint8)
x_test = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
y_test = _rng.integers(0, 10, 64).astype(np.uint8)

# Scale images to the [0, 1] range
x_train = x_train.astype("float32") / 255
x_test = x_test.astype("float32") / 255
# Make sure images have shape (28, 28, 1)
x_train = np.expand_dims(x_train, -1)
x_test = np.expand_dims(x_test, -1)
RESULTS["x_train_shape"] = x_train.shape

# convert class vectors to binary class matrices
y_train = keras.utils.to_categorical(y_train, num_classes)
y_test = keras.utils.to_categorical(y_test, num_classes)
RESULTS["y_test"] = y_test[:5]

model = keras.Sequential(
    [
        keras.Input(shape=input_shape),
        layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dropout(0.5),
        layers.Dense(num_classes, activation="softmax"),
    ]
)
fix_weights(model)
RESULTS["params"] = model.count_params()

batch_size = 128
epochs = 2

model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])

history = model.fit(x_train, y_train, batch_size=batch_size, epochs=epochs, validation_split=0.1,
                    verbose=0)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]

score = model.evaluate(x_test, y_test, verbose=0)
RESULTS["score"] = score
