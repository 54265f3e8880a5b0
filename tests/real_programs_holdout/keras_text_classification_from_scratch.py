"""Title: Text classification from scratch (Keras example)
Source: https://github.com/keras-team/keras-io/blob/01ae2db402523e96f804c6fc3b0a59582e6a671e/examples/nlp/text_classification_from_scratch.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the IMDB archive (downloaded with keras.utils.get_file) -> synthetic review files in the
same aclImdb/{train,test}/{pos,neg} layout, written in a temporary directory from a seeded NumPy
generator (80 train / 32 test reviews of 20-60 words from a small vocabulary, with `<br />` tags and
punctuation); the shell cells (ls, cat, rm -r unsup) not transcribed; sequence_length 500 -> 60;
epochs 3 -> 2; verbose=0; keras.utils.set_random_seed(0) (the unseeded test split's shuffle,
Dropout); the model's kernels fixed (fix_weights); printed values, the vocabulary's head,
histories and evaluations recorded in RESULTS.
"""
import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import tensorflow as tf
import numpy as np
from keras import layers
import tempfile
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_words = ["good", "bad", "great", "awful", "movie", "film", "plot", "actor", "boring", "fun",
          "the", "a", "was", "is", "and", "not", "very", "story", "ending", "loved", "hated"]
dataset_dir = os.path.join(tempfile.mkdtemp(), "aclImdb")
for _split, _n in (("train", 40), ("test", 16)):
    for _label in ("pos", "neg"):
        os.makedirs(os.path.join(dataset_dir, _split, _label))
        for _i in range(_n):
            _text = " ".join(_rng.choice(_words, _rng.integers(20, 60)))
            _text = _text.replace(" the ", ". The ").replace(" and ", ", and ") + "!<br /><br />" + _label
            with open(os.path.join(dataset_dir, _split, _label, f"{_i}_{_rng.integers(1, 10)}.txt"), "w") as f:
                f.write(_text)

batch_size = 32
train_dir = os.path.join(dataset_dir, "train")
test_dir = os.path.join(dataset_dir, "test")

raw_train_ds = keras.utils.text_dataset_from_directory(
    train_dir,
    batch_size=batch_size,
    validation_split=0.2,
    subset="training",
    seed=1337,
    class_names=["pos", "neg"],
)
raw_val_ds = keras.utils.text_dataset_from_directory(
    train_dir,
    batch_size=batch_size,
    validation_split=0.2,
    subset="validation",
    seed=1337,
    class_names=["pos", "neg"],
)
raw_test_ds = keras.utils.text_dataset_from_directory(test_dir, batch_size=batch_size)

RESULTS["cardinalities"] = [raw_train_ds.cardinality(), raw_val_ds.cardinality(), raw_test_ds.cardinality()]

for text_batch, label_batch in raw_train_ds.take(1):
    RESULTS["preview_text"] = [text_batch.numpy()[i].decode() for i in range(5)]
    RESULTS["preview_label"] = [label_batch.numpy()[i] for i in range(5)]

import string
import re


def custom_standardization(input_data):
    lowercase = tf.strings.lower(input_data)
    stripped_html = tf.strings.regex_replace(lowercase, "<br />", " ")
    return tf.strings.regex_replace(
        stripped_html, f"[{re.escape(string.punctuation)}]", ""
    )


# Model constants.
max_features = 20000
embedding_dim = 128
sequence_length = 60

vectorize_layer = keras.layers.TextVectorization(
    standardize=custom_standardization,
    max_tokens=max_features,
    output_mode="int",
    output_sequence_length=sequence_length,
)

# Let's make a text-only dataset (no labels):
text_ds = raw_train_ds.map(lambda x, y: x)
# Let's call `adapt`:
vectorize_layer.adapt(text_ds)
RESULTS["vocabulary"] = vectorize_layer.get_vocabulary()


def vectorize_text(text, label):
    text = tf.expand_dims(text, -1)
    return vectorize_layer(text), label


# Vectorize the data.
train_ds = raw_train_ds.map(vectorize_text)
val_ds = raw_val_ds.map(vectorize_text)
test_ds = raw_test_ds.map(vectorize_text)

# Do async prefetching / buffering of the data for best performance on GPU.
train_ds = train_ds.cache().prefetch(buffer_size=10)
val_ds = val_ds.cache().prefetch(buffer_size=10)
test_ds = test_ds.cache().prefetch(buffer_size=10)

for x, y in train_ds.take(1):
    RESULTS["vectorized"] = x[:2]

# A integer input for vocab indices.
inputs = keras.Input(shape=(None,), dtype="int64")

x = layers.Embedding(max_features, embedding_dim)(inputs)
x = layers.Dropout(0.5)(x)

# Conv1D + global max pooling
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.Conv1D(128, 7, padding="valid", activation="relu", strides=3)(x)
x = layers.GlobalMaxPooling1D()(x)

# We add a vanilla hidden layer:
x = layers.Dense(128, activation="relu")(x)
x = layers.Dropout(0.5)(x)

# We project onto a single unit output layer, and squash it with a sigmoid:
predictions = layers.Dense(1, activation="sigmoid", name="predictions")(x)

model = keras.Model(inputs, predictions)
fix_weights(model)

# Compile the model with binary crossentropy loss and an adam optimizer.
model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])

epochs = 2

# Fit the model using the train and test datasets.
history = model.fit(train_ds, validation_data=val_ds, epochs=epochs, verbose=0)
RESULTS["history"] = [history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")]

RESULTS["evaluate"] = model.evaluate(test_ds, verbose=0)

# A string input
inputs = keras.Input(shape=(1,), dtype="string")
# Turn strings into vocab indices
indices = vectorize_layer(inputs)
# Turn vocab indices into predictions
outputs = model(indices)

# Our end to end model
end_to_end_model = keras.Model(inputs, outputs)
end_to_end_model.compile(
    loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"]
)

# Test it with `raw_test_ds`, which yields raw strings
RESULTS["end_to_end_evaluate"] = end_to_end_model.evaluate(raw_test_ds, verbose=0)
