"""Title: Mixed precision (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/mixed_precision.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `!nvidia-smi -L` removed; MNIST (keras.datasets download) -> 1024 train / 256 test
synthetic uint8 28x28 images and int labels from a seeded NumPy generator; batch_size 8192 -> 256,
epochs 5 -> 2 (fit and the custom loop), shuffle buffer 10000 -> 1024; verbose=0;
keras.utils.set_random_seed(0) (initializers, validation-split shuffle and dataset shuffle are
unseeded). Keras 3 (which TF 2.21's tf.keras is) has no LossScaleOptimizer.get_scaled_loss /
get_unscaled_gradients: the custom step uses optimizer.scale_loss(loss) and passes the scaled
gradients to apply_gradients, which unscales them in Keras 3 (the Keras 3 spelling of the same
step). KerasTensors and Keras variables have a str dtype in Keras 3: the
prints of `x.dtype.name` etc. print `.dtype`. The global policy is set back to "float32" at the end (the process runs other programs).
Printed values (policy dtypes, tensor dtypes, history, scores, fp16 overflow/underflow, epoch
loss and accuracy) -> RESULTS.
"""
import numpy as np
import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras import mixed_precision

keras.utils.set_random_seed(0)
RESULTS = {}
policy = mixed_precision.Policy('mixed_float16')
mixed_precision.set_global_policy(policy)
# Equivalent to the two lines above
mixed_precision.set_global_policy('mixed_float16')
print('Compute dtype: %s' % policy.compute_dtype)
print('Variable dtype: %s' % policy.variable_dtype)
RESULTS["compute_dtype"] = np.array(policy.compute_dtype)
RESULTS["variable_dtype"] = np.array(policy.variable_dtype)
inputs = keras.Input(shape=(784,), name='digits')
if tf.config.list_physical_devices('GPU'):
  print('The model will run with 4096 units on a GPU')
  num_units = 4096
else:
  # Use fewer units on CPUs so the model finishes in a reasonable amount of time
  print('The model will run with 64 units on a CPU')
  num_units = 64
dense1 = layers.Dense(num_units, activation='relu', name='dense_1')
x = dense1(inputs)
dense2 = layers.Dense(num_units, activation='relu', name='dense_2')
x = dense2(x)
print(dense1.dtype_policy)
print('x.dtype: %s' % x.dtype)
RESULTS["dense1_policy"] = np.array(dense1.dtype_policy.name)
RESULTS["x_dtype"] = np.array(tf.as_dtype(x.dtype).name)
# 'kernel' is dense1's variable
print('dense1.kernel.dtype: %s' % dense1.kernel.dtype)
RESULTS["kernel_dtype"] = np.array(tf.as_dtype(dense1.kernel.dtype).name)
# INCORRECT: softmax and model output will be float16, when it should be float32
outputs = layers.Dense(10, activation='softmax', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype)
RESULTS["incorrect_outputs_dtype"] = np.array(tf.as_dtype(outputs.dtype).name)
# CORRECT: softmax and model output are float32
x = layers.Dense(10, name='dense_logits')(x)
outputs = layers.Activation('softmax', dtype='float32', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype)
RESULTS["outputs_dtype"] = np.array(tf.as_dtype(outputs.dtype).name)
# The linear activation is an identity function. So this simply casts 'outputs'
# to float32. In this particular case, 'outputs' is already float32 so this is a
# no-op.
outputs = layers.Activation('linear', dtype='float32')(outputs)
model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(loss='sparse_categorical_crossentropy',
              optimizer=keras.optimizers.RMSprop(),
              metrics=['accuracy'])

_rng = np.random.default_rng(0)
x_train = _rng.integers(0, 256, (1024, 28, 28)).astype(np.uint8)
y_train = _rng.integers(0, 10, (1024,)).astype(np.uint8)
x_test = _rng.integers(0, 256, (256, 28, 28)).astype(np.uint8)
y_test = _rng.integers(0, 10, (256,)).astype(np.uint8)
x_train = x_train.reshape(1024, 784).astype('float32') / 255
x_test = x_test.reshape(256, 784).astype('float32') / 255
initial_weights = model.get_weights()
history = model.fit(x_train, y_train,
                    batch_size=256,
                    epochs=2,
                    validation_split=0.2, verbose=0)
test_scores = model.evaluate(x_test, y_test, verbose=0)
print('Test loss:', test_scores[0])
print('Test accuracy:', test_scores[1])
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["test_scores"] = test_scores

x = tf.constant(256, dtype='float16')
RESULTS["overflow"] = (x ** 2).numpy()  # Overflow
x = tf.constant(1e-5, dtype='float16')
RESULTS["underflow"] = (x ** 2).numpy()  # Underflow
optimizer = keras.optimizers.RMSprop()
optimizer = mixed_precision.LossScaleOptimizer(optimizer)
loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                 .shuffle(1024).batch(256))
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(256)
@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    predictions = model(x)
    loss = loss_object(y, predictions)
    scaled_loss = optimizer.scale_loss(loss)
  scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
  optimizer.apply_gradients(zip(scaled_gradients, model.trainable_variables))
  return loss
@tf.function
def test_step(x):
  return model(x, training=False)
model.set_weights(initial_weights)
RESULTS["epoch_loss"] = []
RESULTS["epoch_test_accuracy"] = []
for epoch in range(2):
  epoch_loss_avg = tf.keras.metrics.Mean()
  test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='test_accuracy')
  for x, y in train_dataset:
    loss = train_step(x, y)
    epoch_loss_avg(loss)
  for x, y in test_dataset:
    predictions = test_step(x)
    test_accuracy.update_state(y, predictions)
  print('Epoch {}: loss={}, test accuracy={}'.format(epoch, epoch_loss_avg.result(), test_accuracy.result()))
  RESULTS["epoch_loss"].append(float(epoch_loss_avg.result()))
  RESULTS["epoch_test_accuracy"].append(float(test_accuracy.result()))
RESULTS["loss_scale"] = optimizer.dynamic_scale
mixed_precision.set_global_policy('float32')
