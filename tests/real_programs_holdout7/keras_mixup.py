"""Title: MixUp augmentation for image classification (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0a57de48c864d63b80083820e8988368ee5c3149/examples/vision/mixup.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the FashionMNIST download (60000 + 10000 images) -> 640 training and 128 test synthetic
28x28 uint8 images and labels 0-9 from a seeded NumPy generator (normalized, reshaped and one-hot
encoded as written); val_samples 2000 -> 128; EPOCHS 10 -> 2; keras.utils.set_random_seed(0)
(the datasets' shuffles, tf.random.gamma and the initializers are unseeded) and
tf.config.experimental.enable_op_determinism() (the parallel map draws tf.random.gamma in an
order that differs between two runs, so TF's second epoch did not repeat itself otherwise); the initial weights
are saved to and loaded from "initial_weights.weights.h5" in a tempfile directory instead of
"initial_weights.h5" in the working directory (Keras 3's save_weights requires the
.weights.h5 suffix); matplotlib removed (the preview's printed labels kept); verbose=0 on
fit/evaluate; prints -> RESULTS (the preview labels, histories, test accuracies).
"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

tf.keras.utils.set_random_seed(0)
tf.config.experimental.enable_op_determinism()  # (added: see the header)
RESULTS = {}
_tmp = tempfile.mkdtemp()

_rng = np.random.default_rng(0)
(x_train, y_train), (x_test, y_test) = (
    (_rng.integers(0, 256, (640, 28, 28)).astype("uint8"), _rng.integers(0, 10, 640).astype("uint8")),
    (_rng.integers(0, 256, (128, 28, 28)).astype("uint8"), _rng.integers(0, 10, 128).astype("uint8")),
)

x_train = x_train.astype("float32") / 255.0
x_train = np.reshape(x_train, (-1, 28, 28, 1))
y_train = tf.one_hot(y_train, 10)

x_test = x_test.astype("float32") / 255.0
x_test = np.reshape(x_test, (-1, 28, 28, 1))
y_test = tf.one_hot(y_test, 10)

AUTO = tf.data.AUTOTUNE
BATCH_SIZE = 64
EPOCHS = 2

# Put aside a few samples to create our validation set
val_samples = 128
x_val, y_val = x_train[:val_samples], y_train[:val_samples]
new_x_train, new_y_train = x_train[val_samples:], y_train[val_samples:]

train_ds_one = (
    tf.data.Dataset.from_tensor_slices((new_x_train, new_y_train))
    .shuffle(BATCH_SIZE * 100)
    .batch(BATCH_SIZE)
)
train_ds_two = (
    tf.data.Dataset.from_tensor_slices((new_x_train, new_y_train))
    .shuffle(BATCH_SIZE * 100)
    .batch(BATCH_SIZE)
)
# Because we will be mixing up the images and their corresponding labels, we will be
# combining two shuffled datasets from the same training data.
train_ds = tf.data.Dataset.zip((train_ds_one, train_ds_two))

val_ds = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(BATCH_SIZE)

test_ds = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(BATCH_SIZE)


def sample_beta_distribution(size, concentration_0=0.2, concentration_1=0.2):
    gamma_1_sample = tf.random.gamma(shape=[size], alpha=concentration_1)
    gamma_2_sample = tf.random.gamma(shape=[size], alpha=concentration_0)
    return gamma_1_sample / (gamma_1_sample + gamma_2_sample)


def mix_up(ds_one, ds_two, alpha=0.2):
    # Unpack two datasets
    images_one, labels_one = ds_one
    images_two, labels_two = ds_two
    batch_size = tf.shape(images_one)[0]

    # Sample lambda and reshape it to do the mixup
    l = sample_beta_distribution(batch_size, alpha, alpha)
    x_l = tf.reshape(l, (batch_size, 1, 1, 1))
    y_l = tf.reshape(l, (batch_size, 1))

    # Perform mixup on both images and labels by combining a pair of images/labels
    # (one from each dataset) into one image/label
    images = images_one * x_l + images_two * (1 - x_l)
    labels = labels_one * y_l + labels_two * (1 - y_l)
    return (images, labels)


# First create the new dataset using our `mix_up` utility
train_ds_mu = train_ds.map(
    lambda ds_one, ds_two: mix_up(ds_one, ds_two, alpha=0.2), num_parallel_calls=AUTO
)

# Let's preview 9 samples from the dataset
sample_images, sample_labels = next(iter(train_ds_mu))
_preview = []
for i, (image, label) in enumerate(zip(sample_images[:9], sample_labels[:9])):
    print(label.numpy().tolist())
    _preview.append(label.numpy().tolist())
RESULTS["preview_labels"] = _preview
RESULTS["preview_images_sum"] = tf.reduce_sum(sample_images[:9], axis=[1, 2, 3])


def get_training_model():
    model = tf.keras.Sequential(
        [
            layers.Conv2D(16, (5, 5), activation="relu", input_shape=(28, 28, 1)),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Conv2D(32, (5, 5), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Dropout(0.2),
            layers.GlobalAvgPool2D(),
            layers.Dense(128, activation="relu"),
            layers.Dense(10, activation="softmax"),
        ]
    )
    return model


initial_model = get_training_model()
initial_model.save_weights(os.path.join(_tmp, "initial_weights.weights.h5"))

model = get_training_model()
model.load_weights(os.path.join(_tmp, "initial_weights.weights.h5"))
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
h = model.fit(train_ds_mu, validation_data=val_ds, epochs=EPOCHS, verbose=0)
_, test_acc = model.evaluate(test_ds, verbose=0)
print("Test accuracy: {:.2f}%".format(test_acc * 100))
RESULTS["mixup_history"] = [h.history[k] for k in sorted(h.history)]
RESULTS["mixup_test_acc"] = test_acc

model = get_training_model()
model.load_weights(os.path.join(_tmp, "initial_weights.weights.h5"))
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
# Notice that we are NOT using the mixed up dataset here
h = model.fit(train_ds_one, validation_data=val_ds, epochs=EPOCHS, verbose=0)
_, test_acc = model.evaluate(test_ds, verbose=0)
print("Test accuracy: {:.2f}%".format(test_acc * 100))
RESULTS["plain_history"] = [h.history[k] for k in sorted(h.history)]
RESULTS["plain_test_acc"] = test_acc
