"""Title: Basic training loops (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/basic_training_loops.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tf.random.normal data -> a seeded NumPy draw of the same shape (201 points instead of
1000), 10 epochs -> 5; loss=tf.keras.losses.mean_squared_error ->
MeanSquaredError() (tf.keras 3 in TF 2.21 has no such function); the Keras part compiled and fitted for 2 epochs; plotting removed; printed
values recorded in RESULTS.
"""
import tensorflow as tf
import numpy as np
RESULTS = {}

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 201
_rng = np.random.default_rng(0)
x = tf.linspace(-2,2, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)

def f(x):
  return x * TRUE_W + TRUE_B

noise = tf.constant(_rng.normal(size=[NUM_EXAMPLES]).astype(np.float32))
y = f(x) + noise

class MyModel(tf.Module):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def __call__(self, x):
    return self.w * x + self.b

model = MyModel()
RESULTS["variables"] = [v for v in model.variables]

def loss(target_y, predicted_y):
  return tf.reduce_mean(tf.square(target_y - predicted_y))

RESULTS["initial_loss"] = loss(y, model(x))

def train(model, x, y, learning_rate):
  with tf.GradientTape() as t:
    current_loss = loss(y, model(x))
  dw, db = t.gradient(current_loss, [model.w, model.b])
  model.w.assign_sub(learning_rate * dw)
  model.b.assign_sub(learning_rate * db)

model = MyModel()
weights = []
biases = []
epochs = range(5)

def report(model, loss):
  return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"

def training_loop(model, x, y):
  for epoch in epochs:
    train(model, x, y, learning_rate=0.1)
    weights.append(model.w.numpy())
    biases.append(model.b.numpy())
    current_loss = loss(y, model(x))
    print(f"Epoch {epoch:2d}:")
    print("    ", report(model, current_loss))

current_loss = loss(y, model(x))
training_loop(model, x, y)
RESULTS["weights"] = weights
RESULTS["biases"] = biases
RESULTS["final_loss"] = loss(y, model(x))

class MyModelKeras(tf.keras.Model):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def call(self, x):
    return self.w * x + self.b

keras_model = MyModelKeras()
training_loop(keras_model, x, y)
keras_model = MyModelKeras()
keras_model.compile(
    run_eagerly=False,
    optimizer=tf.keras.optimizers.SGD(learning_rate=0.1),
    loss=tf.keras.losses.MeanSquaredError(),
)
history = keras_model.fit(x, y, epochs=2, batch_size=1000, verbose=0)
RESULTS["keras_w"] = keras_model.w
RESULTS["keras_b"] = keras_model.b
RESULTS["keras_history"] = history.history["loss"]
