"""Title: Migrate metrics and optimizers (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/migrate/metrics_optimizers.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order; the three TF1 cells that build and run a
tf1.estimator.Estimator (with tf1.layers, tf1.train.AdagradOptimizer, tf1.metrics and
tf1.estimator.add_metrics) removed: tf.compat.v1.estimator no longer exists in TensorFlow 2.21
(the Estimator API was removed in 2.16), so only the TF2 half (a Keras model whose output is an
argmax, compiled with Adagrad, mse and a tf.keras.metrics.Accuracy metric, evaluated on a
tf.data dataset, and the stateful Accuracy metric updated by hand) runs;
`tf.math.argmax(input=logits, axis=1)` on the Keras Input's symbolic
output -> `tf.keras.ops.argmax(logits, axis=1)` (Keras 3 rejects a TF op on a KerasTensor: "A
KerasTensor cannot be used as input to a TensorFlow function");
keras.utils.set_random_seed(0) at the top (the Dense layer's initializer is unseeded); the
displayed values (the evaluation dict, the metric results) -> RESULTS.
"""
RESULTS = {}

import tensorflow as tf
import tensorflow.compat.v1 as tf1

tf.keras.utils.set_random_seed(0)

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [0, 0, 1]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [0, 1, 1]

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
eval_dataset = tf.data.Dataset.from_tensor_slices(
      (eval_features, eval_labels)).batch(1)

inputs = tf.keras.Input((2,))
logits = tf.keras.layers.Dense(2)(inputs)
predictions = tf.keras.ops.argmax(logits, axis=1)
model = tf.keras.models.Model(inputs, predictions)
optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

model.compile(optimizer, loss='mse', metrics=[tf.keras.metrics.Accuracy()])

_eval = model.evaluate(eval_dataset, return_dict=True)
print(_eval)
RESULTS["evaluate_loss"] = _eval["loss"]
RESULTS["evaluate_accuracy"] = _eval["accuracy"]
RESULTS["predictions"] = model.predict(eval_dataset)

accuracy = tf.keras.metrics.Accuracy()

accuracy.update_state(y_true=[0, 0, 1, 1], y_pred=[0, 0, 0, 1])
RESULTS["accuracy_1"] = accuracy.result().numpy()

accuracy.update_state(y_true=[0, 0, 1, 1], y_pred=[0, 0, 0, 0])
accuracy.update_state(y_true=[0, 0, 1, 1], y_pred=[1, 1, 0, 0])
RESULTS["accuracy_2"] = accuracy.result().numpy()
