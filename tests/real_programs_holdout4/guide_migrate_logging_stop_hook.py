"""Title: Migrate LoggingTensorHook and StopAtStepHook to Keras callbacks (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/logging_stop_hook.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21, and
they are not TF2 eager code); verbose=0; keras.utils.set_random_seed(0) (the Dense initializer is
unseeded); the model's kernel fixed (fix_weights) after a build; the callbacks' prints also
appended to RESULTS (the logged weights and losses, the steps run, the history).
"""
import tensorflow as tf
import tensorflow.compat.v1 as tf1
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_logged = []

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]


class StopAtStepCallback(tf.keras.callbacks.Callback):
  def __init__(self, stop_step=None):
    super().__init__()
    self._stop_step = stop_step

  def on_batch_end(self, batch, logs=None):
    if self.model.optimizer.iterations >= self._stop_step:
      self.model.stop_training = True
      print('\nstop training now')

class LoggingTensorCallback(tf.keras.callbacks.Callback):
  def __init__(self, every_n_iter):
      super().__init__()
      self._every_n_iter = every_n_iter
      self._log_count = every_n_iter

  def on_batch_end(self, batch, logs=None):
    if self._log_count > 0:
      self._log_count -= 1
      print("Logging Tensor Callback: dense/kernel:",
            model.layers[0].weights[0])
      print("Logging Tensor Callback: dense/bias:",
            model.layers[0].weights[1])
      print("Logging Tensor Callback loss:", logs["loss"])
      _logged.append([float(model.layers[0].weights[0][0, 0]), float(model.layers[0].weights[0][1, 0]),
                      float(model.layers[0].weights[1][0]), float(logs["loss"])])
    else:
      self._log_count -= self._every_n_iter


dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
model.build((None, 2))
fix_weights(model)
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)
model.compile(optimizer, "mse")

# Begin training.
# The training will stop after 2 steps, and the weights/loss will also be logged.
history = model.fit(dataset, callbacks=[StopAtStepCallback(stop_step=2),
                                        LoggingTensorCallback(every_n_iter=2)], verbose=0)
RESULTS["logged"] = _logged
RESULTS["iterations"] = model.optimizer.iterations
RESULTS["history_loss"] = history.history["loss"]
RESULTS["kernel"] = model.layers[0].weights[0]
RESULTS["bias"] = model.layers[0].weights[1]
