"""Title: Migrate SessionRunHook to Keras callbacks (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/sessionrunhook_callback.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21, and
they are not TF2 eager code); keras.utils.set_random_seed(0) (the Dense initializer is unseeded);
the model's kernel fixed (fix_weights) after a build; the callback's logged steps (not its
timings, which vary run to run) and the history -> RESULTS; the unused `from absl import flags`
dropped (absl-py comes with TensorFlow, not with tapegrad, and the guide never uses `flags`).
"""
import tensorflow as tf
import tensorflow.compat.v1 as tf1

import time
from datetime import datetime
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_logged_steps = []

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]


class CustomCallback(tf.keras.callbacks.Callback):

    def on_train_begin(self, logs = None):
      self._step = -1
      self._start_time = time.time()
      self.log_frequency = 10

    def on_train_batch_begin(self, batch, logs = None):
      self._step += 1

    def on_train_batch_end(self, batch, logs = None):
      if self._step % self.log_frequency == 0:
        current_time = time.time()
        duration = current_time - self._start_time
        self._start_time = current_time
        examples_per_sec = self.log_frequency / duration
        print('Time:', datetime.now(), ', Step #:', self._step,
              ', Examples per second:', examples_per_sec)
        _logged_steps.append(self._step)

callback = CustomCallback()

dataset = tf.data.Dataset.from_tensor_slices(
    (features, labels)).batch(1).repeat(100)

model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
model.build((None, 2))
fix_weights(model)
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

model.compile(optimizer, "mse")

# Begin training.
result = model.fit(dataset, callbacks=[callback], verbose = 0)
# Provide the results of training metrics.
result.history
RESULTS["history_loss"] = result.history["loss"]
RESULTS["logged_steps"] = _logged_steps
RESULTS["weights"] = model.get_weights()[0]
RESULTS["bias"] = model.get_weights()[1]
