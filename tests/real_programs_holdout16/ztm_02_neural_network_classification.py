"""Title: 02. Neural Network Classification with TensorFlow (Zero to Mastery TensorFlow for Deep Learning)
Source: https://github.com/mrdbourke/tensorflow-deep-learning/blob/bd065b806249f7b1155e5b1fabd130c5cfc9d184/02_neural_network_classification_in_tensorflow.ipynb
Licence: MIT (mrdbourke/tensorflow-deep-learning)
Changed: the notebook's code cells in order; keras.utils.set_random_seed(0) right after
`import tensorflow as tf` (the notebook's own tf.random.set_seed(42) calls stay; this also
seeds Python's `random` used by its random-image cells); scikit-learn is not installed, so
sklearn.datasets.make_circles is replaced by a small NumPy function with the same algorithm
(same shapes and dtypes: (1000, 2) float64 and (1000,) int64, seeded by its random_state=42)
and sklearn.metrics.confusion_matrix by a small NumPy function that, like sklearn, raises on
probabilities (that cell, and the cell fitting the circles model_3 to (N, 1) regression data,
show an error in the notebook: each is wrapped in `_expect_error`, which
records that it raised); the pandas cells (circles.head(), value_counts() and the
DataFrame(history) tables/plots) are removed (pd.DataFrame(history.history) -> the history
itself is recorded), and all matplotlib drawing is removed: plot_decision_boundary keeps its
model.predict on the 100x100 grid and records the grid's
predicted probabilities instead of drawing their rounded values,
make_confusion_matrix/plot_random_image and the confusion-matrix cell keep their computations
and record them instead of drawing; plot_model removed (needs pydot); Fashion MNIST (60000 +
10000 uint8 28x28) -> 512 + 128 synthetic uint8 images with uint8 labels from a seeded NumPy
generator; epochs cut to keep it small: 5 -> 2, 200 -> 5, every 100 -> 5 (the learning-rate
search 100 -> 10, its lrs array np.arange(100) -> np.arange(10)), 25 -> 5, 20 -> 5, and on
Fashion MNIST 10 -> 2, 10 -> 2, 40 -> 5 (lrs np.arange(40) -> np.arange(5)), 20 -> 3; each
cell's displayed last expression is recorded by a `_display` helper (a History as its
history dict, a layer as its class name, a tuple item by item); `import numpy as np` at the
top since the make_circles stand-in uses it before the notebook imports it.
"""
import contextlib

import numpy as np

RESULTS = {}


def _display(key, *values):
  import tensorflow as tf
  if len(values) > 1:
    for j, v in enumerate(values):
      _display(f"{key}_{j}", v)
    return
  value = values[0]
  if value is None:
    return
  if isinstance(value, (list, tuple)) and value and hasattr(value[0], "get_weights"):
    value = [type(v).__name__ for v in value]
  elif hasattr(value, "get_weights"):
    value = type(value).__name__
  elif hasattr(value, "history") and isinstance(value.history, dict):
    for k, v in value.history.items():
      RESULTS[f"{key}_{k}"] = v
    return
  elif isinstance(value, tf.TensorShape):
    value = value.as_list()
  elif isinstance(value, tuple) and all(isinstance(v, int) for v in value):
    value = list(value)
  elif hasattr(value, "numpy"):
    value = value.numpy()
  RESULTS[key] = value


@contextlib.contextmanager
def _expect_error(key):
  try:
    yield
  except Exception:
    RESULTS[key + "_raised"] = 1
  else:
    RESULTS[key + "_raised"] = 0


import tensorflow as tf
import keras
keras.utils.set_random_seed(0)
print(tf.__version__)

import datetime
print(f"Notebook last run (end-to-end): {datetime.datetime.now()}")

