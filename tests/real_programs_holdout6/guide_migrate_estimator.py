"""Title: Migrate from Estimator to Keras APIs (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/migrating_estimator.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21, and
they are not TF2 eager code); verbose=0; keras.utils.set_random_seed(0) (the Dense initializers
are unseeded); each model's kernel fixed (fix_weights) after a build; the histories,
evaluations and final weights -> RESULTS.
"""
import tensorflow as tf
import tensorflow.compat.v1 as tf1
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
eval_dataset = tf.data.Dataset.from_tensor_slices(
      (eval_features, eval_labels)).batch(1)

model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
model.build((None, 2))
fix_weights(model)
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

model.compile(optimizer=optimizer, loss="mse")

RESULTS['fit_loss'] = model.fit(dataset, verbose=0).history['loss']

_eval = model.evaluate(eval_dataset, return_dict=True, verbose=0)
RESULTS['eval_loss'] = _eval['loss']
RESULTS['kernel'] = model.get_weights()[0]


class CustomModel(tf.keras.Sequential):
  """A custom sequential model that overrides `Model.train_step`."""

  def train_step(self, data):
    batch_data, labels = data

    with tf.GradientTape() as tape:
      predictions = self(batch_data, training=True)
      # Compute the loss value (the loss function is configured
      # in `Model.compile`).
      loss = self.compiled_loss(labels, predictions)

    # Compute the gradients of the parameters with respect to the loss.
    gradients = tape.gradient(loss, self.trainable_variables)
    # Perform gradient descent by updating the weights/parameters.
    self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
    # Update the metrics (includes the metric that tracks the loss).
    self.compiled_metrics.update_state(labels, predictions)
    # Return a dict mapping metric names to the current values.
    return {m.name: m.result() for m in self.metrics}


dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
eval_dataset = tf.data.Dataset.from_tensor_slices(
      (eval_features, eval_labels)).batch(1)

model = CustomModel([tf.keras.layers.Dense(1)])
model.build((None, 2))
fix_weights(model)
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

model.compile(optimizer=optimizer, loss="mse")

_history = model.fit(dataset, verbose=0)
RESULTS['custom_fit_logs'] = [_history.history[k] for k in sorted(_history.history)]
RESULTS['custom_fit_keys'] = sorted(_history.history)

_eval = model.evaluate(eval_dataset, return_dict=True, verbose=0)
RESULTS['custom_eval'] = [_eval[k] for k in sorted(_eval)]
RESULTS['custom_kernel'] = model.get_weights()[0]
RESULTS['custom_bias'] = model.get_weights()[1]
