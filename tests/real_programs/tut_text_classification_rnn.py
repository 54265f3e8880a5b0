"""Title: Text classification with an RNN (TF Text tutorial)
Source: https://github.com/tensorflow/text/blob/master/docs/tutorials/text_classification_rnn.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: the IMDB dataset and the TextVectorization encoder -> 48 synthetic sequences of token ids
(0 = padding, vocabulary 1000) with 0/1 labels, so the model starts at the Embedding
(mask_zero=True keeps the masking); BUFFER_SIZE 10000 -> 1, BATCH_SIZE 64 -> 16, epochs 10 -> 2,
validation_steps 30 -> 1; the kernels fixed (fix_weights); plots removed; results in RESULTS.
"""
import numpy as np
import tensorflow as tf
from _corpus import fix_weights
RESULTS = {}

VOCAB_SIZE = 1000
_rng = np.random.default_rng(0)
_lengths = _rng.integers(3, 20, 48)
_tokens = np.zeros((48, 20), np.int64)
for i, n in enumerate(_lengths):
  _tokens[i, :n] = _rng.integers(1, VOCAB_SIZE, n)
_labels = (_tokens[:, 0] > VOCAB_SIZE // 2).astype(np.int64)

BUFFER_SIZE = 1
BATCH_SIZE = 16
train_dataset = tf.data.Dataset.from_tensor_slices((_tokens[:32], _labels[:32]))
test_dataset = tf.data.Dataset.from_tensor_slices((_tokens[32:], _labels[32:]))
train_dataset = train_dataset.shuffle(BUFFER_SIZE).batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)
test_dataset = test_dataset.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)

model = tf.keras.Sequential([
    tf.keras.layers.Embedding(
        input_dim=VOCAB_SIZE,
        output_dim=64,
        # Use masking to handle the variable sequence lengths
        mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64)),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dense(1)
])
model.build((None, 20))
fix_weights(model)

RESULTS["supports_masking"] = [layer.supports_masking for layer in model.layers]

sample_text = _tokens[:1]
predictions = model.predict(sample_text, verbose=0)
RESULTS["prediction"] = predictions[0]

padding = np.zeros((1, 20), np.int64)
padding[0, :_lengths[0]] = _tokens[0, :_lengths[0]]
predictions = model.predict(np.concatenate([padding, np.zeros((1, 20), np.int64)], axis=1), verbose=0)
RESULTS["prediction_padded"] = predictions[0]

model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(1e-4),
              metrics=['accuracy'])

history = model.fit(train_dataset, epochs=2,
                    validation_data=test_dataset,
                    validation_steps=1, verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]
test_loss, test_acc = model.evaluate(test_dataset, verbose=0)
RESULTS["test_loss"] = test_loss
RESULTS["test_acc"] = test_acc
