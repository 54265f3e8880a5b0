"""Title: Overfit and underfit (TensorFlow tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/keras/overfit_and_underfit.ipynb
Licence: Apache-2.0 (tensorflow/docs; the notebook's code also carries Chollet's MIT notice)
Changed: `!pip install` of tensorflow_docs, the tensorflow_docs/IPython/matplotlib imports, the
plotting and %tensorboard cells removed; the tfdocs.modeling.EpochDots() callback (it only
prints dots) removed from get_callbacks; the HIGGS download (11M rows) -> HIGGS.csv.gz written
to a tempfile directory with 1200 synthetic rows (label 0/1, 28 float features from a seeded
NumPy generator, the label depending on a few of them), still read with CsvDataset(GZIP);
N_VALIDATION 1e3 -> 200, N_TRAIN 1e4 -> 1000, BUFFER_SIZE 1e4 -> 1000, BATCH_SIZE 500 -> 100,
max_epochs 10000 -> 3 (EarlyStopping and TensorBoard callbacks kept, logs in the tempfile dir);
keras.utils.set_random_seed(0) (initializers, dropout and the shuffle are unseeded); the
histories, the learning-rate schedule, the regularization loss and the model outputs -> RESULTS.
"""
import gzip
import os

import tensorflow as tf
import keras

from tensorflow.keras import layers
from tensorflow.keras import regularizers

print(tf.__version__)

import numpy as np

import pathlib
import shutil
import tempfile

keras.utils.set_random_seed(0)
RESULTS = {}

logdir = pathlib.Path(tempfile.mkdtemp())/"tensorboard_logs"
shutil.rmtree(logdir, ignore_errors=True)
_rng = np.random.default_rng(0)
_x = _rng.normal(size=(1200, 28)).astype(np.float32)
_y = (_x[:, 0] + 0.5 * _x[:, 3] - _x[:, 7] * _x[:, 1] + _rng.normal(size=1200) > 0).astype(np.float32)
gz = os.path.join(tempfile.mkdtemp(), 'HIGGS.csv.gz')
with gzip.open(gz, 'wt') as _fh:
  for _label, _row in zip(_y, _x):
    _fh.write(",".join(f"{v:.18e}" for v in [_label, *_row]) + "\n")
FEATURES = 28
ds = tf.data.experimental.CsvDataset(gz,[float(),]*(FEATURES+1), compression_type="GZIP")
def pack_row(*row):
  label = row[0]
  features = tf.stack(row[1:],1)
  return features, label
packed_ds = ds.batch(10000).map(pack_row).unbatch()
for features,label in packed_ds.batch(1000).take(1):
  print(features[0])
RESULTS["features0"] = features[0]
RESULTS["labels"] = label[:20]
N_VALIDATION = int(200)
N_TRAIN = int(1000)
BUFFER_SIZE = int(1000)
BATCH_SIZE = 100
STEPS_PER_EPOCH = N_TRAIN//BATCH_SIZE
validate_ds = packed_ds.take(N_VALIDATION).cache()
train_ds = packed_ds.skip(N_VALIDATION).take(N_TRAIN).cache()
train_ds
validate_ds = validate_ds.batch(BATCH_SIZE)
train_ds = train_ds.shuffle(BUFFER_SIZE).repeat().batch(BATCH_SIZE)
lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(
  0.001,
  decay_steps=STEPS_PER_EPOCH*1000,
  decay_rate=1,
  staircase=False)

def get_optimizer():
  return tf.keras.optimizers.Adam(lr_schedule)
step = np.linspace(0,100000)
lr = lr_schedule(step)
RESULTS["lr"] = lr

def get_callbacks(name):
  return [
    tf.keras.callbacks.EarlyStopping(monitor='val_binary_crossentropy', patience=200),
    tf.keras.callbacks.TensorBoard(logdir/name),
  ]
