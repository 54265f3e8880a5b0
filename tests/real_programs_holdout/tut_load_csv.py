"""Title: Load CSV data (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/load_data/csv.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: no network and no pandas: the abalone CSV -> 100 synthetic rows (8 float columns, the last
`Age`) as NumPy arrays (`abalone_features.pop('Age')` -> the last column split off); the Titanic
DataFrame -> a dict of 80 synthetic NumPy columns of the same kinds (object strings / float32), and
`np.array(titanic[numeric_inputs.keys()])` -> those columns stacked; the Titanic CSV file and the
gzipped traffic CSV -> synthetic files written in a temporary directory; epochs 10/5 -> 2; verbose=0;
keras.utils.set_random_seed(0) (fit's shuffling, Dataset.shuffle and make_csv_dataset's unseeded
shuffles); each model's kernels fixed (fix_weights); the timing cells (%%time, repeat(20)), the
snapshot cell and the fonts zip section not transcribed; plot_model removed; printed values in
RESULTS.
"""
import csv
import gzip
import os
import tempfile

import numpy as np

# Make numpy values easier to read.
np.set_printoptions(precision=3, suppress=True)

import tensorflow as tf
from tensorflow.keras import layers
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_tmp = tempfile.mkdtemp()

_abalone = np.column_stack([_rng.random((100, 7)), _rng.integers(1, 25, 100)]).astype(np.float64)
abalone_features = _abalone[:, :7]
abalone_labels = _abalone[:, 7]

abalone_features = np.array(abalone_features)

abalone_model = tf.keras.Sequential([
    layers.Dense(64, activation='relu'),
    layers.Dense(1)
])

abalone_model.compile(loss=tf.keras.losses.MeanSquaredError(),
                      optimizer=tf.keras.optimizers.Adam())
abalone_model.build((None, 7))
fix_weights(abalone_model)

h = abalone_model.fit(abalone_features, abalone_labels, epochs=2, verbose=0)
RESULTS["abalone_loss"] = h.history["loss"]

normalize = layers.Normalization()
normalize.adapt(abalone_features)
RESULTS["normalize_mean"] = normalize.mean

norm_abalone_model = tf.keras.Sequential([
    normalize,
    layers.Dense(64, activation='relu'),
    layers.Dense(1)
])

norm_abalone_model.compile(loss=tf.keras.losses.MeanSquaredError(),
                           optimizer=tf.keras.optimizers.Adam())
norm_abalone_model.build((None, 7))
fix_weights(norm_abalone_model, seed=1)

h = norm_abalone_model.fit(abalone_features, abalone_labels, epochs=2, verbose=0)
RESULTS["norm_abalone_loss"] = h.history["loss"]

_n = 80
titanic = {
    "survived": _rng.integers(0, 2, _n).astype(np.int64),
    "sex": np.array(["male", "female"], dtype=object)[_rng.integers(0, 2, _n)],
    "age": _rng.uniform(1, 70, _n).round(0).astype(np.float64),
    "n_siblings_spouses": _rng.integers(0, 4, _n).astype(np.int64),
    "parch": _rng.integers(0, 3, _n).astype(np.int64),
    "fare": _rng.uniform(5, 100, _n).round(2),
    "class": np.array(["First", "Second", "Third"], dtype=object)[_rng.integers(0, 3, _n)],
    "deck": np.array(["unknown", "A", "B", "C"], dtype=object)[_rng.integers(0, 4, _n)],
    "embark_town": np.array(["Southampton", "Cherbourg", "Queenstown"], dtype=object)[_rng.integers(0, 3, _n)],
    "alone": np.array(["y", "n"], dtype=object)[_rng.integers(0, 2, _n)],
}

titanic_features = dict(titanic)
titanic_labels = titanic_features.pop('survived')

# Create a symbolic input
input = tf.keras.Input(shape=(), dtype=tf.float32)

# Perform a calculation using the input
result = 2*input + 1

calc = tf.keras.Model(inputs=input, outputs=result)
RESULTS["calc"] = [calc(np.array([1])).numpy(), calc(np.array([2])).numpy()]

inputs = {}

for name, column in titanic_features.items():
    dtype = column.dtype
    if dtype == object:
        dtype = tf.string
    else:
        dtype = tf.float32

    inputs[name] = tf.keras.Input(shape=(1,), name=name, dtype=dtype)

numeric_inputs = {name: input for name, input in inputs.items()
                  if input.dtype == tf.float32}

x = layers.Concatenate()(list(numeric_inputs.values()))
norm = layers.Normalization()
norm.adapt(np.column_stack([titanic[k] for k in numeric_inputs.keys()]))
all_numeric_inputs = norm(x)
RESULTS["norm_mean"] = norm.mean

preprocessed_inputs = [all_numeric_inputs]

