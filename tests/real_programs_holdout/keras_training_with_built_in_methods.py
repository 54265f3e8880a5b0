"""Title: Training & evaluation with the built-in methods (Keras 3 guide)
Source: https://github.com/keras-team/keras-io/blob/855e37d4f5562751e6694cdadf93b2b7a72c935f/guides/keras_core/training_with_built_in_methods.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: MNIST -> synthetic uint8 images and labels from a seeded NumPy generator, 60000/10000 ->
320/64 with the last 64 training rows (not 10000) kept for validation; np.random.seed(0) added
(the guide's dummy data is unseeded); epochs 2/3/20 -> 2/2/4, steps_per_epoch 100 -> 2,
validation_steps 10 -> 1; verbose=0 everywhere; keras.utils.set_random_seed(0) (fit's and
Dataset.shuffle's order); each model's kernels fixed (fix_weights, its own seed) when built; the
PyTorch DataLoader section and `import torch` not transcribed (no torch); plot_model removed;
the checkpoint directories and the TensorBoard log_dir in a temporary directory (the program
changes into it and back); histories, evaluations and predictions recorded in RESULTS.
"""
# We import torch & TF so as to use torch Dataloaders & tf.data.Datasets.
import tensorflow as tf

import os
import shutil
import tempfile
import numpy as np
import keras
from keras import layers
from keras import ops
from _corpus import fix_weights

np.random.seed(0)
keras.utils.set_random_seed(0)
RESULTS = {}
_rng = np.random.default_rng(0)
_seeds = iter(range(1000))
_home = os.getcwd()
_workdir = tempfile.mkdtemp()
os.chdir(_workdir)


def _h(history):
    return [history.history[k] for k in sorted(history.history)]


inputs = keras.Input(shape=(784,), name="digits")
x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
x = layers.Dense(64, activation="relu", name="dense_2")(x)
outputs = layers.Dense(10, activation="softmax", name="predictions")(x)

model = keras.Model(inputs=inputs, outputs=outputs)
fix_weights(model, seed=next(_seeds))

x_train = _rng.integers(0, 256, (320, 28, 28)).astype(np.uint8)
y_train = _rng.integers(0, 10, 320).astype(np.uint8)
x_test = _rng.integers(0, 256, (64, 28, 28)).astype(np.uint8)
y_test = _rng.integers(0, 10, 64).astype(np.uint8)

# Preprocess the data (these are NumPy arrays)
x_train = x_train.reshape(320, 784).astype("float32") / 255
x_test = x_test.reshape(64, 784).astype("float32") / 255

y_train = y_train.astype("float32")
y_test = y_test.astype("float32")

# Reserve 64 samples for validation
x_val = x_train[-64:]
y_val = y_train[-64:]
x_train = x_train[:-64]
y_train = y_train[:-64]

model.compile(
    optimizer=keras.optimizers.RMSprop(),  # Optimizer
    # Loss function to minimize
    loss=keras.losses.SparseCategoricalCrossentropy(),
    # List of metrics to monitor
    metrics=[keras.metrics.SparseCategoricalAccuracy()],
)

history = model.fit(
    x_train,
    y_train,
    batch_size=64,
    epochs=2,
    validation_data=(x_val, y_val), verbose=0,
)
RESULTS["first_history_keys"] = sorted(history.history)
RESULTS["first_history"] = _h(history)

results = model.evaluate(x_test, y_test, batch_size=128, verbose=0)
RESULTS["first_evaluate"] = results

predictions = model.predict(x_test[:3], verbose=0)
RESULTS["first_predictions"] = predictions

model.compile(
    optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
    loss=keras.losses.SparseCategoricalCrossentropy(),
    metrics=[keras.metrics.SparseCategoricalAccuracy()],
)

model.compile(
    optimizer="rmsprop",
    loss="sparse_categorical_crossentropy",
    metrics=["sparse_categorical_accuracy"],
)


def get_uncompiled_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(64, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    fix_weights(model, seed=next(_seeds))
    return model


def get_compiled_model():
    model = get_uncompiled_model()
    model.compile(
        optimizer="rmsprop",
        loss="sparse_categorical_crossentropy",
        metrics=["sparse_categorical_accuracy"],
    )
    return model


def custom_mean_squared_error(y_true, y_pred):
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


model = get_uncompiled_model()
model.compile(optimizer=keras.optimizers.Adam(), loss=custom_mean_squared_error)

# We need to one-hot encode the labels to use MSE
y_train_one_hot = ops.one_hot(y_train, num_classes=10)
RESULTS["custom_mse"] = _h(model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0))


