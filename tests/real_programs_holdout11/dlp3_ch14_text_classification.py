"""Title: Deep Learning with Python, 3rd ed., chapter 14: Text classification (the IMDB part)
Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/dea84a4e12cc3bb3cb61ce952a0168bca113d315/chapter14_text-classification.ipynb
Licence: MIT (fchollet/deep-learning-with-python-notebooks)
Changed: the notebook's cells from "Preparing the IMDb movie reviews data" to the end, in order,
with KERAS_BACKEND="tensorflow" (the notebook sets "jax"); the first part (pure-Python character,
word and BPE tokenizers on Moby Dick) is left out: it downloads the book and needs the `regex`
package, and uses no TensorFlow/Keras beyond get_file. The aclImdb download/extract -> a
directory tree of the same layout (aclImdb/train/{neg,pos}, aclImdb/test/{neg,pos}, one review
per .txt file) written to a tempfile directory from a seeded NumPy generator: 40 reviews per
class in train (20% of them copied to the validation folder, as the notebook does) and 16 per
class in test, each 20-60 words drawn from a 300-word synthetic vocabulary, the positive ones
biased towards a few "positive" words; the notebook's copying into imdb_train / imdb_val /
imdb_test kept (into the tempfile directory); the printed sample review (4077_10.txt) -> the
first synthetic file. Sizes: max_tokens 20_000 / 30_000 -> 200 / 300 (below the synthetic
corpus's ~310 distinct words, as the real vocabularies are below IMDB's; the one-hot LSTM would
otherwise build a 600x30000 one-hot tensor per review), max_length 600 -> 40, hidden_dim kept,
epochs 10 -> 2 and 4 -> 1, batch(1024) kept; num_parallel_calls=8 kept; verbose=0 on
fit/evaluate; summaries printed; the matplotlib accuracy plot removed.
keras.utils.set_random_seed(0) at the top (the dataset shuffles, initializers and dropouts are
unseeded). The batch shapes, vocabulary slices, histories, test accuracies and the CBOW fit ->
RESULTS.
"""
import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"
import numpy as np
import keras

keras.utils.set_random_seed(0)
RESULTS = {}
_tmp = tempfile.mkdtemp()


def _write_synthetic_imdb(root):
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(300)]
    good, bad = ["great", "wonderful", "loved", "superb"], ["awful", "boring", "hated", "dull"]
    for split, n in (("train", 40), ("test", 16)):
        for category in ("neg", "pos"):
            d = os.path.join(root, "aclImdb", split, category)
            os.makedirs(d)
            for i in range(n):
                length = int(rng.integers(20, 61))
                toks = [words[j] for j in rng.integers(0, 300, length)]
                extra = good if category == "pos" else bad
                for k in rng.integers(0, length, 4):
                    toks[k] = extra[int(rng.integers(0, 4))]
                text = " ".join(toks).capitalize() + ". <br /><br />The end."
                rating = int(rng.integers(7, 11)) if category == "pos" else int(rng.integers(1, 5))
                with open(os.path.join(d, f"{i}_{rating}.txt"), "w") as f:
                    f.write(text)
    return os.path.join(root, "aclImdb")


import os, pathlib, shutil, random

zip_path = _write_synthetic_imdb(_tmp)

imdb_extract_dir = pathlib.Path(zip_path)
for path in sorted(imdb_extract_dir.glob("*/*")):
    if path.is_dir():
        print(path)
_sample = open(sorted((imdb_extract_dir / "train" / "pos").glob("*.txt"))[0], "r").read()
print(_sample)
RESULTS["sample_review"] = np.array(_sample)
train_dir = pathlib.Path(_tmp) / "imdb_train"
test_dir = pathlib.Path(_tmp) / "imdb_test"
val_dir = pathlib.Path(_tmp) / "imdb_val"

shutil.copytree(imdb_extract_dir / "test", test_dir)

val_percentage = 0.2
for category in ("neg", "pos"):
    src_dir = imdb_extract_dir / "train" / category
    src_files = sorted(os.listdir(src_dir))
    random.Random(1337).shuffle(src_files)
    num_val_samples = int(len(src_files) * val_percentage)

    os.makedirs(val_dir / category)
    for file in src_files[:num_val_samples]:
        shutil.copy(src_dir / file, val_dir / category / file)
    os.makedirs(train_dir / category)
    for file in src_files[num_val_samples:]:
        shutil.copy(src_dir / file, train_dir / category / file)
from keras.utils import text_dataset_from_directory

batch_size = 32
train_ds = text_dataset_from_directory(train_dir, batch_size=batch_size)
val_ds = text_dataset_from_directory(val_dir, batch_size=batch_size)
test_ds = text_dataset_from_directory(test_dir, batch_size=batch_size)
from keras import layers

