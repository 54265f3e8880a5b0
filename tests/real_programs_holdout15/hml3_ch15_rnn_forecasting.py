"""Title: Forecasting a time series with RNNs and CNNs: timeseries_dataset_from_array, windowed tf.data datasets, linear, SimpleRNN, multi-step-ahead and seq2seq models trained with EarlyStopping, a layer-normalized custom RNN cell, a custom RNN layer looping over tf.range with a tf.TensorArray in a tf.function, and a functional WaveNet with a custom gated activation layer and causal dilated Conv1D (Hands-On ML 3rd ed., chapter 15)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/15_processing_sequences_using_rnns_and_cnns.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells from "Basic RNNs" to the end of "Extra Material – Wavenet
Implementation", in order, after the setup cells; tf.keras.utils.set_random_seed(42) at the top
(the notebook's own tf.random.set_seed(42) calls kept); to keep the run short, the cells of
"Deep RNNs", "Multivariate time series" (but mulvar_* used later), "LSTMs", "GRUs", "Using
One-Dimensional Convolutional Layers" (but its longer_train/longer_valid, used by the WaveNet
cell, kept just before that cell), "WaveNet" (the Sequential one) and the 1-unit SimpleRNN's fit
removed; the matplotlib setup/plot cells and the
GPU check removed; the Chicago ridership download and the pandas DataFrame (read_csv, date
index, resampling, differencing displays) replaced by synthetic NumPy arrays from a seeded
generator with the same columns (bus, rail in millions, and the one-hot next_day_type A/U/W):
200 training days (2016-01..2018-12 in the book, 1,096 days) and 130 validation days
(2019-01..2019-05, 151 days); so pandas is not used, and `series.to_numpy()` -> the array
itself, `mulvar_x["rail"]` -> `mulvar_x[:, 1]`, `mulvar_x[["bus", "rail"]]` -> `mulvar_x[:, :2]`
(the columns' order is bus, rail, A, U, W as after pd.get_dummies); the ARIMA/SARIMA and ACF
cells (statsmodels) removed; the pandas displays of the naive bus forecast and of the per-day
seq2seq MAE computed with NumPy instead; epochs 500 and 5 -> 1 (the EarlyStopping callback
kept), to keep the run short; the printed/displayed values (datasets,
windows, validation MAEs, forecasts) -> RESULTS.
"""
RESULTS = {}

import numpy as np

# [setup]
import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)

# synthetic ridership (instead of the CTA CSV): weekly seasonality, day types W/A/U
_rng = np.random.default_rng(42)
def _synthetic_mulvar(n_days, start):
    days = np.arange(start, start + n_days + 1)
    day_type = np.where(days % 7 == 6, "U", np.where(days % 7 == 5, "A", "W"))
    day_type[_rng.random(n_days + 1) < 0.03] = "U"   # holidays
    level = {"W": (0.75, 0.60), "A": (0.45, 0.35), "U": (0.33, 0.25)}
    bus = np.array([level[t][0] for t in day_type]) + _rng.normal(0, 0.02, n_days + 1)
    rail = np.array([level[t][1] for t in day_type]) + _rng.normal(0, 0.02, n_days + 1)
    next_type = day_type[1:]
    onehot = np.stack([(next_type == t).astype(float) for t in ("A", "U", "W")], axis=1)
    return np.column_stack([bus[:-1], rail[:-1], onehot])

mulvar_train = _synthetic_mulvar(200, 0)
mulvar_valid = _synthetic_mulvar(130, 200)
mulvar_test = _synthetic_mulvar(60, 330)

# [Basic RNNs]
import tensorflow as tf

my_series = [0, 1, 2, 3, 4, 5]
my_dataset = tf.keras.utils.timeseries_dataset_from_array(
    my_series,
    targets=my_series[3:],  # the targets are 3 steps into the future
    sequence_length=3,
    batch_size=2
)
_l = list(my_dataset)
print(_l)
RESULTS["my_dataset_x"] = [x for x, y in _l][0]
RESULTS["my_dataset_y"] = [y for x, y in _l][0]
RESULTS["my_dataset_n_batches"] = len(_l)
_w = []
for window_dataset in tf.data.Dataset.range(6).window(4, shift=1):
    for element in window_dataset:
        print(f"{element}", end=" ")
        _w.append(int(element))
    print()
