"""Title: Multi-GPU distributed training with TensorFlow (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/1806537c4333fbff1f9fd038b78179beeda480fb/guides/distributed_training_with_tensorflow.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: MNIST from keras.datasets -> 640 synthetic images (flattened, float32 in [0, 1)), the
last 128 for validation, and 128 for the test; the CPU split into 2 logical devices (the guide
uses the machine's GPUs); Dense 256 -> 32; the kernels fixed after building (fix_weights); the
checkpoints in a temporary folder; fit's verbose -> 0 and each fit's history, the evaluation and
the restored model's weights recorded in RESULTS.
"""
import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"

import tensorflow as tf
import keras
from _corpus import fix_weights, images, labels

RESULTS = {}

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)


def get_compiled_model():
    # Make a simple 2-layer densely-connected neural network.
    inputs = keras.Input(shape=(784,))
    x = keras.layers.Dense(32, activation="relu")(inputs)
    x = keras.layers.Dense(32, activation="relu")(x)
    outputs = keras.layers.Dense(10)(x)
    model = keras.Model(inputs, outputs)
    fix_weights(model)
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    return model


def get_dataset():
    batch_size = 32
    num_val_samples = 128

    # Return the MNIST dataset in the form of a `tf.data.Dataset`.
    x_train, y_train = images(640, 28, 28), labels(640, 10)
    x_test, y_test = images(128, 28, 28, seed=5), labels(128, 10, seed=6)

    # Preprocess the data (these are Numpy arrays)
    x_train = x_train.reshape(-1, 784).astype("float32")
    x_test = x_test.reshape(-1, 784).astype("float32")
    y_train = y_train.astype("float32")
    y_test = y_test.astype("float32")

    # Reserve num_val_samples samples for validation
    x_val = x_train[-num_val_samples:]
    y_val = y_train[-num_val_samples:]
    x_train = x_train[:-num_val_samples]
    y_train = y_train[:-num_val_samples]
    return (
        tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(batch_size),
        tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size),
        tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(batch_size),
    )


# Create a MirroredStrategy.
strategy = tf.distribute.MirroredStrategy()
print("Number of devices: {}".format(strategy.num_replicas_in_sync))
RESULTS["num_replicas"] = strategy.num_replicas_in_sync

# Open a strategy scope.
with strategy.scope():
    # Everything that creates variables should be under the strategy scope.
    # In general this is only model construction & `compile()`.
    model = get_compiled_model()

    # Train the model on all available devices.
    train_dataset, val_dataset, test_dataset = get_dataset()
    history = model.fit(train_dataset, epochs=2, validation_data=val_dataset, verbose=0)
    RESULTS.update({"fit_" + k: v for k, v in history.history.items()})

    # Test the model on all available devices.
    RESULTS["evaluate"] = model.evaluate(test_dataset, verbose=0)

# Prepare a directory to store all the checkpoints.
checkpoint_dir = tempfile.mkdtemp()
if not os.path.exists(checkpoint_dir):
    os.makedirs(checkpoint_dir)


def make_or_restore_model():
    # Either restore the latest model, or create a fresh one
    # if there is no checkpoint available.
    checkpoints = [checkpoint_dir + "/" + name for name in os.listdir(checkpoint_dir)]
    if checkpoints:
        latest_checkpoint = max(checkpoints, key=os.path.getctime)
        print("Restoring from", latest_checkpoint)
        RESULTS["restored_from"] = os.path.basename(latest_checkpoint)
        return keras.models.load_model(latest_checkpoint)
    print("Creating a new model")
    return get_compiled_model()


def run_training(epochs=1):
    # Create a MirroredStrategy.
    strategy = tf.distribute.MirroredStrategy()

    # Open a strategy scope and create/restore the model
    with strategy.scope():
        model = make_or_restore_model()

        callbacks = [
            # This callback saves a SavedModel every epoch
            # We include the current epoch in the folder name.
            keras.callbacks.ModelCheckpoint(
                filepath=checkpoint_dir + "/ckpt-{epoch}.keras",
                save_freq="epoch",
            )
        ]
        history = model.fit(
            train_dataset,
            epochs=epochs,
            callbacks=callbacks,
            validation_data=val_dataset,
            verbose=0,
        )
    return history, model


# Running the first time creates the model
history, _ = run_training(epochs=1)
RESULTS["first_run"] = [history.history[k] for k in sorted(history.history)]

# Calling the same function again will resume from where we left off
history, model = run_training(epochs=1)
RESULTS["second_run"] = [history.history[k] for k in sorted(history.history)]
RESULTS["checkpoints"] = len(os.listdir(checkpoint_dir))
RESULTS["kernel"] = model.get_weights()[0]
