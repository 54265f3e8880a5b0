"""Title: Word embeddings (TensorFlow Text tutorial)
Source: https://github.com/tensorflow/text/blob/17c38bf014810b80abbb7c13ff1c2ac3cd9f710f/docs/tutorials/word_embeddings.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: aclImdb_v1.tar.gz (downloaded with keras.utils.get_file) -> a synthetic aclImdb tree
(train/pos, train/neg with 60 reviews each and train/unsup, which the tutorial deletes) of
reviews drawn from sentiment word lists by a seeded NumPy generator, in a temporary directory that
is also the working directory (logs/, vectors.tsv, metadata.tsv); batch_size 1024 -> 32;
vocab_size 10000 -> 200; sequence_length 100 -> 40; epochs 15 -> 3; verbose=0 (fit);
keras.utils.set_random_seed(0) (initializers are unseeded); the model's kernels fixed
(fix_weights, after building); the random Embedding(1000, 5) demo's values (its initializer's
draws) not recorded, only its shapes; the TensorBoard magics and google.colab download removed;
summary() and prints -> RESULTS (labels, shapes, history, the written vectors and words).
"""
import io
import os
import re
import shutil
import string
import tempfile
import numpy as np
import tensorflow as tf

from tensorflow.keras import Sequential
from tensorflow.keras.layers import Dense, Embedding, GlobalAveragePooling1D
from tensorflow.keras.layers import TextVectorization
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
_neutral = "the movie film a and of to is it was this that in story plot actors".split()
_good = "great wonderful loved best brilliant fun moving superb".split()
_bad = "awful boring worst hated terrible dull waste poor".split()
for _d, _extra in (("pos", _good), ("neg", _bad), ("unsup", _good + _bad)):
  os.makedirs(os.path.join("aclImdb", "train", _d))
  for _k in range(60 if _d != "unsup" else 5):
    with open(os.path.join("aclImdb", "train", _d, f"{_k}_1.txt"), "w") as _fh:
      _fh.write(" ".join(_rng.choice(_neutral + _extra, _rng.integers(10, 60))) + ".<br />The End!")

dataset_dir = os.path.join(os.getcwd(), 'aclImdb')
RESULTS["dataset_dir"] = sorted(len(p) for p in os.listdir(dataset_dir))

train_dir = os.path.join(dataset_dir, 'train')
RESULTS["train_dir"] = sorted(len(p) for p in os.listdir(train_dir))

remove_dir = os.path.join(train_dir, 'unsup')
shutil.rmtree(remove_dir)

batch_size = 32
seed = 123
train_ds = tf.keras.utils.text_dataset_from_directory(
    'aclImdb/train', batch_size=batch_size, validation_split=0.2,
    subset='training', seed=seed)
val_ds = tf.keras.utils.text_dataset_from_directory(
    'aclImdb/train', batch_size=batch_size, validation_split=0.2,
    subset='validation', seed=seed)

for text_batch, label_batch in train_ds.take(1):
  RESULTS["first_labels"] = [label_batch[i].numpy() for i in range(5)]
  RESULTS["first_lengths"] = [len(text_batch.numpy()[i]) for i in range(5)]

AUTOTUNE = tf.data.AUTOTUNE

train_ds = train_ds.cache().prefetch(buffer_size=AUTOTUNE)
val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)

# Embed a 1,000 word vocabulary into 5 dimensions.
embedding_layer = tf.keras.layers.Embedding(1000, 5)

result = embedding_layer(tf.constant([1, 2, 3]))
RESULTS["embedding_1d_shape"] = list(result.numpy().shape)

result = embedding_layer(tf.constant([[0, 1, 2], [3, 4, 5]]))
RESULTS["embedding_2d_shape"] = list(result.shape)

# Create a custom standardization function to strip HTML break tags '<br />'.
def custom_standardization(input_data):
  lowercase = tf.strings.lower(input_data)
  stripped_html = tf.strings.regex_replace(lowercase, '<br />', ' ')
  return tf.strings.regex_replace(stripped_html,
                                  '[%s]' % re.escape(string.punctuation), '')


# Vocabulary size and number of words in a sequence.
vocab_size = 200
sequence_length = 40

# Use the text vectorization layer to normalize, split, and map strings to
# integers. Note that the layer uses the custom standardization defined above.
# Set maximum_sequence length as all samples are not of the same length.
vectorize_layer = TextVectorization(
    standardize=custom_standardization,
    max_tokens=vocab_size,
    output_mode='int',
    output_sequence_length=sequence_length)

# Make a text-only dataset (no labels) and call adapt to build the vocabulary.
text_ds = train_ds.map(lambda x, y: x)
vectorize_layer.adapt(text_ds)

embedding_dim=16

model = Sequential([
  vectorize_layer,
  Embedding(vocab_size, embedding_dim, name="embedding"),
  GlobalAveragePooling1D(),
  Dense(16, activation='relu'),
  Dense(1)
])
model.build((None,))
fix_weights(model)

tensorboard_callback = tf.keras.callbacks.TensorBoard(log_dir="logs")

model.compile(optimizer='adam',
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              metrics=['accuracy'])

history = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=3,
    callbacks=[tensorboard_callback],
    verbose=0)
RESULTS["history"] = [history.history[k] for k in ("loss", "val_loss", "accuracy", "val_accuracy")]
RESULTS["logs_written"] = os.path.isdir("logs")

RESULTS["count_params"] = model.count_params()

weights = model.get_layer('embedding').get_weights()[0]
vocab = vectorize_layer.get_vocabulary()

out_v = io.open('vectors.tsv', 'w', encoding='utf-8')
out_m = io.open('metadata.tsv', 'w', encoding='utf-8')

for index, word in enumerate(vocab):
  if index == 0:
    continue  # skip 0, it's padding.
  vec = weights[index]
  out_v.write('\t'.join([str(x) for x in vec]) + "\n")
  out_m.write(word + "\n")
out_v.close()
out_m.close()

RESULTS["vectors"] = np.loadtxt('vectors.tsv', delimiter='\t', dtype=np.float32)
with open('metadata.tsv', encoding='utf-8') as _fh:
  RESULTS["metadata_lengths"] = [len(w) for w in _fh.read().split("\n")]