def make_circles(n_samples, noise=None, random_state=None):
  # (stands in for sklearn.datasets.make_circles, with its algorithm: two circles, factor 0.8)
  rng = np.random.RandomState(random_state)
  n_out, n_in = n_samples // 2, n_samples - n_samples // 2
  lin_out = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
  lin_in = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
  X = np.vstack([np.append(np.cos(lin_out), np.cos(lin_in) * 0.8),
                 np.append(np.sin(lin_out), np.sin(lin_in) * 0.8)]).T
  y = np.hstack([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
  order = rng.permutation(n_samples)
  X, y = X[order], y[order]
  X = X + rng.normal(scale=noise, size=X.shape)
  return X, y

# Make 1000 examples
n_samples = 1000

# Create circles
X, y = make_circles(n_samples,
                    noise=0.03,
                    random_state=42)

# Check out the features
_display("c7", X)

# See the first 10 labels
_display("c8", y[:10])

# Check the shapes of our features and labels
_display("c17", X.shape, y.shape)

# Check how many samples we have
_display("c19", len(X), len(y))

# View the first example of features and labels
_display("c21", X[0], y[0])

# Set random seed
tf.random.set_seed(42)

# 1. Create the model using the Sequential API
model_1 = tf.keras.Sequential([
  tf.keras.layers.Dense(1)
])

# 2. Compile the model
model_1.compile(loss=tf.keras.losses.BinaryCrossentropy(), # binary since we are working with 2 clases (0 & 1)
                optimizer=tf.keras.optimizers.SGD(),
                metrics=['accuracy'])

# 3. Fit the model
_display("c24", model_1.fit(X, y, epochs=2))

# Train our model for longer (more chances to look at the data)
model_1.fit(X, y, epochs=5, verbose=0) # set verbose=0 to remove training updates
_display("c26", model_1.evaluate(X, y))

# Set random seed
tf.random.set_seed(42)

# 1. Create the model (same as model_1 but with an extra layer)
model_2 = tf.keras.Sequential([
  tf.keras.layers.Dense(1), # add an extra layer
  tf.keras.layers.Dense(1)
])

# 2. Compile the model
model_2.compile(loss=tf.keras.losses.BinaryCrossentropy(),
                optimizer=tf.keras.optimizers.SGD(),
                metrics=['accuracy'])

# 3. Fit the model
_display("c28", model_2.fit(X, y, epochs=5, verbose=0)) # set verbose=0 to make the output print less

# Evaluate the model
_display("c29", model_2.evaluate(X, y))

# Set random seed
tf.random.set_seed(42)

# 1. Create the model (this time 3 layers)
model_3 = tf.keras.Sequential([
  # Before TensorFlow 2.7.0
  # tf.keras.layers.Dense(100), # add 100 dense neurons

  # With TensorFlow 2.7.0
  # tf.keras.layers.Dense(100, input_shape=(None, 1)), # add 100 dense neurons

  ## After TensorFlow 2.8.0 ##
  tf.keras.layers.Dense(100), # add 100 dense neurons
  tf.keras.layers.Dense(10), # add another layer with 10 neurons
  tf.keras.layers.Dense(1)
])

# 2. Compile the model
model_3.compile(loss=tf.keras.losses.BinaryCrossentropy(),
                optimizer=tf.keras.optimizers.Adam(), # use Adam instead of SGD
                metrics=['accuracy'])

# 3. Fit the model
_display("c32", model_3.fit(X, y, epochs=5, verbose=1)) # fit for 100 passes of the data

import numpy as np

_boundaries = []

def plot_decision_boundary(model, X, y):
  """
  Plots the decision boundary created by a model predicting on X.
  This function has been adapted from two phenomenal resources:
   1. CS231n - https://cs231n.github.io/neural-networks-case-study/
   2. Made with ML basics - https://github.com/GokuMohandas/MadeWithML/blob/main/notebooks/08_Neural_Networks.ipynb
  """
  # Define the axis boundaries of the plot and create a meshgrid
  x_min, x_max = X[:, 0].min() - 0.1, X[:, 0].max() + 0.1
  y_min, y_max = X[:, 1].min() - 0.1, X[:, 1].max() + 0.1
  xx, yy = np.meshgrid(np.linspace(x_min, x_max, 100),
                       np.linspace(y_min, y_max, 100))

  # Create X values (we're going to predict on all of these)
  x_in = np.c_[xx.ravel(), yy.ravel()] # stack 2D arrays together: https://numpy.org/devdocs/reference/generated/numpy.c_.html

  # Make predictions using the trained model
  y_pred = model.predict(x_in)
  _boundaries.append(y_pred)

  # Check for multi-class
  if model.output_shape[-1] > 1: # checks the final dimension of the model's output shape, if this is > (greater than) 1, it's multi-class
    print("doing multiclass classification...")
    # We have to reshape our predictions to get them ready for plotting
    y_pred = np.argmax(y_pred, axis=1).reshape(xx.shape)
  else:
    print("doing binary classifcation...")
    y_pred = np.round(np.max(y_pred, axis=1)).reshape(xx.shape)

# Check out the predictions our model is making
_display("c36", plot_decision_boundary(model_3, X, y))

# Set random seed
tf.random.set_seed(42)

# Create some regression data
X_regression = np.arange(0, 1000, 5)
y_regression = np.arange(100, 1100, 5)

# Split it into training and test sets
X_reg_train = X_regression[:150]
X_reg_test = X_regression[150:]
y_reg_train = y_regression[:150]
y_reg_test = y_regression[150:]

# Fit our model to the data
# Note: Before TensorFlow 2.7.0, this line would work
# model_3.fit(X_reg_train, y_reg_train, epochs=100)

# After TensorFlow 2.7.0, see here for more: https://github.com/mrdbourke/tensorflow-deep-learning/discussions/278
with _expect_error("c38"):
  _display("c38", model_3.fit(tf.expand_dims(X_reg_train, axis=-1),
              y_reg_train,
              epochs=5))

_display("c39", model_3.summary())

# Setup random seed
tf.random.set_seed(42)

# Recreate the model
model_3 = tf.keras.Sequential([
  tf.keras.layers.Dense(100),
  tf.keras.layers.Dense(10),
  tf.keras.layers.Dense(1)
])

# Change the loss and metrics of our compiled model
model_3.compile(loss=tf.keras.losses.mae, # change the loss function to be regression-specific
                optimizer=tf.keras.optimizers.Adam(),
                metrics=['mae']) # change the metric to be regression-specific

# Fit the recompiled model
_display("c41", model_3.fit(tf.expand_dims(X_reg_train, axis=-1),
            y_reg_train,
            epochs=5))

# Make predictions with our trained model
y_reg_preds = model_3.predict(X_reg_test)
RESULTS["y_reg_preds"] = y_reg_preds

# Set the random seed
tf.random.set_seed(42)

# Create the model
model_4 = tf.keras.Sequential([
  tf.keras.layers.Dense(1, activation=tf.keras.activations.linear), # 1 hidden layer with linear activation
  tf.keras.layers.Dense(1) # output layer
])

# Compile the model
model_4.compile(loss=tf.keras.losses.binary_crossentropy,
                optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), # note: "lr" used to be what was used, now "learning_rate" is favoured
                metrics=["accuracy"])

# Fit the model
history = model_4.fit(X, y, epochs=5)

# Check the deicison boundary (blue is blue class, yellow is the crossover, red is red class)
_display("c50", plot_decision_boundary(model_4, X, y))

# Set random seed
tf.random.set_seed(42)

# Create a model with a non-linear activation
model_5 = tf.keras.Sequential([
  tf.keras.layers.Dense(1, activation=tf.keras.activations.relu), # can also do activation='relu'
  tf.keras.layers.Dense(1) # output layer
])

# Compile the model
model_5.compile(loss=tf.keras.losses.binary_crossentropy,
              optimizer=tf.keras.optimizers.Adam(),
              metrics=["accuracy"])

# Fit the model
history = model_5.fit(X, y, epochs=5)

# Set random seed
tf.random.set_seed(42)

# Create a model
model_6 = tf.keras.Sequential([
  tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 1, 4 neurons, ReLU activation
  tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 2, 4 neurons, ReLU activation
  tf.keras.layers.Dense(1) # ouput layer
])

# Compile the model
model_6.compile(loss=tf.keras.losses.binary_crossentropy,
                optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), # Adam's default learning rate is 0.001
                metrics=['accuracy'])

