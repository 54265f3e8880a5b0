"""Title: Using pre-trained word embeddings (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/7e91e2624a08585f27b14346677ca7e553eb1578/examples/keras_io/tensorflow/nlp/pretrained_word_embeddings.py
Licence: Apache-2.0 (keras-team/keras)
Changed: news20.tar.gz (downloaded with keras.utils.get_file; 20 folders of ~1000 messages) -> 4
folders of 16 synthetic messages (10 header lines, then one body per folder of words drawn by
a seeded NumPy generator, so that os.listdir's order, which the example keeps, does not change
the data; comp.graphics holds a 38987) in a temporary directory that the program works in
(os.chdir); glove.6B.100d.txt (downloaded with wget; 400,000 words) -> a synthetic GloVe file
of 60 words with seeded 100-d vectors; the Conv1D filters 128 -> 32 and Dense 128 -> 32 units;
batch_size 128 -> 16, epochs 20 -> 2; verbose=0; keras.utils.set_random_seed(0) (dropout and
initializers are unseeded); the model's kernels fixed (fix_weights); summary() and prints and
displayed values -> RESULTS.
"""

import os

# Only the TensorFlow backend supports string inputs.
os.environ["KERAS_BACKEND"] = "tensorflow"

import pathlib
import tempfile
import numpy as np
import tensorflow.data as tf_data
import keras
from keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())

_rng = np.random.default_rng(0)
_topics = {"comp.graphics": ["image", "pixel", "render", "3d", "modeling", "graphics", "computer"],
           "rec.autos": ["car", "engine", "wheel", "drive", "speed", "oil", "tire"],
           "sci.space": ["orbit", "nasa", "moon", "launch", "rocket", "shuttle", "space"],
           "talk.politics.misc": ["vote", "law", "government", "tax", "party", "senate", "bill"]}
_common = ["the", "a", "is", "of", "and", "to", "this", "message", "about", "i", "it", "on",
           "cat", "sat", "mat", "in", "for", "that", "with", "be"]
data_path = os.path.abspath("news20.tar.gz")
for _topic, _words in _topics.items():
    os.makedirs(os.path.join("20_newsgroup", _topic))
    _body = " ".join(_rng.choice(_words + _common, 60))
    for _k in range(16):
        _name = "38987" if (_topic == "comp.graphics" and _k == 0) else str(37000 + 61 * _k + len(_topic))
        _header = [f"Newsgroups: {_topic}", "Path: cantaloupe.srv.cs.cmu.edu", "From: someone",
                   "Subject: Re: question", f"Message-ID: <{_k}@news>", "Sender: news",
                   "Organization: University", "References: <1@news>", "Date: 5 Apr 93",
                   "Lines: 12"]
        with open(os.path.join("20_newsgroup", _topic, _name), "w", encoding="latin-1") as _fh:
            _fh.write("\n".join(_header + [_body, ""]))
with open("glove.6B.100d.txt", "w") as _fh:
    for _word in _common + [w for ws in _topics.values() for w in ws] + ["unused", "words"]:
        _fh.write(_word + " " + " ".join(f"{v:.5f}" for v in _rng.normal(0, 0.5, 100)) + "\n")

data_dir = pathlib.Path(data_path).parent / "20_newsgroup"
dirnames = os.listdir(data_dir)
print("Number of directories:", len(dirnames))
print("Directory names:", dirnames)

fnames = os.listdir(data_dir / "comp.graphics")
print("Number of files in comp.graphics:", len(fnames))
print("Some example filenames:", fnames[:5])

print(open(data_dir / "comp.graphics" / "38987").read())

samples = []
labels = []
class_names = []
class_index = 0
for dirname in sorted(os.listdir(data_dir)):
    class_names.append(dirname)
    dirpath = data_dir / dirname
    fnames = os.listdir(dirpath)
    print("Processing %s, %d files found" % (dirname, len(fnames)))
    for fname in fnames:
        fpath = dirpath / fname
        f = open(fpath, encoding="latin-1")
        content = f.read()
        lines = content.split("\n")
        lines = lines[10:]
        content = "\n".join(lines)
        samples.append(content)
        labels.append(class_index)
    class_index += 1

print("Classes:", class_names)
print("Number of samples:", len(samples))
RESULTS["class_names"] = class_names