def compile_and_fit(model, name, optimizer=None, max_epochs=3):
  if optimizer is None:
    optimizer = get_optimizer()
  model.compile(optimizer=optimizer,
                loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                metrics=[
                  tf.keras.metrics.BinaryCrossentropy(
                      from_logits=True, name='binary_crossentropy'),
                  'accuracy'])

  model.summary()

  history = model.fit(
    train_ds.map(lambda x, y: (x, tf.expand_dims(y, axis=-1))),
    steps_per_epoch = STEPS_PER_EPOCH,
    epochs=max_epochs,
    validation_data=validate_ds.map(lambda x, y: (x, tf.expand_dims(y, axis=-1))),
    callbacks=get_callbacks(name),
    verbose=0)
  return history
tiny_model = tf.keras.Sequential([
    layers.Dense(16, activation='elu', input_shape=(FEATURES,)),
    layers.Dense(1)
])
size_histories = {}
size_histories['Tiny'] = compile_and_fit(tiny_model, 'sizes/Tiny')
small_model = tf.keras.Sequential([
    # `input_shape` is only required here so that `.summary` works.
    layers.Dense(16, activation='elu', input_shape=(FEATURES,)),
    layers.Dense(16, activation='elu'),
    layers.Dense(1)
])
size_histories['Small'] = compile_and_fit(small_model, 'sizes/Small')
medium_model = tf.keras.Sequential([
    layers.Dense(64, activation='elu', input_shape=(FEATURES,)),
    layers.Dense(64, activation='elu'),
    layers.Dense(64, activation='elu'),
    layers.Dense(1)
])
size_histories['Medium']  = compile_and_fit(medium_model, "sizes/Medium")
large_model = tf.keras.Sequential([
    layers.Dense(512, activation='elu', input_shape=(FEATURES,)),
    layers.Dense(512, activation='elu'),
    layers.Dense(512, activation='elu'),
    layers.Dense(512, activation='elu'),
    layers.Dense(1)
])
size_histories['large'] = compile_and_fit(large_model, "sizes/large")
shutil.rmtree(logdir/'regularizers/Tiny', ignore_errors=True)
shutil.copytree(logdir/'sizes/Tiny', logdir/'regularizers/Tiny')
regularizer_histories = {}
regularizer_histories['Tiny'] = size_histories['Tiny']
l2_model = tf.keras.Sequential([
    layers.Dense(512, activation='elu',
                 kernel_regularizer=regularizers.l2(0.001),
                 input_shape=(FEATURES,)),
    layers.Dense(512, activation='elu',
                 kernel_regularizer=regularizers.l2(0.001)),
    layers.Dense(512, activation='elu',
                 kernel_regularizer=regularizers.l2(0.001)),
    layers.Dense(512, activation='elu',
                 kernel_regularizer=regularizers.l2(0.001)),
    layers.Dense(1)
])

regularizer_histories['l2'] = compile_and_fit(l2_model, "regularizers/l2")
result = l2_model(features)
regularization_loss=tf.add_n(l2_model.losses)
RESULTS["l2_result"] = result[:10]
RESULTS["regularization_loss"] = regularization_loss
dropout_model = tf.keras.Sequential([
    layers.Dense(512, activation='elu', input_shape=(FEATURES,)),
    layers.Dropout(0.5),
    layers.Dense(512, activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(512, activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(512, activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(1)
])

regularizer_histories['dropout'] = compile_and_fit(dropout_model, "regularizers/dropout")
combined_model = tf.keras.Sequential([
    layers.Dense(512, kernel_regularizer=regularizers.l2(0.0001),
                 activation='elu', input_shape=(FEATURES,)),
    layers.Dropout(0.5),
    layers.Dense(512, kernel_regularizer=regularizers.l2(0.0001),
                 activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(512, kernel_regularizer=regularizers.l2(0.0001),
                 activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(512, kernel_regularizer=regularizers.l2(0.0001),
                 activation='elu'),
    layers.Dropout(0.5),
    layers.Dense(1)
])

regularizer_histories['combined'] = compile_and_fit(combined_model, "regularizers/combined")
for _name, _h in {**size_histories, **regularizer_histories}.items():
  for _k in sorted(_h.history):
    RESULTS[f"{_name}_{_k}"] = _h.history[_k]
RESULTS["tensorboard_dirs"] = len(list(logdir.glob("*/*")))
