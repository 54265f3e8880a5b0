"""Title: Text generation with an RNN (TensorFlow Text tutorial)
Source: https://github.com/tensorflow/text/blob/17c38bf014810b80abbb7c13ff1c2ac3cd9f710f/docs/tutorials/text_generation.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: shakespeare.txt (downloaded with tf.keras.utils.get_file; 1.1M characters) -> a
synthetic play of 13,500 characters (words and speaker names drawn by a seeded NumPy generator),
written in a temporary directory and read as the tutorial reads it; embedding_dim 256 -> 32,
rnn_units 1024 -> 64; EPOCHS 20 -> 2 (fit), 1 (CustomTraining fit), 10 -> 2 (the loop);
generation 1000 -> 20 steps (one and five prompts) and 100 -> 20 (reloaded); verbose=0;
keras.utils.set_random_seed(0) (shuffle, initializers and tf.random.categorical are unseeded);
both models' kernels fixed (fix_weights; the CustomTraining model first called on one batch to
build it); checkpoints and the SavedModel written in a temporary directory; the checkpoint paths
end in '.weights.h5' (Keras 3 accepts no other for save_weights); Metric.reset_states() ->
reset_state() and super().__init__(self) -> super().__init__() in MyModel (Keras 3 refuses the
positional argument) and self.gru.get_initial_state(x) -> get_initial_state(tf.shape(x)[0]) (Keras
3 takes the batch size); the timings dropped; model.summary() and prints ->
RESULTS (ids, predictions, losses, generated text).
"""
import tensorflow as tf

import numpy as np
import os
import time
import tempfile
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_workdir = tempfile.mkdtemp()
_rng = np.random.default_rng(0)
_words = ["the", "king", "and", "my", "lord", "thou", "art", "a", "fair", "sweet", "love", "of",
          "night", "what", "is", "death", "to", "me", "shall", "not", "be", "o", "heaven", "now"]
_names = ["ROMEO:", "JULIET:", "KING RICHARD II:", "First Citizen:", "MENENIUS:"]
_parts = []
while sum(len(p) for p in _parts) < 13500:
    _line = " ".join(_rng.choice(_words, _rng.integers(3, 9)))
    _parts.append(f"{_rng.choice(_names)}\n{_line.capitalize()}{_rng.choice(['.', ',', '?', '!'])}\n\n")
path_to_file = os.path.join(_workdir, 'shakespeare.txt')
with open(path_to_file, 'w', encoding='utf-8') as _fh:
    _fh.write("".join(_parts)[:13500])

# Read, then decode for py2 compat.
text = open(path_to_file, 'rb').read().decode(encoding='utf-8')
# length of text is the number of characters in it
print(f'Length of text: {len(text)} characters')
RESULTS["length"] = len(text)

# The unique characters in the file
vocab = sorted(set(text))
print(f'{len(vocab)} unique characters')

example_texts = ['abcdefg', 'xyz']

chars = tf.strings.unicode_split(example_texts, input_encoding='UTF-8')
RESULTS["chars_row_lengths"] = chars.row_lengths()

ids_from_chars = tf.keras.layers.StringLookup(
    vocabulary=list(vocab), mask_token=None)

ids = ids_from_chars(chars)
RESULTS["example_ids"] = ids.flat_values
RESULTS["example_ids_rows"] = ids.row_splits

chars_from_ids = tf.keras.layers.StringLookup(
    vocabulary=ids_from_chars.get_vocabulary(), invert=True, mask_token=None)

chars = chars_from_ids(ids)

RESULTS["joined"] = [s.decode() for s in tf.strings.reduce_join(chars, axis=-1).numpy()]

def text_from_ids(ids):
  return tf.strings.reduce_join(chars_from_ids(ids), axis=-1)

all_ids = ids_from_chars(tf.strings.unicode_split(text, 'UTF-8'))
RESULTS["all_ids_head"] = all_ids[:300]

ids_dataset = tf.data.Dataset.from_tensor_slices(all_ids)

for ids in ids_dataset.take(10):
    print(chars_from_ids(ids).numpy().decode('utf-8'))

seq_length = 100

sequences = ids_dataset.batch(seq_length+1, drop_remainder=True)

for seq in sequences.take(1):
  print(chars_from_ids(seq))

for seq in sequences.take(5):
  print(text_from_ids(seq).numpy())

def split_input_target(sequence):
    input_text = sequence[:-1]
    target_text = sequence[1:]
    return input_text, target_text

RESULTS["split"] = [list(s) for s in split_input_target(list("Tensorflow"))]

dataset = sequences.map(split_input_target)