RESULTS["windows_flat"] = np.array(_w)
dataset = tf.data.Dataset.range(6).window(4, shift=1, drop_remainder=True)
dataset = dataset.flat_map(lambda window_dataset: window_dataset.batch(4))
_w = []
for window_tensor in dataset:
    print(f"{window_tensor}")
    _w.append(window_tensor.numpy())
RESULTS["windows_batched"] = np.array(_w)
def to_windows(dataset, length):
    dataset = dataset.window(length, shift=1, drop_remainder=True)
    return dataset.flat_map(lambda window_ds: window_ds.batch(length))
dataset = to_windows(tf.data.Dataset.range(6), 4)
dataset = dataset.map(lambda window: (window[:-1], window[-1]))
_l = list(dataset.batch(2))
print(_l)
RESULTS["to_windows_x"] = np.concatenate([x.numpy() for x, y in _l])
RESULTS["to_windows_y"] = np.concatenate([y.numpy() for x, y in _l])

rail_train = mulvar_train[:, 1]
rail_valid = mulvar_valid[:, 1]
rail_test = mulvar_test[:, 1]

seq_length = 56
tf.random.set_seed(42)  # extra code – ensures reproducibility
train_ds = tf.keras.utils.timeseries_dataset_from_array(
    rail_train,
    targets=rail_train[seq_length:],
    sequence_length=seq_length,
    batch_size=32,
    shuffle=True,
    seed=42
)
valid_ds = tf.keras.utils.timeseries_dataset_from_array(
    rail_valid,
    targets=rail_valid[seq_length:],
    sequence_length=seq_length,
    batch_size=32
)
tf.random.set_seed(42)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(1, input_shape=[seq_length])
])
early_stopping_cb = tf.keras.callbacks.EarlyStopping(
    monitor="val_mae", patience=50, restore_best_weights=True)
opt = tf.keras.optimizers.SGD(learning_rate=0.02, momentum=0.9)
model.compile(loss=tf.keras.losses.Huber(), optimizer=opt, metrics=["mae"])
history = model.fit(train_ds, validation_data=valid_ds, epochs=1,
                    callbacks=[early_stopping_cb])
RESULTS["linear_history_loss"] = history.history["loss"]
RESULTS["linear_history_val_mae"] = history.history["val_mae"]
# extra code – evaluates the model
valid_loss, valid_mae = model.evaluate(valid_ds)
RESULTS["linear_valid_mae"] = valid_mae * 1e6

# [Using a Simple RNN]
tf.random.set_seed(42)  # extra code – ensures reproducibility
model = tf.keras.Sequential([
    tf.keras.layers.SimpleRNN(1, input_shape=[None, 1])
])
# extra code – defines a utility function we'll reuse several time

def fit_and_evaluate(model, train_set, valid_set, learning_rate, epochs=1):
    early_stopping_cb = tf.keras.callbacks.EarlyStopping(
        monitor="val_mae", patience=50, restore_best_weights=True)
    opt = tf.keras.optimizers.SGD(learning_rate=learning_rate, momentum=0.9)
    model.compile(loss=tf.keras.losses.Huber(), optimizer=opt, metrics=["mae"])
    history = model.fit(train_set, validation_data=valid_set, epochs=epochs,
                        callbacks=[early_stopping_cb])
    valid_loss, valid_mae = model.evaluate(valid_set)
    return valid_mae * 1e6
tf.random.set_seed(42)  # extra code – ensures reproducibility
univar_model = tf.keras.Sequential([
    tf.keras.layers.SimpleRNN(32, input_shape=[None, 1]),
    tf.keras.layers.Dense(1)  # no activation function by default
])
# extra code – compiles, fits, and evaluates the model, like earlier
RESULTS["univar_mae"] = fit_and_evaluate(univar_model, train_ds, valid_ds, learning_rate=0.05)

# [Forecasting Several Steps Ahead]
import numpy as np

X = rail_valid[np.newaxis, :seq_length, np.newaxis]
for step_ahead in range(14):
    y_pred_one = univar_model.predict(X)
    X = np.concatenate([X, y_pred_one.reshape(1, 1, 1)], axis=1)
RESULTS["univar_14_ahead"] = X[0, -14:, 0]
tf.random.set_seed(42)  # extra code – ensures reproducibility

def split_inputs_and_targets(mulvar_series, ahead=14, target_col=1):
    return mulvar_series[:, :-ahead], mulvar_series[:, -ahead:, target_col]

