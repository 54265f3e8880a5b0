"""Title: Distributed training with DTensors (TensorFlow tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/distribute/dtensor_ml_tutorial.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the pip cell removed; tfds imdb_reviews (train split, shuffle_files, batch_size=64, dicts
of 'text' and 'label') -> 256 synthetic reviews (30-80 words drawn with Zipf-like frequencies from
a 1500-word vocabulary, so TextVectorization's 1200 tf-idf tokens are all filled) with int64
labels from a seeded NumPy generator, batched by 64 (4 batches instead of 391); the Progbar writes
as in the original; the checkpoint directory is already a tempfile one, "/tmp/saved_model" -> a
path in a tempfile directory; the per-epoch metrics, the sample outputs and the restored model's
accuracy -> RESULTS. The last section builds tf.keras.Sequential([text_vectorization, mlp]) with
mlp a tf.Module, which Keras 3 refuses: the cell runs in a try and the error's type is recorded,
and its saving and loading cells run only if it succeeded (they do not, under Keras 3).
"""
import os

import numpy as np

RESULTS = {}

import tempfile
import numpy as np

import tensorflow as tf

from tensorflow.experimental import dtensor

print('TensorFlow version:', tf.__version__)


def configure_virtual_cpus(ncpu):
  phy_devices = tf.config.list_physical_devices('CPU')
  tf.config.set_logical_device_configuration(phy_devices[0], [
        tf.config.LogicalDeviceConfiguration(),
    ] * ncpu)

configure_virtual_cpus(8)
DEVICES = [f'CPU:{i}' for i in range(8)]

tf.config.list_logical_devices('CPU')


def _synthetic_imdb(n=256, vocab=1500, seed=0):
  rng = np.random.default_rng(seed)
  words = np.array([f"w{i:04d}" for i in range(vocab)])
  p = 1.0 / np.arange(1, vocab + 1) ** 0.6
  p /= p.sum()
  texts = [" ".join(rng.choice(words, size=int(rng.integers(30, 81)), p=p)) for _ in range(n)]
  labels = rng.integers(0, 2, n).astype(np.int64)
  return tf.data.Dataset.from_tensor_slices({"text": np.array(texts), "label": labels}).batch(64)


train_data = _synthetic_imdb()
train_data
text_vectorization = tf.keras.layers.TextVectorization(output_mode='tf_idf', max_tokens=1200, output_sequence_length=None)
text_vectorization.adapt(data=train_data.map(lambda x: x['text']))
RESULTS["vocab_head"] = np.array(text_vectorization.get_vocabulary()[:20])
RESULTS["vocab_size"] = text_vectorization.vocabulary_size()


def vectorize(features):
  return text_vectorization(features['text']), features['label']

train_data_vec = train_data.map(vectorize)
train_data_vec


class Dense(tf.Module):

  def __init__(self, input_size, output_size,
               init_seed, weight_layout, activation=None):
    super().__init__()

    random_normal_initializer = tf.function(tf.random.stateless_normal)

    self.weight = dtensor.DVariable(
        dtensor.call_with_layout(
            random_normal_initializer, weight_layout,
            shape=[input_size, output_size],
            seed=init_seed
            ))
    if activation is None:
      activation = lambda x:x
    self.activation = activation

    # bias is sharded the same way as the last axis of weight.
    bias_layout = weight_layout.delete([0])

    self.bias = dtensor.DVariable(
        dtensor.call_with_layout(tf.zeros, bias_layout, [output_size]))

  def __call__(self, x):
    y = tf.matmul(x, self.weight) + self.bias
    y = self.activation(y)

    return y


class BatchNorm(tf.Module):

  def __init__(self):
    super().__init__()

  def __call__(self, x, training=True):
    if not training:
      # This branch is not used in the Tutorial.
      pass
    mean, variance = tf.nn.moments(x, axes=[0])
    return tf.nn.batch_normalization(x, mean, variance, 0.0, 1.0, 1e-5)


def make_keras_bn(bn_layout):
  return tf.keras.layers.BatchNormalization(gamma_layout=bn_layout,
                                            beta_layout=bn_layout,
                                            moving_mean_layout=bn_layout,
                                            moving_variance_layout=bn_layout,
                                            fused=False)


from typing import Tuple


class MLP(tf.Module):

  def __init__(self, dense_layouts: Tuple[dtensor.Layout, dtensor.Layout]):
    super().__init__()

    self.dense1 = Dense(
        1200, 48, (1, 2), dense_layouts[0], activation=tf.nn.relu)
    self.bn = BatchNorm()
    self.dense2 = Dense(48, 2, (3, 4), dense_layouts[1])

  def __call__(self, x):
    y = x
    y = self.dense1(y)
    y = self.bn(y)
    y = self.dense2(y)
    return y


