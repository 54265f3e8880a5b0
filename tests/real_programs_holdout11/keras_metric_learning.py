"""Title: Metric learning for image similarity search (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/2588a15440a10de8d0cc10b50c21ede333a2bd01/examples/keras_io/tensorflow/vision/metric_learning.py
Licence: Apache-2.0 (keras-team/keras)
Changed: keras.datasets.cifar10.load_data() (a download; uint8 32x32x3 images, uint8 labels of
shape (n, 1)) -> synthetic arrays of the same shapes and dtypes from a seeded NumPy generator,
500 training (50 per class) and 200 test images; the 5x5 random collage's randint(0, 50000) ->
randint(0, 500) to match; num_batches 1000 -> 20 and epochs 20 -> 2; fit/predict verbose=0;
the PIL collages (show_collage), the loss plot and sklearn's ConfusionMatrixDisplay removed
(matplotlib, PIL and sklearn only draw): the collage arrays and the hand-computed confusion
matrix are kept; keras.utils.set_random_seed(0) at the top (random.choice, np.random and the
initializers are unseeded). One change so that it runs under Keras 3.15 at all:
AnchorPositivePairs stores its batch count as self._num_batches instead of self.num_batches
(keras.utils.Sequence is PyDataset, whose read-only `num_batches` property refuses the
assignment). The sampled pairs, the loss history, the embeddings, the nearest
neighbours and the confusion matrix -> RESULTS.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import random
import numpy as np
import tensorflow as tf
from collections import defaultdict
import keras
from keras import layers

keras.utils.set_random_seed(0)
RESULTS = {}


class cifar10:  # (synthetic stand-in for keras.datasets.cifar10: same dtypes and shapes)
    @staticmethod
    def load_data():
        rng = np.random.default_rng(0)
        y_tr = np.repeat(np.arange(10, dtype="uint8"), 50).reshape(-1, 1)
        y_te = np.repeat(np.arange(10, dtype="uint8"), 20).reshape(-1, 1)
        base = rng.integers(0, 256, (10, 32, 32, 3))

        def images(y):
            noise = rng.integers(-60, 61, (len(y), 32, 32, 3))
            return np.clip(base[y[:, 0]] + noise, 0, 255).astype("uint8")

        return (images(y_tr), y_tr), (images(y_te), y_te)


(x_train, y_train), (x_test, y_test) = cifar10.load_data()
x_train = x_train.astype("float32") / 255.0
y_train = np.squeeze(y_train)
x_test = x_test.astype("float32") / 255.0
y_test = np.squeeze(y_test)
height_width = 32

# Show a collage of 5x5 random images.
sample_idxs = np.random.randint(0, 500, size=(5, 5))
examples = x_train[sample_idxs]
RESULTS["sample_idxs"] = sample_idxs
class_idx_to_train_idxs = defaultdict(list)
for y_train_idx, y in enumerate(y_train):
    class_idx_to_train_idxs[y].append(y_train_idx)
class_idx_to_test_idxs = defaultdict(list)
for y_test_idx, y in enumerate(y_test):
    class_idx_to_test_idxs[y].append(y_test_idx)
num_classes = 10


class AnchorPositivePairs(keras.utils.Sequence):
    def __init__(self, num_batches):
        super().__init__()
        self._num_batches = num_batches

    def __len__(self):
        return self._num_batches

    def __getitem__(self, _idx):
        x = np.empty((2, num_classes, height_width, height_width, 3), dtype=np.float32)
        for class_idx in range(num_classes):
            examples_for_class = class_idx_to_train_idxs[class_idx]
            anchor_idx = random.choice(examples_for_class)
            positive_idx = random.choice(examples_for_class)
            while positive_idx == anchor_idx:
                positive_idx = random.choice(examples_for_class)
            x[0, class_idx] = x_train[anchor_idx]
            x[1, class_idx] = x_train[positive_idx]
        return x


examples = next(iter(AnchorPositivePairs(num_batches=1)))
RESULTS["pair_examples_shape"] = np.array(examples.shape)
RESULTS["pair_examples_means"] = examples.mean(axis=(2, 3, 4))


class EmbeddingModel(keras.Model):
    def train_step(self, data):
        # Note: Workaround for open issue, to be removed.
        if isinstance(data, tuple):
            data = data[0]
        anchors, positives = data[0], data[1]

        with tf.GradientTape() as tape:
            # Run both anchors and positives through model.
            anchor_embeddings = self(anchors, training=True)
            positive_embeddings = self(positives, training=True)

            # Calculate cosine similarity between anchors and positives. As they have
            # been normalised this is just the pair wise dot products.
            similarities = keras.ops.einsum(
                "ae,pe->ap", anchor_embeddings, positive_embeddings
            )

            # Since we intend to use these as logits we scale them by a temperature.
            # This value would normally be chosen as a hyper parameter.
            temperature = 0.2
            similarities /= temperature

            # We use these similarities as logits for a softmax. The labels for
            # this call are just the sequence [0, 1, 2, ..., num_classes] since we
            # want the main diagonal values, which correspond to the anchor/positive
            # pairs, to be high. This loss will move embeddings for the
            # anchor/positive pairs together and move all other pairs apart.
            sparse_labels = keras.ops.arange(num_classes)
            loss = self.compiled_loss(sparse_labels, similarities)

        # Calculate gradients and apply via optimizer.
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))

        # Update and return metrics (specifically the one for the loss value).
        self.compiled_metrics.update_state(sparse_labels, similarities)
        return {m.name: m.result() for m in self.metrics}


inputs = layers.Input(shape=(height_width, height_width, 3))
x = layers.Conv2D(filters=32, kernel_size=3, strides=2, activation="relu")(inputs)
x = layers.Conv2D(filters=64, kernel_size=3, strides=2, activation="relu")(x)
x = layers.Conv2D(filters=128, kernel_size=3, strides=2, activation="relu")(x)
x = layers.GlobalAveragePooling2D()(x)
embeddings = layers.Dense(units=8, activation=None)(x)
embeddings = layers.UnitNormalization()(embeddings)

model = EmbeddingModel(inputs, embeddings)
model.compile(
    optimizer=keras.optimizers.Adam(learning_rate=1e-3),
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
)

history = model.fit(AnchorPositivePairs(num_batches=20), epochs=2, verbose=0)
RESULTS["history"] = np.array([history.history[k] for k in sorted(history.history)])
RESULTS["history_keys"] = np.array(sorted(history.history))
near_neighbours_per_example = 10

embeddings = model.predict(x_test, verbose=0)
gram_matrix = np.einsum("ae,be->ab", embeddings, embeddings)
near_neighbours = np.argsort(gram_matrix.T)[:, -(near_neighbours_per_example + 1) :]
RESULTS["embeddings"] = embeddings
RESULTS["embedding_norms"] = np.linalg.norm(embeddings, axis=1)
RESULTS["gram_diag_mean"] = float(np.mean(np.diag(gram_matrix)))
num_collage_examples = 5

examples = np.empty(
    (
        num_collage_examples,
        near_neighbours_per_example + 1,
        height_width,
        height_width,
        3,
    ),
    dtype=np.float32,
)
for row_idx in range(num_collage_examples):
    examples[row_idx, 0] = x_test[row_idx]
    anchor_near_neighbours = reversed(near_neighbours[row_idx][:-1])
    for col_idx, nn_idx in enumerate(anchor_near_neighbours):
        examples[row_idx, col_idx + 1] = x_test[nn_idx]
RESULTS["collage_means"] = examples.mean(axis=(2, 3, 4))
confusion_matrix = np.zeros((num_classes, num_classes))

# For each class.
for class_idx in range(num_classes):
    # Consider 10 examples.
    example_idxs = class_idx_to_test_idxs[class_idx][:10]
    for y_test_idx in example_idxs:
        # And count the classes of its near neighbours.
        for nn_idx in near_neighbours[y_test_idx][:-1]:
            nn_class_idx = y_test[nn_idx]
            confusion_matrix[class_idx, nn_class_idx] += 1
RESULTS["confusion_matrix"] = confusion_matrix
# Display a confusion matrix.
labels = [
    "Airplane",
    "Automobile",
    "Bird",
    "Cat",
    "Deer",
    "Dog",
    "Frog",
    "Horse",
    "Ship",
    "Truck",
]
