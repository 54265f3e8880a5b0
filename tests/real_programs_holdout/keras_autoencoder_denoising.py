"""Title: Convolutional Autoencoder For Image Denoising (Keras example)
Source: https://github.com/keras-team/keras-io/blob/28033e1c219da0430c695fdcbee81552b8c5f594/examples/vision/autoencoder.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: MNIST (60000/10000 uint8 28x28 images) -> 128/32 synthetic uint8 images from a seeded NumPy
generator; np.random.seed(0) added (the noise and display's indices are unseeded); epochs 50/100 ->
2/2; verbose=0; keras.utils.set_random_seed(0) (fit's shuffling); the autoencoder's kernels fixed
(fix_weights); display() keeps its index draw but draws no figure (no matplotlib) and returns the
images it would show; summary() -> the parameter count; histories and predictions in RESULTS.
"""
import numpy as np
import tensorflow as tf

from tensorflow.keras.models import Model
from tensorflow.keras.layers import Conv2D, MaxPooling2D, Input, UpSampling2D
from _corpus import fix_weights

np.random.seed(0)
tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)


def preprocess(dataset):
    """
    Normalizes the supplied dataset and reshapes it into the appropriate format.
    """

    dataset = dataset.astype("float32") / 255.0
    dataset = np.reshape(dataset, (len(dataset), 28, 28, 1))
    return dataset


def noise(dataset):
    """
    Adds random noise to each image in the supplied dataset.
    """

    noise_factor = 0.4
    noisy_dataset = dataset + noise_factor * np.random.normal(
        loc=0.0, scale=1.0, size=dataset.shape
    )

    return np.clip(noisy_dataset, 0.0, 1.0)


def display(dataset1, dataset2):
    """
    Displays ten random images from each one of the supplied datasets.
    """

    n = 10

    indices = np.random.randint(len(dataset1), size=n)
    images1 = dataset1[indices, :]
    images2 = dataset2[indices, :]
    return images1, images2


train_dataset = _rng.integers(0, 256, (128, 28, 28)).astype(np.uint8)
test_dataset = _rng.integers(0, 256, (32, 28, 28)).astype(np.uint8)

# Normalize and reshape the data
train_dataset = preprocess(train_dataset)
test_dataset = preprocess(test_dataset)

# Create a copy of the datasets with added noise
noisy_train_dataset = noise(train_dataset)
noisy_test_dataset = noise(test_dataset)

# Display the train dataset and the version with added noise
display(train_dataset, noisy_train_dataset)

input = Input(shape=(28, 28, 1))

# Encoder
x = Conv2D(32, (3, 3), activation="relu", padding="same")(input)
x = MaxPooling2D((2, 2), padding="same")(x)
x = Conv2D(32, (3, 3), activation="relu", padding="same")(x)
x = MaxPooling2D((2, 2), padding="same")(x)

# Decoder
x = Conv2D(32, (3, 3), activation="relu", padding="same")(x)
x = UpSampling2D((2, 2))(x)
x = Conv2D(32, (3, 3), activation="relu", padding="same")(x)
x = UpSampling2D((2, 2))(x)
x = Conv2D(1, (3, 3), activation="sigmoid", padding="same")(x)

# Autoencoder
autoencoder = Model(input, x)
fix_weights(autoencoder)
autoencoder.compile(optimizer="adam", loss="binary_crossentropy")
RESULTS["params"] = autoencoder.count_params()

h = autoencoder.fit(
    x=train_dataset,
    y=train_dataset,
    epochs=2,
    batch_size=128,
    shuffle=True,
    validation_data=(test_dataset, test_dataset), verbose=0,
)
RESULTS["fit1"] = [h.history["loss"], h.history["val_loss"]]

predictions = autoencoder.predict(test_dataset, verbose=0)
shown = display(test_dataset, predictions)
RESULTS["shown_1"] = shown[1][:2, 10:14, 10:14, 0]

h = autoencoder.fit(
    x=noisy_train_dataset,
    y=train_dataset,
    epochs=2,
    batch_size=128,
    shuffle=True,
    validation_data=(noisy_test_dataset, test_dataset), verbose=0,
)
RESULTS["fit2"] = [h.history["loss"], h.history["val_loss"]]

predictions = autoencoder.predict(noisy_test_dataset, verbose=0)
shown = display(noisy_test_dataset, predictions)
RESULTS["shown_2"] = shown[1][:2, 10:14, 10:14, 0]
RESULTS["predictions_mean"] = predictions.mean(axis=(1, 2, 3))