class MLPStricter(tf.Module):

  def __init__(self, mesh, input_mesh_dim, inner_mesh_dim1, output_mesh_dim):
    super().__init__()

    self.dense1 = Dense(
        1200, 48, (1, 2), dtensor.Layout([input_mesh_dim, inner_mesh_dim1], mesh),
        activation=tf.nn.relu)
    self.bn = BatchNorm()
    self.dense2 = Dense(48, 2, (3, 4), dtensor.Layout([inner_mesh_dim1, output_mesh_dim], mesh))


  def __call__(self, x):
    y = x
    y = self.dense1(y)
    y = self.bn(y)
    y = self.dense2(y)
    return y


WORLD = dtensor.create_mesh([("world", 8)], devices=DEVICES)

model = MLP([dtensor.Layout.replicated(WORLD, rank=2),
             dtensor.Layout.replicated(WORLD, rank=2)])

sample_x, sample_y = train_data_vec.take(1).get_single_element()
sample_x = dtensor.copy_to_mesh(sample_x, dtensor.Layout.replicated(WORLD, rank=2))
print(model(sample_x))
RESULTS["replicated_output"] = dtensor.unpack(model(sample_x))[0]


def repack_local_tensor(x, layout):
  """Repacks a local Tensor-like to a DTensor with layout.

  This function assumes a single-client application.
  """
  x = tf.convert_to_tensor(x)
  sharded_dims = []

  # For every sharded dimension, use tf.split to split the along the dimension.
  # The result is a nested list of split-tensors in queue[0].
  queue = [x]
  for axis, dim in enumerate(layout.sharding_specs):
    if dim == dtensor.UNSHARDED:
      continue
    num_splits = layout.shape[axis]
    queue = tf.nest.map_structure(lambda x: tf.split(x, num_splits, axis=axis), queue)
    sharded_dims.append(dim)

  # Now we can build the list of component tensors by looking up the location in
  # the nested list of split-tensors created in queue[0].
  components = []
  for locations in layout.mesh.local_device_locations():
    t = queue[0]
    for dim in sharded_dims:
      split_index = locations[dim]  # Only valid on single-client mesh.
      t = t[split_index]
    components.append(t)

  return dtensor.pack(components, layout)


mesh = dtensor.create_mesh([("batch", 8)], devices=DEVICES)

model = MLP([dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh),
             dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh),])


def repack_batch(x, y, mesh):
  x = repack_local_tensor(x, layout=dtensor.Layout(['batch', dtensor.UNSHARDED], mesh))
  y = repack_local_tensor(y, layout=dtensor.Layout(['batch'], mesh))
  return x, y

sample_x, sample_y = train_data_vec.take(1).get_single_element()
sample_x, sample_y = repack_batch(sample_x, sample_y, mesh)

print('x', sample_x[:, 0])
print('y', sample_y)
RESULTS["sample_x_col0"] = [t for t in dtensor.unpack(sample_x[:, 0])]
RESULTS["sample_y_components"] = [t for t in dtensor.unpack(sample_y)]


@tf.function
def train_step(model, x, y, learning_rate=tf.constant(1e-4)):
  with tf.GradientTape() as tape:
    logits = model(x)
    # tf.reduce_sum sums the batch sharded per-example loss to a replicated
    # global loss (scalar).
    loss = tf.reduce_sum(
        tf.nn.sparse_softmax_cross_entropy_with_logits(
            logits=logits, labels=y))
  parameters = model.trainable_variables
  gradients = tape.gradient(loss, parameters)
  for parameter, parameter_gradient in zip(parameters, gradients):
    parameter.assign_sub(learning_rate * parameter_gradient)

  # Define some metrics
  accuracy = 1.0 - tf.reduce_sum(tf.cast(tf.argmax(logits, axis=-1, output_type=tf.int64) != y, tf.float32)) / x.shape[0]
  loss_per_sample = loss / len(x)
  return {'loss': loss_per_sample, 'accuracy': accuracy}


CHECKPOINT_DIR = tempfile.mkdtemp()
_restored = []


def start_checkpoint_manager(model):
  ckpt = tf.train.Checkpoint(root=model)
  manager = tf.train.CheckpointManager(ckpt, CHECKPOINT_DIR, max_to_keep=3)

  if manager.latest_checkpoint:
    print("Restoring a checkpoint")
    _restored.append(1)
    ckpt.restore(manager.latest_checkpoint).assert_consumed()
  else:
    print("New training")
    _restored.append(0)
  return manager


