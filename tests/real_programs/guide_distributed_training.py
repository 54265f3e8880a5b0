"""Title: Distributed training with TensorFlow (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/distributed_training.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order, with the CPU split into 2 logical devices first (so
that MirroredStrategy() has 2 replicas, as on a machine with 2 GPUs); the model's kernel fixed
after building (fix_weights); the strategies' replica counts, the losses, evaluations, weights
and printed values recorded in RESULTS.
"""
import tensorflow as tf
from _corpus import fix_weights

RESULTS = {}

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)

mirrored_strategy = tf.distribute.MirroredStrategy()
RESULTS["mirrored_replicas"] = mirrored_strategy.num_replicas_in_sync

mirrored_strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
RESULTS["devices_replicas"] = mirrored_strategy.num_replicas_in_sync

mirrored_strategy = tf.distribute.MirroredStrategy(
    cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
RESULTS["hierarchical_replicas"] = mirrored_strategy.num_replicas_in_sync

strategy = tf.distribute.MultiWorkerMirroredStrategy()
RESULTS["multi_worker_replicas"] = strategy.num_replicas_in_sync

communication_options = tf.distribute.experimental.CommunicationOptions(
    implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
strategy = tf.distribute.MultiWorkerMirroredStrategy(
    communication_options=communication_options)
RESULTS["nccl_replicas"] = strategy.num_replicas_in_sync

central_storage_strategy = tf.distribute.experimental.CentralStorageStrategy()
RESULTS["central_storage_replicas"] = central_storage_strategy.num_replicas_in_sync

default_strategy = tf.distribute.get_strategy()

# In optimizer or other library code
# Get currently active strategy
strategy = tf.distribute.get_strategy()
RESULTS["default_reduce"] = strategy.reduce("SUM", 1., axis=None)  # reduce some values

if tf.config.list_physical_devices('GPU'):
    strategy = tf.distribute.MirroredStrategy()
else:  # Use the Default Strategy
    strategy = tf.distribute.get_strategy()

with strategy.scope():
    # Do something interesting
    print(tf.Variable(1.))
    RESULTS["variable"] = tf.Variable(1.)

mirrored_strategy = tf.distribute.MirroredStrategy()

with mirrored_strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(1, input_shape=(1,),
                              kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
    fix_weights(model)
    model.compile(loss='mse', optimizer='sgd')

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(10)
RESULTS["fit_dataset"] = model.fit(dataset, epochs=2, verbose=0).history["loss"]
RESULTS["evaluate"] = model.evaluate(dataset, verbose=0)

import numpy as np

inputs, targets = np.ones((100, 1)), np.ones((100, 1))
RESULTS["fit_arrays"] = model.fit(inputs, targets, epochs=2, batch_size=10, verbose=0).history["loss"]
RESULTS["keras_kernel"], RESULTS["keras_bias"] = model.get_weights()

RESULTS["num_replicas_in_sync"] = mirrored_strategy.num_replicas_in_sync

# Compute a global batch size using a number of replicas.
BATCH_SIZE_PER_REPLICA = 5
global_batch_size = (BATCH_SIZE_PER_REPLICA *
                     mirrored_strategy.num_replicas_in_sync)
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100)
dataset = dataset.batch(global_batch_size)

LEARNING_RATES_BY_BATCH_SIZE = {5: 0.1, 10: 0.15, 20: 0.175}
learning_rate = LEARNING_RATES_BY_BATCH_SIZE[global_batch_size]
RESULTS["learning_rate"] = learning_rate

with mirrored_strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(1, input_shape=(1,),
                              kernel_regularizer=tf.keras.regularizers.L2(1e-4))])
    fix_weights(model, seed=1)
    optimizer = tf.keras.optimizers.SGD()

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(1000).batch(
    global_batch_size)
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)

# Sets `reduction=NONE` to leave it to tf.nn.compute_average_loss() below.
loss_object = tf.keras.losses.BinaryCrossentropy(
    from_logits=True,
    reduction=tf.keras.losses.Reduction.NONE)


def train_step(inputs):
    features, labels = inputs

    with tf.GradientTape() as tape:
        predictions = model(features, training=True)
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss)
        model_losses = model.losses
        if model_losses:
            loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))

    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(dist_inputs):
    per_replica_losses = mirrored_strategy.run(train_step, args=(dist_inputs,))
    return mirrored_strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses,
                                    axis=None)


losses = []
for dist_inputs in dist_dataset:
    losses.append(distributed_train_step(dist_inputs))
    print(losses[-1])
RESULTS["loop_losses"] = losses

iterator = iter(dist_dataset)
losses = []
for _ in range(10):
    losses.append(distributed_train_step(next(iterator)))
    print(losses[-1])
RESULTS["iterator_losses"] = losses
RESULTS["loop_kernel"], RESULTS["loop_bias"] = model.get_weights()
