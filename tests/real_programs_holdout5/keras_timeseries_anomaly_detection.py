"""Title: Timeseries anomaly detection using an Autoencoder (Keras example)
Source: https://github.com/keras-team/keras-io/blob/3aca0563e5cebb3e442bee3f7c30adc53cfe3102/examples/timeseries/timeseries_anomaly_detection.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the two NAB CSV downloads read with pandas (4032 values, one every 5 minutes for 14
days) -> two synthetic daily-periodic series of 14 days x 48 values from a seeded NumPy generator
(the second with a jump up on day 11), held as (n, 1) float64 arrays instead of DataFrames
(pandas is not a dependency): .mean()/.std() -> mean(axis=0)/std(axis=0, ddof=1) as pandas
computes them, .values -> the array, .head() -> the first 5 rows, .iloc[idx] -> [idx];
TIME_STEPS 288 -> 48; epochs 50 -> 6 (EarlyStopping kept); batch_size 128 -> 64; verbose=0;
matplotlib cells removed; keras.utils.set_random_seed(0) (shuffle, dropout and initializers
are unseeded); the model's kernels fixed (fix_weights); prints -> RESULTS (the MAE losses as
float32: NumPy widens the float32 reconstructions to float64, but they carry float32's precision).
"""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_t = np.arange(14 * 48)
_daily = 20.0 + 60.0 * (np.sin(2 * np.pi * _t / 48) > 0.3)
df_small_noise = (_daily + _rng.normal(0, 2.0, _t.shape))[:, None]
df_daily_jumpsup = (_daily + _rng.normal(0, 2.0, _t.shape) +
                    60.0 * ((_t >= 10 * 48 + 20) & (_t < 10 * 48 + 30)))[:, None]

print(df_small_noise[:5])

print(df_daily_jumpsup[:5])

# Normalize and save the mean and std we get,
# for normalizing test data.
training_mean = df_small_noise.mean(axis=0)
training_std = df_small_noise.std(axis=0, ddof=1)
df_training_value = (df_small_noise - training_mean) / training_std
print("Number of training samples:", len(df_training_value))

TIME_STEPS = 48

# Generated training sequences for use in the model.
def create_sequences(values, time_steps=TIME_STEPS):
    output = []
    for i in range(len(values) - time_steps + 1):
        output.append(values[i : (i + time_steps)])
    return np.stack(output)


x_train = create_sequences(df_training_value)
print("Training input shape: ", x_train.shape)
RESULTS["x_train_shape"] = list(x_train.shape)

model = keras.Sequential(
    [
        layers.Input(shape=(x_train.shape[1], x_train.shape[2])),
        layers.Conv1D(
            filters=32, kernel_size=7, padding="same", strides=2, activation="relu"
        ),
        layers.Dropout(rate=0.2),
        layers.Conv1D(
            filters=16, kernel_size=7, padding="same", strides=2, activation="relu"
        ),
        layers.Conv1DTranspose(
            filters=16, kernel_size=7, padding="same", strides=2, activation="relu"
        ),
        layers.Dropout(rate=0.2),
        layers.Conv1DTranspose(
            filters=32, kernel_size=7, padding="same", strides=2, activation="relu"
        ),
        layers.Conv1DTranspose(filters=1, kernel_size=7, padding="same"),
    ]
)
fix_weights(model)
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.001), loss="mse")
model.summary()

history = model.fit(
    x_train,
    x_train,
    epochs=6,
    batch_size=64,
    validation_split=0.1,
    callbacks=[
        keras.callbacks.EarlyStopping(monitor="val_loss", patience=5, mode="min")
    ],
    verbose=0,
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]

# Get train MAE loss.
x_train_pred = model.predict(x_train, verbose=0)
train_mae_loss = np.mean(np.abs(x_train_pred - x_train), axis=1)

# Get reconstruction loss threshold.
threshold = np.max(train_mae_loss)
print("Reconstruction error threshold: ", threshold)
RESULTS["train_mae_loss"] = train_mae_loss.astype("float32")
RESULTS["threshold"] = threshold.astype("float32")
RESULTS["first_reconstruction"] = x_train_pred[0]

df_test_value = (df_daily_jumpsup - training_mean) / training_std

# Create sequences from test values.
x_test = create_sequences(df_test_value)
print("Test input shape: ", x_test.shape)

# Get test MAE loss.
x_test_pred = model.predict(x_test, verbose=0)
test_mae_loss = np.mean(np.abs(x_test_pred - x_test), axis=1)
test_mae_loss = test_mae_loss.reshape((-1))
RESULTS["test_mae_loss"] = test_mae_loss.astype("float32")

# Detect all the samples which are anomalies.
anomalies = test_mae_loss > threshold
print("Number of anomaly samples: ", np.sum(anomalies))
print("Indices of anomaly samples: ", np.where(anomalies))

# data i is an anomaly if samples [(i - timesteps + 1) to (i)] are anomalies
anomalous_data_indices = []
for data_idx in range(TIME_STEPS - 1, len(df_test_value) - TIME_STEPS + 1):
    if np.all(anomalies[data_idx - TIME_STEPS + 1 : data_idx]):
        anomalous_data_indices.append(data_idx)

df_subset = df_daily_jumpsup[anomalous_data_indices]
RESULTS["subset_len"] = len(df_subset)
