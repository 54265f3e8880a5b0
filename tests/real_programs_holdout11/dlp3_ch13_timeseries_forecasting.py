"""Title: Deep Learning with Python, 3rd ed., chapter 13: Timeseries forecasting
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter13_timeseries-forecasting.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's cells in order with KERAS_BACKEND="tensorflow" (the notebook sets "jax";
no cell here is backend-specific); the pip cell and the %%backend magic's registration removed.
The wget/unzip of jena_climate_2009_2016.csv (420451 rows; a "Date Time" column and 14 float
columns, temperature "T (degC)" second) -> the same CSV layout written to a tempfile directory
from a seeded NumPy generator (1600 rows: a daily-cycle temperature plus noise, 13 other
noisy columns), which the notebook's own parsing code reads. So that the three splits hold
windows at this size, sampling_rate 6 -> 2 and sequence_length 120 -> 72 (72 is about the
shortest the notebook's Conv1D stack accepts; the 24-step-ahead delay and batch_size 256 kept); epochs 10 -> 2 and 50 -> 2; verbose=0 on fit/evaluate; the matplotlib
plots removed; the checkpoint files -> paths in the tempfile directory; the last LSTM cell's
print without its f prefix (as published) kept as is; the stacked SimpleRNN, which the
notebook only builds, is called once on ones. keras.utils.set_random_seed(0) at the
top (the datasets' shuffles, np.random, the initializers and dropouts are unseeded). The dummy
dataset's windows, the naive baseline's MAEs, each model's history and test MAE, the NumPy RNN's
outputs and the symbolic RNN output shapes -> RESULTS.
"""
import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"
import numpy as np
import keras

keras.utils.set_random_seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()


def _write_jena_like_csv(path, n=1600):
    rng = np.random.default_rng(0)
    header = ['"Date Time"', '"p (mbar)"', '"T (degC)"', '"Tpot (K)"', '"Tdew (degC)"',
              '"rh (%)"', '"VPmax (mbar)"', '"VPact (mbar)"', '"VPdef (mbar)"', '"sh (g/kg)"',
              '"H2OC (mmol/mol)"', '"rho (g/m**3)"', '"wv (m/s)"', '"max. wv (m/s)"', '"wd (deg)"']
    t = np.arange(n)
    temp = 8.0 + 6.0 * np.sin(2 * np.pi * t / 144.0) + rng.normal(0, 1.0, n)
    cols = [990 + rng.normal(0, 5, n), temp, temp + 273.0 + rng.normal(0, 0.3, n)]
    for j in range(11):
        cols.append(rng.normal(10.0 * (j + 1), 2.0 + j, n))
    rows = [",".join(header)]
    for i in range(n):
        stamp = f"{1 + (i // 144) % 28:02d}.01.2009 {(i % 144) // 6:02d}:{(i % 6) * 10:02d}:00"
        rows.append(stamp + "," + ",".join(f"{c[i]:.2f}" for c in cols))
    with open(path, "w") as f:
        f.write("\n".join(rows))


_write_jena_like_csv(os.path.join(_tmp, "jena_climate_2009_2016.csv"))

import os

fname = os.path.join(_tmp, "jena_climate_2009_2016.csv")

with open(fname) as f:
    data = f.read()

lines = data.split("\n")
header = lines[0].split(",")
lines = lines[1:]
print(header)
print(len(lines))
RESULTS["num_lines"] = len(lines)
import numpy as np

temperature = np.zeros((len(lines),))
raw_data = np.zeros((len(lines), len(header) - 1))

for i, line in enumerate(lines):
    values = [float(x) for x in line.split(",")[1:]]
    temperature[i] = values[1]
    raw_data[i, :] = values[:]
num_train_samples = int(0.5 * len(raw_data))
num_val_samples = int(0.25 * len(raw_data))
num_test_samples = len(raw_data) - num_train_samples - num_val_samples
print("num_train_samples:", num_train_samples)
print("num_val_samples:", num_val_samples)
print("num_test_samples:", num_test_samples)
mean = raw_data[:num_train_samples].mean(axis=0)
raw_data -= mean
std = raw_data[:num_train_samples].std(axis=0)
raw_data /= std
RESULTS["mean"] = mean
RESULTS["std"] = std
import numpy as np
import keras

