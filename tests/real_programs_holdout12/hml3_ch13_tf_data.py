"""Title: The tf.data API: chaining, shuffling, interleaving CSV files, preprocessing, training with datasets (Hands-On ML 3rd ed., chapter 13)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/13_loading_and_preprocessing_data.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of "The tf.data API" section (cells 11-50) in order, after the
setup imports (the scikit-learn version check removed: scikit-learn is not installed);
tf.keras.utils.set_random_seed(42) at the top (Keras 3's initializers do not follow
tf.random.set_seed alone); the California housing dataset (20640 x 8, fetched and split with
scikit-learn) -> 500 synthetic float64 rows of 8 features (rounded to 4 decimals) and a target
(3 decimals) from a seeded NumPy generator, split by slicing into 300/100/100 rows (so each
train CSV part holds 15 rows), with the dataset's feature names written out; the CSV files go
to a tempfile directory; StandardScaler's mean_/scale_ -> NumPy's mean and std (the same
values); the printed items -> RESULTS (the dataset items, the file names without their
directory, the lines read, the parsed batches), and the fit history, test MSE, predictions and
the weights after each hand-written loop -> RESULTS, with a final evaluate.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
# [cell 11]
import tensorflow as tf

X = tf.range(10)  # any data tensor
dataset = tf.data.Dataset.from_tensor_slices(X)
RESULTS["dataset_element_spec"] = [dataset.element_spec.dtype.name, str(dataset.element_spec.shape)]
# [cell 12]
for item in dataset:
    print(item)
RESULTS["range_items"] = [item for item in dataset]
# [cell 13]
X_nested = {"a": ([1, 2, 3], [4, 5, 6]), "b": [7, 8, 9]}
dataset = tf.data.Dataset.from_tensor_slices(X_nested)
for item in dataset:
    print(item)
RESULTS["nested_items"] = [[item["a"][0], item["a"][1], item["b"]] for item in dataset]
# [cell 15]
dataset = tf.data.Dataset.from_tensor_slices(tf.range(10))
dataset = dataset.repeat(3).batch(7)
for item in dataset:
    print(item)
RESULTS["repeat_batch_items_flat"] = tf.concat([item for item in dataset], axis=0)
RESULTS["repeat_batch_sizes"] = [len(item) for item in dataset]
# [cell 16]
dataset = dataset.map(lambda x: x * 2)  # x is a batch
for item in dataset:
    print(item)
RESULTS["map_items_flat"] = tf.concat([item for item in dataset], axis=0)
# [cell 17]
dataset = dataset.filter(lambda x: tf.reduce_sum(x) > 50)
for item in dataset:
    print(item)
RESULTS["filter_items_flat"] = tf.concat([item for item in dataset], axis=0)
# [cell 18]
for item in dataset.take(2):
    print(item)
RESULTS["take_2_items_flat"] = tf.concat([item for item in dataset.take(2)], axis=0)
# [cell 20]
dataset = tf.data.Dataset.range(10).repeat(2)
dataset = dataset.shuffle(buffer_size=4, seed=42).batch(7)
for item in dataset:
    print(item)
RESULTS["shuffle_batch_items_flat"] = tf.concat([item for item in dataset], axis=0)
# [cell 23]
_rng = np.random.default_rng(42)
_X = _rng.normal(size=(500, 8)) * [1.9, 12.6, 2.5, 0.5, 1132., 10.4, 2.1, 2.0] + [3.9, 28.6, 5.4, 1.1, 1425., 3.1, 35.6, -119.6]
_y = np.clip(_X[:, :1] * 0.4 + 0.5 + _rng.normal(scale=0.5, size=(500, 1)), 0.15, 5.0)
_X, _y = _X.round(4), _y.round(3)
X_train, X_valid, X_test = _X[:300], _X[300:400], _X[400:]
y_train, y_valid, y_test = _y[:300], _y[300:400], _y[400:]
_feature_names = ["MedInc", "HouseAge", "AveRooms", "AveBedrms", "Population", "AveOccup", "Latitude", "Longitude"]
# [cell 25]
# extra code – split the dataset into 20 parts and save it to CSV files

import numpy as np
from pathlib import Path

def save_to_csv_files(data, name_prefix, header=None, n_parts=10):
    housing_dir = Path(_tmp) / "datasets" / "housing"
    housing_dir.mkdir(parents=True, exist_ok=True)
    filename_format = "my_{}_{:02d}.csv"

    filepaths = []
    m = len(data)
    chunks = np.array_split(np.arange(m), n_parts)
    for file_idx, row_indices in enumerate(chunks):
        part_csv = housing_dir / filename_format.format(name_prefix, file_idx)
        filepaths.append(str(part_csv))
        with open(part_csv, "w") as f:
            if header is not None:
                f.write(header)
                f.write("\n")
            for row_idx in row_indices:
                f.write(",".join([str(col) for col in data[row_idx]]))
                f.write("\n")
    return filepaths

train_data = np.c_[X_train, y_train]
valid_data = np.c_[X_valid, y_valid]
test_data = np.c_[X_test, y_test]
header_cols = _feature_names + ["MedianHouseValue"]
header = ",".join(header_cols)

train_filepaths = save_to_csv_files(train_data, "train", header, n_parts=20)
valid_filepaths = save_to_csv_files(valid_data, "valid", header, n_parts=10)
test_filepaths = save_to_csv_files(test_data, "test", header, n_parts=10)
# [cell 27]
print("".join(open(train_filepaths[0]).readlines()[:4]))
# [cell 28]
RESULTS["train_filenames"] = [os.path.basename(p) for p in train_filepaths]
# [cell 30]
filepath_dataset = tf.data.Dataset.list_files(train_filepaths, seed=42)
# [cell 31]
# extra code – shows that the file paths are shuffled
for filepath in filepath_dataset:
    print(filepath)
RESULTS["shuffled_filenames"] = [os.path.basename(p.numpy().decode()) for p in filepath_dataset]
# [cell 32]
n_readers = 5
dataset = filepath_dataset.interleave(
    lambda filepath: tf.data.TextLineDataset(filepath).skip(1),
    cycle_length=n_readers)
# [cell 33]
for line in dataset.take(5):
    print(line)
RESULTS["interleaved_lines"] = [line.numpy() for line in dataset.take(5)]
# [cell 35]
# extra code – compute the mean and standard deviation of each feature

# [cell 36]
X_mean, X_std = X_train.mean(axis=0), X_train.std(axis=0)  # extra code
n_inputs = 8

def parse_csv_line(line):
    defs = [0.] * n_inputs + [tf.constant([], dtype=tf.float32)]
    fields = tf.io.decode_csv(line, record_defaults=defs)
    return tf.stack(fields[:-1]), tf.stack(fields[-1:])

def preprocess(line):
    x, y = parse_csv_line(line)
    return (x - X_mean) / X_std, y
# [cell 37]
RESULTS["preprocess_x"], RESULTS["preprocess_y"] = preprocess(b'4.2083,44.0,5.3232,0.9171,846.0,2.3370,37.47,-122.2,2.782')
# [cell 39]
def csv_reader_dataset(filepaths, n_readers=5, n_read_threads=None,
                       n_parse_threads=5, shuffle_buffer_size=10_000, seed=42,
                       batch_size=32):
    dataset = tf.data.Dataset.list_files(filepaths, seed=seed)
    dataset = dataset.interleave(
        lambda filepath: tf.data.TextLineDataset(filepath).skip(1),
        cycle_length=n_readers, num_parallel_calls=n_read_threads)
    dataset = dataset.map(preprocess, num_parallel_calls=n_parse_threads)
    dataset = dataset.shuffle(shuffle_buffer_size, seed=seed)
    return dataset.batch(batch_size).prefetch(1)
# [cell 40]
# extra code – show the first couple of batches produced by the dataset

example_set = csv_reader_dataset(train_filepaths, batch_size=3)
for X_batch, y_batch in example_set.take(2):
    print("X =", X_batch)
    print("y =", y_batch)
    print()
    RESULTS.setdefault("example_X_batches", []).append(X_batch)
    RESULTS.setdefault("example_y_batches", []).append(y_batch)
# [cell 42]
# extra code – list all methods of the tf.data.Dataset class
for m in dir(tf.data.Dataset):
    if not (m.startswith("_") or m.endswith("_")):
        func = getattr(tf.data.Dataset, m)
        if hasattr(func, "__doc__"):
            print("● {:21s}{}".format(m + "()", func.__doc__.split("\n")[0]))
# [cell 44]
train_set = csv_reader_dataset(train_filepaths)
valid_set = csv_reader_dataset(valid_filepaths)
test_set = csv_reader_dataset(test_filepaths)
# [cell 45]
# extra code – for reproducibility
tf.keras.backend.clear_session()
tf.random.set_seed(42)
# [cell 46]
model = tf.keras.Sequential([
    tf.keras.layers.Dense(30, activation="relu", kernel_initializer="he_normal",
                          input_shape=X_train.shape[1:]),
    tf.keras.layers.Dense(1),
])
model.compile(loss="mse", optimizer="sgd")
_history = model.fit(train_set, validation_data=valid_set, epochs=5)
# [cell 47]
test_mse = model.evaluate(test_set)
new_set = test_set.take(3)  # pretend we have 3 new samples
y_pred = model.predict(new_set)  # or you could just pass a NumPy array
RESULTS["fit_loss"] = _history.history["loss"]
RESULTS["fit_val_loss"] = _history.history["val_loss"]
RESULTS["test_mse"] = test_mse
RESULTS["y_pred"] = y_pred
# [cell 49]
# extra code – defines the optimizer and loss function for training
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_fn = tf.keras.losses.MeanSquaredError()

n_epochs = 5
for epoch in range(n_epochs):
    for X_batch, y_batch in train_set:
        # extra code – perform one Gradient Descent step
        #              as explained in Chapter 12
        print("\rEpoch {}/{}".format(epoch + 1, n_epochs), end="")
        with tf.GradientTape() as tape:
            y_pred = model(X_batch)
            main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
            loss = tf.add_n([main_loss] + model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
RESULTS["kernel_after_eager_loop"] = model.weights[0].numpy()
RESULTS["bias_after_eager_loop"] = model.weights[1].numpy()
# [cell 50]
@tf.function
def train_one_epoch(model, optimizer, loss_fn, train_set):
    for X_batch, y_batch in train_set:
        with tf.GradientTape() as tape:
            y_pred = model(X_batch)
            main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
            loss = tf.add_n([main_loss] + model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))

optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
loss_fn = tf.keras.losses.MeanSquaredError()
for epoch in range(n_epochs):
    print("\rEpoch {}/{}".format(epoch + 1, n_epochs), end="")
    train_one_epoch(model, optimizer, loss_fn, train_set)
RESULTS["kernel_after_tf_function_loop"] = model.weights[0].numpy()
RESULTS["bias_after_tf_function_loop"] = model.weights[1].numpy()
RESULTS["final_test_mse"] = model.evaluate(test_set)
