"""Title: Generate music with an RNN (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/audio/music_generation.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the MAESTRO MIDI files (downloaded; parsed with pretty_midi) -> 6 synthetic file names
whose midi_to_notes gives 70 notes (pitch, start, end, step, duration) from a NumPy generator
seeded by the file's index (the first 5 train, as written; the second is the sample file); pandas (installed in neither environment) ->
dicts of NumPy columns (pd.concat -> np.concatenate per column); the pip/apt installs,
fluidsynth audio, pretty_midi note names, MIDI writing (notes_to_midi) and the plots removed;
ModelCheckpoint's filepath './training_checkpoints/ckpt_{epoch}' -> a temporary directory's
'ckpt_{epoch}.weights.h5' (Keras 3 requires the suffix with save_weights_only); epochs 50 -> 3;
num_predictions 120 -> 8; predict_next_note's int(pitch), float(step),
float(duration) of shape-(1,) tensors -> of their element [0] (under NumPy 2.4 TF 2.21 raises
TypeError: only 0-dimensional arrays can be converted to Python scalars); verbose=0 for fit/evaluate/predict; the model's kernels fixed
(fix_weights); the losses, history, generated notes and final weights -> RESULTS.
"""
import collections
import datetime
import glob
import os
import tempfile
import numpy as np
import pathlib
import tensorflow as tf

from typing import Optional
from _corpus import fix_weights

RESULTS = {}

seed = 42
tf.random.set_seed(seed)
np.random.seed(seed)

# Sampling rate for audio playback
_SAMPLING_RATE = 16000

filenames = [f'synthetic_{i}.midi' for i in range(6)]
print('Number of files:', len(filenames))

sample_file = filenames[1]
print(sample_file)


def midi_to_notes(midi_file: str) -> dict:
  _rng = np.random.default_rng(filenames.index(midi_file))
  notes = collections.defaultdict(list)
  start = 0.0
  prev_start = 0.0
  for _ in range(70):
    start = start + float(_rng.exponential(0.15))
    end = start + float(_rng.uniform(0.05, 0.6))
    notes['pitch'].append(int(_rng.integers(40, 90)))
    notes['start'].append(start)
    notes['end'].append(end)
    notes['step'].append(start - prev_start)
    notes['duration'].append(end - start)
    prev_start = start

  return {name: np.array(value) for name, value in notes.items()}


raw_notes = midi_to_notes(sample_file)

num_files = 5
all_notes = []
for f in filenames[:num_files]:
  notes = midi_to_notes(f)
  all_notes.append(notes)

all_notes = {k: np.concatenate([n[k] for n in all_notes]) for k in all_notes[0]}

n_notes = len(all_notes['pitch'])
print('Number of notes parsed:', n_notes)

key_order = ['pitch', 'step', 'duration']
train_notes = np.stack([all_notes[key] for key in key_order], axis=1)

notes_ds = tf.data.Dataset.from_tensor_slices(train_notes)
notes_ds.element_spec


def create_sequences(
    dataset: tf.data.Dataset, 
    seq_length: int,
    vocab_size = 128,
) -> tf.data.Dataset:
  """Returns TF Dataset of sequence and label examples."""
  seq_length = seq_length+1

  # Take 1 extra for the labels
  windows = dataset.window(seq_length, shift=1, stride=1,
                              drop_remainder=True)

  # `flat_map` flattens the" dataset of datasets" into a dataset of tensors
  flatten = lambda x: x.batch(seq_length, drop_remainder=True)
  sequences = windows.flat_map(flatten)
  
  # Normalize note pitch
  def scale_pitch(x):
    x = x/[vocab_size,1.0,1.0]
    return x

  # Split the labels
  def split_labels(sequences):
    inputs = sequences[:-1]
    labels_dense = sequences[-1]
    labels = {key:labels_dense[i] for i,key in enumerate(key_order)}

    return scale_pitch(inputs), labels

  return sequences.map(split_labels, num_parallel_calls=tf.data.AUTOTUNE)


seq_length = 25
vocab_size = 128
seq_ds = create_sequences(notes_ds, seq_length, vocab_size)
seq_ds.element_spec

for seq, target in seq_ds.take(1):
  print('sequence shape:', seq.shape)
  print('sequence elements (first 10):', seq[0: 10])
  print()
  print('target:', target)
  RESULTS['first_seq'] = seq
  RESULTS['first_target'] = [target[k] for k in key_order]