for name, input in inputs.items():
    if input.dtype == tf.float32:
        continue

    lookup = layers.StringLookup(vocabulary=np.unique(titanic_features[name]))
    one_hot = layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())

    x = lookup(input)
    x = one_hot(x)
    preprocessed_inputs.append(x)

preprocessed_inputs_cat = layers.Concatenate()(preprocessed_inputs)

titanic_preprocessing = tf.keras.Model(inputs, preprocessed_inputs_cat)

titanic_features_dict = {name: np.array(value)
                         for name, value in titanic_features.items()}

features_dict = {name: values[:1] for name, values in titanic_features_dict.items()}
RESULTS["preprocessed_first"] = titanic_preprocessing(features_dict)


def titanic_model(preprocessing_head, inputs):
    body = tf.keras.Sequential([
        layers.Dense(64, activation='relu'),
        layers.Dense(1)
    ])

    preprocessed_inputs = preprocessing_head(inputs)
    result = body(preprocessed_inputs)
    model = tf.keras.Model(inputs, result)
    fix_weights(body, seed=2)

    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam())
    return model


titanic_model = titanic_model(titanic_preprocessing, inputs)

h = titanic_model.fit(x=titanic_features_dict, y=titanic_labels, epochs=2, verbose=0)
RESULTS["titanic_loss"] = h.history["loss"]

titanic_model.save(os.path.join(_tmp, 'test.keras'))
reloaded = tf.keras.models.load_model(os.path.join(_tmp, 'test.keras'))

features_dict = {name: values[:1] for name, values in titanic_features_dict.items()}

before = titanic_model(features_dict)
after = reloaded(features_dict)
assert (before-after) < 1e-3
RESULTS["before"] = before
RESULTS["after"] = after

import itertools


def slices(features):
    for i in itertools.count():
        # For each feature take index `i`
        example = {name: values[i] for name, values in features.items()}
        yield example


for example in slices(titanic_features_dict):
    RESULTS["first_slice"] = [f"{name:19s}: {value}" for name, value in example.items()]
    break

features_ds = tf.data.Dataset.from_tensor_slices(titanic_features_dict)

for example in features_ds:
    RESULTS["first_ds_element"] = [f"{name}: {value.numpy()!r}" for name, value in example.items()]
    break

titanic_ds = tf.data.Dataset.from_tensor_slices((titanic_features_dict, titanic_labels))

titanic_batches = titanic_ds.shuffle(len(titanic_labels)).batch(32)

h = titanic_model.fit(titanic_batches, epochs=2, verbose=0)
RESULTS["titanic_ds_loss"] = h.history["loss"]

titanic_file_path = os.path.join(_tmp, "train.csv")
with open(titanic_file_path, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(list(titanic))
    for i in range(_n):
        w.writerow([titanic[k][i] for k in titanic])

titanic_csv_ds = tf.data.experimental.make_csv_dataset(
    titanic_file_path,
    batch_size=5,  # Artificially small to make examples easier to show.
    label_name='survived',
    num_epochs=1,
    ignore_errors=True,)

for batch, label in titanic_csv_ds.take(1):
    RESULTS["csv_keys"] = list(batch)
    RESULTS["csv_dtypes"] = [v.dtype.name for v in batch.values()]
    RESULTS["csv_age"] = batch["age"]
    RESULTS["csv_sex"] = [s.decode() for s in batch["sex"].numpy()]
    RESULTS["csv_label"] = label

traffic_volume_csv_gz = os.path.join(_tmp, 'Metro_Interstate_Traffic_Volume.csv.gz')
with gzip.open(traffic_volume_csv_gz, "wt", newline="") as f:
    w = csv.writer(f)
    w.writerow(["holiday", "temp", "rain_1h", "snow_1h", "clouds_all", "weather_main",
                "weather_description", "date_time", "traffic_volume"])
    for i in range(600):
        w.writerow(["None", round(float(_rng.uniform(250, 300)), 2), 0.0, 0.0, int(_rng.integers(0, 100)),
                    "Clouds", "scattered clouds", f"2012-10-02 {i % 24:02d}:00:00",
                    int(_rng.integers(100, 7000))])

traffic_volume_csv_gz_ds = tf.data.experimental.make_csv_dataset(
    traffic_volume_csv_gz,
    batch_size=256,
    label_name='traffic_volume',
    num_epochs=1,
    compression_type="GZIP")

for batch, label in traffic_volume_csv_gz_ds.take(1):
    RESULTS["gz_keys"] = list(batch)
    RESULTS["gz_dtypes"] = [v.dtype.name for v in batch.values()]
    RESULTS["gz_temp"] = batch["temp"][:5]
    RESULTS["gz_label"] = label[:5]
RESULTS["gz_batches"] = [int(l.shape[0]) for _, l in traffic_volume_csv_gz_ds]
