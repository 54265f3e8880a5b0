"""Title: Distributed input (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/distribute/input.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the tutorial's code cells in order (the CPU split into 2 logical devices, as the tutorial
does, so that every MirroredStrategy() has 2 replicas); the 10 epochs of 5 steps -> 2 of 5; the
get_next_as_optional loop also sums what the replicas saw into a variable (the tutorial only
tf.prints it); the generator's unseeded np.random.rand(4) -> a seeded NumPy generator; printed
values recorded in RESULTS.
"""
import tensorflow as tf

# Helper libraries
import numpy as np

RESULTS = {}


def local(strategy, value):
    return [t.numpy() for t in strategy.experimental_local_results(value)]


# Simulate multiple CPUs with virtual devices
N_VIRTUAL_DEVICES = 2
physical_devices = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    physical_devices[0], [tf.config.LogicalDeviceConfiguration() for _ in range(N_VIRTUAL_DEVICES)])

print("Available devices:")
for i, device in enumerate(tf.config.list_logical_devices()):
    print("%d) %s" % (i, device))
RESULTS["devices"] = len(tf.config.list_logical_devices("CPU"))

global_batch_size = 16
# Create a tf.data.Dataset object.
dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(global_batch_size)


@tf.function
def train_step(inputs):
    features, labels = inputs
    return labels - 0.3 * features


# Iterate over the dataset using the for..in construct.
outs = []
for inputs in dataset:
    print(train_step(inputs))
    outs.append(float(tf.reduce_sum(train_step(inputs))))
RESULTS["plain_steps"] = outs

global_batch_size = 16
mirrored_strategy = tf.distribute.MirroredStrategy()
RESULTS["num_replicas"] = mirrored_strategy.num_replicas_in_sync

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(global_batch_size)
# Distribute input using the `experimental_distribute_dataset`.
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)
# 1 global batch of data fed to the model in 1 step.
first = next(iter(dist_dataset))
print(first)
RESULTS["first_features"] = local(mirrored_strategy, first[0])

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(64).batch(16)
options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
dataset = dataset.with_options(options)
RESULTS["with_options"] = [float(tf.reduce_sum(x)) for x, _ in dataset]

mirrored_strategy = tf.distribute.MirroredStrategy()


def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(64).batch(16)
    dataset = dataset.shard(
        input_context.num_input_pipelines, input_context.input_pipeline_id)
    dataset = dataset.batch(batch_size)
    dataset = dataset.prefetch(2)  # This prefetches 2 batches per device.
    return dataset


dist_dataset = mirrored_strategy.distribute_datasets_from_function(dataset_fn)
RESULTS["from_function_shapes"] = [[list(t.shape) for t in local(mirrored_strategy, x)]
                                   for x, _ in dist_dataset]

global_batch_size = 16
mirrored_strategy = tf.distribute.MirroredStrategy()

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(global_batch_size)
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)


@tf.function
def train_step(inputs):
    features, labels = inputs
    return labels - 0.3 * features


losses = []
for x in dist_dataset:
    # train_step trains the model using the dataset elements
    loss = mirrored_strategy.run(train_step, args=(x,))
    print("Loss is ", loss)
    losses.append([t.shape[0] for t in local(mirrored_strategy, loss)])
RESULTS["loop_rows"] = losses
RESULTS["loop_last"] = local(mirrored_strategy, loss)

num_epochs = 2
steps_per_epoch = 5
rows = []
for epoch in range(num_epochs):
    dist_iterator = iter(dist_dataset)
    for step in range(steps_per_epoch):
        # train_step trains the model using the dataset elements
        loss = mirrored_strategy.run(train_step, args=(next(dist_iterator),))
        # which is the same as
        # loss = mirrored_strategy.run(train_step, args=(dist_iterator.get_next(),))
        print("Loss is ", loss)
        rows.append(float(mirrored_strategy.reduce("SUM", loss, axis=0)[0]))
RESULTS["iterator_steps"] = rows

# You can break the loop with `get_next_as_optional` by checking if the `Optional` contains a value
global_batch_size = 4
steps_per_loop = 5
strategy = tf.distribute.MirroredStrategy()

dataset = tf.data.Dataset.range(9).batch(global_batch_size)
distributed_iterator = iter(strategy.experimental_distribute_dataset(dataset))
seen = tf.Variable(tf.zeros([], tf.int64))
steps = tf.Variable(0)