batch_size = 64
buffer_size = n_notes - seq_length  # the number of items in the dataset
train_ds = (seq_ds
            .shuffle(buffer_size)
            .batch(batch_size, drop_remainder=True)
            .cache()
            .prefetch(tf.data.experimental.AUTOTUNE))

train_ds.element_spec


def mse_with_positive_pressure(y_true: tf.Tensor, y_pred: tf.Tensor):
  mse = (y_true - y_pred) ** 2
  positive_pressure = 10 * tf.maximum(-y_pred, 0.0)
  return tf.reduce_mean(mse + positive_pressure)


input_shape = (seq_length, 3)
learning_rate = 0.005

inputs = tf.keras.Input(input_shape)
x = tf.keras.layers.LSTM(128)(inputs)

outputs = {
  'pitch': tf.keras.layers.Dense(128, name='pitch')(x),
  'step': tf.keras.layers.Dense(1, name='step')(x),
  'duration': tf.keras.layers.Dense(1, name='duration')(x),
}

model = tf.keras.Model(inputs, outputs)
fix_weights(model)

loss = {
      'pitch': tf.keras.losses.SparseCategoricalCrossentropy(
          from_logits=True),
      'step': mse_with_positive_pressure,
      'duration': mse_with_positive_pressure,
}

optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)

model.compile(loss=loss, optimizer=optimizer)

model.summary()

losses = model.evaluate(train_ds, return_dict=True, verbose=0)
losses
RESULTS['losses'] = [losses[k] for k in sorted(losses)]

model.compile(
    loss=loss,
    loss_weights={
        'pitch': 0.05,
        'step': 1.0,
        'duration':1.0,
    },
    optimizer=optimizer,
)

_weighted = model.evaluate(train_ds, return_dict=True, verbose=0)
RESULTS['weighted_losses'] = [_weighted[k] for k in sorted(_weighted)]

_ckpt_dir = tempfile.mkdtemp()
callbacks = [
    tf.keras.callbacks.ModelCheckpoint(
        filepath=os.path.join(_ckpt_dir, 'ckpt_{epoch}.weights.h5'),
        save_weights_only=True),
    tf.keras.callbacks.EarlyStopping(
        monitor='loss',
        patience=5,
        verbose=1,
        restore_best_weights=True),
]

epochs = 3

history = model.fit(
    train_ds,
    epochs=epochs,
    callbacks=callbacks,
    verbose=0,
)
RESULTS['history_loss'] = history.history['loss']
RESULTS['history_pitch_loss'] = history.history['pitch_loss']
RESULTS['checkpoints'] = sorted(os.listdir(_ckpt_dir))


def predict_next_note(
    notes: np.ndarray, 
    model: tf.keras.Model, 
    temperature: float = 1.0) -> tuple[int, float, float]:
  """Generates a note as a tuple of (pitch, step, duration), using a trained sequence model."""

  assert temperature > 0

  # Add batch dimension
  inputs = tf.expand_dims(notes, 0)

  predictions = model.predict(inputs, verbose=0)
  pitch_logits = predictions['pitch']
  step = predictions['step']
  duration = predictions['duration']
 
  pitch_logits /= temperature
  pitch = tf.random.categorical(pitch_logits, num_samples=1)
  pitch = tf.squeeze(pitch, axis=-1)
  duration = tf.squeeze(duration, axis=-1)
  step = tf.squeeze(step, axis=-1)

  # `step` and `duration` values should be non-negative
  step = tf.maximum(0, step)
  duration = tf.maximum(0, duration)

  return int(pitch[0]), float(step[0]), float(duration[0])


temperature = 2.0
num_predictions = 8

sample_notes = np.stack([raw_notes[key] for key in key_order], axis=1)

# The initial sequence of notes; pitch is normalized similar to training
# sequences
input_notes = (
    sample_notes[:seq_length] / np.array([vocab_size, 1, 1]))

generated_notes = []
prev_start = 0
for _ in range(num_predictions):
  pitch, step, duration = predict_next_note(input_notes, model, temperature)
  start = prev_start + step
  end = start + duration
  input_note = (pitch, step, duration)
  generated_notes.append((*input_note, start, end))
  input_notes = np.delete(input_notes, 0, axis=0)
  input_notes = np.append(input_notes, np.expand_dims(input_note, 0), axis=0)
  prev_start = start

RESULTS['generated_pitches'] = np.array([g[0] for g in generated_notes])
RESULTS['generated_step_duration'] = np.array([g[1:] for g in generated_notes])
RESULTS['final_pitch_kernel'] = model.get_layer('pitch').kernel