# Fit the model
history = model_6.fit(X, y, epochs=5)

# Evaluate the model
_display("c55", model_6.evaluate(X, y))

# Check out the predictions using 2 hidden layers
_display("c57", plot_decision_boundary(model_6, X, y))

# Set random seed
tf.random.set_seed(42)

# Create a model
model_7 = tf.keras.Sequential([
  tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 1, ReLU activation
  tf.keras.layers.Dense(4, activation=tf.keras.activations.relu), # hidden layer 2, ReLU activation
  tf.keras.layers.Dense(1, activation=tf.keras.activations.sigmoid) # ouput layer, sigmoid activation
])

# Compile the model
model_7.compile(loss=tf.keras.losses.binary_crossentropy,
                optimizer=tf.keras.optimizers.Adam(),
                metrics=['accuracy'])

# Fit the model
history = model_7.fit(X, y, epochs=5, verbose=0)

# Evaluate our model
_display("c60", model_7.evaluate(X, y))

# View the predictions of the model with relu and sigmoid activations
_display("c62", plot_decision_boundary(model_7, X, y))

# Create a toy tensor (similar to the data we pass into our model)
A = tf.cast(tf.range(-10, 10), tf.float32)
_display("c64", A)

# Sigmoid - https://www.tensorflow.org/api_docs/python/tf/keras/activations/sigmoid
def sigmoid(x):
  return 1 / (1 + tf.exp(-x))

