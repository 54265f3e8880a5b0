"""Title: Distributed training with Keras (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/distribute/keras.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: MNIST from tensorflow_datasets -> 512 synthetic images (train) and 128 (test) of the same
dtype (uint8) and shapes; the CPU split into 2 logical devices and MirroredStrategy given both
(the tutorial uses the machine's devices); shuffle(10000) -> shuffle(1); conv 32 filters -> 8,
dense 64 -> 32; 12 epochs -> 4 (the decay schedule's boundaries 3 and 7 -> 1 and 3); logs and
checkpoints in a temporary folder; the kernels fixed after building (fix_weights); printed
values recorded in RESULTS.
"""
import os
import pathlib
import tempfile

import numpy as np
import tensorflow as tf
from _corpus import fix_weights, images, labels

RESULTS = {}

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

mnist_train = tf.data.Dataset.from_tensor_slices(
    ((images(512, 28, 28) * 255).astype(np.uint8), labels(512, 10)))
mnist_test = tf.data.Dataset.from_tensor_slices(
    ((images(128, 28, 28, seed=5) * 255).astype(np.uint8), labels(128, 10, seed=6)))

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

BUFFER_SIZE = 1
BATCH_SIZE_PER_REPLICA = 64
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def scale(image, label):
    image = tf.cast(image, tf.float32)
    image /= 255
    return image, label


train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(8, 3, activation='relu'),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(32, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    fix_weights(model)
    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=['accuracy'])

workdir = tempfile.mkdtemp()
checkpoint_dir = os.path.join(workdir, 'training_checkpoints')
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch:04d}.weights.h5")


def decay(epoch):
    if epoch < 1:
        return 1e-3
    elif epoch >= 1 and epoch < 3:
        return 1e-4
    else:
        return 1e-5


class PrintLR(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print('\nLearning rate for epoch {} is {}'.format(epoch + 1, model.optimizer.learning_rate.numpy()))
        RESULTS[f"lr_epoch{epoch + 1}"] = float(model.optimizer.learning_rate.numpy())


callbacks = [
    tf.keras.callbacks.TensorBoard(log_dir=os.path.join(workdir, 'logs')),
    tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_prefix, save_weights_only=True),
    tf.keras.callbacks.LearningRateScheduler(decay),
    PrintLR()
]

EPOCHS = 4
history = model.fit(train_dataset, epochs=EPOCHS, callbacks=callbacks, verbose=0)
RESULTS["loss"] = history.history["loss"]
RESULTS["accuracy"] = history.history["accuracy"]

latest_checkpoint = sorted(pathlib.Path(checkpoint_dir).glob('ckpt_*.weights.h5'))[-1]
model.load_weights(latest_checkpoint)
eval_loss, eval_acc = model.evaluate(eval_dataset, verbose=0)
print('Eval loss: {}, Eval accuracy: {}'.format(eval_loss, eval_acc))
RESULTS["eval"] = [eval_loss, eval_acc]

path = os.path.join(workdir, 'saved_model.keras')
model.save(path)
unreplicated_model = tf.keras.models.load_model(path)
unreplicated_model.compile(
    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=tf.keras.optimizers.Adam(),
    metrics=['accuracy'])
eval_loss, eval_acc = unreplicated_model.evaluate(eval_dataset, verbose=0)
print('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))
RESULTS["eval_unreplicated"] = [eval_loss, eval_acc]

with strategy.scope():
    replicated_model = tf.keras.models.load_model(path)
    replicated_model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                             optimizer=tf.keras.optimizers.Adam(),
                             metrics=['accuracy'])
    eval_loss, eval_acc = replicated_model.evaluate(eval_dataset, verbose=0)
    print('Eval loss: {}, Eval Accuracy: {}'.format(eval_loss, eval_acc))
    RESULTS["eval_replicated"] = [eval_loss, eval_acc]
