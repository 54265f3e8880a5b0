"""Title: Migrate single-worker multiple-GPU training (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/mirrored_strategy.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the TensorFlow 1 Estimator cells dropped (tf.compat.v1.estimator is not in TF 2.21, and
they are not TF2 eager code); verbose=0; keras.utils.set_random_seed(0) (the Dense initializer is
unseeded); the model's kernel fixed (fix_weights) after a build; the history, evaluation,
replica count and final weights -> RESULTS.
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

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
  model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
  optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)
  model.build((None, 2))
  fix_weights(model)

model.compile(optimizer=optimizer, loss='mse')
RESULTS['fit_loss'] = model.fit(dataset, verbose=0).history['loss']
_eval = model.evaluate(eval_dataset, return_dict=True, verbose=0)
RESULTS['eval_loss'] = _eval['loss']
RESULTS['replicas'] = strategy.num_replicas_in_sync
RESULTS['kernel'] = model.get_weights()[0]
RESULTS['bias'] = model.get_weights()[1]