ahead_train_ds = tf.keras.utils.timeseries_dataset_from_array(
    mulvar_train,
    targets=None,
    sequence_length=seq_length + 14,
    batch_size=32,
    shuffle=True,
    seed=42
).map(split_inputs_and_targets)
ahead_valid_ds = tf.keras.utils.timeseries_dataset_from_array(
    mulvar_valid,
    targets=None,
    sequence_length=seq_length + 14,
    batch_size=32
).map(split_inputs_and_targets)
tf.random.set_seed(42)

ahead_model = tf.keras.Sequential([
    tf.keras.layers.SimpleRNN(32, input_shape=[None, 5]),
    tf.keras.layers.Dense(14)
])
# extra code – compiles, fits, and evaluates the model, like earlier
RESULTS["ahead_mae"] = fit_and_evaluate(ahead_model, ahead_train_ds, ahead_valid_ds,
                                        learning_rate=0.02)
X = mulvar_valid[np.newaxis, :seq_length]  # shape [1, 56, 5]
Y_pred = ahead_model.predict(X)  # shape [1, 14]
RESULTS["ahead_pred"] = Y_pred
my_series = tf.data.Dataset.range(7)
dataset = to_windows(to_windows(my_series, 3), 4)
_l = list(dataset)
print(_l)
RESULTS["windows_of_windows"] = np.array([t.numpy() for t in _l])
dataset = dataset.map(lambda S: (S[:, 0], S[:, 1:]))
_l = list(dataset)
print(_l)
RESULTS["windows_split_x"] = np.array([x.numpy() for x, y in _l])
RESULTS["windows_split_y"] = np.array([y.numpy() for x, y in _l])
def to_seq2seq_dataset(series, seq_length=56, ahead=14, target_col=1,
                       batch_size=32, shuffle=False, seed=None):
    ds = to_windows(tf.data.Dataset.from_tensor_slices(series), ahead + 1)
    ds = to_windows(ds, seq_length).map(
        lambda S: (S[:, 0], S[:, 1:, target_col]))
    if shuffle:
        ds = ds.shuffle(8 * batch_size, seed=seed)
    return ds.batch(batch_size)
seq2seq_train = to_seq2seq_dataset(mulvar_train, shuffle=True, seed=42)
seq2seq_valid = to_seq2seq_dataset(mulvar_valid)
tf.random.set_seed(42)  # extra code – ensures reproducibility
seq2seq_model = tf.keras.Sequential([
    tf.keras.layers.SimpleRNN(32, return_sequences=True, input_shape=[None, 5]),
    tf.keras.layers.Dense(14)
    # equivalent: tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(14))
    # also equivalent: tf.keras.layers.Conv1D(14, kernel_size=1)
])
RESULTS["seq2seq_mae"] = fit_and_evaluate(seq2seq_model, seq2seq_train, seq2seq_valid,
                                          learning_rate=0.1)
X = mulvar_valid[np.newaxis, :seq_length]
y_pred_14 = seq2seq_model.predict(X)[0, -1]  # only the last time step's output
RESULTS["seq2seq_pred_14"] = y_pred_14
Y_pred_valid = seq2seq_model.predict(seq2seq_valid)
_maes = []
for ahead in range(14):
    preds = Y_pred_valid[:-1, -1, ahead]
    target = mulvar_valid[56 + ahead: -14 + ahead, 1]
    mae = np.abs(preds - target).mean() * 1e6
    print(f"MAE for +{ahead + 1}: {mae:,.0f}")
    _maes.append(mae)
RESULTS["seq2seq_mae_per_ahead"] = np.array(_maes)

# [Deep RNNs with Layer Norm]
class LNSimpleRNNCell(tf.keras.layers.Layer):
    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(**kwargs)
        self.state_size = units
        self.output_size = units
        self.simple_rnn_cell = tf.keras.layers.SimpleRNNCell(units,
                                                             activation=None)
        self.layer_norm = tf.keras.layers.LayerNormalization()
        self.activation = tf.keras.activations.get(activation)

    def call(self, inputs, states):
        outputs, new_states = self.simple_rnn_cell(inputs, states)
        norm_outputs = self.activation(self.layer_norm(outputs))
        return norm_outputs, [norm_outputs]
tf.random.set_seed(42)  # extra code – ensures reproducibility
custom_ln_model = tf.keras.Sequential([
    tf.keras.layers.RNN(LNSimpleRNNCell(32), return_sequences=True,
                        input_shape=[None, 5]),
    tf.keras.layers.Dense(14)
])
RESULTS["custom_ln_mae"] = fit_and_evaluate(custom_ln_model, seq2seq_train, seq2seq_valid,
                                            learning_rate=0.1, epochs=1)

