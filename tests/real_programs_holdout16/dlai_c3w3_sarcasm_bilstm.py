"""Title: Training a Sarcasm Detection Model using Bidirectional LSTMs (DeepLearning.AI TensorFlow Developer, C3 W3 Lab 5)
Source: https://github.com/https-deeplearning-ai/tensorflow-1-public/blob/025abb3e6bd63c63b65d6133286e2d033c9c7da4/C3/W3/ungraded_labs/C3_W3_Lab_5_sarcasm_with_bi_LSTM.ipynb
Licence: Apache-2.0 (https-deeplearning-ai/tensorflow-1-public)
Changed: the lab's code cells in order; keras.utils.set_random_seed(0) at the top (the Keras
initializers and the dataset shuffle are unseeded); the sarcasm.json file (26709 headlines) ->
a list of 400 synthetic dicts with the same keys ('headline': 4-12 words drawn from a 60-word
list, 'is_sarcastic': 0/1) from a seeded NumPy generator, so the json.load of the file is
replaced by that list; TRAINING_SIZE 20000 -> 320; NUM_EPOCHS 10 -> 2; the plotting helper
and its call and the kernel-shutdown cell removed; the printed examples, vocabulary, summary
parameter count, history and predictions on the test set -> RESULTS.
"""
import numpy as np

RESULTS = {}

import json
import tensorflow as tf
import keras
keras.utils.set_random_seed(0)

_rng = np.random.default_rng(0)
_words = ("the a of to in for on with man woman new report area local says study finds "
          "nation trump obama world first day just still after time year people family "
          "school police city state house dog cat mom dad life back out up how why "
          "best worst great way home work make know think love hate new big little old").split()
datastore = [{"headline": " ".join(_rng.choice(_words, size=int(_rng.integers(4, 13)))),
              "is_sarcastic": int(_rng.integers(0, 2)),
              "article_link": "https://example.com/%d" % i} for i in range(400)]

# Initialize the lists
sentences = []
labels = []

# Collect sentences and labels into the lists
for item in datastore:
    sentences.append(item['headline'])
    labels.append(item['is_sarcastic'])

# Number of examples to use for training
TRAINING_SIZE = 320

# Vocabulary size of the tokenizer
VOCAB_SIZE = 10000

# Maximum length of the padded sequences
MAX_LENGTH = 32

# Type of padding
PADDING_TYPE = 'pre'

# Specifies how to truncate the sequences
TRUNC_TYPE = 'post'

# Split the sentences
train_sentences = sentences[0:TRAINING_SIZE]
test_sentences = sentences[TRAINING_SIZE:]

# Split the labels
train_labels = labels[0:TRAINING_SIZE]
test_labels = labels[TRAINING_SIZE:]

# Instantiate the vectorization layer
vectorize_layer = tf.keras.layers.TextVectorization(max_tokens=VOCAB_SIZE)

# Generate the vocabulary based on the training inputs
vectorize_layer.adapt(train_sentences)
RESULTS["vocabulary_size"] = vectorize_layer.vocabulary_size()
RESULTS["vocabulary_first_20"] = " ".join(vectorize_layer.get_vocabulary()[:20])

# Put the sentences and labels in a tf.data.Dataset
train_dataset = tf.data.Dataset.from_tensor_slices((train_sentences,train_labels))
test_dataset = tf.data.Dataset.from_tensor_slices((test_sentences,test_labels))

def preprocessing_fn(dataset):
  '''Generates padded sequences from a tf.data.Dataset'''

  # Apply the vectorization layer to the string features
  dataset_sequences = dataset.map(
      lambda text, label: (vectorize_layer(text), label)
      )

  # Put all elements in a single ragged batch
  dataset_sequences = dataset_sequences.ragged_batch(
      batch_size=dataset_sequences.cardinality()
      )

  # Output a tensor from the single batch. Extract the sequences and labels.
  sequences, labels = dataset_sequences.get_single_element()

  # Pad the sequences
  padded_sequences = tf.keras.utils.pad_sequences(
      sequences.numpy(),
      maxlen=MAX_LENGTH,
      truncating=TRUNC_TYPE,
      padding=PADDING_TYPE
      )

  # Convert back to a tf.data.Dataset
  padded_sequences = tf.data.Dataset.from_tensor_slices(padded_sequences)
  labels = tf.data.Dataset.from_tensor_slices(labels)

  # Combine the padded sequences and labels
  dataset_vectorized = tf.data.Dataset.zip(padded_sequences, labels)

  return dataset_vectorized

# Preprocess the train and test data
train_dataset_vectorized = train_dataset.apply(preprocessing_fn)
test_dataset_vectorized = test_dataset.apply(preprocessing_fn)

# View 2 training sequences and its labels
_i = 0
for example in train_dataset_vectorized.take(2):
  print(example)
  print()
  RESULTS[f"example_{_i}_sequence"] = example[0]
  RESULTS[f"example_{_i}_label"] = example[1]
  _i += 1

SHUFFLE_BUFFER_SIZE = 1000
PREFETCH_BUFFER_SIZE = tf.data.AUTOTUNE
BATCH_SIZE = 32

# Optimize and batch the datasets for training
train_dataset_final = (train_dataset_vectorized
                       .cache()
                       .shuffle(SHUFFLE_BUFFER_SIZE)
                       .prefetch(PREFETCH_BUFFER_SIZE)
                       .batch(BATCH_SIZE)
                       )

test_dataset_final = (test_dataset_vectorized
                      .cache()
                      .prefetch(PREFETCH_BUFFER_SIZE)
                      .batch(BATCH_SIZE)
                      )

# Parameters
EMBEDDING_DIM = 16
LSTM_DIM = 32
DENSE_DIM = 24

# Model Definition with LSTM
model_lstm = tf.keras.Sequential([
    tf.keras.Input(shape=(MAX_LENGTH,)),
    tf.keras.layers.Embedding(input_dim=VOCAB_SIZE, output_dim=EMBEDDING_DIM),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(LSTM_DIM)),
    tf.keras.layers.Dense(DENSE_DIM, activation='relu'),
    tf.keras.layers.Dense(1, activation='sigmoid')
])

# Set the training parameters
model_lstm.compile(loss='binary_crossentropy',optimizer='adam',metrics=['accuracy'])

# Print the model summary
model_lstm.summary()
RESULTS["count_params"] = model_lstm.count_params()

NUM_EPOCHS = 2

# Train the model
history_lstm = model_lstm.fit(train_dataset_final, epochs=NUM_EPOCHS, validation_data=test_dataset_final)
for _k in ("loss", "accuracy", "val_loss", "val_accuracy"):
  RESULTS["history_" + _k] = history_lstm.history[_k]
RESULTS["test_predictions"] = model_lstm.predict(test_dataset_final, verbose=0)
