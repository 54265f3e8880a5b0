"""Title: Timeseries forecasting for weather prediction (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0a57de48c864d63b80083820e8988368ee5c3149/examples/timeseries/timeseries_weather_forecasting.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the Jena climate CSV download (420551 rows of 14 features, one every 10 minutes, read
with pandas) -> 6000 rows of 14 synthetic daily-periodic features (144 rows a day, plus seeded
NumPy noise) held as a dict of float64 columns (pandas is not a dependency): df[selected_features]
-> a (rows, 7) array stacked from the columns, .values -> the array, pd.DataFrame(features) ->
the array, .loc[a : b - 1] / .loc[a:] / .iloc[a:b] -> [a:b] / [a:] / [a:b], [[i for i in
range(7)]] / [[1]] column selections -> [:, [...]]; features.index and .head() removed; epochs
10 -> 2; the ModelCheckpoint file "model_checkpoint.h5" -> "model_checkpoint.weights.h5" in a
tempfile directory (Keras 3's save_weights_only needs the .weights.h5 suffix);
keras.utils.set_random_seed(0) (initializers are unseeded); fit verbose=0; model.summary()
kept; the matplotlib visualisations removed (the five validation predictions they plot are kept);
prints -> RESULTS (shapes, history, the predictions and their targets).
"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()

_rng = np.random.default_rng(0)
_n = 6000
_t = np.arange(_n)
_day = np.sin(2 * np.pi * _t / 144)
_base = [990.0, 9.0, 283.0, 5.0, 75.0, 13.0, 9.5, 3.5, 6.0, 9.5, 1215.0, 2.0, 3.5, 175.0]
_amp = [3.0, 6.0, 6.0, 3.0, -12.0, 5.0, 2.0, 4.0, 1.3, 2.0, -20.0, 0.8, 1.2, 60.0]

titles = [
    "Pressure",
    "Temperature",
    "Temperature in Kelvin",
    "Temperature (dew point)",
    "Relative Humidity",
    "Saturation vapor pressure",
    "Vapor pressure",
    "Vapor pressure deficit",
    "Specific humidity",
    "Water vapor concentration",
    "Airtight",
    "Wind speed",
    "Maximum wind speed",
    "Wind direction in degrees",
]

feature_keys = [
    "p (mbar)",
    "T (degC)",
    "Tpot (K)",
    "Tdew (degC)",
    "rh (%)",
    "VPmax (mbar)",
    "VPact (mbar)",
    "VPdef (mbar)",
    "sh (g/kg)",
    "H2OC (mmol/mol)",
    "rho (g/m**3)",
    "wv (m/s)",
    "max. wv (m/s)",
    "wd (deg)",
]

df = {
    key: _base[i] + _amp[i] * _day + _rng.normal(0.0, abs(_amp[i]) * 0.3, _n)
    for i, key in enumerate(feature_keys)
}

date_time_key = "Date Time"

split_fraction = 0.715
train_split = int(split_fraction * int(_n))
step = 6

past = 720
future = 72
learning_rate = 0.001
batch_size = 256
epochs = 2


def normalize(data, train_split):
    data_mean = data[:train_split].mean(axis=0)
    data_std = data[:train_split].std(axis=0)
    return (data - data_mean) / data_std


print(
    "The selected parameters are:",
    ", ".join([titles[i] for i in [0, 1, 5, 7, 8, 10, 11]]),
)
selected_features = [feature_keys[i] for i in [0, 1, 5, 7, 8, 10, 11]]
features = np.stack([df[k] for k in selected_features], axis=1)

features = normalize(features, train_split)

train_data = features[0:train_split]
val_data = features[train_split:]

start = past + future
end = start + train_split

x_train = train_data[:, [i for i in range(7)]]
y_train = features[start:end][:, [1]]

sequence_length = int(past / step)

dataset_train = keras.preprocessing.timeseries_dataset_from_array(
    x_train,
    y_train,
    sequence_length=sequence_length,
    sampling_rate=step,
    batch_size=batch_size,
)

x_end = len(val_data) - past - future

label_start = train_split + past + future

x_val = val_data[:x_end][:, [i for i in range(7)]]
y_val = features[label_start:][:, [1]]

dataset_val = keras.preprocessing.timeseries_dataset_from_array(
    x_val,
    y_val,
    sequence_length=sequence_length,
    sampling_rate=step,
    batch_size=batch_size,
)


for batch in dataset_train.take(1):
    inputs, targets = batch

print("Input shape:", inputs.numpy().shape)
print("Target shape:", targets.numpy().shape)
RESULTS["input_shape"] = list(inputs.numpy().shape)
RESULTS["target_shape"] = list(targets.numpy().shape)
RESULTS["first_targets"] = targets.numpy()[:8]

inputs = keras.layers.Input(shape=(inputs.shape[1], inputs.shape[2]))
lstm_out = keras.layers.LSTM(32)(inputs)
outputs = keras.layers.Dense(1)(lstm_out)

model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(optimizer=keras.optimizers.Adam(learning_rate=learning_rate), loss="mse")
model.summary()

path_checkpoint = os.path.join(_tmp, "model_checkpoint.weights.h5")
es_callback = keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0, patience=5)

modelckpt_callback = keras.callbacks.ModelCheckpoint(
    monitor="val_loss",
    filepath=path_checkpoint,
    verbose=1,
    save_weights_only=True,
    save_best_only=True,
)

history = model.fit(
    dataset_train,
    epochs=epochs,
    validation_data=dataset_val,
    callbacks=[es_callback, modelckpt_callback],
    verbose=0,
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]
RESULTS["checkpoint_written"] = os.path.exists(path_checkpoint)

_preds, _truth, _hist = [], [], []
for x, y in dataset_val.take(5):
    _hist.append(x[0][:, 1].numpy())
    _truth.append(y[0].numpy())
    _preds.append(model.predict(x, verbose=0)[0])
RESULTS["val_history_feature"] = _hist
RESULTS["val_truth"] = _truth
RESULTS["val_predictions"] = _preds
