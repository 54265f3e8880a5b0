"""Title: Migrate early stopping (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/early_stopping.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator section dropped (not TF2 eager code); tfds.load('mnist')
(downloaded; tensorflow_datasets) -> 384/128 synthetic uint8 28x28 images and int64 labels from a
seeded NumPy generator as (image, label) datasets; epochs 100 -> 12 (fit with EarlyStopping, and
the custom loop) and 100 -> 2 with the time-limit callback (its epoch count depends on the
clock, so only that it ran at most 2 epochs is recorded); verbose=0; keras.utils.set_random_seed(0)
(initializers are unseeded); the models' kernels fixed (fix_weights); prints -> RESULTS (the
histories, the epoch count, each epoch's training loss at step 0, accuracies and losses);
Metric.reset_states() -> reset_state() (Keras 3 itself has only the latter).
"""
import time
import numpy as np
import tensorflow as tf
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)

def normalize_img(image, label):
  return tf.cast(image, tf.float32) / 255., label

(ds_train, ds_test) = (
    tf.data.Dataset.from_tensor_slices((_rng.integers(0, 256, (384, 28, 28)).astype(np.uint8),
                                        _rng.integers(0, 10, 384))),
    tf.data.Dataset.from_tensor_slices((_rng.integers(0, 256, (128, 28, 28)).astype(np.uint8),
                                        _rng.integers(0, 10, 128))),
)

ds_train = ds_train.map(
    normalize_img, num_parallel_calls=tf.data.AUTOTUNE)
ds_train = ds_train.batch(128)

ds_test = ds_test.map(
    normalize_img, num_parallel_calls=tf.data.AUTOTUNE)
ds_test = ds_test.batch(128)

model = tf.keras.models.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dense(10)
])
fix_weights(model)

model.compile(
    optimizer=tf.keras.optimizers.Adam(0.005),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=[tf.keras.metrics.SparseCategoricalAccuracy()],
)

callback = tf.keras.callbacks.EarlyStopping(monitor='loss', patience=3)

# Only around 25 epochs are run during training, instead of 100.
history = model.fit(
    ds_train,
    epochs=12,
    validation_data=ds_test,
    callbacks=[callback],
    verbose=0
)

RESULTS["early_stopping_epochs"] = len(history.history['loss'])
RESULTS["early_stopping_history"] = [history.history[k] for k in sorted(history.history)]

class LimitTrainingTime(tf.keras.callbacks.Callback):
  def __init__(self, max_time_s):
    super().__init__()
    self.max_time_s = max_time_s
    self.start_time = None

  def on_train_begin(self, logs):
    self.start_time = time.time()

  def on_train_batch_end(self, batch, logs):
    now = time.time()
    if now - self.start_time >  self.max_time_s:
      self.model.stop_training = True

# Limit the training time to 30 seconds.
callback = LimitTrainingTime(30)
history = model.fit(
    ds_train,
    epochs=2,
    validation_data=ds_test,
    callbacks=[callback],
    verbose=0
)
RESULTS["time_limit_at_most_2"] = len(history.history['loss']) <= 2

model = tf.keras.models.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dense(10)
])
fix_weights(model)

optimizer = tf.keras.optimizers.Adam(0.005)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

train_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
train_loss_metric = tf.keras.metrics.SparseCategoricalCrossentropy()
val_acc_metric = tf.keras.metrics.SparseCategoricalAccuracy()
val_loss_metric = tf.keras.metrics.SparseCategoricalCrossentropy()

@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
      logits = model(x, training=True)
      loss_value = loss_fn(y, logits)
  grads = tape.gradient(loss_value, model.trainable_weights)
  optimizer.apply_gradients(zip(grads, model.trainable_weights))
  train_acc_metric.update_state(y, logits)
  train_loss_metric.update_state(y, logits)
  return loss_value

@tf.function
def test_step(x, y):
  logits = model(x, training=False)
  val_acc_metric.update_state(y, logits)
  val_loss_metric.update_state(y, logits)

epochs = 12
patience = 5
wait = 0
best = float('inf')

RESULTS["step0_loss"], RESULTS["train_acc"], RESULTS["val_acc"], RESULTS["val_loss"] = [], [], [], []
for epoch in range(epochs):
    start_time = time.time()

    for step, (x_batch_train, y_batch_train) in enumerate(ds_train):
      loss_value = train_step(x_batch_train, y_batch_train)
      if step % 200 == 0:
        RESULTS["step0_loss"].append(loss_value.numpy())
    train_acc = train_acc_metric.result()
    train_loss = train_loss_metric.result()
    train_acc_metric.reset_state()
    train_loss_metric.reset_state()
    RESULTS["train_acc"].append(train_acc.numpy())

    for x_batch_val, y_batch_val in ds_test:
      test_step(x_batch_val, y_batch_val)
    val_acc = val_acc_metric.result()
    val_loss = val_loss_metric.result()
    val_acc_metric.reset_state()
    val_loss_metric.reset_state()
    RESULTS["val_acc"].append(np.float32(float(val_acc)))  # (a float32 metric: judged at float32 precision)
    RESULTS["val_loss"].append(val_loss)

    # The early stopping strategy: stop the training if `val_loss` does not
    # decrease over a certain number of epochs.
    wait += 1
    if val_loss < best:
      best = val_loss
      wait = 0
    if wait >= patience:
      break
RESULTS["custom_loop_epochs"] = epoch + 1