@tf.function
def train_fn(distributed_iterator):
    for _ in tf.range(steps_per_loop):
        optional_data = distributed_iterator.get_next_as_optional()
        if not optional_data.has_value():
            break
        per_replica_results = strategy.run(lambda x: x, args=(optional_data.get_value(),))
        tf.print(strategy.experimental_local_results(per_replica_results))
        seen.assign_add(strategy.reduce("SUM", per_replica_results, axis=0))
        steps.assign_add(1)


train_fn(distributed_iterator)
RESULTS["optional_sum"] = seen
RESULTS["optional_steps"] = steps

global_batch_size = 16
epochs = 5
steps_per_epoch = 5
mirrored_strategy = tf.distribute.MirroredStrategy()

dataset = tf.data.Dataset.from_tensors(([1.], [1.])).repeat(100).batch(global_batch_size)
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)


@tf.function(input_signature=[dist_dataset.element_spec])
def train_step(per_replica_inputs):
    def step_fn(inputs):
        return 2 * inputs

    return mirrored_strategy.run(step_fn, args=(per_replica_inputs,))


totals = []
for _ in range(epochs):
    iterator = iter(dist_dataset)
    for _ in range(steps_per_epoch):
        output = train_step(next(iterator))
        tf.print(output)
        totals.append([float(tf.reduce_sum(t)) for t in local(mirrored_strategy, output[0])])
RESULTS["element_spec_steps"] = totals

strategy = tf.distribute.MirroredStrategy()
vocab = ["a", "b", "c", "d", "f"]

with strategy.scope():
    # Create the layer(s) under scope.
    layer = tf.keras.layers.StringLookup(vocabulary=vocab)


def dataset_fn(input_context):
    # a tf.data.Dataset
    dataset = tf.data.Dataset.from_tensor_slices(["a", "c", "e"]).repeat()

    # Custom your batching, sharding, prefetching, etc.
    global_batch_size = 4
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    dataset = dataset.batch(batch_size)
    dataset = dataset.shard(
        input_context.num_input_pipelines,
        input_context.input_pipeline_id)

    # Apply the preprocessing layer(s) to the tf.data.Dataset
    def preprocess_with_kpl(input):
        return layer(input)

    processed_ds = dataset.map(preprocess_with_kpl)
    return processed_ds


distributed_dataset = strategy.distribute_datasets_from_function(dataset_fn)

# Print out a few example batches.
distributed_dataset_iterator = iter(distributed_dataset)
batches = []
for _ in range(3):
    batch = next(distributed_dataset_iterator)
    print(batch)
    batches.append(local(strategy, batch))
RESULTS["lookup_batches"] = batches

mirrored_strategy = tf.distribute.MirroredStrategy()
dataset_size = 24
batch_size = 6
dataset = tf.data.Dataset.range(dataset_size).enumerate().batch(batch_size)
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)


def predict(index, inputs):
    outputs = 2 * inputs
    return index, outputs


result = {}
for index, inputs in dist_dataset:
    output_index, outputs = mirrored_strategy.run(predict, args=(index, inputs))
    indices = list(mirrored_strategy.experimental_local_results(output_index))
    rindices = []
    for a in indices:
        rindices.extend(a.numpy())
    outputs = list(mirrored_strategy.experimental_local_results(outputs))
    routputs = []
    for a in outputs:
        routputs.extend(a.numpy())
    for i, value in zip(rindices, routputs):
        result[i] = value

print(result)
RESULTS["predict_keys"] = sorted(int(k) for k in result)
RESULTS["predict_values"] = [int(result[k]) for k in sorted(result)]

mirrored_strategy = tf.distribute.MirroredStrategy()


def value_fn(ctx):
    return tf.constant(ctx.replica_id_in_sync_group)


distributed_values = mirrored_strategy.experimental_distribute_values_from_function(value_fn)
ids = []
for _ in range(4):
    result = mirrored_strategy.run(lambda x: x, args=(distributed_values,))
    print(result)
    ids.append(local(mirrored_strategy, result))
RESULTS["value_fn"] = ids

mirrored_strategy = tf.distribute.MirroredStrategy()
rng = np.random.default_rng(0)


def input_gen():
    while True:
        yield rng.random(4)


# use Dataset.from_generator
dataset = tf.data.Dataset.from_generator(
    input_gen, output_types=(tf.float32), output_shapes=tf.TensorShape([4]))
dist_dataset = mirrored_strategy.experimental_distribute_dataset(dataset)
iterator = iter(dist_dataset)
gen = []
for _ in range(4):
    result = mirrored_strategy.run(lambda x: x, args=(next(iterator),))
    print(result)
    gen.append(local(mirrored_strategy, result))
RESULTS["generator"] = gen
