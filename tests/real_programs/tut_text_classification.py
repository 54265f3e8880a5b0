"""Title: Basic text classification (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/keras/text_classification.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the IMDB download -> a folder of 64 synthetic reviews (train/test, pos/neg, seeded words)
written to a temporary directory; batch_size 32 -> 8, max_features 10000 -> 60, sequence_length
250 -> 12, embedding_dim 16 -> 4, epochs 10 -> 2; Dropout 0.2 -> 0.0 (its random draws are not
part of what is compared); the kernels fixed (fix_weights); plots removed; results in RESULTS.
"""
import os
import re
import shutil
import string
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, losses
from _corpus import fix_weights
RESULTS = {}

_rng = np.random.default_rng(0)
_good = ["great", "fun", "loved", "superb", "moving", "brilliant"]
_bad = ["awful", "boring", "dull", "worst", "silly", "waste"]
_common = ["the", "film", "movie", "plot", "actors", "was", "a", "and", "it", "story"]
dataset_dir = tempfile.mkdtemp()
for split in ("train", "test"):
  for label, words in (("pos", _good), ("neg", _bad)):
    os.makedirs(os.path.join(dataset_dir, split, label))
    for i in range(16):
      n = int(_rng.integers(4, 14))
      text = " ".join(_rng.choice(_common + words * 2, n))
      text = text.capitalize() + ("! <br />" if i % 3 == 0 else ". ") + "It's " + str(_rng.choice(words)) + "."
      with open(os.path.join(dataset_dir, split, label, f"{i}_{label}.txt"), "w") as f:
        f.write(text)

batch_size = 8
seed = 42

raw_train_ds = tf.keras.utils.text_dataset_from_directory(
    os.path.join(dataset_dir, 'train'),
    batch_size=batch_size,
    validation_split=0.2,
    subset='training',
    seed=seed)
for text_batch, label_batch in raw_train_ds.take(1):
  RESULTS["first_review"] = text_batch.numpy()[0].decode()
  RESULTS["first_labels"] = label_batch.numpy()
RESULTS["class_names"] = raw_train_ds.class_names

raw_val_ds = tf.keras.utils.text_dataset_from_directory(
    os.path.join(dataset_dir, 'train'),
    batch_size=batch_size,
    validation_split=0.2,
    subset='validation',
    seed=seed)

raw_test_ds = tf.keras.utils.text_dataset_from_directory(
    os.path.join(dataset_dir, 'test'),
    batch_size=batch_size)


def custom_standardization(input_data):
  lowercase = tf.strings.lower(input_data)
  stripped_html = tf.strings.regex_replace(lowercase, '<br />', ' ')
  return tf.strings.regex_replace(stripped_html,
                                  '[%s]' % re.escape(string.punctuation),
                                  '')


max_features = 60
sequence_length = 12

vectorize_layer = layers.TextVectorization(
    standardize=custom_standardization,
    max_tokens=max_features,
    output_mode='int',
    output_sequence_length=sequence_length)

train_text = raw_train_ds.map(lambda x, y: x)
vectorize_layer.adapt(train_text)
RESULTS["vocabulary"] = vectorize_layer.get_vocabulary()


def vectorize_text(text, label):
  text = tf.expand_dims(text, -1)
  return vectorize_layer(text), label


text_batch, label_batch = next(iter(raw_train_ds))
first_review, first_label = text_batch[0], label_batch[0]
RESULTS["vectorized_review"] = vectorize_text(first_review, first_label)[0].numpy()
RESULTS["vocabulary_size"] = len(vectorize_layer.get_vocabulary())

train_ds = raw_train_ds.map(vectorize_text)
val_ds = raw_val_ds.map(vectorize_text)
test_ds = raw_test_ds.map(vectorize_text)

AUTOTUNE = tf.data.AUTOTUNE
train_ds = train_ds.cache().prefetch(buffer_size=AUTOTUNE)
val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)
test_ds = test_ds.cache().prefetch(buffer_size=AUTOTUNE)

embedding_dim = 4
model = tf.keras.Sequential([
  layers.Embedding(max_features, embedding_dim),
  layers.Dropout(0.0),
  layers.GlobalAveragePooling1D(),
  layers.Dropout(0.0),
  layers.Dense(1, activation='sigmoid')])
model.build((None, sequence_length))
fix_weights(model)

model.compile(loss=losses.BinaryCrossentropy(),
              optimizer='adam',
              metrics=[tf.metrics.BinaryAccuracy(threshold=0.5)])

epochs = 2
history = model.fit(
    train_ds,
    validation_data=val_ds,
    epochs=epochs, verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]
RESULTS["binary_accuracy"] = history.history["binary_accuracy"]

loss, accuracy = model.evaluate(test_ds, verbose=0)
RESULTS["test_loss"] = loss
RESULTS["test_accuracy"] = accuracy

export_model = tf.keras.Sequential([
  vectorize_layer,
  model,
  layers.Activation('sigmoid')
])
export_model.compile(
    loss=losses.BinaryCrossentropy(from_logits=False), optimizer="adam", metrics=['accuracy']
)
metrics = export_model.evaluate(raw_test_ds, return_dict=True, verbose=0)
RESULTS["export_metrics"] = [metrics["loss"], metrics["accuracy"]]

examples = tf.constant([
  "The movie was great!",
  "The movie was okay.",
  "The movie was terrible..."
])
RESULTS["export_predictions"] = export_model.predict(examples, verbose=0)
shutil.rmtree(dataset_dir)