class CustomMSE(keras.losses.Loss):
    def __init__(self, regularization_factor=0.1, name="custom_mse"):
        super().__init__(name=name)
        self.regularization_factor = regularization_factor

    def call(self, y_true, y_pred):
        mse = ops.mean(ops.square(y_true - y_pred), axis=-1)
        reg = ops.mean(ops.square(0.5 - y_pred), axis=-1)
        return mse + reg * self.regularization_factor


model = get_uncompiled_model()
model.compile(optimizer=keras.optimizers.Adam(), loss=CustomMSE())

y_train_one_hot = ops.one_hot(y_train, num_classes=10)
RESULTS["custom_mse_class"] = _h(model.fit(x_train, y_train_one_hot, batch_size=64, epochs=1, verbose=0))


class CategoricalTruePositives(keras.metrics.Metric):
    def __init__(self, name="categorical_true_positives", **kwargs):
        super().__init__(name=name, **kwargs)
        self.true_positives = self.add_variable(
            shape=(), name="ctp", initializer="zeros"
        )

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.reshape(ops.argmax(y_pred, axis=1), (-1, 1))
        values = ops.cast(y_true, "int32") == ops.cast(y_pred, "int32")
        values = ops.cast(values, "float32")
        if sample_weight is not None:
            sample_weight = ops.cast(sample_weight, "float32")
            values = ops.multiply(values, sample_weight)
        self.true_positives.assign_add(ops.sum(values))

    def result(self):
        return self.true_positives

    def reset_state(self):
        # The state of the metric will be reset at the start of each epoch.
        self.true_positives.assign(0.0)


model = get_uncompiled_model()
model.compile(
    optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
    loss=keras.losses.SparseCategoricalCrossentropy(),
    metrics=[CategoricalTruePositives()],
)
history = model.fit(x_train, y_train, batch_size=64, epochs=2, verbose=0)
RESULTS["ctp_keys"] = sorted(history.history)
RESULTS["ctp"] = _h(history)


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(ops.sum(inputs) * 0.1)
        return inputs  # Pass-through layer.


inputs = keras.Input(shape=(784,), name="digits")
x = layers.Dense(64, activation="relu", name="dense_1")(inputs)

# Insert activity regularization as a layer
x = ActivityRegularizationLayer()(x)

x = layers.Dense(64, activation="relu", name="dense_2")(x)
outputs = layers.Dense(10, name="predictions")(x)

model = keras.Model(inputs=inputs, outputs=outputs)
fix_weights(model, seed=next(_seeds))
model.compile(
    optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
)

RESULTS["activity_reg"] = _h(model.fit(x_train, y_train, batch_size=64, epochs=1, verbose=0))


class LogisticEndpoint(keras.layers.Layer):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)

    def call(self, targets, logits, sample_weights=None):
        # Compute the training-time loss value and add it
        # to the layer using `self.add_loss()`.
        loss = self.loss_fn(targets, logits, sample_weights)
        self.add_loss(loss)

        # Return the inference-time prediction tensor (for `.predict()`).
        return ops.softmax(logits)


inputs = keras.Input(shape=(3,), name="inputs")
targets = keras.Input(shape=(10,), name="targets")
logits = keras.layers.Dense(10)(inputs)
predictions = LogisticEndpoint(name="predictions")(targets, logits)

model = keras.Model(inputs=[inputs, targets], outputs=predictions)
fix_weights(model, seed=next(_seeds))
model.compile(optimizer="adam")  # No loss argument!

data = {
    "inputs": np.random.random((3, 3)),
    "targets": np.random.random((3, 10)),
}
RESULTS["endpoint"] = _h(model.fit(data, verbose=0))

model = get_compiled_model()
RESULTS["validation_split"] = _h(model.fit(x_train, y_train, batch_size=64, validation_split=0.2,
                                           epochs=1, verbose=0))

model = get_compiled_model()

# First, let's create a training Dataset instance.
# For the sake of our example, we'll use the same MNIST data as before.
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
# Shuffle and slice the dataset.
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

# Now we get a test dataset.
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test))
test_dataset = test_dataset.batch(64)

RESULTS["dataset_fit"] = _h(model.fit(train_dataset, epochs=2, verbose=0))

result = model.evaluate(test_dataset, verbose=0)
RESULTS["dataset_evaluate"] = result
RESULTS["metrics_names"] = list(dict(zip(model.metrics_names, result)))

model = get_compiled_model()

# Prepare the training dataset
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

RESULTS["steps_per_epoch"] = _h(model.fit(train_dataset, epochs=2, steps_per_epoch=2, verbose=0))

model = get_compiled_model()

# Prepare the training dataset
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

# Prepare the validation dataset
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_dataset = val_dataset.batch(64)

RESULTS["dataset_validation"] = _h(model.fit(train_dataset, epochs=1, validation_data=val_dataset,
                                             verbose=0))

model = get_compiled_model()

# Prepare the training dataset
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

# Prepare the validation dataset
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
val_dataset = val_dataset.batch(64)

