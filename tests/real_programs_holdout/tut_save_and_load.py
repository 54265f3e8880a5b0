"""Title: Save and load models (TF tutorial, Keras)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/keras/save_and_load.ipynb
Licence: MIT (Francois Chollet; tensorflow/docs)
Changed: MNIST's first 1000 train/test images -> 128/64 synthetic uint8 28x28 images and labels from
a seeded NumPy generator; epochs 10/50/5 -> 2/10/2; verbose=0 where the tutorial prints progress
bars; keras.utils.set_random_seed(0) (fit's shuffling and Dropout); each created model's kernels
fixed (fix_weights, its own seed) inside create_model; the files are written in a fresh temporary
directory (the program changes into it and back); `!pip`/`!mkdir`/`!ls` shell lines -> os calls;
summary() not recorded; listed files, evaluations and predictions recorded in RESULTS.
"""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from _corpus import fix_weights

tf.keras.utils.set_random_seed(0)
RESULTS = {}
_home = os.getcwd()
_workdir = tempfile.mkdtemp()
os.chdir(_workdir)
_rng = np.random.default_rng(0)
_seeds = iter(range(100))

train_images = _rng.integers(0, 256, (128, 28, 28)).astype(np.uint8)
train_labels = _rng.integers(0, 10, 128).astype(np.uint8)
test_images = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
test_labels = _rng.integers(0, 10, 64).astype(np.uint8)

train_labels = train_labels[:1000]
test_labels = test_labels[:1000]

train_images = train_images[:1000].reshape(-1, 28 * 28) / 255.0
test_images = test_images[:1000].reshape(-1, 28 * 28) / 255.0


# Define a simple sequential model
def create_model():
    model = tf.keras.Sequential([
        keras.layers.Dense(512, activation='relu', input_shape=(784,)),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10)
    ])
    fix_weights(model, seed=next(_seeds))

    model.compile(optimizer='adam',
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])

    return model


# Create a basic model instance
model = create_model()
RESULTS["params"] = model.count_params()

checkpoint_path = "training_1/cp.weights.h5"
checkpoint_dir = os.path.dirname(checkpoint_path)

# Create a callback that saves the model's weights
cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path,
                                                 save_weights_only=True,
                                                 verbose=1)

# Train the model with the new callback
history = model.fit(train_images,
                    train_labels,
                    epochs=2,
                    validation_data=(test_images, test_labels),
                    callbacks=[cp_callback], verbose=0)  # Pass callback to training
RESULTS["fit1_loss"] = history.history["loss"]
RESULTS["fit1_val_loss"] = history.history["val_loss"]
RESULTS["fit1_val_acc"] = history.history["val_sparse_categorical_accuracy"]

RESULTS["checkpoint_dir_1"] = sorted(os.listdir(checkpoint_dir))

# Create a basic model instance
model = create_model()

# Evaluate the model
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["untrained"] = [loss, acc]

# Loads the weights
model.load_weights(checkpoint_path)

# Re-evaluate the model
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["restored_1"] = [loss, acc]

# Include the epoch in the file name (uses `str.format`)
checkpoint_path = "training_2/cp-{epoch:04d}.weights.h5"
checkpoint_dir = os.path.dirname(checkpoint_path)
os.mkdir(checkpoint_dir)

batch_size = 32

# Calculate the number of batches per epoch
import math
n_batches = len(train_images) / batch_size
n_batches = math.ceil(n_batches)    # round up the number of batches to the nearest whole integer

# Create a callback that saves the model's weights every 5 epochs
cp_callback = tf.keras.callbacks.ModelCheckpoint(
    filepath=checkpoint_path,
    verbose=1,
    save_weights_only=True,
    save_freq=5*n_batches)

# Create a new model instance
model = create_model()

# Save the weights using the `checkpoint_path` format
model.save_weights(checkpoint_path.format(epoch=0))

# Train the model with the new callback
model.fit(train_images,
          train_labels,
          epochs=10,
          batch_size=batch_size,
          callbacks=[cp_callback],
          validation_data=(test_images, test_labels),
          verbose=0)

RESULTS["checkpoint_dir_2"] = sorted(os.listdir(checkpoint_dir))


def load_latest_checkpoint(checkpoint_dir):
    latest = max(os.listdir(checkpoint_dir), key=lambda f: int(f.split('-')[1].split('.')[0]))
    return os.path.join(checkpoint_dir, latest)


latest = load_latest_checkpoint(checkpoint_dir)
RESULTS["latest"] = latest

# Create a new model instance
model = create_model()

# Load the previously saved weights
model.load_weights(latest)

# Re-evaluate the model
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["restored_latest"] = [loss, acc]

# Save the weights
os.mkdir('./checkpoints')
model.save_weights('./checkpoints/my_checkpoint.weights.h5')

# Create a new model instance
model = create_model()

# Restore the weights
model.load_weights('./checkpoints/my_checkpoint.weights.h5')

# Evaluate the model
loss, acc = model.evaluate(test_images, test_labels, verbose=2)
RESULTS["restored_manual"] = [loss, acc]

# Create and train a new model instance.
model = create_model()
model.fit(train_images, train_labels, epochs=2, verbose=0)

# Save the entire model as a `.keras` zip archive.
model.save('my_model.keras')

new_model = tf.keras.models.load_model('my_model.keras')
RESULTS["keras_layers"] = [type(l).__name__ for l in new_model.layers]

# Evaluate the restored model
loss, acc = new_model.evaluate(test_images, test_labels, verbose=2)
RESULTS["keras_restored"] = [loss, acc]
RESULTS["keras_predict_shape"] = new_model.predict(test_images, verbose=0).shape

# Create and train a new model instance.
model = create_model()
model.fit(train_images, train_labels, epochs=2, verbose=0)

# Save the entire model as a SavedModel.
os.makedirs("saved_model", exist_ok=True)
tf.saved_model.save(model, 'saved_model/my_model')

RESULTS["saved_model_files"] = sorted(os.listdir("saved_model/my_model"))

saved_model = tf.saved_model.load('saved_model/my_model')

# Create and train a new model instance.
model = create_model()
model.fit(train_images, train_labels, epochs=2, verbose=0)

# Save the entire model to a HDF5 file.
# The '.h5' extension indicates that the model should be saved to HDF5.
model.save('my_model.h5')

# Recreate the exact same model, including its weights and the optimizer
new_model = tf.keras.models.load_model('my_model.h5')

loss, acc = new_model.evaluate(test_images, test_labels, verbose=2)
RESULTS["h5_restored"] = [loss, acc]

os.chdir(_home)
shutil.rmtree(_workdir)