# [Extra Material – Creating a Custom RNN Class]
class MyRNN(tf.keras.layers.Layer):
    def __init__(self, cell, return_sequences=False, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences

    def get_initial_state(self, inputs):
        try:
            return self.cell.get_initial_state(inputs)
        except AttributeError:
            # fallback to zeros if self.cell has no get_initial_state() method
            batch_size = tf.shape(inputs)[0]
            return [tf.zeros([batch_size, self.cell.state_size],
                             dtype=inputs.dtype)]

    @tf.function
    def call(self, inputs):
        states = self.get_initial_state(inputs)
        shape = tf.shape(inputs)
        batch_size = shape[0]
        n_steps = shape[1]
        sequences = tf.TensorArray(
            inputs.dtype, size=(n_steps if self.return_sequences else 0))
        outputs = tf.zeros(shape=[batch_size, self.cell.output_size],
                           dtype=inputs.dtype)
        for step in tf.range(n_steps):
            outputs, states = self.cell(inputs[:, step], states)
            if self.return_sequences:
                sequences = sequences.write(step, outputs)

        if self.return_sequences:
            # stack the outputs into an array of shape
            # [time steps, batch size, dims], then transpose it to shape
            # [batch size, time steps, dims]
            return tf.transpose(sequences.stack(), [1, 0, 2])
        else:
            return outputs
tf.random.set_seed(42)

custom_model = tf.keras.Sequential([
    MyRNN(LNSimpleRNNCell(32), return_sequences=True, input_shape=[None, 5]),
    tf.keras.layers.Dense(14)
])
RESULTS["custom_rnn_mae"] = fit_and_evaluate(custom_model, seq2seq_train, seq2seq_valid,
                                             learning_rate=0.1, epochs=1)

# [Extra Material – Wavenet Implementation]
class GatedActivationUnit(tf.keras.layers.Layer):
    def __init__(self, activation="tanh", **kwargs):
        super().__init__(**kwargs)
        self.activation = tf.keras.activations.get(activation)

    def call(self, inputs):
        n_filters = inputs.shape[-1] // 2
        linear_output = self.activation(inputs[..., :n_filters])
        gate = tf.keras.activations.sigmoid(inputs[..., n_filters:])
        return self.activation(linear_output) * gate
def wavenet_residual_block(inputs, n_filters, dilation_rate):
    z = tf.keras.layers.Conv1D(2 * n_filters, kernel_size=2, padding="causal",
                            dilation_rate=dilation_rate)(inputs)
    z = GatedActivationUnit()(z)
    z = tf.keras.layers.Conv1D(n_filters, kernel_size=1)(z)
    return tf.keras.layers.Add()([z, inputs]), z
tf.random.set_seed(42)

n_layers_per_block = 3  # 10 in the paper
n_blocks = 1  # 3 in the paper
n_filters = 32  # 128 in the paper
n_outputs = 14  # 256 in the paper

inputs = tf.keras.layers.Input(shape=[None, 5])
z = tf.keras.layers.Conv1D(n_filters, kernel_size=2, padding="causal")(inputs)
skip_to_last = []
for dilation_rate in [2**i for i in range(n_layers_per_block)] * n_blocks:
    z, skip = wavenet_residual_block(z, n_filters, dilation_rate)
    skip_to_last.append(skip)

z = tf.keras.activations.relu(tf.keras.layers.Add()(skip_to_last))
z = tf.keras.layers.Conv1D(n_filters, kernel_size=1, activation="relu")(z)
Y_preds = tf.keras.layers.Conv1D(n_outputs, kernel_size=1)(z)

full_wavenet_model = tf.keras.Model(inputs=[inputs], outputs=[Y_preds])
# (from the removed "Using One-Dimensional Convolutional Layers" cell)
longer_train = to_seq2seq_dataset(mulvar_train, seq_length=112,
                                       shuffle=True, seed=42)
longer_valid = to_seq2seq_dataset(mulvar_valid, seq_length=112)
RESULTS["full_wavenet_mae"] = fit_and_evaluate(full_wavenet_model, longer_train, longer_valid,
                                               learning_rate=0.1, epochs=1)
RESULTS["full_wavenet_pred"] = full_wavenet_model.predict(mulvar_valid[np.newaxis, :112])[0, -1]
