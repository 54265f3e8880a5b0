"""Title: Text classification with Transformer (Keras example)
Source: https://github.com/keras-team/keras-io/blob/1909c6710cd3f5af6401f1176dcee9e26781b4f3/examples/nlp/text_classification_with_transformer.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the IMDB download (25000 + 25000 reviews as lists of word indices < 20000) -> 256
training and 128 validation synthetic reviews of 20-300 indices each (index 1 starts every
review, as in keras.datasets.imdb) with 0/1 labels, from a seeded NumPy generator (then padded
with keras.utils.pad_sequences as written); keras.utils.set_random_seed(0) (initializers,
dropout and fit's shuffle are unseeded); verbose=0; calls added only to record: model.evaluate on the validation set and model.predict on its
first 8 reviews; prints -> RESULTS (the history, the evaluation, the predictions), printing kept.
"""
import numpy as np
import keras
from keras import ops
from keras import layers

keras.utils.set_random_seed(0)
RESULTS = {}


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [
                layers.Dense(ff_dim, activation="relu"),
                layers.Dense(embed_dim),
            ]
        )
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = ops.shape(x)[-1]
        positions = ops.arange(start=0, stop=maxlen, step=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


vocab_size = 20000  # Only consider the top 20k words
maxlen = 200  # Only consider the first 200 words of each movie review
_rng = np.random.default_rng(0)


def _reviews(n):
    return [[1] + _rng.integers(2, vocab_size, _rng.integers(20, 300)).tolist()
            for _ in range(n)]


(x_train, y_train), (x_val, y_val) = (
    (_reviews(256), _rng.integers(0, 2, 256)),
    (_reviews(128), _rng.integers(0, 2, 128)),
)
print(len(x_train), "Training sequences")
print(len(x_val), "Validation sequences")
x_train = keras.utils.pad_sequences(x_train, maxlen=maxlen)
x_val = keras.utils.pad_sequences(x_val, maxlen=maxlen)
RESULTS["x_train_head"] = x_train[:2]

embed_dim = 32  # Embedding size for each token
num_heads = 2  # Number of attention heads
ff_dim = 32  # Hidden layer size in feed forward network inside transformer

inputs = layers.Input(shape=(maxlen,))
embedding_layer = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)
x = embedding_layer(inputs)
transformer_block = TransformerBlock(embed_dim, num_heads, ff_dim)
x = transformer_block(x)
x = layers.GlobalAveragePooling1D()(x)
x = layers.Dropout(0.1)(x)
x = layers.Dense(20, activation="relu")(x)
x = layers.Dropout(0.1)(x)
outputs = layers.Dense(2, activation="softmax")(x)

model = keras.Model(inputs=inputs, outputs=outputs)
RESULTS["params"] = model.count_params()

model.compile(
    optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"]
)
history = model.fit(
    x_train, y_train, batch_size=32, epochs=2, validation_data=(x_val, y_val), verbose=0
)
for _k in sorted(history.history):
    RESULTS["history_" + _k] = history.history[_k]
RESULTS["evaluate"] = model.evaluate(x_val, y_val, verbose=0)
RESULTS["predictions"] = model.predict(x_val[:8], verbose=0)
