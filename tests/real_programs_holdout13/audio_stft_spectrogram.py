"""Title: Audio Classification with the STFTSpectrogram layer (keras.io example, audio)
Source: https://github.com/keras-team/keras-io/blob/311b1919825a3ee1ec1839a9cf311a07f2b56ca5/examples/audio/stft.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: os.environ["KERAS_BACKEND"] = "jax" -> "tensorflow" (the measurement is of
TensorFlow); the program's own keras.utils.set_random_seed(41) kept; the ESC-50 download, the
pandas metadata table and the scipy WAV reading/resampling (read_wav_file, read_dataset) ->
synthetic float32 waveforms in [-1, 1] of shape (n, samples, 1) and int targets 0..9 from a
seeded NumPy generator: 8 train, 4 validation, 4 test clips of 2.5 s at 16 kHz (ESC-10 has
240 / 80 / 80 clips of 5 s; 2.5 s is about the shortest the 1D model's Conv1D stack accepts);
matplotlib removed (the spectrogram plot functions keep their computation and return the
spectrograms, recorded instead of plotted; the history plot removed); EPOCHS 200 -> 2;
the second, 2D model (three trainable STFTSpectrogram layers feeding an ImageNet-pretrained
keras.applications.MobileNet) and its fit/evaluate removed: the weights are a download, and
even untrained with alpha=0.25 it took over 30 s of CPU on these 12 clips;
verbose=0 on fit/evaluate; the spectrograms, histories, test accuracies and predictions ->
RESULTS.
"""
import numpy as np

RESULTS = {}
_rng = np.random.default_rng(0)

import os

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import numpy as np
from keras import layers

keras.utils.set_random_seed(41)

"""
### Define some variables
"""

BATCH_SIZE = 16
NUM_CLASSES = 10
EPOCHS = 2
SAMPLE_RATE = 16000


def _waves(n):
    t = np.arange(SAMPLE_RATE * 5 // 2) / SAMPLE_RATE
    f = _rng.uniform(100, 2000, (n, 1))
    w = 0.5 * np.sin(2 * np.pi * f * t) + 0.3 * _rng.uniform(-1, 1, (n, t.size))
    return w.astype(np.float32)[..., None], _rng.integers(0, NUM_CLASSES, n)


def plot_single_spectrogram(sample_wav_data):
    spectrogram = layers.STFTSpectrogram(
        mode="log",
        frame_length=SAMPLE_RATE * 20 // 1000,
        frame_step=SAMPLE_RATE * 5 // 1000,
        fft_length=1024,
        trainable=False,
    )(sample_wav_data[None, ...])[0, ...]
    return spectrogram


def plot_multi_bandwidth_spectrogram(sample_wav_data):
    # All spectrograms must use the same `fft_length`, `frame_step`, and
    # `padding="same"` in order to produce spectrograms with identical shapes,
    # hence aligning them together. `expand_dims` ensures that the shapes are
    # compatible with image models.

    spectrograms = np.concatenate(
        [
            layers.STFTSpectrogram(
                mode="log",
                frame_length=SAMPLE_RATE * x // 1000,
                frame_step=SAMPLE_RATE * 5 // 1000,
                fft_length=1024,
                padding="same",
                expand_dims=True,
            )(sample_wav_data[None, ...])[0, ...]
            for x in [5, 10, 20]
        ],
        axis=-1,
    ).transpose([1, 0, 2])

    # normalize each color channel for better viewing
    mn = spectrograms.min(axis=(0, 1), keepdims=True)
    mx = spectrograms.max(axis=(0, 1), keepdims=True)
    spectrograms = (spectrograms - mn) / (mx - mn)
    return spectrograms


"""
### Create the datasets
"""

train_x, train_y = _waves(8)
valid_x, valid_y = _waves(4)
test_x, test_y = _waves(4)

sample_wav_data = train_x[5]
_single = plot_single_spectrogram(sample_wav_data)
RESULTS["single_spectrogram_shape"] = np.array(_single.shape)
RESULTS["single_spectrogram"] = _single[::20, ::16]
_multi = plot_multi_bandwidth_spectrogram(sample_wav_data)
RESULTS["multi_spectrogram_shape"] = np.array(_multi.shape)
RESULTS["multi_spectrogram"] = _multi[::16, ::20]

model1d = keras.Sequential(
    [
        layers.InputLayer((None, 1)),
        layers.STFTSpectrogram(
            mode="log",
            frame_length=SAMPLE_RATE * 40 // 1000,
            frame_step=SAMPLE_RATE * 15 // 1000,
            trainable=False,
        ),
        layers.Conv1D(64, 64, activation="relu"),
        layers.Conv1D(128, 16, activation="relu"),
        layers.LayerNormalization(),
        layers.MaxPooling1D(4),
        layers.Conv1D(128, 8, activation="relu"),
        layers.Conv1D(256, 8, activation="relu"),
        layers.Conv1D(512, 4, activation="relu"),
        layers.LayerNormalization(),
        layers.Dropout(0.5),
        layers.GlobalMaxPooling1D(),
        layers.Dense(256, activation="relu"),
        layers.Dense(256, activation="relu"),
        layers.Dropout(0.5),
        layers.Dense(NUM_CLASSES, activation="softmax"),
    ],
    name="model_1d_non_trainble_stft",
)
model1d.compile(
    optimizer=keras.optimizers.Adam(1e-5),
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
model1d.summary()

history_model1d = model1d.fit(
    train_x,
    train_y,
    batch_size=BATCH_SIZE,
    validation_data=(valid_x, valid_y),
    epochs=EPOCHS,
    callbacks=[
        keras.callbacks.EarlyStopping(
            monitor="val_loss",
            patience=EPOCHS,
            restore_best_weights=True,
        )
    ],
    verbose=0,
)
for _k, _v in history_model1d.history.items():
    RESULTS["history_model1d_" + _k] = _v

_, test_acc = model1d.evaluate(test_x, test_y, verbose=0)
print(f"1D model wit non-trainable STFT -> Test Accuracy: {test_acc * 100:.2f}%")
RESULTS["model1d_test_acc"] = test_acc

RESULTS["model1d_predict"] = model1d.predict(test_x[:4], verbose=0)
RESULTS["model1d_params"] = model1d.count_params()
