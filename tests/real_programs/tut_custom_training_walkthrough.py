"""Title: Custom training: walkthrough (penguin classification, TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/customization/custom_training_walkthrough.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: tfds penguins/processed -> 160 synthetic rows of 4 features and labels 0-2 (train 128,
test 32); 201 epochs -> 3; the model's kernels fixed (fix_weights); dataframes and plots removed;
printed values recorded in RESULTS.
"""
import os
import numpy as np
import tensorflow as tf
from _corpus import fix_weights
RESULTS = {}

class_names = ['Adélie', 'Chinstrap', 'Gentoo']
_rng = np.random.default_rng(0)
_x = _rng.random((160, 4)).astype(np.float32)
_y = (_x[:, 0] * 2 + _x[:, 2] > 1.5).astype(np.int64) + (_x[:, 1] > 0.7).astype(np.int64)
ds_test = tf.data.Dataset.from_tensor_slices((_x[:32], _y[:32]))
ds_train = tf.data.Dataset.from_tensor_slices((_x[32:], _y[32:]))
assert isinstance(ds_test, tf.data.Dataset)

ds_train_batch = ds_train.batch(32)
features, labels = next(iter(ds_train_batch))

model = tf.keras.Sequential([
  tf.keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),  # input shape required
  tf.keras.layers.Dense(10, activation=tf.nn.relu),
  tf.keras.layers.Dense(3)
])
fix_weights(model)
predictions = model(features)
RESULTS["softmax"] = tf.nn.softmax(predictions[:5])
RESULTS["argmax"] = tf.math.argmax(predictions, axis=1)

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def loss(model, x, y, training):
  y_ = model(x, training=training)
  return loss_object(y_true=y, y_pred=y_)

l = loss(model, features, labels, training=False)
RESULTS["loss_test"] = l

def grad(model, inputs, targets):
  with tf.GradientTape() as tape:
    loss_value = loss(model, inputs, targets, training=True)
  return loss_value, tape.gradient(loss_value, model.trainable_variables)

optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_value, grads = grad(model, features, labels)
RESULTS["initial_step"] = optimizer.iterations.numpy()
optimizer.apply_gradients(zip(grads, model.trainable_variables))
RESULTS["step_after"] = optimizer.iterations.numpy()
RESULTS["loss_after"] = loss(model, features, labels, training=True).numpy()

train_loss_results = []
train_accuracy_results = []
num_epochs = 3
for epoch in range(num_epochs):
  epoch_loss_avg = tf.keras.metrics.Mean()
  epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
  for x, y in ds_train_batch:
    loss_value, grads = grad(model, x, y)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    epoch_loss_avg.update_state(loss_value)
    epoch_accuracy.update_state(y, model(x, training=True))
  train_loss_results.append(epoch_loss_avg.result())
  train_accuracy_results.append(epoch_accuracy.result())
  if epoch % 50 == 0:
    print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(epoch,
                                                                epoch_loss_avg.result(),
                                                                epoch_accuracy.result()))
RESULTS["train_loss_results"] = train_loss_results
RESULTS["train_accuracy_results"] = train_accuracy_results

test_accuracy = tf.keras.metrics.Accuracy()
ds_test_batch = ds_test.batch(10)
for (x, y) in ds_test_batch:
  logits = model(x, training=False)
  prediction = tf.math.argmax(logits, axis=1, output_type=tf.int64)
  test_accuracy(prediction, y)
RESULTS["test_accuracy"] = test_accuracy.result()
RESULTS["stacked"] = tf.stack([y,prediction],axis=1)

predict_dataset = tf.convert_to_tensor([
    [0.3, 0.8, 0.4, 0.5,],
    [0.4, 0.1, 0.8, 0.5,],
    [0.7, 0.9, 0.8, 0.4]
])
predictions = model(predict_dataset, training=False)
probs = []
for i, logits in enumerate(predictions):
  class_idx = tf.math.argmax(logits).numpy()
  p = tf.nn.softmax(logits)[class_idx]
  name = class_names[class_idx]
  probs.append(p)
  print("Example {} prediction: {} ({:4.1f}%)".format(i, name, 100*p))
RESULTS["probs"] = probs