int_sequence = np.arange(10)
dummy_dataset = keras.utils.timeseries_dataset_from_array(
    data=int_sequence[:-3],
    targets=int_sequence[3:],
    sequence_length=3,
    batch_size=2,
)

_dummy = []
for inputs, targets in dummy_dataset:
    for i in range(inputs.shape[0]):
        print([int(x) for x in inputs[i]], int(targets[i]))
        _dummy.append([int(x) for x in inputs[i]] + [int(targets[i])])
RESULTS["dummy_windows"] = np.array(_dummy)
sampling_rate = 2
sequence_length = 72
delay = sampling_rate * (sequence_length + 24 - 1)
batch_size = 256

train_dataset = keras.utils.timeseries_dataset_from_array(
    raw_data[:-delay],
    targets=temperature[delay:],
    sampling_rate=sampling_rate,
    sequence_length=sequence_length,
    shuffle=True,
    batch_size=batch_size,
    start_index=0,
    end_index=num_train_samples,
)

val_dataset = keras.utils.timeseries_dataset_from_array(
    raw_data[:-delay],
    targets=temperature[delay:],
    sampling_rate=sampling_rate,
    sequence_length=sequence_length,
    shuffle=True,
    batch_size=batch_size,
    start_index=num_train_samples,
    end_index=num_train_samples + num_val_samples,
)

test_dataset = keras.utils.timeseries_dataset_from_array(
    raw_data[:-delay],
    targets=temperature[delay:],
    sampling_rate=sampling_rate,
    sequence_length=sequence_length,
    shuffle=True,
    batch_size=batch_size,
    start_index=num_train_samples + num_val_samples,
)
for samples, targets in train_dataset:
    print("samples shape:", samples.shape)
    print("targets shape:", targets.shape)
    RESULTS["first_batch_samples_shape"] = np.array(samples.shape)
    RESULTS["first_batch_targets_sorted"] = np.sort(targets.numpy())
    break


def evaluate_naive_method(dataset):
    total_abs_err = 0.0
    samples_seen = 0
    for samples, targets in dataset:
        preds = samples[:, -1, 1] * std[1] + mean[1]
        total_abs_err += np.sum(np.abs(preds - targets))
        samples_seen += samples.shape[0]
    return total_abs_err / samples_seen


print(f"Validation MAE: {evaluate_naive_method(val_dataset):.2f}")
print(f"Test MAE: {evaluate_naive_method(test_dataset):.2f}")
RESULTS["naive_val_mae"] = float(evaluate_naive_method(val_dataset))
RESULTS["naive_test_mae"] = float(evaluate_naive_method(test_dataset))
import keras
from keras import layers

inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.Flatten()(inputs)
x = layers.Dense(16, activation="relu")(x)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

