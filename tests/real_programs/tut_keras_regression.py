"""Title: Basic regression: predict fuel efficiency (TF tutorial, Keras)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/keras/regression.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the Auto MPG CSV (pandas) -> 120 synthetic rows of 9 float32 features; epochs 100 -> 3,
validation_split kept;
keras.utils.set_random_seed(0) for fit's shuffling; the models' kernels fixed (fix_weights); plots removed; results in RESULTS.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights
tf.keras.utils.set_random_seed(0)
RESULTS = {}

_rng = np.random.default_rng(0)
train_features = (_rng.normal(size=(120, 9)) * [1, 50, 40, 300, 3, 2, 1, 1, 1] + [5, 190, 100, 2900, 15, 76, 0, 0, 1]).astype(np.float32)
train_labels = (train_features[:, 2] * -0.1 + 35 + _rng.normal(size=120)).astype(np.float32)
test_features = train_features[:20] + 1.0
test_labels = train_labels[:20]

normalizer = tf.keras.layers.Normalization(axis=-1)
normalizer.adapt(np.array(train_features))
RESULTS["normalizer_mean"] = normalizer.mean.numpy()
first = np.array(train_features[:1])
RESULTS["normalized_first"] = normalizer(first).numpy()

horsepower = np.array(train_features[:, 2])
horsepower_normalizer = layers.Normalization(input_shape=[1,], axis=None)
horsepower_normalizer.adapt(horsepower)

horsepower_model = tf.keras.Sequential([
    horsepower_normalizer,
    layers.Dense(units=1)
])
fix_weights(horsepower_model)
RESULTS["hp_predict"] = horsepower_model.predict(horsepower[:10], verbose=0)

horsepower_model.compile(
    optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
    loss='mean_absolute_error')
history = horsepower_model.fit(
    train_features[:, 2],
    train_labels,
    epochs=3,
    verbose=0,
    validation_split = 0.2)
RESULTS["hp_history"] = history.history['loss']
RESULTS["hp_val"] = history.history['val_loss']

def build_and_compile_model(norm):
  model = keras.Sequential([
      norm,
      layers.Dense(64, activation='relu'),
      layers.Dense(64, activation='relu'),
      layers.Dense(1)
  ])
  model.compile(loss='mean_absolute_error',
                optimizer=tf.keras.optimizers.Adam(0.001))
  return model

dnn_model = build_and_compile_model(normalizer)
dnn_model.build((None, 9))
fix_weights(dnn_model, seed=1)
history = dnn_model.fit(
    train_features,
    train_labels,
    validation_split=0.2,
    verbose=0, epochs=3)
RESULTS["dnn_history"] = history.history['loss']
RESULTS["dnn_evaluate"] = dnn_model.evaluate(test_features, test_labels, verbose=0)
RESULTS["dnn_predict"] = dnn_model.predict(test_features, verbose=0).flatten()
