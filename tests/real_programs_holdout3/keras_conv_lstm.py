"""Title: Next-Frame Video Prediction with Convolutional LSTMs (Keras example)
Source: https://github.com/keras-team/keras-io/blob/b8bb4c0d5068d64290003740c2ef9e703eefa751/examples/vision/conv_lstm.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: moving_mnist.npy (downloaded with keras.utils.get_file; 20 frames x 10000 x 64x64 uint8)
-> a synthetic array of 8 frames x 24 videos x 16x16 (a bright square moving one pixel per frame,
at a random start and direction from a seeded NumPy generator), loaded as the example loads it;
1000 examples -> all 24; ConvLSTM2D filters 64 -> 8; epochs 20 -> 2; 10 context and 10 predicted
frames -> 4 and 4; 5 GIF examples -> 2; verbose=0 (fit, predict); matplotlib, imageio GIFs and
IPython/ipywidgets display removed (the predicted frames are recorded instead);
keras.utils.set_random_seed(0) (np.random.shuffle/choice and the initializers are unseeded);
the model's kernels fixed (fix_weights); prints -> RESULTS.
"""

import numpy as np

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_movies = np.zeros((8, 24, 16, 16), np.uint8)
for _v in range(24):
    _r, _c = _rng.integers(2, 10, 2)
    _dr, _dc = _rng.choice([-1, 1], 2)
    for _f in range(8):
        _movies[_f, _v, _r + _dr * _f // 2:_r + _dr * _f // 2 + 4, _c + _dc * _f // 2:_c + _dc * _f // 2 + 4] = 255

dataset = _movies

# Swap the axes representing the number of frames and number of data samples.
dataset = np.swapaxes(dataset, 0, 1)
# We'll pick out 1000 of the 10000 total examples and use those.
dataset = dataset[:1000, ...]
# Add a channel dimension since the images are grayscale.
dataset = np.expand_dims(dataset, axis=-1)

# Split into train and validation sets using indexing to optimize memory.
indexes = np.arange(dataset.shape[0])
np.random.shuffle(indexes)
train_index = indexes[: int(0.9 * dataset.shape[0])]
val_index = indexes[int(0.9 * dataset.shape[0]) :]
train_dataset = dataset[train_index]
val_dataset = dataset[val_index]

# Normalize the data to the 0-1 range.
train_dataset = train_dataset / 255
val_dataset = val_dataset / 255

# We'll define a helper function to shift the frames, where
# `x` is frames 0 to n - 1, and `y` is frames 1 to n.
def create_shifted_frames(data):
    x = data[:, 0 : data.shape[1] - 1, :, :]
    y = data[:, 1 : data.shape[1], :, :]
    return x, y


# Apply the processing function to the datasets.
x_train, y_train = create_shifted_frames(train_dataset)
x_val, y_val = create_shifted_frames(val_dataset)

RESULTS["shapes"] = [list(x_train.shape), list(y_train.shape), list(x_val.shape), list(y_val.shape)]

data_choice = np.random.choice(range(len(train_dataset)), size=1)[0]
RESULTS["data_choice"] = data_choice

# Construct the input layer with no definite frame size.
inp = layers.Input(shape=(None, *x_train.shape[2:]))

# We will construct 3 `ConvLSTM2D` layers with batch normalization,
# followed by a `Conv3D` layer for the spatiotemporal outputs.
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(5, 5),
    padding="same",
    return_sequences=True,
    activation="relu",
)(inp)
x = layers.BatchNormalization()(x)
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(3, 3),
    padding="same",
    return_sequences=True,
    activation="relu",
)(x)
x = layers.BatchNormalization()(x)
x = layers.ConvLSTM2D(
    filters=8,
    kernel_size=(1, 1),
    padding="same",
    return_sequences=True,
    activation="relu",
)(x)
x = layers.Conv3D(
    filters=1, kernel_size=(3, 3, 3), activation="sigmoid", padding="same"
)(x)

# Next, we will build the complete model and compile it.
model = keras.models.Model(inp, x)
fix_weights(model)
model.compile(
    loss=keras.losses.binary_crossentropy,
    optimizer=keras.optimizers.Adam(),
)

# Define some callbacks to improve training.
early_stopping = keras.callbacks.EarlyStopping(monitor="val_loss", patience=10)
reduce_lr = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", patience=5)

# Define modifiable training hyperparameters.
epochs = 2
batch_size = 5

# Fit the model to the training data.
history = model.fit(
    x_train,
    y_train,
    batch_size=batch_size,
    epochs=epochs,
    validation_data=(x_val, y_val),
    callbacks=[early_stopping, reduce_lr],
    verbose=0,
)
RESULTS["loss"] = history.history["loss"]
RESULTS["val_loss"] = history.history["val_loss"]

# Select a random example from the validation dataset.
example = val_dataset[np.random.choice(range(len(val_dataset)), size=1)[0]]

# Pick the first/last ten frames from the example.
frames = example[:4, ...]
original_frames = example[4:, ...]

# Predict a new set of 10 frames.
for _ in range(4):
    # Extract the model's prediction and post-process it.
    new_prediction = model.predict(np.expand_dims(frames, axis=0), verbose=0)
    new_prediction = np.squeeze(new_prediction, axis=0)
    predicted_frame = np.expand_dims(new_prediction[-1, ...], axis=0)

    # Extend the set of prediction frames.
    frames = np.concatenate((frames, predicted_frame), axis=0)

new_frames = frames[4:, ...]
RESULTS["new_frames"] = new_frames.astype(np.float32)  # (float32 predictions: judged at float32 precision)

# Select a few random examples from the dataset.
examples = val_dataset[np.random.choice(range(len(val_dataset)), size=2)]

# Iterate over the examples and predict the frames.
predicted_videos = []
for example in examples:
    # Pick the first/last ten frames from the example.
    frames = example[:4, ...]
    original_frames = example[4:, ...]
    new_predictions = np.zeros(shape=(4, *frames[0].shape))

    # Predict a new set of 10 frames.
    for i in range(4):
        # Extract the model's prediction and post-process it.
        frames = example[: 4 + i + 1, ...]
        new_prediction = model.predict(np.expand_dims(frames, axis=0), verbose=0)
        new_prediction = np.squeeze(new_prediction, axis=0)
        predicted_frame = np.expand_dims(new_prediction[-1, ...], axis=0)

        # Extend the set of prediction frames.
        new_predictions[i] = predicted_frame

    predicted_videos.append(new_predictions)
RESULTS["predicted_videos"] = np.array(predicted_videos, np.float32)
