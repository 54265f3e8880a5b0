"""Title: Load text (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/load_data/text.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: only the first part (Example 1: Stack Overflow questions, through the exported model);
the Iliad and IMDB parts need tensorflow_text and tensorflow_datasets, which TensorFlow itself
does not ship; stack_overflow_16k.tar.gz (downloaded with utils.get_file) -> a synthetic tree of
the same layout (train/ and test/, one folder per language, 40 and 12 .txt questions each, built
from per-language word lists by a seeded NumPy generator, python/1755.txt among them) in a
temporary directory, which is also the working directory (bin.tf); VOCAB_SIZE 10000 -> 500,
MAX_SEQUENCE_LENGTH 250 -> 60; epochs 10 -> 2; verbose=0 (fit); plot_model and
matplotlib removed; keras.utils.set_random_seed(0) (initializers and dropout are unseeded); the
models' kernels fixed (fix_weights, after building); prints -> RESULTS;
binary_model.predict(['How do you sort a list?']) dropped (Keras 3 itself rejects a list of
strings: "Unrecognized data type"); the exported model's serve() on the same string is kept.
"""
import collections
import os
import pathlib
import tempfile

import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras import losses
from tensorflow.keras import utils
from tensorflow.keras.layers import TextVectorization
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
dataset_dir = pathlib.Path(tempfile.mkdtemp())
os.chdir(dataset_dir)
_rng = np.random.default_rng(0)
_common = "how do i get the a to in my is it not with from when error using".split()
_lang = {"csharp": "linq var class public void string net visual studio",
         "java": "jvm class public static arraylist spring maven string",
         "javascript": "function var jquery dom node react promise array",
         "python": "def list dict pandas numpy import pip django"}
for _split, _n in (("train", 40), ("test", 12)):
  for _name, _words in _lang.items():
    os.makedirs(dataset_dir / _split / _name)
    _pool = _common + _words.split()
    for _k in range(_n):
      _text = " ".join(_rng.choice(_pool, _rng.integers(8, 80)))
      with open(dataset_dir / _split / _name / f"{1755 - _k if _name == 'python' else _k}.txt", "w") as _fh:
        _fh.write(_text + "?")

RESULTS["dataset_dir"] = sorted(p.name for p in dataset_dir.iterdir())

train_dir = dataset_dir/'train'
RESULTS["train_dir"] = sorted(p.name for p in train_dir.iterdir())

sample_file = train_dir/'python/1755.txt'

with open(sample_file) as f:
  RESULTS["sample_len"] = len(f.read())

batch_size = 32
seed = 42

raw_train_ds = utils.text_dataset_from_directory(
    train_dir,
    batch_size=batch_size,
    validation_split=0.2,
    subset='training',
    seed=seed)

for text_batch, label_batch in raw_train_ds.take(1):
  RESULTS["first_labels"] = label_batch.numpy()[:10]
  RESULTS["first_lengths"] = [len(text_batch.numpy()[i]) for i in range(10)]

RESULTS["class_names"] = [len(label) for label in raw_train_ds.class_names]

# Create a validation set.
raw_val_ds = utils.text_dataset_from_directory(
    train_dir,
    batch_size=batch_size,
    validation_split=0.2,
    subset='validation',
    seed=seed)

test_dir = dataset_dir/'test'

# Create a test set.
raw_test_ds = utils.text_dataset_from_directory(
    test_dir,
    batch_size=batch_size)

raw_train_ds = raw_train_ds.cache().prefetch(buffer_size=tf.data.AUTOTUNE)
raw_val_ds = raw_val_ds.cache().prefetch(buffer_size=tf.data.AUTOTUNE)
raw_test_ds = raw_test_ds.prefetch(buffer_size=tf.data.AUTOTUNE)

VOCAB_SIZE = 500

binary_vectorize_layer = TextVectorization(
    max_tokens=VOCAB_SIZE,
    output_mode='binary')

MAX_SEQUENCE_LENGTH = 60

int_vectorize_layer = TextVectorization(
    max_tokens=VOCAB_SIZE,
    output_mode='int',
    output_sequence_length=MAX_SEQUENCE_LENGTH)

# Make a text-only dataset (without labels), then call `TextVectorization.adapt`.
train_text = raw_train_ds.map(lambda text, labels: text)
binary_vectorize_layer.adapt(train_text)
int_vectorize_layer.adapt(train_text)

# Retrieve a batch (of 32 reviews and labels) from the dataset.
text_batch, label_batch = next(iter(raw_train_ds))
first_question, first_label = text_batch[0], label_batch[0]
RESULTS["first_label"] = first_label

RESULTS["binary_vectorized"] = binary_vectorize_layer(first_question).numpy()

RESULTS["int_vectorized"] = int_vectorize_layer(first_question).numpy()

RESULTS["vocab_size"] = len(int_vectorize_layer.get_vocabulary())
RESULTS["vocab_lengths"] = [len(w) for w in int_vectorize_layer.get_vocabulary()]

binary_model = tf.keras.Sequential([
    binary_vectorize_layer,
    layers.Dense(4)])

binary_model.compile(
    loss=losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer='adam',
    metrics=['accuracy'])

binary_model.build((None,))
fix_weights(binary_model)
bin_history = binary_model.fit(
    raw_train_ds, validation_data=raw_val_ds, epochs=2, verbose=0)

def create_model(vocab_size, num_labels, vectorizer=None):
  my_layers =[]
  if vectorizer is not None:
    my_layers = [vectorizer]

  my_layers.extend([
      layers.Embedding(vocab_size, 64, mask_zero=True),
      layers.Dropout(0.5),
      layers.Conv1D(64, 5, padding="valid", activation="relu", strides=2),
      layers.GlobalMaxPooling1D(),
      layers.Dense(num_labels)
  ])

  model = tf.keras.Sequential(my_layers)
  return model

# `vocab_size` is `VOCAB_SIZE + 1` since `0` is used additionally for padding.
int_model = create_model(vocab_size=VOCAB_SIZE + 1, num_labels=4, vectorizer=int_vectorize_layer)

int_model.compile(
    loss=losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer='adam',
    metrics=['accuracy'])
int_model.build((None,))
fix_weights(int_model)
int_history = int_model.fit(raw_train_ds, validation_data=raw_val_ds, epochs=2, verbose=0)

RESULTS["bin_history"] = [bin_history.history[k] for k in ("loss", "val_loss", "accuracy", "val_accuracy")]
RESULTS["int_history"] = [int_history.history[k] for k in ("loss", "val_loss", "accuracy", "val_accuracy")]
RESULTS["epochs"] = [bin_history.epoch, int_history.epoch]

binary_train_ds = raw_train_ds.map(lambda x,y: (binary_vectorize_layer(x), y))
binary_val_ds = raw_val_ds.map(lambda x,y: (binary_vectorize_layer(x), y))
binary_test_ds = raw_test_ds.map(lambda x,y: (binary_vectorize_layer(x), y))

int_train_ds = raw_train_ds.map(lambda x,y: (int_vectorize_layer(x), y))
int_val_ds = raw_val_ds.map(lambda x,y: (int_vectorize_layer(x), y))
int_test_ds = raw_test_ds.map(lambda x,y: (int_vectorize_layer(x), y))
RESULTS["int_test_batch"] = next(iter(int_test_ds))[0]

binary_model.export('bin.tf')

loaded = tf.saved_model.load('bin.tf')

RESULTS["serve"] = loaded.serve(tf.constant(['How do you sort a list?'])).numpy()