max_tokens = 200
text_vectorization = layers.TextVectorization(
    max_tokens=max_tokens,
    split="whitespace",
    output_mode="multi_hot",
)
train_ds_no_labels = train_ds.map(lambda x, y: x)
text_vectorization.adapt(train_ds_no_labels)

bag_of_words_train_ds = train_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
bag_of_words_val_ds = val_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
bag_of_words_test_ds = test_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
x, y = next(bag_of_words_train_ds.as_numpy_iterator())
RESULTS["bow_x_shape"] = np.array(x.shape)
RESULTS["bow_y_shape"] = np.array(y.shape)
RESULTS["bow_vocabulary_size"] = text_vectorization.vocabulary_size()


def build_linear_classifier(max_tokens, name):
    inputs = keras.Input(shape=(max_tokens,))
    outputs = layers.Dense(1, activation="sigmoid")(inputs)
    model = keras.Model(inputs, outputs, name=name)
    model.compile(
        optimizer="adam",
        loss="binary_crossentropy",
        metrics=["accuracy"],
    )
    return model


model = build_linear_classifier(max_tokens, "bag_of_words_classifier")
model.summary(line_length=80)
early_stopping = keras.callbacks.EarlyStopping(
    monitor="val_loss",
    restore_best_weights=True,
    patience=2,
)
history = model.fit(
    bag_of_words_train_ds,
    validation_data=bag_of_words_val_ds,
    epochs=2,
    callbacks=[early_stopping],
    verbose=0,
)
RESULTS["bow_history"] = np.array([history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
accuracy = history.history["accuracy"]
val_accuracy = history.history["val_accuracy"]
epochs = range(1, len(accuracy) + 1)
test_loss, test_acc = model.evaluate(bag_of_words_test_ds, verbose=0)
RESULTS["bow_test"] = np.array([test_loss, test_acc])
max_tokens = 300
text_vectorization = layers.TextVectorization(
    max_tokens=max_tokens,
    split="whitespace",
    output_mode="multi_hot",
    ngrams=2,
)
text_vectorization.adapt(train_ds_no_labels)

bigram_train_ds = train_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
bigram_val_ds = val_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
bigram_test_ds = test_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
x, y = next(bigram_train_ds.as_numpy_iterator())
RESULTS["bigram_x_shape"] = np.array(x.shape)
RESULTS["bigram_vocabulary_size"] = text_vectorization.vocabulary_size()
RESULTS["bigram_vocabulary_100_108"] = np.array(text_vectorization.get_vocabulary()[100:108])
model = build_linear_classifier(max_tokens, "bigram_classifier")
history = model.fit(
    bigram_train_ds,
    validation_data=bigram_val_ds,
    epochs=2,
    callbacks=[early_stopping],
    verbose=0,
)
RESULTS["bigram_history"] = np.array([history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
test_loss, test_acc = model.evaluate(bigram_test_ds, verbose=0)
RESULTS["bigram_test"] = np.array([test_loss, test_acc])
max_length = 40
max_tokens = 300
text_vectorization = layers.TextVectorization(
    max_tokens=max_tokens,
    split="whitespace",
    output_mode="int",
    output_sequence_length=max_length,
)
text_vectorization.adapt(train_ds_no_labels)

sequence_train_ds = train_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
sequence_val_ds = val_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
sequence_test_ds = test_ds.map(
    lambda x, y: (text_vectorization(x), y), num_parallel_calls=8
)
x, y = next(sequence_test_ds.as_numpy_iterator())
RESULTS["sequence_x_shape"] = np.array(x.shape)
RESULTS["sequence_x_row_sums"] = x.sum(axis=1)
from keras import ops


class OneHotEncoding(keras.Layer):
    def __init__(self, depth, **kwargs):
        super().__init__(**kwargs)
        self.depth = depth

    def call(self, inputs):
        flat_inputs = ops.reshape(ops.cast(inputs, "int"), [-1])
        one_hot_vectors = ops.eye(self.depth)
        outputs = ops.take(one_hot_vectors, flat_inputs, axis=0)
        return ops.reshape(outputs, ops.shape(inputs) + (self.depth,))


one_hot_encoding = OneHotEncoding(max_tokens)
x, y = next(sequence_train_ds.as_numpy_iterator())
RESULTS["one_hot_shape"] = np.array(one_hot_encoding(x).shape)
hidden_dim = 64
inputs = keras.Input(shape=(max_length,), dtype="int32")
x = one_hot_encoding(inputs)
x = layers.Bidirectional(layers.LSTM(hidden_dim))(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs, name="lstm_with_one_hot")
model.compile(
    optimizer="adam",
    loss="binary_crossentropy",
    metrics=["accuracy"],
)
model.summary(line_length=80)
history = model.fit(
    sequence_train_ds,
    validation_data=sequence_val_ds,
    epochs=2,
    callbacks=[early_stopping],
    verbose=0,
)
RESULTS["one_hot_lstm_history"] = np.array([history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
test_loss, test_acc = model.evaluate(sequence_test_ds, verbose=0)
RESULTS["one_hot_lstm_test"] = np.array([test_loss, test_acc])
hidden_dim = 64
inputs = keras.Input(shape=(max_length,), dtype="int32")
x = keras.layers.Embedding(
    input_dim=max_tokens,
    output_dim=hidden_dim,
    mask_zero=True,
)(inputs)
x = keras.layers.Bidirectional(keras.layers.LSTM(hidden_dim))(x)
x = keras.layers.Dropout(0.5)(x)
outputs = keras.layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs, name="lstm_with_embedding")
model.compile(
    optimizer="adam",
    loss="binary_crossentropy",
    metrics=["accuracy"],
)
model.summary(line_length=80)
history = model.fit(
    sequence_train_ds,
    validation_data=sequence_val_ds,
    epochs=2,
    callbacks=[early_stopping],
    verbose=0,
)
RESULTS["embedding_lstm_history"] = np.array([history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
test_loss, test_acc = model.evaluate(sequence_test_ds, verbose=0)
RESULTS["embedding_lstm_test"] = np.array([test_loss, test_acc])
imdb_vocabulary = text_vectorization.get_vocabulary()
tokenize_no_padding = keras.layers.TextVectorization(
    vocabulary=imdb_vocabulary,
    split="whitespace",
    output_mode="int",
)
import tensorflow as tf

context_size = 4
window_size = 9


def window_data(token_ids):
    num_windows = tf.maximum(tf.size(token_ids) - context_size * 2, 0)
    windows = tf.range(window_size)[None, :]
    windows = windows + tf.range(num_windows)[:, None]
    windowed_tokens = tf.gather(token_ids, windows)
    return tf.data.Dataset.from_tensor_slices(windowed_tokens)


def split_label(window):
    left = window[:context_size]
    right = window[context_size + 1 :]
    bag = tf.concat((left, right), axis=0)
    label = window[4]
    return bag, label


dataset = keras.utils.text_dataset_from_directory(
    imdb_extract_dir / "train", batch_size=None
)
dataset = dataset.map(lambda x, y: x, num_parallel_calls=8)
dataset = dataset.map(tokenize_no_padding, num_parallel_calls=8)
dataset = dataset.interleave(window_data, cycle_length=8, num_parallel_calls=8)
dataset = dataset.map(split_label, num_parallel_calls=8)
hidden_dim = 64
inputs = keras.Input(shape=(2 * context_size,))
cbow_embedding = layers.Embedding(
    max_tokens,
    hidden_dim,
)
x = cbow_embedding(inputs)
x = layers.GlobalAveragePooling1D()(x)
outputs = layers.Dense(max_tokens, activation="sigmoid")(x)
cbow_model = keras.Model(inputs, outputs)
cbow_model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["sparse_categorical_accuracy"],
)
cbow_model.summary(line_length=80)
dataset = dataset.batch(1024).cache()
history = cbow_model.fit(dataset, epochs=1, verbose=0)
RESULTS["cbow_history"] = np.array([history.history[k] for k in ("loss", "sparse_categorical_accuracy")])
RESULTS["cbow_num_windows"] = sum(int(b[1].shape[0]) for b in dataset)
inputs = keras.Input(shape=(max_length,))
lstm_embedding = layers.Embedding(
    input_dim=max_tokens,
    output_dim=hidden_dim,
    mask_zero=True,
)
x = lstm_embedding(inputs)
x = layers.Bidirectional(layers.LSTM(hidden_dim))(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(1, activation="sigmoid")(x)
model = keras.Model(inputs, outputs, name="lstm_with_cbow")
lstm_embedding.embeddings.assign(cbow_embedding.embeddings)
RESULTS["cbow_embedding_row_sums"] = ops.sum(lstm_embedding.embeddings, axis=1)[:16]
model.compile(
    optimizer="adam",
    loss="binary_crossentropy",
    metrics=["accuracy"],
)
history = model.fit(
    sequence_train_ds,
    validation_data=sequence_val_ds,
    epochs=2,
    callbacks=[early_stopping],
    verbose=0,
)
RESULTS["cbow_lstm_history"] = np.array([history.history[k] for k in ("loss", "accuracy", "val_loss", "val_accuracy")])
test_loss, test_acc = model.evaluate(sequence_test_ds, verbose=0)
RESULTS["cbow_lstm_test"] = np.array([test_loss, test_acc])