# Shuffle the data
seed = 1337
rng = np.random.RandomState(seed)
rng.shuffle(samples)
rng = np.random.RandomState(seed)
rng.shuffle(labels)

# Extract a training & validation split
validation_split = 0.2
num_validation_samples = int(validation_split * len(samples))
train_samples = samples[:-num_validation_samples]
val_samples = samples[-num_validation_samples:]
train_labels = labels[:-num_validation_samples]
val_labels = labels[-num_validation_samples:]

vectorizer = layers.TextVectorization(max_tokens=20000, output_sequence_length=200)
text_ds = tf_data.Dataset.from_tensor_slices(train_samples).batch(128)
vectorizer.adapt(text_ds)

RESULTS["top_words"] = vectorizer.get_vocabulary()[:5]

output = vectorizer([["the cat sat on the mat"]])
RESULTS["test_sentence"] = output.numpy()[0, :6]

voc = vectorizer.get_vocabulary()
word_index = dict(zip(voc, range(len(voc))))

test = ["the", "cat", "sat", "on", "the", "mat"]
RESULTS["test_indices"] = [word_index[w] for w in test]

path_to_glove_file = "glove.6B.100d.txt"

embeddings_index = {}
with open(path_to_glove_file) as f:
    for line in f:
        word, coefs = line.split(maxsplit=1)
        coefs = np.fromstring(coefs, "f", sep=" ")
        embeddings_index[word] = coefs

print("Found %s word vectors." % len(embeddings_index))

num_tokens = len(voc) + 2
embedding_dim = 100
hits = 0
misses = 0

# Prepare embedding matrix
embedding_matrix = np.zeros((num_tokens, embedding_dim))
for word, i in word_index.items():
    embedding_vector = embeddings_index.get(word)
    if embedding_vector is not None:
        # Words not found in embedding index will be all-zeros.
        # This includes the representation for "padding" and "OOV"
        embedding_matrix[i] = embedding_vector
        hits += 1
    else:
        misses += 1
print("Converted %d words (%d misses)" % (hits, misses))
RESULTS["hits_misses"] = [hits, misses]

from keras.layers import Embedding

embedding_layer = Embedding(
    num_tokens,
    embedding_dim,
    trainable=False,
)
embedding_layer.build((1,))
embedding_layer.set_weights([embedding_matrix])

int_sequences_input = keras.Input(shape=(None,), dtype="int32")
embedded_sequences = embedding_layer(int_sequences_input)
x = layers.Conv1D(32, 5, activation="relu")(embedded_sequences)
x = layers.MaxPooling1D(5)(x)
x = layers.Conv1D(32, 5, activation="relu")(x)
x = layers.MaxPooling1D(5)(x)
x = layers.Conv1D(32, 5, activation="relu")(x)
x = layers.GlobalMaxPooling1D()(x)
x = layers.Dense(32, activation="relu")(x)
x = layers.Dropout(0.5)(x)
preds = layers.Dense(len(class_names), activation="softmax")(x)
model = keras.Model(int_sequences_input, preds)
fix_weights(model.trainable_weights)
model.summary()
RESULTS["n_params"] = model.count_params()

x_train = vectorizer(np.array([[s] for s in train_samples])).numpy()
x_val = vectorizer(np.array([[s] for s in val_samples])).numpy()

y_train = np.array(train_labels)
y_val = np.array(val_labels)
RESULTS["y_train"] = y_train

model.compile(
    loss="sparse_categorical_crossentropy", optimizer="rmsprop", metrics=["acc"]
)
history = model.fit(
    x_train, y_train, batch_size=16, epochs=2, validation_data=(x_val, y_val), verbose=0
)
RESULTS["history"] = [history.history[k] for k in sorted(history.history)]

string_input = keras.Input(shape=(1,), dtype="string")
x = vectorizer(string_input)
preds = model(x)
end_to_end_model = keras.Model(string_input, preds)

probabilities = end_to_end_model(
    keras.ops.convert_to_tensor(
        [["this message is about computer graphics and 3D modeling"]]
    )
)

print(class_names[np.argmax(probabilities[0])])
RESULTS["probabilities"] = probabilities
RESULTS["predicted_class"] = class_names[np.argmax(probabilities[0])]