# Use the sigmoid function on our tensor
_display("c68", sigmoid(A))

# ReLU - https://www.tensorflow.org/api_docs/python/tf/keras/activations/relu
def relu(x):
  return tf.maximum(0, x)

# Pass toy tensor through ReLU function
_display("c72", relu(A))

# Linear - https://www.tensorflow.org/api_docs/python/tf/keras/activations/linear (returns input non-modified...)
_display("c76", tf.keras.activations.linear(A))

# Does the linear activation change anything?
_display("c78", A == tf.keras.activations.linear(A))

# How many examples are in the whole dataset?
_display("c81", len(X))

# Split data into train and test sets
X_train, y_train = X[:800], y[:800] # 80% of the data for the training set
X_test, y_test = X[800:], y[800:] # 20% of the data for the test set

# Check the shapes of the data
_display("c82", X_train.shape, X_test.shape) # 800 examples in the training set, 200 examples in the test set

# Set random seed
tf.random.set_seed(42)

# Create the model (same as model_7)
model_8 = tf.keras.Sequential([
  tf.keras.layers.Dense(4, activation="relu"), # hidden layer 1, using "relu" for activation (same as tf.keras.activations.relu)
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(1, activation="sigmoid") # output layer, using 'sigmoid' for the output
])

# Compile the model
model_8.compile(loss=tf.keras.losses.binary_crossentropy,
                optimizer=tf.keras.optimizers.Adam(learning_rate=0.01), # increase learning rate from 0.001 to 0.01 for faster learning
                metrics=['accuracy'])

# Fit the model
history = model_8.fit(X_train, y_train, epochs=5)

# Evaluate our model on the test set
loss, accuracy = model_8.evaluate(X_test, y_test)
print(f"Model loss on the test set: {loss}")
print(f"Model accuracy on the test set: {100*accuracy:.2f}%")

# Plot the decision boundaries for the training and test sets
plot_decision_boundary(model_8, X=X_train, y=y_train)
plot_decision_boundary(model_8, X=X_test, y=y_test)

# You can access the information in the history variable using the .history attribute
_display("c90", history)

# Set random seed
tf.random.set_seed(42)

# Create a model (same as model_8)
model_9 = tf.keras.Sequential([
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(1, activation="sigmoid")
])

# Compile the model
model_9.compile(loss="binary_crossentropy", # we can use strings here too
              optimizer="Adam", # same as tf.keras.optimizers.Adam() with default settings
              metrics=["accuracy"])

# Create a learning rate scheduler callback
lr_scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1e-4 * 10**(epoch/20)) # traverse a set of learning rate values starting from 1e-4, increasing by 10**(epoch/20) every epoch

# Fit the model (passing the lr_scheduler callback)
history = model_9.fit(X_train,
                      y_train,
                      epochs=10,
                      callbacks=[lr_scheduler])

# Plot the learning rate versus the loss
lrs = 1e-4 * (10 ** (np.arange(10)/20))
RESULTS["c99_lrs"] = lrs

# Example of other typical learning rate values
_display("c101", 10**0, 10**-1, 10**-2, 10**-3, 1e-4)

