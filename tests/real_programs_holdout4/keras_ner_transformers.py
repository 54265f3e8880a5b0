"""Title: Named Entity Recognition using Transformers (Keras example, Keras 3 port)
Source: https://github.com/keras-team/keras/blob/990d718bc0dacb92c7d7ee174d3df615a8874d65/examples/keras_io/tensorflow/nlp/ner_transformers.py
Licence: Apache-2.0 (keras-team/keras)
Changed: load_dataset("conll2003") (HuggingFace datasets; downloaded) -> 240/60 synthetic records
(tokens and IOB tags drawn by a seeded NumPy generator) in a stand-in with the two features the
example uses (iterating records, and a column by name); the program works in a temporary
directory (os.chdir; for ./data); epochs 10 -> 2; verbose=0; the conlleval.py download and
its evaluate() call dropped (the tags calculate_metrics collects are recorded instead);
keras.utils.set_random_seed(0) (dropout and initializers are unseeded); the model's kernels
fixed (fix_weights, after a first call to build it); keras.ops.backend.shape(inputs) ->
keras.ops.shape(inputs), keras.backend.cast -> keras.ops.cast and keras.ops.reshape(...,
new_shape=...) -> newshape= (Keras 3.15 has no keras.ops.backend nor keras.backend.cast, and
names reshape's argument newshape); prints -> RESULTS.
"""

import os
import tempfile
import numpy as np
import keras
from keras import layers
from collections import Counter
from _corpus import fix_weights

# imports for data preprocessing
from tensorflow import data as tf_data
from tensorflow import strings as tf_strings

keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = keras.layers.MultiHeadAttention(
            num_heads=num_heads, key_dim=embed_dim
        )
        self.ffn = keras.Sequential(
            [
                keras.layers.Dense(ff_dim, activation="relu"),
                keras.layers.Dense(embed_dim),
            ]
        )
        self.layernorm1 = keras.layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = keras.layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = keras.layers.Dropout(rate)
        self.dropout2 = keras.layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = keras.layers.Embedding(
            input_dim=vocab_size, output_dim=embed_dim
        )
        self.pos_emb = keras.layers.Embedding(
            input_dim=maxlen, output_dim=embed_dim
        )

    def call(self, inputs):
        maxlen = keras.ops.shape(inputs)[-1]
        positions = keras.ops.arange(start=0, stop=maxlen, step=1)
        position_embeddings = self.pos_emb(positions)
        token_embeddings = self.token_emb(inputs)
        return token_embeddings + position_embeddings


class NERModel(keras.Model):
    def __init__(
        self,
        num_tags,
        vocab_size,
        maxlen=128,
        embed_dim=32,
        num_heads=2,
        ff_dim=32,
    ):
        super().__init__()
        self.embedding_layer = TokenAndPositionEmbedding(
            maxlen, vocab_size, embed_dim
        )
        self.transformer_block = TransformerBlock(embed_dim, num_heads, ff_dim)
        self.dropout1 = layers.Dropout(0.1)
        self.ff = layers.Dense(ff_dim, activation="relu")
        self.dropout2 = layers.Dropout(0.1)
        self.ff_final = layers.Dense(num_tags, activation="softmax")

    def call(self, inputs, training=False):
        x = self.embedding_layer(inputs)
        x = self.transformer_block(x)
        x = self.dropout1(x, training=training)
        x = self.ff(x)
        x = self.dropout2(x, training=training)
        x = self.ff_final(x)
        return x


class _Split:
    """The two features of a datasets.Dataset split the example uses."""

    def __init__(self, records):
        self.records = records

    def __iter__(self):
        return iter(self.records)

    def __getitem__(self, column):
        return [r[column] for r in self.records]


_rng = np.random.default_rng(0)
_words = ["EU", "rejects", "German", "call", "to", "boycott", "British", "lamb", "Peter",
          "Blackburn", "BRUSSELS", "1996-08-22", "The", "European", "Commission", "said",
          "on", "Thursday", "it", "disagreed", "with", "advice", "consumers", "shun", "."]
_tag_of = {"EU": 3, "German": 7, "British": 7, "Peter": 1, "Blackburn": 2, "BRUSSELS": 5,
           "European": 3, "Commission": 4}


def _records(n):
    out = []
    for _ in range(n):
        tokens = [str(w) for w in _rng.choice(_words, _rng.integers(0, 12))]
        out.append({"tokens": tokens, "ner_tags": [_tag_of.get(t, 0) for t in tokens]})
    return out


conll_data = {"train": _Split(_records(240)), "validation": _Split(_records(60))}


def export_to_file(export_file_path, data):
    with open(export_file_path, "w") as f:
        for record in data:
            ner_tags = record["ner_tags"]
            tokens = record["tokens"]
            if len(tokens) > 0:
                f.write(
                    str(len(tokens))
                    + "\t"
                    + "\t".join(tokens)
                    + "\t"
                    + "\t".join(map(str, ner_tags))
                    + "\n"
                )


os.mkdir("data")
export_to_file("./data/conll_train.txt", conll_data["train"])
export_to_file("./data/conll_val.txt", conll_data["validation"])


