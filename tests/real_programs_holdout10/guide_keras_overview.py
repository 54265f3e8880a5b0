"""Title: Keras overview (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/8d20932cbd40915f3514e8f00d4e8a67709e6e0d/site/en/guide/keras/overview.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order (its last version, before the Keras guides moved to
keras.io); keras.utils.set_random_seed(0) at the top (np.random.random / randint and the Keras
initializers are unseeded; this also seeds NumPy's global generator that draws the guide's own
synthetic data, whose shapes are kept); verbose=0 on fit/evaluate/predict; './logs' -> a path in
a tempfile directory, and so are the save paths. The saving cells use Keras 2 forms that
Keras 3 refuses (save_weights('./weights/my_model') without a .weights.h5 suffix,
save_weights(..., save_format='h5'), to_yaml / model_from_yaml, model.save('my_model') without
an extension): each such call and the load that depends on it runs in a try that records the
error's type name. The histories, evaluations, predictions' shapes and values, the JSON config's
layer classes -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()


def _catch(key, fn):
  try:
    fn()
    RESULTS[key] = np.array("none")
  except Exception as e:
    RESULTS[key] = np.array(type(e).__name__)


import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
keras.utils.set_random_seed(0)

model = tf.keras.Sequential()
model.add(layers.Dense(64, activation='relu'))
model.add(layers.Dense(64, activation='relu'))
model.add(layers.Dense(10))
layers.Dense(64, activation='relu')
layers.Dense(64, activation=tf.nn.relu)

layers.Dense(64, kernel_regularizer=tf.keras.regularizers.l1(0.01))

layers.Dense(64, bias_regularizer=tf.keras.regularizers.l2(0.01))

layers.Dense(64, kernel_initializer='orthogonal')

layers.Dense(64, bias_initializer=tf.keras.initializers.Constant(2.0))
model = tf.keras.Sequential([
layers.Dense(64, activation='relu', input_shape=(32,)),
layers.Dense(64, activation='relu'),
layers.Dense(10)])

model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
              loss='mse',       # mean squared error
              metrics=['mae'])  # mean absolute error

model.compile(optimizer=tf.keras.optimizers.RMSprop(0.01),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
import numpy as np

data = np.random.random((1000, 32))
labels = np.random.random((1000, 10))

h = model.fit(data, labels, epochs=10, batch_size=32, verbose=0)
RESULTS["fit_numpy_loss"] = h.history["loss"]
RESULTS["fit_numpy_accuracy"] = h.history["accuracy"]
import numpy as np

data = np.random.random((1000, 32))
labels = np.random.random((1000, 10))

val_data = np.random.random((100, 32))
val_labels = np.random.random((100, 10))

h = model.fit(data, labels, epochs=10, batch_size=32,
          validation_data=(val_data, val_labels), verbose=0)
RESULTS["fit_val_loss"] = h.history["loss"]
RESULTS["fit_val_val_loss"] = h.history["val_loss"]
dataset = tf.data.Dataset.from_tensor_slices((data, labels))
dataset = dataset.batch(32)

h = model.fit(dataset, epochs=10, verbose=0)
RESULTS["fit_dataset_loss"] = h.history["loss"]
dataset = tf.data.Dataset.from_tensor_slices((data, labels))
dataset = dataset.batch(32)

val_dataset = tf.data.Dataset.from_tensor_slices((val_data, val_labels))
val_dataset = val_dataset.batch(32)

h = model.fit(dataset, epochs=10,
          validation_data=val_dataset, verbose=0)
RESULTS["fit_dataset_val_loss"] = h.history["val_loss"]
data = np.random.random((1000, 32))
labels = np.random.random((1000, 10))

RESULTS["evaluate_numpy"] = model.evaluate(data, labels, batch_size=32, verbose=0)

dataset = tf.data.Dataset.from_tensor_slices((data, labels))
dataset = dataset.batch(32)

RESULTS["evaluate_dataset"] = model.evaluate(dataset, verbose=0)
result = model.predict(data, batch_size=32, verbose=0)
print(result.shape)
RESULTS["predict_shape"] = result.shape
RESULTS["predict_head"] = result[:4]
inputs = tf.keras.Input(shape=(32,))  # Returns an input placeholder

x = layers.Dense(64, activation='relu')(inputs)
x = layers.Dense(64, activation='relu')(x)
predictions = layers.Dense(10)(x)
model = tf.keras.Model(inputs=inputs, outputs=predictions)

model.compile(optimizer=tf.keras.optimizers.RMSprop(0.001),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

h = model.fit(data, labels, batch_size=32, epochs=5, verbose=0)
RESULTS["functional_loss"] = h.history["loss"]


class MyModel(tf.keras.Model):

  def __init__(self, num_classes=10):
    super(MyModel, self).__init__(name='my_model')
    self.num_classes = num_classes
    # Define your layers here.
    self.dense_1 = layers.Dense(32, activation='relu')
    self.dense_2 = layers.Dense(num_classes)

  def call(self, inputs):
    # Define your forward pass here,
    # using layers you previously defined (in `__init__`).
    x = self.dense_1(inputs)
    return self.dense_2(x)
model = MyModel(num_classes=10)

model.compile(optimizer=tf.keras.optimizers.RMSprop(0.001),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

h = model.fit(data, labels, batch_size=32, epochs=5, verbose=0)
RESULTS["subclassed_loss"] = h.history["loss"]


class MyLayer(layers.Layer):

  def __init__(self, output_dim, **kwargs):
    self.output_dim = output_dim
    super(MyLayer, self).__init__(**kwargs)

  def build(self, input_shape):
    # Create a trainable weight variable for this layer.
    self.kernel = self.add_weight(name='kernel',
                                  shape=(input_shape[1], self.output_dim),
                                  initializer='uniform',
                                  trainable=True)

  def call(self, inputs):
    return tf.matmul(inputs, self.kernel)

  def get_config(self):
    base_config = super(MyLayer, self).get_config()
    base_config['output_dim'] = self.output_dim
    return base_config

  @classmethod
  def from_config(cls, config):
    return cls(**config)
model = tf.keras.Sequential([
    MyLayer(10)])

model.compile(optimizer=tf.keras.optimizers.RMSprop(0.001),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

h = model.fit(data, labels, batch_size=32, epochs=5, verbose=0)
RESULTS["custom_layer_loss"] = h.history["loss"]
callbacks = [
  # Interrupt training if `val_loss` stops improving for over 2 epochs
  tf.keras.callbacks.EarlyStopping(patience=2, monitor='val_loss'),
  # Write TensorBoard logs to `./logs` directory
  tf.keras.callbacks.TensorBoard(log_dir=os.path.join(_tmp, 'logs'))
]
h = model.fit(data, labels, batch_size=32, epochs=5, callbacks=callbacks,
          validation_data=(val_data, val_labels), verbose=0)
RESULTS["callbacks_val_loss"] = h.history["val_loss"]
RESULTS["callbacks_epochs_run"] = len(h.history["val_loss"])
model = tf.keras.Sequential([
layers.Dense(64, activation='relu', input_shape=(32,)),
layers.Dense(10)])

model.compile(optimizer=tf.keras.optimizers.Adam(0.001),
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
_catch("save_weights_tf_error", lambda: model.save_weights(os.path.join(_tmp, 'weights/my_model')))

_catch("load_weights_tf_error", lambda: model.load_weights(os.path.join(_tmp, 'weights/my_model')))
_catch("save_weights_h5_error",
       lambda: model.save_weights(os.path.join(_tmp, 'my_model.h5'), save_format='h5'))

_catch("load_weights_h5_error", lambda: model.load_weights(os.path.join(_tmp, 'my_model.h5')))
json_string = model.to_json()
json_string
import json
import pprint
pprint.pprint(json.loads(json_string))
_config = json.loads(json_string)
RESULTS["json_class_name"] = np.array(_config["class_name"])
RESULTS["json_layer_classes"] = np.array([l["class_name"] for l in _config["config"]["layers"]])
fresh_model = tf.keras.models.model_from_json(json_string)
RESULTS["fresh_model_weight_sizes"] = [int(np.prod(w.shape)) for w in fresh_model.weights]


def _yaml():
  yaml_string = model.to_yaml()
  print(yaml_string)
  fresh_model = tf.keras.models.model_from_yaml(yaml_string)
_catch("yaml_error", _yaml)
model = tf.keras.Sequential([
  layers.Dense(10, activation='relu', input_shape=(32,)),
  layers.Dense(10)
])
model.compile(optimizer='rmsprop',
              loss=tf.keras.losses.CategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
h = model.fit(data, labels, batch_size=32, epochs=5, verbose=0)
RESULTS["rmsprop_string_loss"] = h.history["loss"]


_catch("save_model_error", lambda: model.save(os.path.join(_tmp, 'my_model')))

_catch("load_model_error", lambda: tf.keras.models.load_model(os.path.join(_tmp, 'my_model')))
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
  model = tf.keras.Sequential()
  model.add(layers.Dense(16, activation='relu', input_shape=(10,)))
  model.add(layers.Dense(1))

  optimizer = tf.keras.optimizers.SGD(0.2)

  model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                optimizer=optimizer)

model.summary()
RESULTS["strategy_param_count"] = model.count_params()
x = np.random.random((1024, 10))
y = np.random.randint(2, size=(1024, 1))
x = tf.cast(x, tf.float32)
dataset = tf.data.Dataset.from_tensor_slices((x, y))
dataset = dataset.shuffle(buffer_size=1024).batch(32)

h = model.fit(dataset, epochs=1, verbose=0)
RESULTS["strategy_loss"] = h.history["loss"]
