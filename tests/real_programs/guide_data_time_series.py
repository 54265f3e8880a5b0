"""Title: tf.data: Build TensorFlow input pipelines, the time-series windowing section (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/data.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: range(100000) -> range(1000); the printed batches collected in RESULTS.
"""
import tensorflow as tf
RESULTS = {}

range_ds = tf.data.Dataset.range(1000)

batches = range_ds.batch(10, drop_remainder=True)
RESULTS["batches"] = [batch.numpy() for batch in batches.take(5)]

def dense_1_step(batch):
  return batch[:-1], batch[1:]

predict_dense_1_step = batches.map(dense_1_step)
RESULTS["dense_1_step"] = [[f.numpy(), l.numpy()] for f, l in predict_dense_1_step.take(3)]

batches = range_ds.batch(15, drop_remainder=True)

def label_next_5_steps(batch):
  return (batch[:-5],
          batch[-5:])

predict_5_steps = batches.map(label_next_5_steps)
RESULTS["next_5_features"] = [features.numpy() for features, label in predict_5_steps.take(3)]
RESULTS["next_5_labels"] = [label.numpy() for features, label in predict_5_steps.take(3)]

feature_length = 10
label_length = 3

features = range_ds.batch(feature_length, drop_remainder=True)
labels = range_ds.batch(feature_length).skip(1).map(lambda labels: labels[:label_length])

predicted_steps = tf.data.Dataset.zip((features, labels))
RESULTS["zipped_labels"] = [label.numpy() for features, label in predicted_steps.take(5)]

window_size = 5

windows = range_ds.window(window_size, shift=1)
RESULTS["flat"] = [x.numpy() for x in windows.flat_map(lambda x: x).take(30)]

def sub_to_batch(sub):
  return sub.batch(window_size, drop_remainder=True)

RESULTS["windows"] = [example.numpy() for example in windows.flat_map(sub_to_batch).take(5)]

def make_window_dataset(ds, window_size=5, shift=1, stride=1):
  windows = ds.window(window_size, shift=shift, stride=stride)

  def sub_to_batch(sub):
    return sub.batch(window_size, drop_remainder=True)

  windows = windows.flat_map(sub_to_batch)
  return windows

ds = make_window_dataset(range_ds, window_size=10, shift = 5, stride=3)
RESULTS["strided"] = [example.numpy() for example in ds.take(10)]

dense_labels_ds = ds.map(dense_1_step)
RESULTS["dense_labels"] = [labels.numpy() for inputs, labels in dense_labels_ds.take(3)]