for input_example, target_example in dataset.take(1):
    print("Input :", text_from_ids(input_example).numpy())
    print("Target:", text_from_ids(target_example).numpy())
    RESULTS["first_target"] = text_from_ids(target_example).numpy().decode()

# Batch size
BATCH_SIZE = 64

# Buffer size to shuffle the dataset
# (TF data is designed to work with possibly infinite sequences,
# so it doesn't attempt to shuffle the entire sequence in memory. Instead,
# it maintains a buffer in which it shuffles elements).
BUFFER_SIZE = 10000

dataset = (
    dataset
    .shuffle(BUFFER_SIZE)
    .batch(BATCH_SIZE, drop_remainder=True)
    .prefetch(tf.data.experimental.AUTOTUNE))

# Length of the vocabulary in StringLookup Layer
vocab_size = len(ids_from_chars.get_vocabulary())
RESULTS["vocab_size"] = vocab_size

# The embedding dimension
embedding_dim = 32

# Number of RNN units
rnn_units = 64

class MyModel(tf.keras.Model):
  def __init__(self, vocab_size, embedding_dim, rnn_units):
    super().__init__()
    self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
    self.gru = tf.keras.layers.GRU(rnn_units,
                                   return_sequences=True,
                                   return_state=True)
    self.dense = tf.keras.layers.Dense(vocab_size)

  def call(self, inputs, states=None, return_state=False, training=False):
    x = inputs
    x = self.embedding(x, training=training)
    if states is None:
      states = self.gru.get_initial_state(tf.shape(x)[0])
    x, states = self.gru(x, initial_state=states, training=training)
    x = self.dense(x, training=training)

    if return_state:
      return x, states
    else:
      return x

model = MyModel(
    vocab_size=vocab_size,
    embedding_dim=embedding_dim,
    rnn_units=rnn_units)

for input_example_batch, target_example_batch in dataset.take(1):
    example_batch_predictions = model(input_example_batch)
    print(example_batch_predictions.shape, "# (batch_size, sequence_length, vocab_size)")
fix_weights(model)
example_batch_predictions = model(input_example_batch)
RESULTS["example_batch_predictions"] = example_batch_predictions[:2]
RESULTS["n_params"] = model.count_params()

sampled_indices = tf.random.categorical(example_batch_predictions[0], num_samples=1)
sampled_indices = tf.squeeze(sampled_indices, axis=-1).numpy()
RESULTS["sampled_indices"] = sampled_indices

print("Input:\n", text_from_ids(input_example_batch[0]).numpy())
print()
print("Next Char Predictions:\n", text_from_ids(sampled_indices).numpy())

loss = tf.losses.SparseCategoricalCrossentropy(from_logits=True)

example_batch_mean_loss = loss(target_example_batch, example_batch_predictions)
print("Prediction shape: ", example_batch_predictions.shape, " # (batch_size, sequence_length, vocab_size)")
print("Mean loss:        ", example_batch_mean_loss)
RESULTS["example_batch_mean_loss"] = example_batch_mean_loss

RESULTS["perplexity"] = tf.exp(example_batch_mean_loss).numpy()

model.compile(optimizer='adam', loss=loss)

# Directory where the checkpoints will be saved
checkpoint_dir = os.path.join(_workdir, 'training_checkpoints')
# Name of the checkpoint files
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch}.weights.h5")

checkpoint_callback = tf.keras.callbacks.ModelCheckpoint(
    filepath=checkpoint_prefix,
    save_weights_only=True)

EPOCHS = 2

history = model.fit(dataset, epochs=EPOCHS, callbacks=[checkpoint_callback], verbose=0)
RESULTS["history"] = history.history["loss"]
RESULTS["checkpoints"] = sorted(os.listdir(checkpoint_dir))

