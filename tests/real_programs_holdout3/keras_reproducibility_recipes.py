"""Title: Reproducibility in Keras Models (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0130fa2d64ef56df69cb2ada9c8c06c9478d21eb/examples/keras_recipes/reproducibility_recipes.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.mnist.load_data() (downloaded; 60000/10000 28x28 uint8 images) -> 256/64
synthetic uint8 images and labels from a seeded NumPy generator; run in a temporary working
directory (history.json); verbose=0 (fit, evaluate); prints -> RESULTS (each initializer's two
results, the equality checks, the history, the test accuracy, the keys found unequal). The
example seeds everything itself (keras.utils.set_random_seed(812)), so its weights are not fixed:
its initializers' draws are what it shows. float(initializer(seed=42)(shape=(1, 1))) ->
float(...[0, 0]) (TensorFlow 2.21 with NumPy 2 itself refuses float() of a (1, 1) tensor).
"""
import json
import os
import tempfile
import numpy as np
import tensorflow as tf
import keras
from keras import layers
from keras import initializers

RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)

# Set the seed using keras.utils.set_random_seed. This will set:
# 1) `numpy` seed
# 2) backend random seed
# 3) `python` random seed
keras.utils.set_random_seed(812)

# If using TensorFlow, this will make GPU ops as deterministic as possible,
# but it will affect the overall performance, so be mindful of that.
tf.config.experimental.enable_op_determinism()

initializers_list = [
    initializers.RandomNormal,
    initializers.RandomUniform,
    initializers.TruncatedNormal,
    initializers.VarianceScaling,
    initializers.GlorotNormal,
    initializers.GlorotUniform,
    initializers.HeNormal,
    initializers.HeUniform,
    initializers.LecunNormal,
    initializers.LecunUniform,
    initializers.Orthogonal,
]

RESULTS["initializers"] = []
for initializer in initializers_list:
    for iteration in range(2):
        # In order to get same results across multiple runs from an initializer,
        # you can specify a seed value.
        result = float(initializer(seed=42)(shape=(1, 1))[0, 0])
        RESULTS["initializers"].append(np.float32(result))  # (float32 draws: judged at float32 precision)

# Setting the seed value for an initializer will cause two different objects
# to produce same results.
glorot_normal_1 = keras.initializers.GlorotNormal(seed=42)
glorot_normal_2 = keras.initializers.GlorotNormal(seed=42)

input_dim, neurons = 3, 5

# Call two different objects with same shape
result_1 = glorot_normal_1(shape=(input_dim, neurons))
result_2 = glorot_normal_2(shape=(input_dim, neurons))

# Check if the results are equal.
equal = np.allclose(result_1, result_2)
RESULTS["seeded_equal"] = equal
RESULTS["result_1"] = result_1

glorot_normal_3 = keras.initializers.GlorotNormal()
glorot_normal_4 = keras.initializers.GlorotNormal()

# Let's call the initializer.
result_3 = glorot_normal_3(shape=(input_dim, neurons))

# Call the second initializer.
result_4 = glorot_normal_4(shape=(input_dim, neurons))

equal = np.allclose(result_3, result_4)
RESULTS["unseeded_equal"] = equal
RESULTS["result_3"] = result_3
RESULTS["result_4"] = result_4


def train_model(train_data: tf.data.Dataset, test_data: tf.data.Dataset) -> dict:
    model = keras.Sequential(
        [
            layers.Conv2D(32, (3, 3), activation="relu"),
            layers.MaxPooling2D((2, 2)),
            layers.Dropout(0.2),
            layers.Conv2D(32, (3, 3), activation="relu"),
            layers.MaxPooling2D((2, 2)),
            layers.Dropout(0.2),
            layers.Conv2D(32, (3, 3), activation="relu"),
            layers.GlobalAveragePooling2D(),
            layers.Dense(64, activation="relu"),
            layers.Dropout(0.2),
            layers.Dense(10, activation="softmax"),
        ]
    )

    model.compile(
        optimizer="adam",
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
        jit_compile=False,
    )
    # jit_compile's default value is "auto" which will cause some problems in some
    # ops, therefore it's set to False.

    # model.fit has a `shuffle` parameter which has a default value of `True`.
    # If you are using array-like objects, this will shuffle the data before
    # training. This argument is ignored when `x` is a generator or
    # `tf.data.Dataset`.
    history = model.fit(train_data, epochs=2, validation_data=test_data, verbose=0)

    RESULTS["test_accuracy"] = model.evaluate(test_data, verbose=0)[1] * 100

    return history.history


# Load the MNIST dataset
(train_images, train_labels), (
    test_images,
    test_labels,
) = (
    (_rng.integers(0, 256, (256, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 256).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)),
)

# Construct tf.data.Dataset objects
train_ds = tf.data.Dataset.from_tensor_slices((train_images, train_labels))
test_ds = tf.data.Dataset.from_tensor_slices((test_images, test_labels))


def prepare_dataset(image, label):
    # Cast and normalize the image
    image = tf.cast(image, tf.float32) / 255.0

    # Expand the channel dimension
    image = tf.expand_dims(image, axis=-1)

    # Resize the image
    image = tf.image.resize(image, (32, 32))

    return image, label


# Prepare the datasets, batch-map --> vectorized operations
train_data = (
    train_ds.shuffle(buffer_size=len(train_images))
    .batch(batch_size=64)
    .map(prepare_dataset, num_parallel_calls=tf.data.AUTOTUNE)
    .prefetch(buffer_size=tf.data.AUTOTUNE)
)

test_data = (
    test_ds.batch(batch_size=64)
    .map(prepare_dataset, num_parallel_calls=tf.data.AUTOTUNE)
    .prefetch(buffer_size=tf.data.AUTOTUNE)
)

history = train_model(train_data, test_data)
RESULTS["history"] = [history[k] for k in sorted(history)]

# Save the history object into a json file
with open("history.json", "w") as fp:
    json.dump(history, fp)

with open("history.json", "r") as fp:
    history_loaded = json.load(fp)

RESULTS["not_equal"] = []
for key in history.keys():
    for i in range(len(history[key])):
        if not np.allclose(history[key][i], history_loaded[key][i]):
            RESULTS["not_equal"].append(len(key))
RESULTS["not_equal"] = len(RESULTS["not_equal"])
