"""Title: Time series forecasting: data windowing and a linear model (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/structured_data/time_series.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the Jena climate CSV (pandas) -> 300 synthetic rows of 3 columns in _corpus.Frame (the
DataFrame features used: columns, len, slices, np.array); timeseries_dataset_from_array shuffle=True
-> False (the order is TF's random stream); MAX_EPOCHS 20 -> 2; the linear model's kernel fixed;
plots removed; results in RESULTS.
"""
import numpy as np
import tensorflow as tf
from _corpus import Frame, fix_weights
RESULTS = {}

_t = np.arange(300)
_rng = np.random.default_rng(0)
df = Frame(np.stack([np.sin(_t / 10) + 0.1 * _rng.normal(size=300), np.cos(_t / 7),
                     _rng.normal(size=300)], axis=1), ['T (degC)', 'p (mbar)', 'wv (m/s)'])
column_indices = {name: i for i, name in enumerate(df.columns)}
n = len(df)
train_df = df[0:int(n*0.7)]
val_df = df[int(n*0.7):int(n*0.9)]
test_df = df[int(n*0.9):]
num_features = 3
train_mean = np.array(train_df).mean(axis=0)
train_std = np.array(train_df).std(axis=0)
train_df = Frame((np.array(train_df) - train_mean) / train_std, df.columns)
val_df = Frame((np.array(val_df) - train_mean) / train_std, df.columns)
test_df = Frame((np.array(test_df) - train_mean) / train_std, df.columns)

class WindowGenerator():
  def __init__(self, input_width, label_width, shift,
               train_df=train_df, val_df=val_df, test_df=test_df,
               label_columns=None):
    # Store the raw data.
    self.train_df = train_df
    self.val_df = val_df
    self.test_df = test_df

    # Work out the label column indices.
    self.label_columns = label_columns
    if label_columns is not None:
      self.label_columns_indices = {name: i for i, name in
                                    enumerate(label_columns)}
    self.column_indices = {name: i for i, name in
                           enumerate(train_df.columns)}

    # Work out the window parameters.
    self.input_width = input_width
    self.label_width = label_width
    self.shift = shift

    self.total_window_size = input_width + shift

    self.input_slice = slice(0, input_width)
    self.input_indices = np.arange(self.total_window_size)[self.input_slice]

    self.label_start = self.total_window_size - self.label_width
    self.labels_slice = slice(self.label_start, None)
    self.label_indices = np.arange(self.total_window_size)[self.labels_slice]

w2 = WindowGenerator(input_width=6, label_width=1, shift=1,
                     label_columns=['T (degC)'])
w2
def split_window(self, features):
  inputs = features[:, self.input_slice, :]
  labels = features[:, self.labels_slice, :]
  if self.label_columns is not None:
    labels = tf.stack(
        [labels[:, :, self.column_indices[name]] for name in self.label_columns],
        axis=-1)

  # Slicing doesn't preserve static shape information, so set the shapes
  # manually. This way the `tf.data.Datasets` are easier to inspect.
  inputs.set_shape([None, self.input_width, None])
  labels.set_shape([None, self.label_width, None])

  return inputs, labels

WindowGenerator.split_window = split_window
# Stack three slices, the length of the total window.
example_window = tf.stack([np.array(train_df[:w2.total_window_size]),
                           np.array(train_df[100:100+w2.total_window_size]),
                           np.array(train_df[200:200+w2.total_window_size])])

example_inputs, example_labels = w2.split_window(example_window)

w2.example = example_inputs, example_labels
def make_dataset(self, data):
  data = np.array(data, dtype=np.float32)
  ds = tf.keras.utils.timeseries_dataset_from_array(
      data=data,
      targets=None,
      sequence_length=self.total_window_size,
      sequence_stride=1,
      shuffle=False,
      batch_size=32,)

  ds = ds.map(self.split_window)

  return ds

WindowGenerator.make_dataset = make_dataset
@property
def train(self):
  return self.make_dataset(self.train_df)

@property
def val(self):
  return self.make_dataset(self.val_df)

@property
def test(self):
  return self.make_dataset(self.test_df)

@property
def example(self):
  """Get and cache an example batch of `inputs, labels` for plotting."""
  result = getattr(self, '_example', None)
  if result is None:
    # No example batch was found, so get one from the `.train` dataset
    result = next(iter(self.train))
    # And cache it for next time
    self._example = result
  return result

WindowGenerator.train = train
WindowGenerator.val = val
WindowGenerator.test = test
WindowGenerator.example = example
MAX_EPOCHS = 2

def compile_and_fit(model, window, patience=2):
  early_stopping = tf.keras.callbacks.EarlyStopping(monitor='val_loss',
                                                    patience=patience,
                                                    mode='min')

  model.compile(loss=tf.keras.losses.MeanSquaredError(),
                optimizer=tf.keras.optimizers.Adam(),
                metrics=[tf.keras.metrics.MeanAbsoluteError()])

  history = model.fit(window.train, epochs=MAX_EPOCHS,
                      validation_data=window.val,
                      callbacks=[early_stopping])
  return history
single_step_window = WindowGenerator(
    input_width=1, label_width=1, shift=1,
    label_columns=['T (degC)'])

linear = tf.keras.Sequential([
    tf.keras.layers.Dense(units=1)
])
linear(single_step_window.example[0])
fix_weights(linear)
RESULTS["example_inputs"] = w2.example[0]
RESULTS["example_labels"] = w2.example[1]
history = compile_and_fit(linear, single_step_window)
RESULTS["history_loss"] = history.history["loss"]
RESULTS["history_val_loss"] = history.history["val_loss"]
RESULTS["evaluate"] = linear.evaluate(single_step_window.test, verbose=0)
RESULTS["kernel"] = linear.layers[0].kernel
