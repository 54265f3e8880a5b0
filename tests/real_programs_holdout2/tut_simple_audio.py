"""Title: Simple audio recognition: Recognizing keywords (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/audio/simple_audio.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: mini_speech_commands.zip (downloaded; 8000 16 kHz WAV files in 8 command folders and a
README.md) -> 8 command folders of 42 synthetic 16-bit mono 16 kHz WAV files each (noisy tones of
12000-16000 samples, written with the standard library's wave module from a seeded NumPy
generator, the first 'no' file named 01bb6a2a_nohash_0.wav as the tutorial reads it) and a
README.md, in a temporary directory that the program changes into; EPOCHS 10 -> 2; verbose=0;
keras.utils.set_random_seed(0) (tf.random.set_seed does not seed Keras 3's Dropout)
(EarlyStopping's verbose=1 kept); the model's kernels fixed (fix_weights); matplotlib, seaborn
and IPython display removed; summary() removed; prints and displayed values -> RESULTS (the
command list sorted, as listdir's order is the file system's).
"""
import os
import pathlib
import tempfile
import wave

import numpy as np
import tensorflow as tf

from tensorflow.keras import layers
from tensorflow.keras import models
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())
_rng = np.random.default_rng(0)
for _k, _command in enumerate(['no', 'yes', 'down', 'go', 'left', 'up', 'right', 'stop']):
  os.makedirs(os.path.join('data', 'mini_speech_commands', _command))
  for _i in range(42):
    _n = int(_rng.integers(12000, 16001))
    _signal = 0.3 * np.sin(2 * np.pi * (200 + 150 * _k) * np.arange(_n) / 16000)
    _signal = np.clip(_signal + _rng.normal(0, 0.05, _n), -1, 1)
    _name = '01bb6a2a_nohash_0.wav' if _i == 0 else f'{_i:08x}_nohash_0.wav'
    with wave.open(os.path.join('data', 'mini_speech_commands', _command, _name), 'wb') as _w:
      _w.setnchannels(1)
      _w.setsampwidth(2)
      _w.setframerate(16000)
      _w.writeframes((_signal * 32767).astype('<i2').tobytes())
with open(os.path.join('data', 'mini_speech_commands', 'README.md'), 'w') as _f:
  _f.write('Synthetic mini speech commands.\n')

# Set the seed value for experiment reproducibility.
seed = 42
tf.random.set_seed(seed)
np.random.seed(seed)

DATASET_PATH = 'data/mini_speech_commands'

data_dir = pathlib.Path(DATASET_PATH)
commands = np.array(tf.io.gfile.listdir(str(data_dir)))
commands = commands[(commands != 'README.md') & (commands != '.DS_Store')]
RESULTS["commands"] = sorted(commands)

train_ds, val_ds = tf.keras.utils.audio_dataset_from_directory(
    directory=data_dir,
    batch_size=64,
    validation_split=0.2,
    seed=0,
    output_sequence_length=16000,
    subset='both')

label_names = np.array(train_ds.class_names)
RESULTS["label_names"] = label_names
RESULTS["element_spec"] = [str(s) for s in train_ds.element_spec]


def squeeze(audio, labels):
  audio = tf.squeeze(audio, axis=-1)
  return audio, labels

train_ds = train_ds.map(squeeze, tf.data.AUTOTUNE)
val_ds = val_ds.map(squeeze, tf.data.AUTOTUNE)

test_ds = val_ds.shard(num_shards=2, index=0)
val_ds = val_ds.shard(num_shards=2, index=1)

for example_audio, example_labels in train_ds.take(1):
  RESULTS["example_shapes"] = [example_audio.shape[0], example_audio.shape[1], example_labels.shape[0]]
RESULTS["example_labels"] = example_labels
RESULTS["example_audio"] = example_audio[:3, ::1000]

RESULTS["label_names_indexed"] = label_names[[1,1,3,0]]


def get_spectrogram(waveform):
  # Convert the waveform to a spectrogram via a STFT.
  spectrogram = tf.signal.stft(
      waveform, frame_length=255, frame_step=128)
  # Obtain the magnitude of the STFT.
  spectrogram = tf.abs(spectrogram)
  # Add a `channels` dimension, so that the spectrogram can be used
  # as image-like input data with convolution layers (which expect
  # shape (`batch_size`, `height`, `width`, `channels`).
  spectrogram = spectrogram[..., tf.newaxis]
  return spectrogram


for i in range(3):
  label = label_names[example_labels[i]]
  waveform = example_audio[i]
  spectrogram = get_spectrogram(waveform)

  RESULTS[f"label_{i}"] = label
  RESULTS[f"spectrogram_shape_{i}"] = spectrogram.shape
  RESULTS[f"spectrogram_{i}"] = spectrogram[::10, ::10, 0]


def make_spec_ds(ds):
  return ds.map(
      map_func=lambda audio,label: (get_spectrogram(audio), label),
      num_parallel_calls=tf.data.AUTOTUNE)