RESULTS["validation_steps"] = _h(model.fit(
    train_dataset,
    epochs=1,
    # Only run validation using the first batch of the dataset
    # using the `validation_steps` argument
    validation_data=val_dataset,
    validation_steps=1, verbose=0,
))


class ExamplePyDataset(keras.utils.PyDataset):
    def __init__(self, x, y, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.x = x
        self.y = y
        self.batch_size = batch_size

    def __len__(self):
        return int(np.ceil(len(self.x) / float(self.batch_size)))

    def __getitem__(self, idx):
        batch_x = self.x[idx * self.batch_size: (idx + 1) * self.batch_size]
        batch_y = self.y[idx * self.batch_size: (idx + 1) * self.batch_size]
        return batch_x, batch_y


train_py_dataset = ExamplePyDataset(x_train, y_train, batch_size=32)
val_py_dataset = ExamplePyDataset(x_val, y_val, batch_size=32)

model = get_compiled_model()
RESULTS["py_dataset_fit"] = _h(model.fit(train_py_dataset, batch_size=64, validation_data=val_py_dataset,
                                         epochs=1, verbose=0))
RESULTS["py_dataset_evaluate"] = model.evaluate(val_py_dataset, verbose=0)

train_py_dataset = ExamplePyDataset(x_train, y_train, batch_size=32, workers=4)
val_py_dataset = ExamplePyDataset(x_val, y_val, batch_size=32, workers=4)

model = get_compiled_model()
RESULTS["py_dataset_workers"] = _h(model.fit(train_py_dataset, batch_size=64, validation_data=val_py_dataset,
                                             epochs=1, verbose=0))

class_weight = {
    0: 1.0,
    1: 1.0,
    2: 1.0,
    3: 1.0,
    4: 1.0,
    # Set weight "2" for class "5",
    # making this class 2x more important
    5: 2.0,
    6: 1.0,
    7: 1.0,
    8: 1.0,
    9: 1.0,
}

model = get_compiled_model()
RESULTS["class_weight"] = _h(model.fit(x_train, y_train, class_weight=class_weight, batch_size=64,
                                       epochs=1, verbose=0))

sample_weight = np.ones(shape=(len(y_train),))
sample_weight[y_train == 5] = 2.0

model = get_compiled_model()
RESULTS["sample_weight"] = _h(model.fit(x_train, y_train, sample_weight=sample_weight, batch_size=64,
                                        epochs=1, verbose=0))

sample_weight = np.ones(shape=(len(y_train),))
sample_weight[y_train == 5] = 2.0

# Create a Dataset that includes sample weights
# (3rd element in the return tuple).
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train, sample_weight))

# Shuffle and slice the dataset.
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

model = get_compiled_model()
RESULTS["sample_weight_dataset"] = _h(model.fit(train_dataset, epochs=1, verbose=0))

image_input = keras.Input(shape=(32, 32, 3), name="img_input")
timeseries_input = keras.Input(shape=(None, 10), name="ts_input")

x1 = layers.Conv2D(3, 3)(image_input)
x1 = layers.GlobalMaxPooling2D()(x1)

x2 = layers.Conv1D(3, 3)(timeseries_input)
x2 = layers.GlobalMaxPooling1D()(x2)

x = layers.concatenate([x1, x2])

score_output = layers.Dense(1, name="score_output")(x)
class_output = layers.Dense(5, name="class_output")(x)

model = keras.Model(
    inputs=[image_input, timeseries_input], outputs=[score_output, class_output]
)
fix_weights(model, seed=next(_seeds))

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=[
        keras.losses.MeanSquaredError(),
        keras.losses.CategoricalCrossentropy(),
    ],
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=[
        keras.losses.MeanSquaredError(),
        keras.losses.CategoricalCrossentropy(),
    ],
    metrics=[
        [
            keras.metrics.MeanAbsolutePercentageError(),
            keras.metrics.MeanAbsoluteError(),
        ],
        [keras.metrics.CategoricalAccuracy()],
    ],
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "score_output": keras.losses.MeanSquaredError(),
        "class_output": keras.losses.CategoricalCrossentropy(),
    },
    metrics={
        "score_output": [
            keras.metrics.MeanAbsolutePercentageError(),
            keras.metrics.MeanAbsoluteError(),
        ],
        "class_output": [keras.metrics.CategoricalAccuracy()],
    },
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "score_output": keras.losses.MeanSquaredError(),
        "class_output": keras.losses.CategoricalCrossentropy(),
    },
    metrics={
        "score_output": [
            keras.metrics.MeanAbsolutePercentageError(),
            keras.metrics.MeanAbsoluteError(),
        ],
        "class_output": [keras.metrics.CategoricalAccuracy()],
    },
    loss_weights={"score_output": 2.0, "class_output": 1.0},
)

