"""Title: Quickstart for the TensorFlow Core APIs (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/core/quickstart_core.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the Auto MPG CSV (pandas) -> 392 synthetic rows of the same 8 columns (origin in 1-3);
epochs 100 -> 3; plots and the SavedModel export removed; results in RESULTS. The program's own
seeds (tf.random.set_seed(22), shuffle seed=22) are kept, so the data order and the initial
weights are TensorFlow's seeded streams.
"""
import numpy as np
import tensorflow as tf
print("TensorFlow version:", tf.__version__)
tf.random.set_seed(22)
RESULTS = {}

_rng = np.random.default_rng(0)
_x = _rng.normal(size=(392, 6)) * [1.7, 100, 38, 850, 2.7, 3.7] + [5.5, 194, 104, 2978, 15.5, 76]
_mpg = 46 - 0.0076 * _x[:, 3] + _rng.normal(size=392)
dataset = np.concatenate([_mpg[:, None], _x, _rng.integers(1, 4, (392, 1))], axis=1)
dataset_tf = tf.convert_to_tensor(dataset, dtype=tf.float32)

dataset_shuffled = tf.random.shuffle(dataset_tf, seed=22)
train_data, test_data = dataset_shuffled[100:], dataset_shuffled[:100]
x_train, y_train = train_data[:, 1:], train_data[:, 0]
x_test, y_test = test_data[:, 1:], test_data[:, 0]
def onehot_origin(x):
  origin = tf.cast(x[:, -1], tf.int32)
  # Use `origin - 1` to account for 1-indexed feature
  origin_oh = tf.one_hot(origin - 1, 3)
  x_ohe = tf.concat([x[:, :-1], origin_oh], axis = 1)
  return x_ohe
x_train_ohe, x_test_ohe = onehot_origin(x_train), onehot_origin(x_test)
class Normalize(tf.Module):
  def __init__(self, x):
    # Initialize the mean and standard deviation for normalization
    self.mean = tf.math.reduce_mean(x, axis=0)
    self.std = tf.math.reduce_std(x, axis=0)
  def norm(self, x):
    # Normalize the input
    return (x - self.mean)/self.std
  def unnorm(self, x):
    # Unnormalize the input
    return (x * self.std) + self.mean
norm_x = Normalize(x_train_ohe)
norm_y = Normalize(y_train)
x_train_norm, y_train_norm = norm_x.norm(x_train_ohe), norm_y.norm(y_train)
x_test_norm, y_test_norm = norm_x.norm(x_test_ohe), norm_y.norm(y_test)
class LinearRegression(tf.Module):
  def __init__(self):
    self.built = False
  @tf.function
  def __call__(self, x):
    # Initialize the model parameters on the first call
    if not self.built:
      # Randomly generate the weight vector and bias term
      rand_w = tf.random.uniform(shape=[x.shape[-1], 1])
      rand_b = tf.random.uniform(shape=[])
      self.w = tf.Variable(rand_w)
      self.b = tf.Variable(rand_b)
      self.built = True
    y = tf.add(tf.matmul(x, self.w), self.b)
    return tf.squeeze(y, axis=1)
lin_reg = LinearRegression()
prediction = lin_reg(x_train_norm[:1])
prediction_unnorm = norm_y.unnorm(prediction)
def mse_loss(y_pred, y):
  return tf.reduce_mean(tf.square(y_pred - y))
batch_size = 64
train_dataset = tf.data.Dataset.from_tensor_slices((x_train_norm, y_train_norm))
train_dataset = train_dataset.shuffle(buffer_size=x_train.shape[0]).batch(batch_size)
test_dataset = tf.data.Dataset.from_tensor_slices((x_test_norm, y_test_norm))
test_dataset = test_dataset.shuffle(buffer_size=x_test.shape[0]).batch(batch_size)
epochs = 3
learning_rate = 0.01
train_losses, test_losses = [], []
for epoch in range(epochs):
  batch_losses_train, batch_losses_test = [], []
  # Iterate through the training data
  for x_batch, y_batch in train_dataset:
    with tf.GradientTape() as tape:
      y_pred_batch = lin_reg(x_batch)
      batch_loss = mse_loss(y_pred_batch, y_batch)
    # Update parameters with respect to the gradient calculations
    grads = tape.gradient(batch_loss, lin_reg.variables)
    for g,v in zip(grads, lin_reg.variables):
      v.assign_sub(learning_rate * g)
    # Keep track of batch-level training performance 
    batch_losses_train.append(batch_loss)
  # Iterate through the testing data
  for x_batch, y_batch in test_dataset:
    y_pred_batch = lin_reg(x_batch)
    batch_loss = mse_loss(y_pred_batch, y_batch)
    # Keep track of batch-level testing performance 
    batch_losses_test.append(batch_loss)
  # Keep track of epoch-level model performance
  train_loss = tf.reduce_mean(batch_losses_train)
  test_loss = tf.reduce_mean(batch_losses_test)
  train_losses.append(train_loss)
  test_losses.append(test_loss)
  if epoch % 10 == 0:
    print(f'Mean squared error for step {epoch}: {train_loss.numpy():0.3f}')
print(f"\nFinal train loss: {train_loss:0.3f}")
print(f"Final test loss: {test_loss:0.3f}")
RESULTS["train_losses"] = train_losses
RESULTS["test_losses"] = test_losses
RESULTS["w"] = lin_reg.w
RESULTS["prediction_unnorm"] = prediction_unnorm
RESULTS["x_train_norm_head"] = x_train_norm[:3]
