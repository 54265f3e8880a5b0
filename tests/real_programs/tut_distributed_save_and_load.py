"""Title: Save and load a model using a distribution strategy (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/distribute/save_and_load.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's Keras cells (model.save / tf.keras.models.load_model, under and outside a
strategy); its tf.saved_model cells (tf.saved_model.save/load, signatures, tensorflow_hub's
KerasLayer, SaveOptions/LoadOptions, save_spec) left out: tapegrad has no SavedModel; MNIST from
tensorflow_datasets -> 512 synthetic images (train) and 128 (test) of the same dtype (uint8) and
shapes; the CPU split into 2 logical devices (the tutorial uses the machine's devices);
shuffle(10000) -> shuffle(1); conv 32 filters -> 8, dense 64 -> 32; the kernels fixed after
building (fix_weights; the subclassed model built by a call on zeros first); the model saved
with the Keras format loaded under a second MirroredStrategy too; files in a temporary folder (with the .keras suffix that Keras 3 asks
for); fit's verbose=0 and its losses and accuracies recorded in RESULTS, with the evaluations
and a prediction of each model.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf
from _corpus import fix_weights, images, labels

RESULTS = {}

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
workdir = tempfile.mkdtemp()

mirrored_strategy = tf.distribute.MirroredStrategy()


def get_data():
    mnist_train = tf.data.Dataset.from_tensor_slices(
        ((images(512, 28, 28) * 255).astype(np.uint8), labels(512, 10)))
    mnist_test = tf.data.Dataset.from_tensor_slices(
        ((images(128, 28, 28, seed=5) * 255).astype(np.uint8), labels(128, 10, seed=6)))

    BUFFER_SIZE = 1

    BATCH_SIZE_PER_REPLICA = 64
    BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

    def scale(image, label):
        image = tf.cast(image, tf.float32)
        image /= 255

        return image, label

    train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
    eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

    return train_dataset, eval_dataset


def get_model():
    with mirrored_strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(8, 3, activation='relu', input_shape=(28, 28, 1)),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(32, activation='relu'),
            tf.keras.layers.Dense(10)
        ])
        fix_weights(model)

        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      optimizer=tf.keras.optimizers.Adam(),
                      metrics=[tf.metrics.SparseCategoricalAccuracy()])
        return model


def record(name, history, model):
    RESULTS[name + "_loss"] = history.history["loss"]
    RESULTS[name + "_accuracy"] = history.history["sparse_categorical_accuracy"]
    RESULTS[name + "_eval"] = model.evaluate(eval_dataset, verbose=0)
    RESULTS[name + "_predict"] = model.predict(eval_dataset.take(1), verbose=0)[:4]


RESULTS["num_replicas"] = mirrored_strategy.num_replicas_in_sync
model = get_model()
train_dataset, eval_dataset = get_data()
record("mirrored", model.fit(train_dataset, epochs=2, verbose=0), model)

keras_model_path = os.path.join(workdir, 'keras_save.keras')
model.save(keras_model_path)

restored_keras_model = tf.keras.models.load_model(keras_model_path)
RESULTS["restored_weights_equal"] = all(
    np.array_equal(a, b) for a, b in zip(model.get_weights(), restored_keras_model.get_weights()))
record("restored", restored_keras_model.fit(train_dataset, epochs=2, verbose=0), restored_keras_model)

another_strategy = tf.distribute.OneDeviceStrategy('/cpu:0')
with another_strategy.scope():
    restored_keras_model_ds = tf.keras.models.load_model(keras_model_path)
    record("one_device", restored_keras_model_ds.fit(train_dataset, epochs=2, verbose=0),
           restored_keras_model_ds)

# (the Keras format loaded under a mirrored strategy, which the tutorial shows with SavedModel)
another_strategy = tf.distribute.MirroredStrategy()
with another_strategy.scope():
    loaded = tf.keras.models.load_model(keras_model_path)
    record("mirrored_again", loaded.fit(train_dataset, epochs=2, verbose=0), loaded)


class SubclassedModel(tf.keras.Model):
    """Example model defined by subclassing `tf.keras.Model`."""

    output_name = 'output_layer'

    def __init__(self):
        super(SubclassedModel, self).__init__()
        self._dense_layer = tf.keras.layers.Dense(
            5, dtype=tf.dtypes.float32, name=self.output_name)

    def call(self, inputs):
        return self._dense_layer(inputs)


my_model = SubclassedModel()
saved_model_path = os.path.join(workdir, 'tf_save')
try:
    my_model.save(saved_model_path)
except ValueError as e:
    print(f'{type(e).__name__}: ', *e.args)
    RESULTS["save_without_suffix_raises"] = True

BATCH_SIZE_PER_REPLICA = 4
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

dataset_size = 100
dataset = tf.data.Dataset.from_tensors(
    (tf.range(5, dtype=tf.float32), tf.range(5, dtype=tf.float32))
    ).repeat(dataset_size).batch(BATCH_SIZE)

my_model(tf.zeros([1, 5]))  # (builds its Dense: then its kernel is fixed)
fix_weights(my_model)
my_model.compile(optimizer='adam', loss='mean_squared_error')
history = my_model.fit(dataset, epochs=2, verbose=0)
RESULTS["subclassed_loss"] = history.history["loss"]

my_model.save(saved_model_path + '.keras')
RESULTS["subclassed_predict"] = my_model(tf.range(5, dtype=tf.float32)[None])