# List loss version
model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=[None, keras.losses.CategoricalCrossentropy()],
)

# Or dict loss version
model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={"class_output": keras.losses.CategoricalCrossentropy()},
)

model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=[
        keras.losses.MeanSquaredError(),
        keras.losses.CategoricalCrossentropy(),
    ],
)

# Generate dummy NumPy data
img_data = np.random.random_sample(size=(100, 32, 32, 3))
ts_data = np.random.random_sample(size=(100, 20, 10))
score_targets = np.random.random_sample(size=(100, 1))
class_targets = np.random.random_sample(size=(100, 5))

# Fit on lists
history = model.fit([img_data, ts_data], [score_targets, class_targets], batch_size=32, epochs=1,
                    verbose=0)
RESULTS["multi_keys"] = sorted(history.history)
RESULTS["multi_lists"] = _h(history)

# Alternatively, fit on dicts
RESULTS["multi_dicts"] = _h(model.fit(
    {"img_input": img_data, "ts_input": ts_data},
    {"score_output": score_targets, "class_output": class_targets},
    batch_size=32,
    epochs=1, verbose=0,
))

train_dataset = tf.data.Dataset.from_tensor_slices(
    (
        {"img_input": img_data, "ts_input": ts_data},
        {"score_output": score_targets, "class_output": class_targets},
    )
)
train_dataset = train_dataset.shuffle(buffer_size=1024).batch(64)

RESULTS["multi_dataset"] = _h(model.fit(train_dataset, epochs=1, verbose=0))

model = get_compiled_model()

callbacks = [
    keras.callbacks.EarlyStopping(
        # Stop training when `val_loss` is no longer improving
        monitor="val_loss",
        # "no longer improving" being defined as "no better than 1e-2 less"
        min_delta=1e-2,
        # "no longer improving" being further defined as "for at least 2 epochs"
        patience=2,
        verbose=1,
    )
]
history = model.fit(
    x_train,
    y_train,
    epochs=4,
    batch_size=64,
    callbacks=callbacks,
    validation_split=0.2, verbose=0,
)
RESULTS["early_stopping"] = _h(history)


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs):
        self.per_batch_losses = []

    def on_batch_end(self, batch, logs):
        self.per_batch_losses.append(logs.get("loss"))


model = get_compiled_model()

callbacks = [
    keras.callbacks.ModelCheckpoint(
        filepath="mymodel_{epoch}.keras",
        save_best_only=True,  # Only save a model if `val_loss` has improved.
        monitor="val_loss",
        verbose=1,
    )
]
RESULTS["checkpoint_fit"] = _h(model.fit(
    x_train,
    y_train,
    epochs=2,
    batch_size=64,
    callbacks=callbacks,
    validation_split=0.2, verbose=0,
))
RESULTS["checkpoint_files"] = sorted(f for f in os.listdir(".") if f.startswith("mymodel_"))

# Prepare a directory to store all the checkpoints.
checkpoint_dir = "./ckpt"
if not os.path.exists(checkpoint_dir):
    os.makedirs(checkpoint_dir)


def make_or_restore_model():
    # Either restore the latest model, or create a fresh one
    # if there is no checkpoint available.
    checkpoints = [checkpoint_dir + "/" + name for name in os.listdir(checkpoint_dir)]
    if checkpoints:
        latest_checkpoint = max(checkpoints, key=os.path.getctime)
        print("Restoring from", latest_checkpoint)
        return keras.models.load_model(latest_checkpoint)
    print("Creating a new model")
    return get_compiled_model()


model = make_or_restore_model()
callbacks = [
    # This callback saves the model every 100 batches.
    # We include the training loss in the saved model name.
    keras.callbacks.ModelCheckpoint(
        filepath=checkpoint_dir + "/model-loss={loss:.2f}.keras", save_freq=100
    )
]
RESULTS["fault_tolerance"] = _h(model.fit(x_train, y_train, epochs=1, callbacks=callbacks, verbose=0))
RESULTS["ckpt_files"] = sorted(os.listdir(checkpoint_dir))

initial_learning_rate = 0.1
lr_schedule = keras.optimizers.schedules.ExponentialDecay(
    initial_learning_rate, decay_steps=100000, decay_rate=0.96, staircase=True
)

optimizer = keras.optimizers.RMSprop(learning_rate=lr_schedule)
RESULTS["lr_schedule"] = [lr_schedule(0), lr_schedule(100000), lr_schedule(250000)]

keras.callbacks.TensorBoard(
    log_dir="./full_path_to_your_logs",
    histogram_freq=0,  # How often to log histogram visualizations
    embeddings_freq=0,  # How often to log embedding visualizations
    update_freq="epoch",
)  # How often to write logs (default: once per epoch)

os.chdir(_home)
shutil.rmtree(_workdir)
