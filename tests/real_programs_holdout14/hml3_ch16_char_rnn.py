"""Title: Generating Shakespearean text using a character RNN: a character-level TextVectorization, windowed tf.data datasets, an Embedding + GRU model, sampling with temperature by tf.random.categorical (Hands-On ML 3rd ed., chapter 16)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/16_nlp_with_rnns_and_attention.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of "Generating Shakespearean Text Using a Character RNN" up to
"Stateful RNN" (cells 19-44) in order, after the setup cells (5, 9); the cell that switches to
the legacy tf_keras package (cell 7: `os.environ["TF_USE_LEGACY_KERAS"] = "1"; import tf_keras`)
removed, so the program runs on Keras 3; tf.keras.utils.set_random_seed(42) at the top; the
downloaded Shakespeare text (1,115,394 characters) -> 5,200 characters of synthetic
"Shakespearean" text drawn from a fixed word list by a seeded NumPy generator, so the slices
change: encoded[:1_000_000] -> [:4_000], [1_000_000:1_060_000] -> [4_000:4_600], the rest as the
test set; the window length 100 -> 20; epochs 10 -> 1; ModelCheckpoint("my_shakespeare_model")
-> "my_shakespeare_model.keras" (Keras 3 requires the suffix), in a temporary working
directory; the cell that downloads the author's pretrained model (35) removed (its load was
already commented out); `shakespeare_model.predict([text])` -> `predict(tf.constant([text]))`
in cells 36 and 39 (Keras 3's predict rejects a Python list of strings: "Unrecognized data
type"); extend_text's n_chars 50 -> 5 (each character is one predict call);
the printed and displayed values (the characters, sizes, the example dataset, the history, the
predicted character, the samples and the generated texts) -> RESULTS.
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

_WORDS = ("to be or not that is the question whether tis nobler in mind suffer slings and "
          "arrows of outrageous fortune take arms against a sea troubles by opposing end them "
          "die sleep no more say we thou thee my lord king queen love sweet night day").split()
def _synthetic_text(n_chars, rng):
    lines, total = [], 0
    while total < n_chars:
        line = " ".join(rng.choice(_WORDS, rng.integers(3, 9)))
        line = line[0].upper() + line[1:] + rng.choice([",", ".", "!", "?", ";", ":"])
        if rng.random() < 0.2:
            lines.append(rng.choice(["FIRST CITIZEN", "HAMLET", "KING", "QUEEN"]) + ":")
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)[:n_chars]

# [cell 19]
import tensorflow as tf

shakespeare_text = _synthetic_text(5200, np.random.default_rng(42))
# [cell 20]
# extra code – shows a short text sample
print(shakespeare_text[:80])
RESULTS["text_sample"] = shakespeare_text[:80]
# [cell 21]
# extra code – shows all 39 distinct characters (after converting to lower case)
RESULTS["distinct_chars"] = "".join(sorted(set(shakespeare_text.lower())))
# [cell 22]
text_vec_layer = tf.keras.layers.TextVectorization(split="character",
                                                   standardize="lower")
text_vec_layer.adapt([shakespeare_text])
encoded = text_vec_layer([shakespeare_text])[0]
RESULTS["vocabulary"] = "|".join(text_vec_layer.get_vocabulary())
# [cell 23]
encoded -= 2  # drop tokens 0 (pad) and 1 (unknown), which we will not use
n_tokens = text_vec_layer.vocabulary_size() - 2  # number of distinct chars = 39
dataset_size = len(encoded)  # total number of chars = 1,115,394
RESULTS["encoded_first50"] = encoded[:50]
# [cell 24]
RESULTS["n_tokens"] = n_tokens
# [cell 25]
RESULTS["dataset_size"] = dataset_size
# [cell 26]
def to_dataset(sequence, length, shuffle=False, seed=None, batch_size=32):
    ds = tf.data.Dataset.from_tensor_slices(sequence)
    ds = ds.window(length + 1, shift=1, drop_remainder=True)
    ds = ds.flat_map(lambda window_ds: window_ds.batch(length + 1))
    if shuffle:
        ds = ds.shuffle(100_000, seed=seed)
    ds = ds.batch(batch_size)
    return ds.map(lambda window: (window[:, :-1], window[:, 1:])).prefetch(1)
# [cell 27]
# extra code – a simple example using to_dataset()
# There's just one sample in this dataset: the input represents "to b" and the
# output represents "o be"
_example = list(to_dataset(text_vec_layer(["To be"])[0], length=4))
RESULTS["example_dataset_x"] = _example[0][0]
RESULTS["example_dataset_y"] = _example[0][1]
# [cell 28]
length = 20
tf.random.set_seed(42)
train_set = to_dataset(encoded[:4_000], length=length, shuffle=True,
                       seed=42)
valid_set = to_dataset(encoded[4_000:4_600], length=length)
test_set = to_dataset(encoded[4_600:], length=length)
_x, _y = next(iter(train_set))
RESULTS["train_first_batch_x"] = _x
RESULTS["train_first_batch_y"] = _y
# [cell 32]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU
model = tf.keras.Sequential([
    tf.keras.layers.Embedding(input_dim=n_tokens, output_dim=16),
    tf.keras.layers.GRU(128, return_sequences=True),
    tf.keras.layers.Dense(n_tokens, activation="softmax")
])
model.compile(loss="sparse_categorical_crossentropy", optimizer="nadam",
              metrics=["accuracy"])
model_ckpt = tf.keras.callbacks.ModelCheckpoint(
    "my_shakespeare_model.keras", monitor="val_accuracy", save_best_only=True)
history = model.fit(train_set, validation_data=valid_set, epochs=1,
                    callbacks=[model_ckpt])
for _k, _v in history.history.items():
    RESULTS["history_" + _k] = _v
RESULTS["test_evaluate"] = model.evaluate(test_set)
# [cell 33]
shakespeare_model = tf.keras.Sequential([
    text_vec_layer,
    tf.keras.layers.Lambda(lambda X: X - 2),  # no <PAD> or <UNK> tokens
    model
])
# [cell 36]
y_proba = shakespeare_model.predict(tf.constant(["To be or not to b"]))[0, -1]
y_pred = tf.argmax(y_proba)  # choose the most probable character ID
RESULTS["y_proba"] = y_proba
RESULTS["next_char"] = text_vec_layer.get_vocabulary()[y_pred + 2]
# [cell 38]
log_probas = tf.math.log([[0.5, 0.4, 0.1]])  # probas = 50%, 40%, and 10%
tf.random.set_seed(42)
RESULTS["categorical_samples"] = tf.random.categorical(log_probas, num_samples=8)  # draw 8 samples
# [cell 39]
def next_char(text, temperature=1):
    y_proba = shakespeare_model.predict(tf.constant([text]))[0, -1:]
    rescaled_logits = tf.math.log(y_proba) / temperature
    char_id = tf.random.categorical(rescaled_logits, num_samples=1)[0, 0]
    return text_vec_layer.get_vocabulary()[char_id + 2]
# [cell 40]
def extend_text(text, n_chars=5, temperature=1):
    for _ in range(n_chars):
        text += next_char(text, temperature)
    return text
# [cell 41]
tf.random.set_seed(42)  # extra code – ensures reproducibility on CPU
# [cell 42]
RESULTS["extend_text_t0_01"] = extend_text("To be or not to be", temperature=0.01)
print(RESULTS["extend_text_t0_01"])
# [cell 43]
RESULTS["extend_text_t1"] = extend_text("To be or not to be", temperature=1)
print(RESULTS["extend_text_t1"])
# [cell 44]
RESULTS["extend_text_t100"] = extend_text("To be or not to be", temperature=100)
print(RESULTS["extend_text_t100"])
