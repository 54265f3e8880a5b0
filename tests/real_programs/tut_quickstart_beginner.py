"""Title: TensorFlow 2 quickstart for beginners (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/quickstart/beginner.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: MNIST -> 256 synthetic images (train) and 64 (test); 5 epochs -> 2; keras.utils.set_random_seed(0)
for the dropout masks and fit's shuffling; the model's kernels fixed (fix_weights); results in RESULTS.
"""
import tensorflow as tf
import numpy as np
from _corpus import images, labels, fix_weights
tf.keras.utils.set_random_seed(0)
RESULTS = {}

x_train = (images(256, 28, 28)[..., 0] * 255).astype(np.uint8); y_train = labels(256, 10).astype(np.uint8)
x_test = (images(64, 28, 28, seed=5)[..., 0] * 255).astype(np.uint8); y_test = labels(64, 10, seed=6).astype(np.uint8)
x_train, x_test = x_train / 255.0, x_test / 255.0

model = tf.keras.models.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dropout(0.2),
  tf.keras.layers.Dense(10)
])
fix_weights(model)

predictions = model(x_train[:1]).numpy()
RESULTS["predictions"] = predictions
RESULTS["softmax"] = tf.nn.softmax(predictions).numpy()

loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
RESULTS["initial_loss"] = loss_fn(y_train[:1], predictions).numpy()

model.compile(optimizer='adam',
              loss=loss_fn,
              metrics=['accuracy'])
history = model.fit(x_train, y_train, epochs=2, verbose=0)
RESULTS["history_loss"] = history.history["loss"]
RESULTS["evaluate"] = model.evaluate(x_test,  y_test, verbose=2)

probability_model = tf.keras.Sequential([
  model,
  tf.keras.layers.Softmax()
])
RESULTS["probability"] = probability_model(x_test[:5])
