"""Title: Training checkpoints (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/checkpoint.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `net.save_weights('easy_checkpoint')` -> 'easy_checkpoint.weights.h5' (Keras 3 requires
the suffix: the original raises ValueError under TF 2.21); each Net's kernel fixed (fix_weights)
once built by a call on a zero batch (the second Net too, before the restore: left unbuilt, under
TF 2.21 the restore did not reach its kernel, which kept an unseeded draw); the files are written in a fresh temporary directory (the
program changes into it and back); `!ls` -> os.listdir; prints -> RESULTS (losses, checkpoint
names relative to the directory, restored values, the reader's keys, shapes and dtypes); the
reader's key 'net/l1/kernel/...' -> 'net/l1/_kernel/...' (Keras 3's Dense tracks its kernel as
`_kernel`: the original raises KeyError under TF 2.21; for the same reason the deferred restore of
`fake_layer.kernel` restores nothing under TF 2.21, recorded as it is).
"""
import os
import shutil
import tempfile

import tensorflow as tf
from _corpus import fix_weights

RESULTS = {}
_home = os.getcwd()
_workdir = tempfile.mkdtemp()
os.chdir(_workdir)


class Net(tf.keras.Model):
    """A simple linear model."""

    def __init__(self):
        super(Net, self).__init__()
        self.l1 = tf.keras.layers.Dense(5)

    def call(self, x):
        return self.l1(x)


net = Net()
net(tf.zeros([1, 1]))
fix_weights(net)

net.save_weights('easy_checkpoint.weights.h5')


def toy_dataset():
    inputs = tf.range(10.)[:, None]
    labels = inputs * 5. + tf.range(5.)[None, :]
    return tf.data.Dataset.from_tensor_slices(
        dict(x=inputs, y=labels)).repeat().batch(2)


def train_step(net, example, optimizer):
    """Trains `net` on `example` using `optimizer`."""
    with tf.GradientTape() as tape:
        output = net(example['x'])
        loss = tf.reduce_mean(tf.abs(output - example['y']))
    variables = net.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


opt = tf.keras.optimizers.Adam(0.1)
dataset = toy_dataset()
iterator = iter(dataset)
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, './tf_ckpts', max_to_keep=3)

LOG = []


def train_and_checkpoint(net, manager):
    ckpt.restore(manager.latest_checkpoint)
    if manager.latest_checkpoint:
        LOG.append("Restored from {}".format(manager.latest_checkpoint))
    else:
        LOG.append("Initializing from scratch.")

    for _ in range(50):
        example = next(iterator)
        loss = train_step(net, example, opt)
        ckpt.step.assign_add(1)
        if int(ckpt.step) % 10 == 0:
            save_path = manager.save()
            LOG.append("Saved checkpoint for step {}: {}".format(int(ckpt.step), save_path))
            LOG.append("loss {:1.2f}".format(loss.numpy()))
            RESULTS.setdefault("losses", []).append(loss.numpy())


train_and_checkpoint(net, manager)

opt = tf.keras.optimizers.Adam(0.1)
net = Net()
net(tf.zeros([1, 1]))
fix_weights(net, seed=1)
dataset = toy_dataset()
iterator = iter(dataset)
ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=iterator)
manager = tf.train.CheckpointManager(ckpt, './tf_ckpts', max_to_keep=3)

train_and_checkpoint(net, manager)
RESULTS["log"] = [line.split(": ")[0] + ": " + os.path.basename(line.split(": ")[1]) if ": " in line else line
                  for line in LOG]
RESULTS["step"] = ckpt.step
RESULTS["kernel"] = net.l1.kernel

RESULTS["checkpoints"] = [os.path.basename(p) for p in manager.checkpoints]
RESULTS["ls"] = sorted(os.listdir('./tf_ckpts'))

to_restore = tf.Variable(tf.zeros([5]))
RESULTS["to_restore_before"] = to_restore.numpy()
fake_layer = tf.train.Checkpoint(bias=to_restore)
fake_net = tf.train.Checkpoint(l1=fake_layer)
new_root = tf.train.Checkpoint(net=fake_net)
status = new_root.restore(tf.train.latest_checkpoint('./tf_ckpts/'))
RESULTS["to_restore_after"] = to_restore.numpy()

status.assert_existing_objects_matched()

deferred_restore = tf.Variable(tf.zeros([1, 5]))
RESULTS["deferred_before"] = deferred_restore.numpy()
fake_layer.kernel = deferred_restore
RESULTS["deferred_after"] = deferred_restore.numpy()

reader = tf.train.load_checkpoint('./tf_ckpts/')
shape_from_key = reader.get_variable_to_shape_map()
dtype_from_key = reader.get_variable_to_dtype_map()

RESULTS["keys"] = sorted(shape_from_key.keys())

key = 'net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE'

RESULTS["key_shape"] = shape_from_key[key]
RESULTS["key_dtype"] = dtype_from_key[key].name
RESULTS["key_tensor"] = reader.get_tensor(key)

save = tf.train.Checkpoint()
save.listed = [tf.Variable(1.)]
save.listed.append(tf.Variable(2.))
save.mapped = {'one': save.listed[0]}
save.mapped['two'] = save.listed[1]
save_path = save.save('./tf_list_example')

restore = tf.train.Checkpoint()
v2 = tf.Variable(0.)
assert 0. == v2.numpy()  # Not restored yet
restore.mapped = {'two': v2}
restore.restore(save_path)
assert 2. == v2.numpy()
RESULTS["v2"] = v2

restore.listed = []
RESULTS["listed_empty"] = len(restore.listed)
v1 = tf.Variable(0.)
restore.listed.append(v1)  # Restores v1, from restore() in the previous cell
assert 1. == v1.numpy()
RESULTS["v1"] = v1

os.chdir(_home)
shutil.rmtree(_workdir)