def _record(tag, metrics):
  RESULTS.setdefault(tag + "_loss", []).append(dtensor.unpack(metrics['loss'])[0])
  RESULTS.setdefault(tag + "_accuracy", []).append(dtensor.unpack(metrics['accuracy'])[0])


num_epochs = 2
manager = start_checkpoint_manager(model)

for epoch in range(num_epochs):
  step = 0
  pbar = tf.keras.utils.Progbar(target=int(train_data_vec.cardinality()), stateful_metrics=[])
  metrics = {'epoch': epoch}
  for x,y in train_data_vec:

    x, y = repack_batch(x, y, mesh)

    metrics.update(train_step(model, x, y, 1e-2))

    pbar.update(step, values=metrics.items(), finalize=False)
    step += 1
  manager.save()
  pbar.update(step, values=metrics.items(), finalize=True)
  _record("data_parallel", metrics)
RESULTS["data_parallel_weight"] = dtensor.unpack(model.dense2.weight.read_value())[0]
mesh = dtensor.create_mesh([("batch", 4), ("model", 2)], devices=DEVICES)
model = MLP([dtensor.Layout([dtensor.UNSHARDED, "model"], mesh),
             dtensor.Layout(["model", dtensor.UNSHARDED], mesh)])


def repack_batch(x, y, mesh):
  x = repack_local_tensor(x, layout=dtensor.Layout(['batch', dtensor.UNSHARDED], mesh))
  y = repack_local_tensor(y, layout=dtensor.Layout(['batch'], mesh))
  return x, y


num_epochs = 2
manager = start_checkpoint_manager(model)

for epoch in range(num_epochs):
  step = 0
  pbar = tf.keras.utils.Progbar(target=int(train_data_vec.cardinality()))
  metrics = {'epoch': epoch}
  for x,y in train_data_vec:
    x, y = repack_batch(x, y, mesh)
    metrics.update(train_step(model, x, y, 1e-2))
    pbar.update(step, values=metrics.items(), finalize=False)
    step += 1
  manager.save()
  pbar.update(step, values=metrics.items(), finalize=True)
  _record("model_parallel", metrics)
RESULTS["model_parallel_weight_components"] = [
    t for t in dtensor.unpack(model.dense2.weight.read_value())]
mesh = dtensor.create_mesh([("batch", 2), ("feature", 2), ("model", 2)], devices=DEVICES)
model = MLP([dtensor.Layout(["feature", "model"], mesh),
             dtensor.Layout(["model", dtensor.UNSHARDED], mesh)])


def repack_batch_for_spt(x, y, mesh):
    # Shard data on feature dimension, too
    x = repack_local_tensor(x, layout=dtensor.Layout(["batch", 'feature'], mesh))
    y = repack_local_tensor(y, layout=dtensor.Layout(["batch"], mesh))
    return x, y


num_epochs = 2

manager = start_checkpoint_manager(model)
for epoch in range(num_epochs):
  step = 0
  metrics = {'epoch': epoch}
  pbar = tf.keras.utils.Progbar(target=int(train_data_vec.cardinality()))

  for x, y in train_data_vec:
    x, y = repack_batch_for_spt(x, y, mesh)
    metrics.update(train_step(model, x, y, 1e-2))

    pbar.update(step, values=metrics.items(), finalize=False)
    step += 1
  manager.save()
  pbar.update(step, values=metrics.items(), finalize=True)
  _record("spatial_parallel", metrics)
mesh = dtensor.create_mesh([("world", 1)], devices=DEVICES[:1])
mlp = MLP([dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh),
           dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh)])

manager = start_checkpoint_manager(mlp)
RESULTS["restored_flags"] = _restored
RESULTS["restored_dense2_weight"] = mlp.dense2.weight.read_value()

_saved_model_dir = os.path.join(tempfile.mkdtemp(), "saved_model")
try:
  model_for_saving = tf.keras.Sequential([
    text_vectorization,
    mlp
  ])
  _sequential_error = "none"
except Exception as _e:
  _sequential_error = type(_e).__name__
RESULTS["sequential_with_module_error"] = np.array(_sequential_error)

if _sequential_error == "none":
  @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
  def run(inputs):
    return {'result': model_for_saving(inputs)}

  tf.saved_model.save(
      model_for_saving, _saved_model_dir,
      signatures=run)
  sample_batch = train_data.take(1).get_single_element()
  sample_batch
  loaded = tf.saved_model.load(_saved_model_dir)

  run_sig = loaded.signatures["serving_default"]
  result = run_sig(sample_batch['text'])['result']
  RESULTS["loaded_accuracy"] = np.mean(tf.argmax(result, axis=-1) == sample_batch['label'])
