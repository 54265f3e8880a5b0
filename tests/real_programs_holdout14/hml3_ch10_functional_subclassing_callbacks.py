"""Title: Regression MLPs with the Sequential and Functional APIs (wide & deep, multiple inputs and outputs), the Subclassing API, saving and restoring, and callbacks (Hands-On ML 3rd ed., chapter 10)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/10_neural_nets_with_keras.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of "Building a Regression MLP Using the Sequential API" through
"Using Callbacks" (cells 83-132) in order, after the setup cells they use (5, 9, 13 without the
matplotlib part); tf.keras.utils.set_random_seed(42) at the top (Keras 3's initializers do not
follow tf.random.set_seed alone); the sklearn version check (cell 7) removed (sklearn is not
used otherwise); the California housing data (20640 x 8 float64 features and targets, fetched
with sklearn.datasets.fetch_california_housing and split twice with sklearn's train_test_split,
random_state=42) -> 640 synthetic float64 samples from a seeded NumPy generator (8 features on
the data's scales, a noisy nonlinear target), split with a seeded NumPy permutation in the same
75/25 then 75/25 proportions (360 train, 120 valid, 160 test); epochs cut: 20 -> 3, 10 -> 2,
the early-stopping run 100 -> 6 with patience 10 -> 2; the files written in a temporary working
directory; model.summary() (cell 91) -> the parameter count; the listing of the exported
directory (cell 116) -> RESULTS as a string; every displayed value, history, evaluation and
prediction -> RESULTS.
"""
RESULTS = {}

import numpy as np
import os
import tempfile

os.chdir(tempfile.mkdtemp())
# [cell 5]
import sys

assert sys.version_info >= (3, 7)
# [cell 9]
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
tf.keras.utils.set_random_seed(42)
# [cell 13]
from pathlib import Path

def _synthetic_housing(n, rng):
    X = np.column_stack([
        rng.lognormal(1.2, 0.5, n),          # MedInc
        rng.uniform(1, 52, n),               # HouseAge
        rng.lognormal(1.6, 0.25, n),         # AveRooms
        rng.lognormal(0.05, 0.1, n),         # AveBedrms
        rng.lognormal(7.0, 0.7, n),          # Population
        rng.lognormal(1.0, 0.25, n),         # AveOccup
        rng.uniform(32.5, 42, n),            # Latitude
        rng.uniform(-124.3, -114.3, n),      # Longitude
    ])
    y = (0.4 * X[:, 0] + 0.01 * X[:, 1] - 0.02 * (X[:, 6] - 36) ** 2
         + 0.3 * np.sin(X[:, 7]) + rng.normal(0, 0.3, n))
    return X, np.clip(y, 0.15, 5.0)

def _split(X, y, rng):
    idx = rng.permutation(len(X))
    n_test = int(np.ceil(0.25 * len(X)))
    test, train = idx[:n_test], idx[n_test:]
    return X[train], X[test], y[train], y[test]

_rng = np.random.default_rng(42)
# [cell 83]
# extra code – load and split the California housing dataset, like earlier
housing_data, housing_target = _synthetic_housing(640, _rng)
X_train_full, X_test, y_train_full, y_test = _split(housing_data, housing_target, _rng)
X_train, X_valid, y_train, y_valid = _split(X_train_full, y_train_full, _rng)
RESULTS["split_sizes"] = [len(X_train), len(X_valid), len(X_test)]
# [cell 84]
tf.random.set_seed(42)
norm_layer = tf.keras.layers.Normalization(input_shape=X_train.shape[1:])
model = tf.keras.Sequential([
    norm_layer,
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(50, activation="relu"),
    tf.keras.layers.Dense(1)
])
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])
norm_layer.adapt(X_train)
RESULTS["seq_norm_mean"] = norm_layer.mean
RESULTS["seq_norm_variance"] = norm_layer.variance
history = model.fit(X_train, y_train, epochs=3,
                    validation_data=(X_valid, y_valid))
mse_test, rmse_test = model.evaluate(X_test, y_test)
X_new = X_test[:3]
y_pred = model.predict(X_new)
for _k, _v in history.history.items():
    RESULTS["seq_history_" + _k] = _v
# [cell 85]
RESULTS["seq_rmse_test"] = rmse_test
RESULTS["seq_mse_test"] = mse_test
# [cell 86]
RESULTS["seq_y_pred"] = y_pred
# [cell 89]
# extra code – reset the name counters and make the code reproducible
tf.keras.backend.clear_session()
tf.random.set_seed(42)
# [cell 90]
normalization_layer = tf.keras.layers.Normalization()
hidden_layer1 = tf.keras.layers.Dense(30, activation="relu")
hidden_layer2 = tf.keras.layers.Dense(30, activation="relu")
concat_layer = tf.keras.layers.Concatenate()
output_layer = tf.keras.layers.Dense(1)

