"""Title: Migrate the fault tolerance mechanism (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/fault_tolerance.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `!pip install tf-nightly` and the TensorFlow 1 Estimator cells dropped
(tf.compat.v1.estimator is not in TF 2.21, and they are not TF2 eager code);
mnist.load_data() (downloaded; 60000/10000 uint8 28x28 images) -> 200/64 synthetic uint8 images
and labels from a seeded NumPy generator; Dense 512 -> 64 units; epochs 10 -> 5,
steps_per_epoch 100 -> 5 (fit), the step interruption 140 -> 14 and save_freq 30 -> 3;
verbose=0; keras.utils.set_random_seed(0) (dropout and initializers are unseeded); each model's
kernels fixed (fix_weights, after a build); prints -> RESULTS (the interruptions, the histories,
the loop's losses and checkpoint names).
"""
import tensorflow.compat.v1 as tf1
import tensorflow as tf
import numpy as np
import tempfile
import time
import os
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)

(x_train, y_train),(x_test, y_test) = (
    (_rng.integers(0, 256, (200, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 200).astype(np.uint8)),
    (_rng.integers(0, 256, (64, 28, 28)).astype(np.uint8), _rng.integers(0, 10, 64).astype(np.uint8)))
x_train, x_test = x_train / 255.0, x_test / 255.0

class InterruptAtEpoch(tf.keras.callbacks.Callback):
  # A callback for artificially interrupting training.
  def __init__(self, interrupting_epoch=3):
    self.interrupting_epoch = interrupting_epoch

  def on_epoch_end(self, epoch, log=None):
    if epoch == self.interrupting_epoch:
      raise RuntimeError('Interruption')

def create_model():
  return tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10)
  ])
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model = create_model()
fix_weights(model)
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'])
log_dir = tempfile.mkdtemp()
backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
    backup_dir = log_dir)

try:
  model.fit(x=x_train,
            y=y_train,
            epochs=5,
            steps_per_epoch=5,
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback, InterruptAtEpoch()], verbose=0)
except Exception as e:
  print(f'{type(e).__name__}:{e}')
  RESULTS["interrupted_1"] = f'{type(e).__name__}:{e}'
RESULTS["iterations_1"] = model.optimizer.iterations

model = create_model()
fix_weights(model, seed=1)
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'],
              steps_per_execution=10)
history = model.fit(x=x_train,
            y=y_train,
            epochs=5,
            steps_per_epoch=5,
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback], verbose=0)
RESULTS["resumed_epochs"] = history.epoch
RESULTS["resumed_history"] = [history.history[k] for k in sorted(history.history)]
RESULTS["resumed_kernel"] = model.layers[-1].kernel

class InterruptAtStep(tf.keras.callbacks.Callback):
  # A callback for artificially interrupting training.
  def __init__(self, interrupting_step=14):
    self.total_step_count = 0
    self.interrupting_step = interrupting_step

  def on_batch_begin(self, batch, logs=None):
    self.total_step_count += 1

  def on_batch_end(self, batch, logs=None):
    if self.total_step_count == self.interrupting_step:
      print("\nInterrupting at step count", self.total_step_count)
      raise RuntimeError('Interruption')

log_dir_2 = tempfile.mkdtemp()

backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
    backup_dir = log_dir_2, save_freq=3
)
model = create_model()
fix_weights(model, seed=2)
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'])
try:
  model.fit(x=x_train,
            y=y_train,
            epochs=5,
            steps_per_epoch=5,
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback, InterruptAtStep()], verbose=0)
except Exception as e:
  print(f'{type(e).__name__}:{e}')
  RESULTS["interrupted_2"] = f'{type(e).__name__}:{e}'
RESULTS["iterations_2"] = model.optimizer.iterations

model = create_model()
fix_weights(model, seed=3)
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'],
              steps_per_execution=10)
history = model.fit(x=x_train,
            y=y_train,
            epochs=5,
            steps_per_epoch=5,
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback], verbose=0)
RESULTS["resumed_epochs_2"] = history.epoch
RESULTS["resumed_history_2"] = [history.history[k] for k in sorted(history.history)]
RESULTS["resumed_kernel_2"] = model.layers[-1].kernel

model = create_model()
fix_weights(model, seed=4)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
log_dir = tempfile.mkdtemp()
epochs = 5
steps_per_epoch = 5

checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
checkpoint_manager = tf.train.CheckpointManager(
            checkpoint, log_dir, max_to_keep=2)

_losses, _saved = [], []
for epoch in range(epochs):
  if epoch > 0:
      tf.train.load_checkpoint(save_path)
  print(f"\nStart of epoch {epoch}")

  for step in range(steps_per_epoch):
    with tf.GradientTape() as tape:

      logits = model(x_train, training=True)
      loss_value = loss_fn(y_train, logits)

      grads = tape.gradient(loss_value, model.trainable_weights)
      optimizer.apply_gradients(zip(grads, model.trainable_weights))

    save_path = checkpoint_manager.save()
    print(f"Checkpoint saved to {save_path}")
    print(f"Training loss at step {step}: {loss_value}")
    _losses.append(loss_value)
    _saved.append(os.path.basename(save_path))
RESULTS["loop_losses"] = _losses
RESULTS["saved"] = _saved
RESULTS["kept"] = [os.path.basename(p) for p in checkpoint_manager.checkpoints]