# Set the random seed
tf.random.set_seed(42)

# Create the model
model_10 = tf.keras.Sequential([
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(1, activation="sigmoid")
])

# Compile the model with the ideal learning rate
model_10.compile(loss="binary_crossentropy",
                optimizer=tf.keras.optimizers.Adam(learning_rate=0.02), # to adjust the learning rate, you need to use tf.keras.optimizers.Adam (not "adam")
                metrics=["accuracy"])

# Fit the model for 20 epochs (5 less than before)
history = model_10.fit(X_train, y_train, epochs=5)

# Evaluate model on the test dataset
_display("c105", model_10.evaluate(X_test, y_test))

# Plot the decision boundaries for the training and test sets
plot_decision_boundary(model_10, X=X_train, y=y_train)
plot_decision_boundary(model_10, X=X_test, y=y_test)

# Check the accuracy of our model
loss, accuracy = model_10.evaluate(X_test, y_test)
print(f"Model loss on test set: {loss}")
print(f"Model accuracy on test set: {(accuracy*100):.2f}%")

# Create a confusion matrix
def confusion_matrix(y_true, y_pred):
  # (stands in for sklearn.metrics.confusion_matrix: it too refuses probabilities)
  y_true, y_pred = np.asarray(y_true).ravel(), np.asarray(y_pred).ravel()
  if np.any(y_pred != np.round(y_pred)):
    raise ValueError("Classification metrics can't handle a mix of binary and continuous targets")
  labels = np.union1d(y_true, y_pred).astype(np.int64)
  cm = np.zeros((len(labels), len(labels)), dtype=np.int64)
  for t, p in zip(y_true, y_pred):
    cm[np.searchsorted(labels, t), np.searchsorted(labels, p)] += 1
  return cm

# Make predictions
y_preds = model_10.predict(X_test)

# Create confusion matrix
with _expect_error("c112"):
  _display("c112", confusion_matrix(y_test, y_preds))

# View the first 10 predictions
_display("c114", y_preds[:10])

# View the first 10 test labels
_display("c116", y_test[:10])

# Convert prediction probabilities to binary format and view the first 10
_display("c118", tf.round(y_preds)[:10])

# Create a confusion matrix
_display("c120", confusion_matrix(y_test, tf.round(y_preds)))

# Note: The following confusion matrix code is a remix of Scikit-Learn's
# plot_confusion_matrix function - https://scikit-learn.org/stable/modules/generated/sklearn.metrics.plot_confusion_matrix.html
# and Made with ML's introductory notebook - https://github.com/GokuMohandas/MadeWithML/blob/main/notebooks/08_Neural_Networks.ipynb
import itertools

figsize = (10, 10)

# Create the confusion matrix
cm = confusion_matrix(y_test, tf.round(y_preds))
cm_norm = cm.astype("float") / cm.sum(axis=1)[:, np.newaxis] # normalize it
n_classes = cm.shape[0]

# Create classes
classes = False

if classes:
  labels = classes
else:
  labels = np.arange(cm.shape[0])

# Set threshold for different colors
threshold = (cm.max() + cm.min()) / 2.

# Plot the text on each cell
_texts = []
for i, j in itertools.product(range(cm.shape[0]), range(cm.shape[1])):
  _texts.append(f"{cm[i, j]} ({cm_norm[i, j]*100:.1f}%)")
RESULTS["c122_cm_norm"] = cm_norm
RESULTS["c122_texts"] = _texts
RESULTS["c122_threshold"] = threshold

# What does itertools.product do? Combines two things into each combination
import itertools
for i, j in itertools.product(range(cm.shape[0]), range(cm.shape[1])):
  print(i, j)

import tensorflow as tf
from tensorflow.keras.datasets import fashion_mnist

# The data has already been sorted into training and test sets for us
_rng = np.random.default_rng(0)
train_data = _rng.integers(0, 256, (512, 28, 28)).astype(np.uint8)
train_labels = _rng.integers(0, 10, (512,)).astype(np.uint8)
test_data = _rng.integers(0, 256, (128, 28, 28)).astype(np.uint8)
test_labels = _rng.integers(0, 10, (128,)).astype(np.uint8)