input_ = tf.keras.layers.Input(shape=X_train.shape[1:])
normalized = normalization_layer(input_)
hidden1 = hidden_layer1(normalized)
hidden2 = hidden_layer2(hidden1)
concat = concat_layer([normalized, hidden2])
output = output_layer(concat)

model = tf.keras.Model(inputs=[input_], outputs=[output])
# [cell 91]
RESULTS["func_count_params"] = model.count_params()
RESULTS["func_layer_names"] = " ".join(layer.name for layer in model.layers)
# [cell 92]
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])
normalization_layer.adapt(X_train)
history = model.fit(X_train, y_train, epochs=3,
                    validation_data=(X_valid, y_valid))
mse_test = model.evaluate(X_test, y_test)
y_pred = model.predict(X_new)
for _k, _v in history.history.items():
    RESULTS["func_history_" + _k] = _v
RESULTS["func_mse_test"] = mse_test
RESULTS["func_y_pred"] = y_pred
# [cell 94]
tf.random.set_seed(42)  # extra code
# [cell 95]
input_wide = tf.keras.layers.Input(shape=[5])  # features 0 to 4
input_deep = tf.keras.layers.Input(shape=[6])  # features 2 to 7
norm_layer_wide = tf.keras.layers.Normalization()
norm_layer_deep = tf.keras.layers.Normalization()
norm_wide = norm_layer_wide(input_wide)
norm_deep = norm_layer_deep(input_deep)
hidden1 = tf.keras.layers.Dense(30, activation="relu")(norm_deep)
hidden2 = tf.keras.layers.Dense(30, activation="relu")(hidden1)
concat = tf.keras.layers.concatenate([norm_wide, hidden2])
output = tf.keras.layers.Dense(1)(concat)
model = tf.keras.Model(inputs=[input_wide, input_deep], outputs=[output])
# [cell 96]
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss="mse", optimizer=optimizer, metrics=["RootMeanSquaredError"])

X_train_wide, X_train_deep = X_train[:, :5], X_train[:, 2:]
X_valid_wide, X_valid_deep = X_valid[:, :5], X_valid[:, 2:]
X_test_wide, X_test_deep = X_test[:, :5], X_test[:, 2:]
X_new_wide, X_new_deep = X_test_wide[:3], X_test_deep[:3]

norm_layer_wide.adapt(X_train_wide)
norm_layer_deep.adapt(X_train_deep)
history = model.fit((X_train_wide, X_train_deep), y_train, epochs=3,
                    validation_data=((X_valid_wide, X_valid_deep), y_valid))
mse_test = model.evaluate((X_test_wide, X_test_deep), y_test)
y_pred = model.predict((X_new_wide, X_new_deep))
RESULTS["wide_deep_history_loss"] = history.history["loss"]
RESULTS["wide_deep_history_val_loss"] = history.history["val_loss"]
RESULTS["wide_deep_mse_test"] = mse_test
RESULTS["wide_deep_y_pred"] = y_pred
# [cell 98]
tf.keras.backend.clear_session()
tf.random.set_seed(42)
# [cell 99]
input_wide = tf.keras.layers.Input(shape=[5])  # features 0 to 4
input_deep = tf.keras.layers.Input(shape=[6])  # features 2 to 7
norm_layer_wide = tf.keras.layers.Normalization()
norm_layer_deep = tf.keras.layers.Normalization()
norm_wide = norm_layer_wide(input_wide)
norm_deep = norm_layer_deep(input_deep)
hidden1 = tf.keras.layers.Dense(30, activation="relu")(norm_deep)
hidden2 = tf.keras.layers.Dense(30, activation="relu")(hidden1)
concat = tf.keras.layers.concatenate([norm_wide, hidden2])
output = tf.keras.layers.Dense(1)(concat)
aux_output = tf.keras.layers.Dense(1)(hidden2)
model = tf.keras.Model(inputs=[input_wide, input_deep],
                       outputs=[output, aux_output])
# [cell 101]
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss=("mse", "mse"), loss_weights=(0.9, 0.1), optimizer=optimizer,
              metrics=["RootMeanSquaredError", "RootMeanSquaredError"])
# [cell 102]
norm_layer_wide.adapt(X_train_wide)
norm_layer_deep.adapt(X_train_deep)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=3,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid))
)
for _k, _v in history.history.items():
    RESULTS["two_output_history_" + _k] = _v
