"""Title: Timeseries classification with a Transformer model (Keras example)
Source: https://github.com/keras-team/keras-io/blob/2024821a4b87a21175467773a130c12735673796/examples/timeseries/timeseries_classification_transformer.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the FordA TSV files (downloaded; 3601/1320 series of length 500, labels -1/1) -> synthetic
FordA_TRAIN.tsv/FordA_TEST.tsv of 128/64 series of length 100 in the same format, from a seeded
NumPy generator, written in a temporary directory and read by readucr as the example reads them;
epochs 200 -> 3; verbose=0; keras.utils.set_random_seed(0) (np.random.permutation and Dropout are
unseeded); the model's kernels fixed (fix_weights); summary() -> RESULTS (the parameter count), and
the history and evaluation recorded in RESULTS.
"""
import os
import tempfile

import numpy as np
from _corpus import fix_weights

RESULTS = {}
_dir = tempfile.mkdtemp()
_rng = np.random.default_rng(0)
for _name, _n in (("FordA_TRAIN.tsv", 128), ("FordA_TEST.tsv", 64)):
    _y = _rng.choice([-1, 1], _n)
    _x = np.sin(np.linspace(0, 6, 100) * (2 + _y[:, None])) + _rng.normal(0, 0.5, (_n, 100))
    np.savetxt(os.path.join(_dir, _name), np.column_stack([_y, _x]), delimiter="\t", fmt="%.6f")


def readucr(filename):
    data = np.loadtxt(filename, delimiter="\t")
    y = data[:, 0]
    x = data[:, 1:]
    return x, y.astype(int)


root_url = _dir + "/"

x_train, y_train = readucr(root_url + "FordA_TRAIN.tsv")
x_test, y_test = readucr(root_url + "FordA_TEST.tsv")

x_train = x_train.reshape((x_train.shape[0], x_train.shape[1], 1))
x_test = x_test.reshape((x_test.shape[0], x_test.shape[1], 1))

n_classes = len(np.unique(y_train))

from tensorflow import keras

keras.utils.set_random_seed(0)
idx = np.random.permutation(len(x_train))
x_train = x_train[idx]
y_train = y_train[idx]

y_train[y_train == -1] = 0
y_test[y_test == -1] = 0
RESULTS["y_train"] = y_train[:10]

from tensorflow.keras import layers


def transformer_encoder(inputs, head_size, num_heads, ff_dim, dropout=0):
    # Attention and Normalization
    x = layers.MultiHeadAttention(
        key_dim=head_size, num_heads=num_heads, dropout=dropout
    )(inputs, inputs)
    x = layers.Dropout(dropout)(x)
    x = layers.LayerNormalization(epsilon=1e-6)(x)
    res = x + inputs

    # Feed Forward Part
    x = layers.Conv1D(filters=ff_dim, kernel_size=1, activation="relu")(res)
    x = layers.Dropout(dropout)(x)
    x = layers.Conv1D(filters=inputs.shape[-1], kernel_size=1)(x)
    x = layers.LayerNormalization(epsilon=1e-6)(x)
    return x + res


def build_model(
    input_shape,
    head_size,
    num_heads,
    ff_dim,
    num_transformer_blocks,
    mlp_units,
    dropout=0,
    mlp_dropout=0,
):
    inputs = keras.Input(shape=input_shape)
    x = inputs
    for _ in range(num_transformer_blocks):
        x = transformer_encoder(x, head_size, num_heads, ff_dim, dropout)

    x = layers.GlobalAveragePooling1D(data_format="channels_last")(x)
    for dim in mlp_units:
        x = layers.Dense(dim, activation="relu")(x)
        x = layers.Dropout(mlp_dropout)(x)
    outputs = layers.Dense(n_classes, activation="softmax")(x)
    return keras.Model(inputs, outputs)


input_shape = x_train.shape[1:]

model = build_model(
    input_shape,
    head_size=256,
    num_heads=4,
    ff_dim=4,
    num_transformer_blocks=4,
    mlp_units=[128],
    mlp_dropout=0.4,
    dropout=0.25,
)
fix_weights(model)

model.compile(
    loss="sparse_categorical_crossentropy",
    optimizer=keras.optimizers.Adam(learning_rate=1e-4),
    metrics=["sparse_categorical_accuracy"],
)
RESULTS["params"] = model.count_params()

callbacks = [keras.callbacks.EarlyStopping(patience=10, restore_best_weights=True)]

history = model.fit(
    x_train,
    y_train,
    validation_split=0.2,
    epochs=3,
    batch_size=64,
    callbacks=callbacks,
    verbose=0,
)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]

RESULTS["evaluate"] = model.evaluate(x_test, y_test, verbose=0)