# Show the first training example
print(f"Training sample:\n{train_data[0]}\n")
print(f"Training label: {train_labels[0]}")

# Check the shape of our data
_display("c130", train_data.shape, train_labels.shape, test_data.shape, test_labels.shape)

# Check shape of a single example
_display("c131", train_data[0].shape, train_labels[0].shape)

# Check our samples label
_display("c135", train_labels[7])

class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
               'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']

# How many classes are there (this'll be our output shape)?
_display("c137", len(class_names))

# Plot multiple random images of fashion MNIST
import random
for i in range(4):
  rand_index = random.choice(range(len(train_data)))
  RESULTS[f"c140_title_{i}"] = class_names[train_labels[rand_index]]

# Set random seed
tf.random.set_seed(42)

# Create the model
model_11 = tf.keras.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784, the Flatten layer does this for us)
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
])

# Compile the model
model_11.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(), # different loss function for multiclass classifcation
                 optimizer=tf.keras.optimizers.Adam(),
                 metrics=["accuracy"])

# Fit the model
non_norm_history = model_11.fit(train_data,
                                train_labels,
                                epochs=2,
                                validation_data=(test_data, test_labels)) # see how the model performs on the test set during training

# Check the shapes of our model
# Note: the "None" in (None, 784) is for batch_size, we'll cover this in a later module
_display("c143", model_11.summary())

# Check the min and max values of the training data
_display("c145", train_data.min(), train_data.max())

# Divide train and test images by the maximum value (normalize it)
train_data = train_data / 255.0
test_data = test_data / 255.0

# Check the min and max values of the training data
_display("c147", train_data.min(), train_data.max())

# Set random seed
tf.random.set_seed(42)

# Create the model
model_12 = tf.keras.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784)
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
])

# Compile the model
model_12.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                 optimizer=tf.keras.optimizers.Adam(),
                 metrics=["accuracy"])

# Fit the model (to the normalized data)
norm_history = model_12.fit(train_data,
                            train_labels,
                            epochs=2,
                            validation_data=(test_data, test_labels))

# Set random seed
tf.random.set_seed(42)

# Create the model
model_13 = tf.keras.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784)
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
])

# Compile the model
model_13.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                 optimizer=tf.keras.optimizers.Adam(),
                 metrics=["accuracy"])

# Create the learning rate callback
lr_scheduler = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1e-3 * 10**(epoch/20))

# Fit the model
find_lr_history = model_13.fit(train_data,
                               train_labels,
                               epochs=5, # model already doing pretty good with current LR, probably don't need 100 epochs
                               validation_data=(test_data, test_labels),
                               callbacks=[lr_scheduler])

# Plot the learning rate decay curve
import numpy as np
lrs = 1e-3 * (10**(np.arange(5)/20))
RESULTS["c154_lrs"] = lrs

# Set random seed
tf.random.set_seed(42)

# Create the model
model_14 = tf.keras.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)), # input layer (we had to reshape 28x28 to 784)
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(4, activation="relu"),
  tf.keras.layers.Dense(10, activation="softmax") # output shape is 10, activation is softmax
])

# Compile the model
model_14.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(),
                 optimizer=tf.keras.optimizers.Adam(learning_rate=0.001), # ideal learning rate (same as default)
                 metrics=["accuracy"])

# Fit the model
history = model_14.fit(train_data,
                       train_labels,
                       epochs=3,
                       validation_data=(test_data, test_labels))

# Note: The following confusion matrix code is a remix of Scikit-Learn's
# plot_confusion_matrix function - https://scikit-learn.org/stable/modules/generated/sklearn.metrics.plot_confusion_matrix.html
# and Made with ML's introductory notebook - https://github.com/GokuMohandas/MadeWithML/blob/main/notebooks/08_Neural_Networks.ipynb
import itertools

