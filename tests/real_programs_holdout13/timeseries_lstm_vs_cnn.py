"""Title: Timeseries Classification with LSTM and CNN Models (keras.io example, timeseries)
Source: https://github.com/keras-team/keras-io/blob/873ef4adccfb97ffd1ada34302fd59794222b20a/examples/timeseries/lstm_vs_cnn_timeseries_classification.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.utils.set_random_seed(0) at the top (initializers, dropout, fit's shuffling and
np.random.permutation are unseeded); the FordA download (readucr on two TSV files: 3601 + 1320
z-normalized float32 series of 500 steps, labels -1/1) -> readucr kept but fed by two
synthetic TSV files written to a tempfile directory from a seeded NumPy generator: 64 + 32
series of 64 steps (z-normalized, labels -1/1); epochs 100 -> 2; the ModelCheckpoint paths
f"best_{model_name}_model.keras" -> the same names in the tempfile directory; verbose=1 -> 0;
matplotlib removed (the sample-series and training-metric plots); the histories, test
accuracies/losses and predictions -> RESULTS.
"""
import os
import tempfile

import numpy as np

RESULTS = {}
_tmp = tempfile.mkdtemp()
_rng = np.random.default_rng(0)


def _write_tsv(name, n, steps=64):
    y = _rng.choice([-1, 1], n)
    t = np.arange(steps)
    x = np.sin(t[None, :] * (0.1 + 0.05 * (y[:, None] > 0))) + 0.5 * _rng.normal(size=(n, steps))
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    np.savetxt(os.path.join(_tmp, name), np.column_stack([y, x]), delimiter="\t", fmt="%.6f")


_write_tsv("FordA_TRAIN.tsv", 64)
_write_tsv("FordA_TEST.tsv", 32)

import numpy as np
import keras
from keras import layers
keras.utils.set_random_seed(0)


def readucr(filename):
    """Read UCR timeseries dataset from a TSV file."""
    data = np.loadtxt(filename, delimiter="\t")
    y = data[:, 0].astype(int)
    x = data[:, 1:].astype(np.float32)
    return x, y

root_url = _tmp + "/"

x_train, y_train = readucr(root_url + "FordA_TRAIN.tsv")
x_test, y_test = readucr(root_url + "FordA_TEST.tsv")

classes = np.unique(np.concatenate((y_train, y_test), axis=0))
RESULTS["classes"] = classes

x_train = x_train.reshape((x_train.shape[0], x_train.shape[1], 1))
x_test = x_test.reshape((x_test.shape[0], x_test.shape[1], 1))

# Standardize labels: map {-1, 1} to {0, 1}
y_train = np.where(y_train == -1, 0, y_train)
y_test = np.where(y_test == -1, 0, y_test)

# Shuffle training data for validation split
idx = np.random.permutation(len(x_train))
x_train = x_train[idx]
y_train = y_train[idx]
RESULTS["permutation"] = idx

num_classes = len(np.unique(y_train))


def build_lstm_model(input_shape, num_classes):
    """Build an LSTM-based model for timeseries classification."""
    model = keras.Sequential([
        layers.Input(shape=input_shape),
        layers.LSTM(64, return_sequences=True, dropout=0.3, recurrent_dropout=0.3),
        layers.LSTM(32, dropout=0.3, recurrent_dropout=0.3),
        layers.Dense(16, activation="relu"),
        layers.Dense(num_classes, activation="softmax")
    ])
    return model

def build_cnn_model(input_shape, num_classes):
    """Build a 1D CNN-based model for timeseries classification."""
    model = keras.Sequential([
        layers.Input(shape=input_shape),
        layers.Conv1D(filters=64, kernel_size=7, padding="same", activation="relu"),
        layers.BatchNormalization(),
        layers.MaxPooling1D(pool_size=2),
        layers.Dropout(0.3),
        layers.Conv1D(filters=128, kernel_size=5, padding="same", activation="relu"),
        layers.BatchNormalization(),
        layers.MaxPooling1D(pool_size=2),
        layers.Dropout(0.3),
        layers.GlobalAveragePooling1D(),
        layers.Dense(16, activation="relu"),
        layers.Dense(num_classes, activation="softmax")
    ])
    return model

input_shape = x_train.shape[1:]
lstm_model = build_lstm_model(input_shape, num_classes)
cnn_model = build_cnn_model(input_shape, num_classes)

epochs = 2
batch_size = 32

def train_model(model, model_name, x_train, y_train, x_test, y_test):
    """Train and evaluate a model, return history and test metrics."""
    model.compile(
        optimizer="adam",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"]
    )

    history = model.fit(
        x_train,
        y_train,
        epochs=epochs,
        batch_size=batch_size,
        validation_split=0.2,
        callbacks=[
            keras.callbacks.ModelCheckpoint(
                os.path.join(_tmp, f"best_{model_name}_model.keras"),
                save_best_only=True,
                monitor="val_loss"
            ),
            keras.callbacks.EarlyStopping(
                monitor="val_loss",
                patience=20,
                restore_best_weights=True
            )
        ],
        verbose=0
    )

    # Load best model for evaluation
    best_model = keras.models.load_model(os.path.join(_tmp, f"best_{model_name}_model.keras"))
    test_loss, test_acc = best_model.evaluate(x_test, y_test, verbose=0)
    print(f"{model_name} Test Accuracy: {test_acc:.4f}, Loss: {test_loss:.4f}")
    RESULTS[model_name + "_best_predict"] = best_model.predict(x_test[:6], verbose=0)

    return history, test_acc, test_loss

# Train LSTM model
print("Training LSTM model...")
lstm_history, lstm_test_acc, lstm_test_loss = train_model(lstm_model, "LSTM", x_train, y_train, x_test, y_test)

# Train CNN model
print("Training CNN model...")
cnn_history, cnn_test_acc, cnn_test_loss = train_model(cnn_model, "CNN", x_train, y_train, x_test, y_test)

for _name, _h in (("LSTM", lstm_history), ("CNN", cnn_history)):
    for _k, _v in _h.history.items():
        RESULTS[f"{_name}_history_{_k}"] = _v

print("\nModel Comparison:")
print(f"LSTM Test Accuracy: {lstm_test_acc:.4f}, Loss: {lstm_test_loss:.4f}")
print(f"CNN Test Accuracy: {cnn_test_acc:.4f}, Loss: {cnn_test_loss:.4f}")
RESULTS["lstm_test_acc"] = lstm_test_acc
RESULTS["lstm_test_loss"] = lstm_test_loss
RESULTS["cnn_test_acc"] = cnn_test_acc
RESULTS["cnn_test_loss"] = cnn_test_loss
RESULTS["lstm_predict"] = lstm_model.predict(x_test[:6], verbose=0)
RESULTS["cnn_predict"] = cnn_model.predict(x_test[:6], verbose=0)