class OneStep(tf.keras.Model):
  def __init__(self, model, chars_from_ids, ids_from_chars, temperature=1.0):
    super().__init__()
    self.temperature = temperature
    self.model = model
    self.chars_from_ids = chars_from_ids
    self.ids_from_chars = ids_from_chars

    # Create a mask to prevent "[UNK]" from being generated.
    skip_ids = self.ids_from_chars(['[UNK]'])[:, None]
    sparse_mask = tf.SparseTensor(
        # Put a -inf at each bad index.
        values=[-float('inf')]*len(skip_ids),
        indices=skip_ids,
        # Match the shape to the vocabulary
        dense_shape=[len(ids_from_chars.get_vocabulary())])
    self.prediction_mask = tf.sparse.to_dense(sparse_mask)

  @tf.function
  def generate_one_step(self, inputs, states=None):
    # Convert strings to token IDs.
    input_chars = tf.strings.unicode_split(inputs, 'UTF-8')
    input_ids = self.ids_from_chars(input_chars).to_tensor()

    # Run the model.
    # predicted_logits.shape is [batch, char, next_char_logits]
    predicted_logits, states = self.model(inputs=input_ids, states=states,
                                          return_state=True)
    # Only use the last prediction.
    predicted_logits = predicted_logits[:, -1, :]
    predicted_logits = predicted_logits/self.temperature
    # Apply the prediction mask: prevent "[UNK]" from being generated.
    predicted_logits = predicted_logits + self.prediction_mask

    # Sample the output logits to generate token IDs.
    predicted_ids = tf.random.categorical(predicted_logits, num_samples=1)
    predicted_ids = tf.squeeze(predicted_ids, axis=-1)

    # Convert from token ids to characters
    predicted_chars = self.chars_from_ids(predicted_ids)

    # Return the characters and model state.
    return predicted_chars, states

one_step_model = OneStep(model, chars_from_ids, ids_from_chars)
RESULTS["prediction_mask"] = one_step_model.prediction_mask

start = time.time()
states = None
next_char = tf.constant(['ROMEO:'])
result = [next_char]

for n in range(20):
  next_char, states = one_step_model.generate_one_step(next_char, states=states)
  result.append(next_char)

result = tf.strings.join(result)
end = time.time()
print(result[0].numpy().decode('utf-8'), '\n\n' + '_'*80)
RESULTS["generated_one"] = result[0].numpy().decode('utf-8')
RESULTS["states_one"] = states

start = time.time()
states = None
next_char = tf.constant(['ROMEO:', 'ROMEO:', 'ROMEO:', 'ROMEO:', 'ROMEO:'])
result = [next_char]

for n in range(20):
  next_char, states = one_step_model.generate_one_step(next_char, states=states)
  result.append(next_char)

result = tf.strings.join(result)
end = time.time()
print(result, '\n\n' + '_'*80)
RESULTS["generated_five"] = [r.decode('utf-8') for r in result.numpy()]

tf.saved_model.save(one_step_model, os.path.join(_workdir, 'one_step'))
one_step_reloaded = tf.saved_model.load(os.path.join(_workdir, 'one_step'))

states = None
next_char = tf.constant(['ROMEO:'])
result = [next_char]

for n in range(20):
  next_char, states = one_step_reloaded.generate_one_step(next_char, states=states)
  result.append(next_char)

print(tf.strings.join(result)[0].numpy().decode("utf-8"))
RESULTS["generated_reloaded"] = tf.strings.join(result)[0].numpy().decode("utf-8")

class CustomTraining(MyModel):
  @tf.function
  def train_step(self, inputs):
      inputs, labels = inputs
      with tf.GradientTape() as tape:
          predictions = self(inputs, training=True)
          loss = self.loss(labels, predictions)
      grads = tape.gradient(loss, model.trainable_variables)
      self.optimizer.apply_gradients(zip(grads, model.trainable_variables))

      return {'loss': loss}

model = CustomTraining(
    vocab_size=len(ids_from_chars.get_vocabulary()),
    embedding_dim=embedding_dim,
    rnn_units=rnn_units)
model(input_example_batch)
fix_weights(model)

model.compile(optimizer = tf.keras.optimizers.Adam(),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

RESULTS["custom_fit"] = model.fit(dataset, epochs=1, verbose=0).history["loss"]

EPOCHS = 2

mean = tf.metrics.Mean()
_epoch_losses = []

for epoch in range(EPOCHS):
    start = time.time()

    mean.reset_state()
    for (batch_n, (inp, target)) in enumerate(dataset):
        logs = model.train_step([inp, target])
        mean.update_state(logs['loss'])

        if batch_n % 50 == 0:
            template = f"Epoch {epoch+1} Batch {batch_n} Loss {logs['loss']:.4f}"
            print(template)

    # saving (checkpoint) the model every 5 epochs
    if (epoch + 1) % 5 == 0:
        model.save_weights(checkpoint_prefix.format(epoch=epoch))

    print()
    print(f'Epoch {epoch+1} Loss: {mean.result().numpy():.4f}')
    _epoch_losses.append(mean.result().numpy())
    print(f'Time taken for 1 epoch {time.time() - start:.2f} sec')
    print("_"*80)

model.save_weights(checkpoint_prefix.format(epoch=epoch))
RESULTS["loop_losses"] = _epoch_losses
RESULTS["final_kernel"] = model.dense.kernel