# Our function needs a different name to sklearn's plot_confusion_matrix
def make_confusion_matrix(y_true, y_pred, classes=None, figsize=(10, 10), text_size=15):
  """Makes a labelled confusion matrix comparing predictions and ground truth labels.

  If classes is passed, confusion matrix will be labelled, if not, integer class values
  will be used.

  Args:
    y_true: Array of truth labels (must be same shape as y_pred).
    y_pred: Array of predicted labels (must be same shape as y_true).
    classes: Array of class labels (e.g. string form). If `None`, integer labels are used.
    figsize: Size of output figure (default=(10, 10)).
    text_size: Size of output figure text (default=15).

  Returns:
    A labelled confusion matrix plot comparing y_true and y_pred.

  Example usage:
    make_confusion_matrix(y_true=test_labels, # ground truth test labels
                          y_pred=y_preds, # predicted labels
                          classes=class_names, # array of class label names
                          figsize=(15, 15),
                          text_size=10)
  """
  # Create the confustion matrix
  cm = confusion_matrix(y_true, y_pred)
  cm_norm = cm.astype("float") / cm.sum(axis=1)[:, np.newaxis] # normalize it
  n_classes = cm.shape[0] # find the number of classes we're dealing with

  # Are there a list of classes?
  if classes:
    labels = classes
  else:
    labels = np.arange(cm.shape[0])

  # Set the threshold for different colors
  threshold = (cm.max() + cm.min()) / 2.

  RESULTS["c168_cm"] = cm
  RESULTS["c168_cm_norm"] = cm_norm
  RESULTS["c168_labels"] = list(labels)
  RESULTS["c168_threshold"] = threshold

# Make predictions with the most recent model
y_probs = model_14.predict(test_data) # "probs" is short for probabilities

# View the first 5 predictions
_display("c160", y_probs[:5])

# See the predicted class number and label for the first example
_display("c162", y_probs[0].argmax(), class_names[y_probs[0].argmax()])

# Convert all of the predictions from probabilities to labels
y_preds = y_probs.argmax(axis=1)

# View the first 10 prediction labels
_display("c164", y_preds[:10])

# Check out the non-prettified confusion matrix
_display("c166", confusion_matrix(y_true=test_labels,
                 y_pred=y_preds))

# Make a prettier confusion matrix
_display("c168", make_confusion_matrix(y_true=test_labels,
                      y_pred=y_preds,
                      classes=class_names,
                      figsize=(15, 15),
                      text_size=10))

import random

# Create a function for plotting a random image along with its prediction
def plot_random_image(model, images, true_labels, classes):
  """Picks a random image, plots it and labels it with a predicted and truth label.

  Args:
    model: a trained model (trained on data similar to what's in images).
    images: a set of random images (in tensor form).
    true_labels: array of ground truth labels for images.
    classes: array of class names for images.

  Returns:
    A plot of a random image from `images` with a predicted class label from `model`
    as well as the truth class label from `true_labels`.
  """
  # Setup random integer
  i = random.randint(0, len(images))

  # Create predictions and targets
  target_image = images[i]
  pred_probs = model.predict(target_image.reshape(1, 28, 28)) # have to reshape to get into right size for model
  pred_label = classes[pred_probs.argmax()]
  true_label = classes[true_labels[i]]

  # Change the color of the titles depending on if the prediction is right or wrong
  if pred_label == true_label:
    color = "green"
  else:
    color = "red"

  # Add xlabel information (prediction/true label)
  RESULTS["c171_xlabel"] = "Pred: {} {:2.0f}% (True: {})".format(pred_label,
                                                   100*tf.reduce_max(pred_probs),
                                                   true_label)
  RESULTS["c171_color"] = color
  RESULTS["c171_pred_probs"] = pred_probs

# Check out a random image as well as its prediction
_display("c171", plot_random_image(model=model_14,
                  images=test_data,
                  true_labels=test_labels,
                  classes=class_names))

# Find the layers of our most recent model
_display("c174", model_14.layers)

# Extract a particular layer
_display("c176", model_14.layers[1])

# Get the patterns of a layer in our network
weights, biases = model_14.layers[1].get_weights()

# Shape = 1 weight matrix the size of our input data (28x28) per neuron (4)
_display("c178", weights, weights.shape)

# Shape = 1 bias per neuron (we use 4 neurons in the first layer)
_display("c180", biases, biases.shape)

# Can now calculate the number of paramters in our model
_display("c182", model_14.summary())

for _j, _b in enumerate(_boundaries):
  RESULTS[f"decision_boundary_{_j}"] = _b