train_spectrogram_ds = make_spec_ds(train_ds)
val_spectrogram_ds = make_spec_ds(val_ds)
test_spectrogram_ds = make_spec_ds(test_ds)

for example_spectrograms, example_spect_labels in train_spectrogram_ds.take(1):
  break

train_spectrogram_ds = train_spectrogram_ds.cache().shuffle(10000).prefetch(tf.data.AUTOTUNE)
val_spectrogram_ds = val_spectrogram_ds.cache().prefetch(tf.data.AUTOTUNE)
test_spectrogram_ds = test_spectrogram_ds.cache().prefetch(tf.data.AUTOTUNE)

input_shape = example_spectrograms.shape[1:]
RESULTS["input_shape"] = input_shape
num_labels = len(label_names)

# Instantiate the `tf.keras.layers.Normalization` layer.
norm_layer = layers.Normalization()
# Fit the state of the layer to the spectrograms
# with `Normalization.adapt`.
norm_layer.adapt(data=train_spectrogram_ds.map(map_func=lambda spec, label: spec))
RESULTS["norm_mean"] = norm_layer.mean
RESULTS["norm_variance"] = norm_layer.variance

model = models.Sequential([
    layers.Input(shape=input_shape),
    # Downsample the input.
    layers.Resizing(32, 32),
    # Normalize.
    norm_layer,
    layers.Conv2D(32, 3, activation='relu'),
    layers.Conv2D(64, 3, activation='relu'),
    layers.MaxPooling2D(),
    layers.Dropout(0.25),
    layers.Flatten(),
    layers.Dense(128, activation='relu'),
    layers.Dropout(0.5),
    layers.Dense(num_labels),
])
fix_weights(model)

model.compile(
    optimizer=tf.keras.optimizers.Adam(),
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=['accuracy'],
)

EPOCHS = 2
history = model.fit(
    train_spectrogram_ds,
    validation_data=val_spectrogram_ds,
    epochs=EPOCHS,
    callbacks=tf.keras.callbacks.EarlyStopping(verbose=1, patience=2),
    verbose=0,
)

metrics = history.history
RESULTS["history"] = [metrics[k] for k in ("loss", "val_loss", "accuracy", "val_accuracy")]
RESULTS["epoch"] = history.epoch

RESULTS["evaluate"] = [v for k, v in sorted(model.evaluate(test_spectrogram_ds, return_dict=True,
                                                           verbose=0).items())]

y_pred = model.predict(test_spectrogram_ds, verbose=0)
y_pred = tf.argmax(y_pred, axis=1)
y_true = tf.concat(list(test_spectrogram_ds.map(lambda s,lab: lab)), axis=0)
confusion_mtx = tf.math.confusion_matrix(y_true, y_pred)
RESULTS["confusion_mtx"] = confusion_mtx

x = data_dir/'no/01bb6a2a_nohash_0.wav'
x = tf.io.read_file(str(x))
x, sample_rate = tf.audio.decode_wav(x, desired_channels=1, desired_samples=16000,)
x = tf.squeeze(x, axis=-1)
waveform = x
x = get_spectrogram(x)
x = x[tf.newaxis,...]

prediction = model(x)
x_labels = ['no', 'yes', 'down', 'go', 'left', 'up', 'right', 'stop']
RESULTS["softmax"] = tf.nn.softmax(prediction[0])
RESULTS["sample_rate"] = sample_rate
RESULTS["waveform"] = waveform[::1000]


class ExportModel(tf.Module):
  def __init__(self, model):
    self.model = model

    # Accept either a string-filename or a batch of waveforms.
    # You could add additional signatures for a single wave, or a ragged-batch.
    self.__call__.get_concrete_function(
        x=tf.TensorSpec(shape=(), dtype=tf.string))
    self.__call__.get_concrete_function(
       x=tf.TensorSpec(shape=[None, 16000], dtype=tf.float32))


  @tf.function
  def __call__(self, x):
    # If they pass a string, load the file and decode it.
    if x.dtype == tf.string:
      x = tf.io.read_file(x)
      x, _ = tf.audio.decode_wav(x, desired_channels=1, desired_samples=16000,)
      x = tf.squeeze(x, axis=-1)
      x = x[tf.newaxis, :]

    x = get_spectrogram(x)
    result = self.model(x, training=False)

    class_ids = tf.argmax(result, axis=-1)
    class_names = tf.gather(label_names, class_ids)
    return {'predictions':result,
            'class_ids': class_ids,
            'class_names': class_names}


export = ExportModel(model)
exported = export(tf.constant(str(data_dir/'no/01bb6a2a_nohash_0.wav')))
RESULTS["export_predictions"] = exported['predictions']
RESULTS["export_class_names"] = [n.decode() for n in exported['class_names'].numpy()]

tf.saved_model.save(export, "saved")
imported = tf.saved_model.load("saved")
imported_result = imported(waveform[tf.newaxis, :])
RESULTS["imported_predictions"] = imported_result['predictions']
RESULTS["imported_class_ids"] = imported_result['class_ids']
