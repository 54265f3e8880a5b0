"""Title: Character-level text generation with LSTM (Keras example)
Source: https://github.com/keras-team/keras-io/blob/0a09cb6c7ca6769be21d946338c87563314c93db/examples/generative/lstm_character_level_text_generation.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: nietzsche.txt (downloaded with keras.utils.get_file; 600901 characters) -> a synthetic
nietzsche.txt of 2000 words drawn from a small vocabulary by a seeded NumPy generator, written in a
temporary directory and read as the example reads it; epochs 40 -> 2; 400 generated characters ->
20; verbose=0; keras.utils.set_random_seed(0) (random.randint and np.random.multinomial are
unseeded); the model's kernels fixed (fix_weights); prints and sys.stdout.write -> RESULTS (the
counts, each epoch's loss, the seeds and the generated text).
"""
import os
import tempfile

from tensorflow import keras
from tensorflow.keras import layers

import numpy as np
import random
import sys
import io
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
path = os.path.join(tempfile.mkdtemp(), "nietzsche.txt")
_words = ["the", "will", "to", "power", "is", "truth", "and", "man", "must", "be", "overcome",
          "what", "good", "evil", "beyond", "of", "spirit", "free", "a", "Philosopher,", "god."]
with io.open(path, "w", encoding="utf-8") as _f:
    _f.write(" ".join(np.random.default_rng(0).choice(_words, 2000)))

with io.open(path, encoding="utf-8") as f:
    text = f.read().lower()
RESULTS["corpus_length"] = len(text)

chars = sorted(list(set(text)))
RESULTS["total_chars"] = len(chars)
char_indices = dict((c, i) for i, c in enumerate(chars))
indices_char = dict((i, c) for i, c in enumerate(chars))

# cut the text in semi-redundant sequences of maxlen characters
maxlen = 40
step = 3
sentences = []
next_chars = []
for i in range(0, len(text) - maxlen, step):
    sentences.append(text[i : i + maxlen])
    next_chars.append(text[i + maxlen])
RESULTS["nb_sequences"] = len(sentences)

x = np.zeros((len(sentences), maxlen, len(chars)), dtype=np.bool)
y = np.zeros((len(sentences), len(chars)), dtype=np.bool)
for i, sentence in enumerate(sentences):
    for t, char in enumerate(sentence):
        x[i, t, char_indices[char]] = 1
    y[i, char_indices[next_chars[i]]] = 1


model = keras.Sequential(
    [
        keras.Input(shape=(maxlen, len(chars))),
        layers.LSTM(128),
        layers.Dense(len(chars), activation="softmax"),
    ]
)
fix_weights(model)
optimizer = keras.optimizers.RMSprop(learning_rate=0.01)
model.compile(loss="categorical_crossentropy", optimizer=optimizer)


def sample(preds, temperature=1.0):
    # helper function to sample an index from a probability array
    preds = np.asarray(preds).astype("float64")
    preds = np.log(preds) / temperature
    exp_preds = np.exp(preds)
    preds = exp_preds / np.sum(exp_preds)
    probas = np.random.multinomial(1, preds, 1)
    return np.argmax(probas)


epochs = 2
batch_size = 128

for epoch in range(epochs):
    history = model.fit(x, y, batch_size=batch_size, epochs=1, verbose=0)
    RESULTS[f"loss_{epoch}"] = history.history["loss"]

    start_index = random.randint(0, len(text) - maxlen - 1)
    for diversity in [0.2, 0.5, 1.0, 1.2]:
        generated = ""
        sentence = text[start_index : start_index + maxlen]
        generated += sentence
        RESULTS[f"seed_{epoch}_{diversity}"] = sentence

        for i in range(20):
            x_pred = np.zeros((1, maxlen, len(chars)))
            for t, char in enumerate(sentence):
                x_pred[0, t, char_indices[char]] = 1.0

            preds = model.predict(x_pred, verbose=0)[0]
            if i == 0:
                RESULTS[f"preds_{epoch}_{diversity}"] = preds
            next_index = sample(preds, diversity)
            next_char = indices_char[next_index]

            sentence = sentence[1:] + next_char

            generated += next_char
        RESULTS[f"generated_{epoch}_{diversity}"] = generated
