"""Title: Deep Learning with Python, 3rd ed., chapter 2: The mathematical building blocks of neural networks
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter02_mathematical-building-blocks.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's cells in order with KERAS_BACKEND="tensorflow" (the notebook sets "jax"
and runs its from-scratch training loop in "%%backend tensorflow" cells, kept here); the pip
cell and the magic's registration removed. keras.datasets.mnist.load_data() (a download; uint8
28x28 images, uint8 labels; called three times) -> a function returning synthetic uint8 arrays
of the same shapes and dtypes from a seeded NumPy generator, 600 training and 100 test images
(the reshapes' 60000 / 10000 follow); epochs 5 -> 2 and 10 -> 2; verbose=0 on fit / evaluate /
predict; the matplotlib imshow removed; the two timing cells keep their loops but run 1000 -> 10
iterations and print no times; the cells' displayed values -> RESULTS, together with the
batches' loss prints of the from-scratch loop (every 100th batch -> every batch).
keras.utils.set_random_seed(0) at the top (np.random, the initializers and the fit shuffle are
unseeded). The GradientTape cell's gradient of an unwatched constant is None, as published:
recorded as a bool.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"
import numpy as np
import keras

keras.utils.set_random_seed(0)
RESULTS = {}


class mnist:  # (synthetic stand-in for keras.datasets.mnist: same dtypes and image shape)
    @staticmethod
    def load_data():
        rng = np.random.default_rng(0)
        return ((rng.integers(0, 256, (600, 28, 28)).astype("uint8"),
                 rng.integers(0, 10, (600,)).astype("uint8")),
                (rng.integers(0, 256, (100, 28, 28)).astype("uint8"),
                 rng.integers(0, 10, (100,)).astype("uint8")))


(train_images, train_labels), (test_images, test_labels) = mnist.load_data()
RESULTS["train_images_shape"] = np.array(train_images.shape)
RESULTS["len_train_labels"] = len(train_labels)
RESULTS["train_labels"] = train_labels
RESULTS["test_images_shape"] = np.array(test_images.shape)
RESULTS["len_test_labels"] = len(test_labels)
import keras
from keras import layers

model = keras.Sequential(
    [
        layers.Dense(512, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ]
)
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
train_images = train_images.reshape((600, 28 * 28))
train_images = train_images.astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28))
test_images = test_images.astype("float32") / 255
h = model.fit(train_images, train_labels, epochs=2, batch_size=128, verbose=0)
RESULTS["first_fit_history"] = np.array([h.history["loss"], h.history["accuracy"]])
test_digits = test_images[0:10]
predictions = model.predict(test_digits, verbose=0)
RESULTS["predictions0"] = predictions[0]
RESULTS["predictions0_argmax"] = predictions[0].argmax()
RESULTS["predictions0_7"] = predictions[0][7]
RESULTS["test_labels0"] = test_labels[0]
test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=0)
print(f"test_acc: {test_acc}")
RESULTS["first_test"] = np.array([test_loss, test_acc])
import numpy as np
x = np.array(12)
RESULTS["ndim0"] = x.ndim
x = np.array([12, 3, 6, 14, 7])
RESULTS["ndim1"] = x.ndim
x = np.array([[5, 78, 2, 34, 0],
              [6, 79, 3, 35, 1],
              [7, 80, 4, 36, 2]])
RESULTS["ndim2"] = x.ndim
x = np.array([[[5, 78, 2, 34, 0],
               [6, 79, 3, 35, 1],
               [7, 80, 4, 36, 2]],
              [[5, 78, 2, 34, 0],
               [6, 79, 3, 35, 1],
               [7, 80, 4, 36, 2]],
              [[5, 78, 2, 34, 0],
               [6, 79, 3, 35, 1],
               [7, 80, 4, 36, 2]]])
RESULTS["ndim3"] = x.ndim
(train_images, train_labels), (test_images, test_labels) = mnist.load_data()
RESULTS["train_images_ndim"] = train_images.ndim
RESULTS["train_images_dtype"] = np.array(str(train_images.dtype))
digit = train_images[4]
RESULTS["train_labels4"] = train_labels[4]
my_slice = train_images[10:100]
RESULTS["slice_shape_a"] = np.array(my_slice.shape)
my_slice = train_images[10:100, :, :]
RESULTS["slice_shape_b"] = np.array(my_slice.shape)
my_slice = train_images[10:100, 0:28, 0:28]
RESULTS["slice_shape_c"] = np.array(my_slice.shape)
my_slice = train_images[:, 14:, 14:]
my_slice = train_images[:, 7:-7, 7:-7]
batch = train_images[:128]
batch = train_images[128:256]
n = 3
batch = train_images[128 * n : 128 * (n + 1)]
RESULTS["batch3_sum"] = int(batch.astype("int64").sum())


def naive_relu(x):
    assert len(x.shape) == 2
    x = x.copy()
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            x[i, j] = max(x[i, j], 0)
    return x


def naive_add(x, y):
    assert len(x.shape) == 2
    assert x.shape == y.shape
    x = x.copy()
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            x[i, j] += y[i, j]
    return x


import time

x = np.random.random((20, 100))
y = np.random.random((20, 100))

for _ in range(10):
    z = x + y
    z = np.maximum(z, 0.0)
RESULTS["vectorized_add_relu"] = z
for _ in range(10):
    z = naive_add(x, y)
    z = naive_relu(z)
RESULTS["naive_add_relu"] = z
import numpy as np

X = np.random.random((32, 10))
y = np.random.random((10,))
y = np.expand_dims(y, axis=0)
Y = np.tile(y, (32, 1))
RESULTS["tiled"] = Y


def naive_add_matrix_and_vector(x, y):
    assert len(x.shape) == 2
    assert len(y.shape) == 1
    assert x.shape[1] == y.shape[0]
    x = x.copy()
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            x[i, j] += y[j]
    return x


import numpy as np

x = np.random.random((64, 3, 32, 10))
y = np.random.random((32, 10))
z = np.maximum(x, y)
RESULTS["broadcast_maximum_shape"] = np.array(z.shape)
x = np.random.random((32,))
y = np.random.random((32,))

z = np.matmul(x, y)
z = x @ y
RESULTS["vector_dot"] = z


def naive_vector_product(x, y):
    assert len(x.shape) == 1
    assert len(y.shape) == 1
    assert x.shape[0] == y.shape[0]
    z = 0.0
    for i in range(x.shape[0]):
        z += x[i] * y[i]
    return z


def naive_matrix_vector_product(x, y):
    assert len(x.shape) == 2
    assert len(y.shape) == 1
    assert x.shape[1] == y.shape[0]
    z = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            z[i] += x[i, j] * y[j]
    return z


def naive_matrix_vector_product(x, y):
    z = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        z[i] = naive_vector_product(x[i, :], y)
    return z


def naive_matrix_product(x, y):
    assert len(x.shape) == 2
    assert len(y.shape) == 2
    assert x.shape[1] == y.shape[0]
    z = np.zeros((x.shape[0], y.shape[1]))
    for i in range(x.shape[0]):
        for j in range(y.shape[1]):
            row_x = x[i, :]
            column_y = y[:, j]
            z[i, j] = naive_vector_product(row_x, column_y)
    return z


train_images = train_images.reshape((600, 28 * 28))
x = np.array([[0., 1.],
              [2., 3.],
              [4., 5.]])
RESULTS["reshape_src_shape"] = np.array(x.shape)
x = x.reshape((6, 1))
RESULTS["reshape_6_1"] = x
x = x.reshape((2, 3))
RESULTS["reshape_2_3"] = x
x = np.zeros((300, 20))
x = np.transpose(x)
RESULTS["transpose_shape"] = np.array(x.shape)
(train_images, train_labels), (test_images, test_labels) = mnist.load_data()
train_images = train_images.reshape((600, 28 * 28))
train_images = train_images.astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28))
test_images = test_images.astype("float32") / 255
model = keras.Sequential(
    [
        layers.Dense(512, activation="relu"),
        layers.Dense(10, activation="softmax"),
    ]
)
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
h = model.fit(
    train_images,
    train_labels,
    epochs=2,
    batch_size=128,
    verbose=0,
)
RESULTS["second_fit_history"] = np.array([h.history["loss"], h.history["accuracy"]])
import keras
from keras import ops


class NaiveDense:
    def __init__(self, input_size, output_size, activation=None):
        self.activation = activation
        self.W = keras.Variable(
            shape=(input_size, output_size), initializer="uniform"
        )
        self.b = keras.Variable(shape=(output_size,), initializer="zeros")

    def __call__(self, inputs):
        x = ops.matmul(inputs, self.W)
        x = x + self.b
        if self.activation is not None:
            x = self.activation(x)
        return x

    @property
    def weights(self):
        return [self.W, self.b]


class NaiveSequential:
    def __init__(self, layers):
        self.layers = layers

    def __call__(self, inputs):
        x = inputs
        for layer in self.layers:
            x = layer(x)
        return x

    @property
    def weights(self):
        weights = []
        for layer in self.layers:
            weights += layer.weights
        return weights


model = NaiveSequential(
    [
        NaiveDense(input_size=28 * 28, output_size=512, activation=ops.relu),
        NaiveDense(input_size=512, output_size=10, activation=ops.softmax),
    ]
)
assert len(model.weights) == 4
RESULTS["naive_W0_stats"] = np.array([float(ops.mean(model.weights[0])), float(ops.std(model.weights[0]))])
import math


class BatchGenerator:
    def __init__(self, images, labels, batch_size=128):
        assert len(images) == len(labels)
        self.index = 0
        self.images = images
        self.labels = labels
        self.batch_size = batch_size
        self.num_batches = math.ceil(len(images) / batch_size)

    def next(self):
        images = self.images[self.index : self.index + self.batch_size]
        labels = self.labels[self.index : self.index + self.batch_size]
        self.index += self.batch_size
        return images, labels


learning_rate = 1e-3


def update_weights(gradients, weights):
    for g, w in zip(gradients, weights):
        w.assign(w - g * learning_rate)


from keras import optimizers

optimizer = optimizers.SGD(learning_rate=1e-3)


def update_weights(gradients, weights):
    optimizer.apply_gradients(zip(gradients, weights))


import tensorflow as tf

x = tf.zeros(shape=())
with tf.GradientTape() as tape:
    y = 2 * x + 3
grad_of_y_wrt_x = tape.gradient(y, x)
RESULTS["grad_of_y_wrt_x_is_none"] = grad_of_y_wrt_x is None  # (x is an unwatched constant)
_batch_losses = []


def one_training_step(model, images_batch, labels_batch):
    with tf.GradientTape() as tape:
        predictions = model(images_batch)
        loss = ops.sparse_categorical_crossentropy(labels_batch, predictions)
        average_loss = ops.mean(loss)
    gradients = tape.gradient(average_loss, model.weights)
    update_weights(gradients, model.weights)
    return average_loss


def fit(model, images, labels, epochs, batch_size=128):
    for epoch_counter in range(epochs):
        print(f"Epoch {epoch_counter}")
        batch_generator = BatchGenerator(images, labels)
        for batch_counter in range(batch_generator.num_batches):
            images_batch, labels_batch = batch_generator.next()
            loss = one_training_step(model, images_batch, labels_batch)
            _batch_losses.append(float(loss))
            if batch_counter % 100 == 0:
                print(f"loss at batch {batch_counter}: {loss:.2f}")


(train_images, train_labels), (test_images, test_labels) = mnist.load_data()

train_images = train_images.reshape((600, 28 * 28))
train_images = train_images.astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28))
test_images = test_images.astype("float32") / 255

fit(model, train_images, train_labels, epochs=2, batch_size=128)
RESULTS["scratch_batch_losses"] = np.array(_batch_losses)
predictions = model(test_images)
predicted_labels = ops.argmax(predictions, axis=1)
matches = predicted_labels == test_labels
print(f"accuracy: {ops.mean(matches):.2f}")
RESULTS["scratch_accuracy"] = ops.mean(matches)
RESULTS["scratch_predictions_head"] = predictions[:4]
RESULTS["scratch_predicted_labels"] = predicted_labels