callbacks = [
    keras.callbacks.ModelCheckpoint(os.path.join(_tmp, "jena_dense.keras"), save_best_only=True)
]
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["dense_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])

model = keras.models.load_model(os.path.join(_tmp, "jena_dense.keras"))
_test = model.evaluate(test_dataset, verbose=0)
print(f"Test MAE: {_test[1]:.2f}")
RESULTS["dense_test"] = _test
loss = history.history["mae"]
val_loss = history.history["val_mae"]
epochs = range(1, len(loss) + 1)
inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.Conv1D(8, 24, activation="relu")(inputs)
x = layers.MaxPooling1D(2)(x)
x = layers.Conv1D(8, 12, activation="relu")(x)
x = layers.MaxPooling1D(2)(x)
x = layers.Conv1D(8, 6, activation="relu")(x)
x = layers.GlobalAveragePooling1D()(x)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

callbacks = [
    keras.callbacks.ModelCheckpoint(os.path.join(_tmp, "jena_conv.keras"), save_best_only=True)
]
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["conv_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])

model = keras.models.load_model(os.path.join(_tmp, "jena_conv.keras"))
_test = model.evaluate(test_dataset, verbose=0)
print(f"Test MAE: {_test[1]:.2f}")
RESULTS["conv_test"] = _test
inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.LSTM(16)(inputs)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

callbacks = [
    keras.callbacks.ModelCheckpoint(os.path.join(_tmp, "jena_lstm.keras"), save_best_only=True)
]
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["lstm_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])

model = keras.models.load_model(os.path.join(_tmp, "jena_lstm.keras"))
_test = model.evaluate(test_dataset, verbose=0)
print("Test MAE: {model.evaluate(test_dataset)[1]:.2f}")
RESULTS["lstm_test"] = _test
import numpy as np

timesteps = 100
input_features = 32
output_features = 64
inputs = np.random.random((timesteps, input_features))
state_t = np.zeros((output_features,))
W = np.random.random((output_features, input_features))
U = np.random.random((output_features, output_features))
b = np.random.random((output_features,))
successive_outputs = []
for input_t in inputs:
    output_t = np.tanh(np.dot(W, input_t) + np.dot(U, state_t) + b)
    successive_outputs.append(output_t)
    state_t = output_t
final_output_sequence = np.concatenate(successive_outputs, axis=0)
RESULTS["numpy_rnn_final_output_sequence"] = final_output_sequence
num_features = 14
inputs = keras.Input(shape=(None, num_features))
outputs = layers.SimpleRNN(16)(inputs)
RESULTS["simple_rnn_any_length_shape"] = np.array([-1 if d is None else d for d in outputs.shape])
num_features = 14
steps = 120
inputs = keras.Input(shape=(steps, num_features))
outputs = layers.SimpleRNN(16, return_sequences=False)(inputs)
print(outputs.shape)
RESULTS["simple_rnn_last_shape"] = np.array([-1 if d is None else d for d in outputs.shape])
num_features = 14
steps = 120
inputs = keras.Input(shape=(steps, num_features))
outputs = layers.SimpleRNN(16, return_sequences=True)(inputs)
print(outputs.shape)
RESULTS["simple_rnn_sequences_shape"] = np.array([-1 if d is None else d for d in outputs.shape])
inputs = keras.Input(shape=(steps, num_features))
x = layers.SimpleRNN(16, return_sequences=True)(inputs)
x = layers.SimpleRNN(16, return_sequences=True)(x)
outputs = layers.SimpleRNN(16)(x)
RESULTS["stacked_simple_rnn_out"] = keras.Model(inputs, outputs)(np.ones((2, steps, num_features), dtype="float32"))
inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.LSTM(32, recurrent_dropout=0.25)(inputs)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

callbacks = [
    keras.callbacks.ModelCheckpoint(
        os.path.join(_tmp, "jena_lstm_dropout.keras"), save_best_only=True
    )
]
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["lstm_dropout_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])
inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.GRU(32, recurrent_dropout=0.5, return_sequences=True)(inputs)
x = layers.GRU(32, recurrent_dropout=0.5)(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

callbacks = [
    keras.callbacks.ModelCheckpoint(
        os.path.join(_tmp, "jena_stacked_gru_dropout.keras"), save_best_only=True
    )
]
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["stacked_gru_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])
model = keras.models.load_model(os.path.join(_tmp, "jena_stacked_gru_dropout.keras"))
_test = model.evaluate(test_dataset, verbose=0)
print(f"Test MAE: {_test[1]:.2f}")
RESULTS["stacked_gru_test"] = _test
inputs = keras.Input(shape=(sequence_length, raw_data.shape[-1]))
x = layers.Bidirectional(layers.LSTM(16))(inputs)
outputs = layers.Dense(1)(x)
model = keras.Model(inputs, outputs)

model.compile(optimizer="adam", loss="mse", metrics=["mae"])
history = model.fit(
    train_dataset,
    epochs=2,
    validation_data=val_dataset,
    verbose=0,
)
RESULTS["bidirectional_history"] = np.array([history.history[k] for k in ("loss", "mae", "val_loss", "val_mae")])