# [cell 104]
eval_results = model.evaluate((X_test_wide, X_test_deep), (y_test, y_test))
weighted_sum_of_losses, main_loss, aux_loss = eval_results[:3]
RESULTS["two_output_eval_results"] = eval_results
# [cell 105]
y_pred_main, y_pred_aux = model.predict((X_new_wide, X_new_deep))
RESULTS["two_output_y_pred_main"] = y_pred_main
RESULTS["two_output_y_pred_aux"] = y_pred_aux
# [cell 106]
y_pred_tuple = model.predict((X_new_wide, X_new_deep))
y_pred = dict(zip(model.output_names, y_pred_tuple))
RESULTS["two_output_output_names"] = " ".join(model.output_names)
# [cell 108]
class WideAndDeepModel(tf.keras.Model):
    def __init__(self, units=30, activation="relu", **kwargs):
        super().__init__(**kwargs)  # needed to support naming the model
        self.norm_layer_wide = tf.keras.layers.Normalization()
        self.norm_layer_deep = tf.keras.layers.Normalization()
        self.hidden1 = tf.keras.layers.Dense(units, activation=activation)
        self.hidden2 = tf.keras.layers.Dense(units, activation=activation)
        self.main_output = tf.keras.layers.Dense(1)
        self.aux_output = tf.keras.layers.Dense(1)
        
    def call(self, inputs):
        input_wide, input_deep = inputs
        norm_wide = self.norm_layer_wide(input_wide)
        norm_deep = self.norm_layer_deep(input_deep)
        hidden1 = self.hidden1(norm_deep)
        hidden2 = self.hidden2(hidden1)
        concat = tf.keras.layers.concatenate([norm_wide, hidden2])
        output = self.main_output(concat)
        aux_output = self.aux_output(hidden2)
        return output, aux_output

tf.random.set_seed(42)  # extra code – just for reproducibility
model = WideAndDeepModel(30, activation="relu", name="my_cool_model")
# [cell 110]
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
model.compile(loss=["mse", "mse"], loss_weights=[0.9, 0.1], optimizer=optimizer,
              metrics=["RootMeanSquaredError", "RootMeanSquaredError"])
model.norm_layer_wide.adapt(X_train_wide)
model.norm_layer_deep.adapt(X_train_deep)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=2,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)))
eval_results = model.evaluate((X_test_wide, X_test_deep), (y_test, y_test))
y_pred_main, y_pred_aux = model.predict((X_new_wide, X_new_deep))
for _k, _v in history.history.items():
    RESULTS["subclass_history_" + _k] = _v
RESULTS["subclass_eval_results"] = eval_results
RESULTS["subclass_y_pred_main"] = y_pred_main
RESULTS["subclass_y_pred_aux"] = y_pred_aux
# [cell 113]
# extra code – delete the directory, in case it already exists

import shutil

shutil.rmtree("my_keras_model", ignore_errors=True)
# [cell 115]
model.export("my_keras_model")
# [cell 116]
# extra code – show the contents of the my_keras_model/ directory
_listing = []
for path in sorted(Path("my_keras_model").glob("**/*")):
    print(path)
    _listing.append(str(path))
RESULTS["export_listing"] = "\n".join(_listing)
# [cell 118]
tfsm_layer = tf.keras.layers.TFSMLayer("my_keras_model")
y_pred_main, y_pred_aux = tfsm_layer((X_new_wide, X_new_deep))
RESULTS["tfsm_y_pred_main"] = y_pred_main
RESULTS["tfsm_y_pred_aux"] = y_pred_aux
# [cell 120]
model.save_weights("my_weights.weights.h5")
# [cell 121]
model.load_weights("my_weights.weights.h5")
# [cell 123]
model.save("my_model.keras")
# [cell 125]
loaded_model = tf.keras.models.load_model(
    "my_model.keras",
    custom_objects={"WideAndDeepModel": WideAndDeepModel}
)
RESULTS["loaded_model_y_pred"] = loaded_model.predict((X_new_wide, X_new_deep))
# [cell 127]
shutil.rmtree("my_checkpoints", ignore_errors=True)  # extra code
# [cell 129]
checkpoint_cb = tf.keras.callbacks.ModelCheckpoint("my_checkpoints.weights.h5",
                                                   save_weights_only=True)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=2,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[checkpoint_cb])
RESULTS["checkpoint_history_loss"] = history.history["loss"]
# [cell 130]
early_stopping_cb = tf.keras.callbacks.EarlyStopping(patience=2,
                                                     restore_best_weights=True)
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=6,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[checkpoint_cb, early_stopping_cb])
RESULTS["early_stopping_history_loss"] = history.history["loss"]
RESULTS["early_stopping_history_val_loss"] = history.history["val_loss"]
RESULTS["early_stopping_stopped_epoch"] = early_stopping_cb.stopped_epoch
# [cell 131]
_ratios = []
class PrintValTrainRatioCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs):
        ratio = logs["val_loss"] / logs["loss"]
        print(f"Epoch={epoch}, val/train={ratio:.2f}")
        _ratios.append(ratio)
# [cell 132]
val_train_ratio_cb = PrintValTrainRatioCallback()
history = model.fit(
    (X_train_wide, X_train_deep), (y_train, y_train), epochs=2,
    validation_data=((X_valid_wide, X_valid_deep), (y_valid, y_valid)),
    callbacks=[val_train_ratio_cb], verbose=0)
RESULTS["val_train_ratios"] = _ratios
RESULTS["final_predictions"] = model.predict((X_new_wide, X_new_deep))