def make_tag_lookup_table():
    iob_labels = ["B", "I"]
    ner_labels = ["PER", "ORG", "LOC", "MISC"]
    all_labels = [
        (label1, label2) for label2 in ner_labels for label1 in iob_labels
    ]
    all_labels = ["-".join([a, b]) for a, b in all_labels]
    all_labels = ["[PAD]", "O"] + all_labels
    return dict(zip(range(0, len(all_labels) + 1), all_labels))


mapping = make_tag_lookup_table()
print(mapping)
RESULTS["mapping"] = [mapping[k] for k in sorted(mapping)]

all_tokens = sum(conll_data["train"]["tokens"], [])
all_tokens_array = np.array(list(map(str.lower, all_tokens)))

counter = Counter(all_tokens_array)
print(len(counter))

num_tags = len(mapping)
vocab_size = 20000

# We only take (vocab_size - 2) most commons words from the training data since
# the `StringLookup` class uses 2 additional tokens - one denoting an unknown
# token and another one denoting a masking token
vocabulary = [token for token, count in counter.most_common(vocab_size - 2)]

# The StringLook class will convert tokens to token IDs
lookup_layer = keras.layers.StringLookup(vocabulary=vocabulary)
RESULTS["lookup_vocabulary"] = lookup_layer.get_vocabulary()

train_data = tf_data.TextLineDataset("./data/conll_train.txt")
val_data = tf_data.TextLineDataset("./data/conll_val.txt")

print(list(train_data.take(1).as_numpy_iterator()))


# Data preprocessing using Tensorflow
def map_record_to_training_data(record):
    record = tf_strings.split(record, sep="\t")
    length = tf_strings.to_number(record[0], out_type="int32")
    tokens = record[1 : length + 1]
    tags = record[length + 1 :]
    tags = tf_strings.to_number(tags, out_type="int64")
    tags += 1
    return tokens, tags


def lowercase_and_convert_to_ids(tokens):
    tokens = tf_strings.lower(tokens)
    return lookup_layer(tokens)


# We use `padded_batch` here because each record in the dataset has a
# different length.
batch_size = 32
train_dataset = (
    train_data.map(map_record_to_training_data)
    .map(lambda x, y: (lowercase_and_convert_to_ids(x), y))
    .padded_batch(batch_size)
)
val_dataset = (
    val_data.map(map_record_to_training_data)
    .map(lambda x, y: (lowercase_and_convert_to_ids(x), y))
    .padded_batch(batch_size)
)
for _x, _y in train_dataset.take(1):
    RESULTS["first_batch_ids"] = _x
    RESULTS["first_batch_tags"] = _y

ner_model = NERModel(num_tags, vocab_size, embed_dim=32, num_heads=4, ff_dim=64)
ner_model(_x)
fix_weights(ner_model)


class CustomNonPaddingTokenLoss(keras.losses.Loss):
    def __init__(self, name="custom_ner_loss"):
        super().__init__(name=name)

    def call(self, y_true, y_pred):
        loss_fn = keras.losses.SparseCategoricalCrossentropy(
            from_logits=True, reduction=None
        )
        loss = loss_fn(y_true, y_pred)
        mask = keras.ops.cast((y_true > 0), dtype="float32")
        loss = loss * mask
        return keras.ops.sum(loss) / keras.ops.sum(mask)


loss = CustomNonPaddingTokenLoss()

ner_model.compile(optimizer="adam", loss=loss)
history = ner_model.fit(train_dataset, epochs=2, verbose=0)
RESULTS["loss"] = history.history["loss"]


def tokenize_and_convert_to_ids(text):
    tokens = text.split()
    return lowercase_and_convert_to_ids(tokens)


# Sample inference using the trained model
sample_input = tokenize_and_convert_to_ids(
    "eu rejects german call to boycott british lamb"
)
sample_input = keras.ops.reshape(sample_input, newshape=[1, -1])
print(sample_input)
RESULTS["sample_input"] = sample_input

output = ner_model.predict(sample_input, verbose=0)
RESULTS["output"] = output
prediction = np.argmax(output, axis=-1)[0]
prediction = [mapping[i] for i in prediction]

# eu -> B-ORG, german -> B-MISC, british -> B-MISC
print(prediction)
RESULTS["prediction"] = prediction


def calculate_metrics(dataset):
    all_true_tag_ids, all_predicted_tag_ids = [], []

    for x, y in dataset:
        output = ner_model.predict(x, verbose=0)
        predictions = np.argmax(output, axis=-1)
        predictions = np.reshape(predictions, [-1])

        true_tag_ids = np.reshape(y, [-1])

        mask = (true_tag_ids > 0) & (predictions > 0)
        true_tag_ids = true_tag_ids[mask]
        predicted_tag_ids = predictions[mask]

        all_true_tag_ids.append(true_tag_ids)
        all_predicted_tag_ids.append(predicted_tag_ids)

    all_true_tag_ids = np.concatenate(all_true_tag_ids)
    all_predicted_tag_ids = np.concatenate(all_predicted_tag_ids)

    predicted_tags = [mapping[tag] for tag in all_predicted_tag_ids]
    real_tags = [mapping[tag] for tag in all_true_tag_ids]

    RESULTS["real_tags"] = real_tags
    RESULTS["predicted_tags"] = predicted_tags


calculate_metrics(val_dataset)
