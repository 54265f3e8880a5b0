"""Title: Bidirectional LSTM on IMDB (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0a4be8bbc3ae126f3ca49a0bf173902866ec06f0/examples/nlp/bidirectional_lstm_imdb.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: keras.datasets.imdb.load_data (25000/25000 reviews of word indices) -> 96/32 synthetic
reviews (Python lists of int word indices in [1, max_features), lengths 20-300, labels 0/1) from a
seeded NumPy generator; verbose=0; keras.utils.set_random_seed(0); the model's kernels fixed
(fix_weights); summary() and prints -> RESULTS (the parameter count, the counts, the history).
"""
import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}

max_features = 20000  # Only consider the top 20k words
maxlen = 200  # Only consider the first 200 words of each movie review

# Input for variable-length sequences of integers
inputs = keras.Input(shape=(None,), dtype="int32")
# Embed each integer in a 128-dimensional vector
x = layers.Embedding(max_features, 128)(inputs)
# Add 2 bidirectional LSTMs
x = layers.Bidirectional(layers.LSTM(64, return_sequences=True))(x)
x = layers.Bidirectional(layers.LSTM(64))(x)
# Add a classifier
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs)
fix_weights(model)
RESULTS["params"] = model.count_params()

_rng = np.random.default_rng(0)


def _reviews(n):
    return ([list(_rng.integers(1, max_features, int(_rng.integers(20, 300)))) for _ in range(n)],
            _rng.integers(0, 2, n))


(x_train, y_train), (x_val, y_val) = _reviews(96), _reviews(32)
RESULTS["counts"] = [len(x_train), len(x_val)]
# Use pad_sequence to standardize sequence length:
# this will truncate sequences longer than 200 words and zero-pad sequences shorter than 200 words.
x_train = keras.preprocessing.sequence.pad_sequences(x_train, maxlen=maxlen)
x_val = keras.preprocessing.sequence.pad_sequences(x_val, maxlen=maxlen)
RESULTS["x_val_head"] = x_val[:2, :12]
RESULTS["x_val_tail"] = x_val[:2, -5:]

model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(x_train, y_train, batch_size=32, epochs=2, validation_data=(x_val, y_val),
                    verbose=0)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]
