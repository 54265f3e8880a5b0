"""Title: Timeseries classification from scratch (Keras example)
Source: https://github.com/keras-team/keras-io/blob/02cfaa2fc681064105deb460bde3a5f5e4e0e817/examples/timeseries/timeseries_classification_from_scratch.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the FordA TSV files (downloaded; label -1/1 then 500 values per row) -> synthetic TSV files
of 96 train / 32 test rows of 64 values written in a temporary directory and read with the
example's readucr; np.random.seed(0) added (np.random.permutation); epochs 500 -> 3; verbose=0;
keras.utils.set_random_seed(0) (fit's shuffling); the model's kernels fixed (fix_weights);
"best_model.h5" written in the temporary directory; sklearn's accuracy_score -> the mean of
y_pred == y_test (the same number; no sklearn); plot_model and matplotlib plots removed; printed
values and the history recorded in RESULTS.
"""
import os
import tempfile

import tensorflow as tf  # noqa: F401 (as published)
from tensorflow import keras
import numpy as np
from _corpus import fix_weights

np.random.seed(0)
keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_tmp = tempfile.mkdtemp()
for _name, _n in (("FordA_TRAIN.tsv", 96), ("FordA_TEST.tsv", 32)):
    _y = _rng.choice([-1, 1], _n)
    _x = _rng.normal(size=(_n, 64)) + 0.5 * _y[:, None] * np.sin(np.linspace(0, 6, 64))
    np.savetxt(os.path.join(_tmp, _name), np.column_stack([_y, _x]), delimiter="\t")


def readucr(filename):
    data = np.loadtxt(filename, delimiter="\t")
    y = data[:, 0]
    x = data[:, 1:]
    return x, y.astype(int)


root_url = _tmp + os.sep

x_train, y_train = readucr(root_url + "FordA_TRAIN.tsv")
x_test, y_test = readucr(root_url + "FordA_TEST.tsv")

classes = np.unique(np.concatenate((y_train, y_test), axis=0))
RESULTS["classes"] = classes

x_train = x_train.reshape((x_train.shape[0], x_train.shape[1], 1))
x_test = x_test.reshape((x_test.shape[0], x_test.shape[1], 1))

num_classes = len(np.unique(y_train))

idx = np.random.permutation(len(x_train))
x_train = x_train[idx]
y_train = y_train[idx]

y_train[y_train == -1] = 0
y_test[y_test == -1] = 0


def make_model(input_shape):
    input_layer = keras.layers.Input(input_shape)

    conv1 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(input_layer)
    conv1 = keras.layers.BatchNormalization()(conv1)
    conv1 = keras.layers.ReLU()(conv1)

    conv2 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv1)
    conv2 = keras.layers.BatchNormalization()(conv2)
    conv2 = keras.layers.ReLU()(conv2)

    conv3 = keras.layers.Conv1D(filters=64, kernel_size=3, padding="same")(conv2)
    conv3 = keras.layers.BatchNormalization()(conv3)
    conv3 = keras.layers.ReLU()(conv3)

    gap = keras.layers.GlobalAveragePooling1D()(conv3)

    output_layer = keras.layers.Dense(num_classes, activation="softmax")(gap)

    return keras.models.Model(inputs=input_layer, outputs=output_layer)


model = make_model(input_shape=x_train.shape[1:])
fix_weights(model)
RESULTS["params"] = model.count_params()

epochs = 3
batch_size = 32

callbacks = [
    keras.callbacks.ModelCheckpoint(
        os.path.join(_tmp, "best_model.h5"), save_best_only=True, monitor="val_loss"
    ),
    keras.callbacks.ReduceLROnPlateau(
        monitor="val_loss", factor=0.5, patience=20, min_lr=0.0001
    ),
    keras.callbacks.EarlyStopping(monitor="val_loss", patience=50, verbose=1),
]
model.compile(
    optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"]
)
history = model.fit(
    x_train,
    y_train,
    batch_size=batch_size,
    epochs=epochs,
    callbacks=callbacks,
    validation_split=0.2,
    verbose=0,
)
RESULTS["history_keys"] = sorted(history.history)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]
RESULTS["learning_rate"] = history.history["learning_rate"]

model = keras.models.load_model(os.path.join(_tmp, "best_model.h5"))

y_pred = model.predict(x_test, verbose=0).argmax(axis=1)
RESULTS["y_pred"] = y_pred

RESULTS["test_accuracy"] = np.mean(y_pred == y_test)
