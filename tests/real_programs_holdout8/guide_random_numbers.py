"""Title: Random number generation (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/random_numbers.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order; the virtual-device split uses
tf.config.set_logical_device_configuration (the same call under its current name, as
guide_distributed_training does; the experimental alias is the same function);
"./checkpoint" and "./saved_model" -> paths in a tempfile directory; the printed values ->
RESULTS, except those of generators with non-deterministic state (the global generator,
from_non_deterministic_state, and the generator split from the global one), which are only
recorded by shape.
"""
import os
import tempfile

import numpy as np
import tensorflow as tf

RESULTS = {}
_tmp = tempfile.mkdtemp()

# Creates some virtual devices (cpu:0, cpu:1, etc.) for using distribution strategy
physical_devices = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(
    physical_devices[0], [
        tf.config.LogicalDeviceConfiguration(),
        tf.config.LogicalDeviceConfiguration(),
        tf.config.LogicalDeviceConfiguration()
    ])


def _replicas(per_replica):
  return [v for v in per_replica.values] if hasattr(per_replica, "values") else [per_replica]


g1 = tf.random.Generator.from_seed(1)
print(g1.normal(shape=[2, 3]))
RESULTS["g1_normal"] = g1.normal(shape=[2, 3])
g2 = tf.random.get_global_generator()
print(g2.normal(shape=[2, 3]))
RESULTS["global_normal_shape"] = g2.normal(shape=[2, 3]).shape.as_list()
g1 = tf.random.Generator.from_seed(1, alg='philox')
print(g1.normal(shape=[2, 3]))
RESULTS["g1_philox_normal"] = g1.normal(shape=[2, 3])
g = tf.random.Generator.from_non_deterministic_state()
print(g.normal(shape=[2, 3]))
RESULTS["nondet_shape"] = g.normal(shape=[2, 3]).shape.as_list()
g = tf.random.Generator.from_seed(1)
RESULTS["seq_1"] = g.normal([])
RESULTS["seq_2"] = g.normal([])
g.reset_from_seed(1)
RESULTS["seq_after_reset"] = g.normal([])
g = tf.random.Generator.from_seed(1)
RESULTS["split_parent_1"] = g.normal([])
new_gs = g.split(3)
RESULTS["split_children"] = [new_g.normal([]) for new_g in new_gs]
RESULTS["split_parent_2"] = g.normal([])
with tf.device("cpu"):  # change "cpu" to the device you want
  g = tf.random.get_global_generator().split(1)[0]  
  print(g.normal([]))  # use of g won't cause cross-device copy, unlike the global generator
g = tf.random.Generator.from_seed(1)
@tf.function
def foo():
  return g.normal([])
print(foo())
RESULTS["tf_function_g"] = foo()
g = None
@tf.function
def foo():
  global g
  if g is None:
    g = tf.random.Generator.from_seed(1)
  return g.normal([])
RESULTS["tf_function_created_1"] = foo()
RESULTS["tf_function_created_2"] = foo()
num_traces = 0
@tf.function
def foo(g):
  global num_traces
  num_traces += 1
  return g.normal([])
foo(tf.random.Generator.from_seed(1))
foo(tf.random.Generator.from_seed(2))
print(num_traces)
RESULTS["num_traces_generator"] = num_traces
num_traces = 0
@tf.function
def foo(v):
  global num_traces
  num_traces += 1
  return v.read_value()
foo(tf.Variable(1))
foo(tf.Variable(2))
print(num_traces)
RESULTS["num_traces_variable"] = num_traces
g = tf.random.Generator.from_seed(1)
strat = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat.scope():
  def f():
    print(g.normal([]))
  results = strat.run(f)
strat = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat.scope():
  g = tf.random.Generator.from_seed(1)
  RESULTS["strat_run_1"] = _replicas(strat.run(lambda: g.normal([])))
  RESULTS["strat_run_2"] = _replicas(strat.run(lambda: g.normal([])))
strat = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat.scope():
  def f():
    g = tf.random.Generator.from_seed(1)
    a = g.normal([])
    b = g.normal([])
    return tf.stack([a, b])
  RESULTS["strat_f_1"] = _replicas(strat.run(f))
  RESULTS["strat_f_2"] = _replicas(strat.run(f))
filename = os.path.join(_tmp, "checkpoint")
g = tf.random.Generator.from_seed(1)
cp = tf.train.Checkpoint(generator=g)
RESULTS["ckpt_before"] = g.normal([])
cp.write(filename)
print("RNG stream from saving point:")
RESULTS["ckpt_after_save"] = [g.normal([]), g.normal([])]
cp.restore(filename)
print("RNG stream from restoring point:")
RESULTS["ckpt_after_restore"] = [g.normal([]), g.normal([])]
filename = os.path.join(_tmp, "checkpoint")
strat = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat.scope():
  g = tf.random.Generator.from_seed(1)
  cp = tf.train.Checkpoint(my_generator=g)
  RESULTS["strat_ckpt_before"] = _replicas(strat.run(lambda: g.normal([])))
with strat.scope():
  cp.write(filename)
  print("RNG stream from saving point:")
  RESULTS["strat_ckpt_saved_1"] = _replicas(strat.run(lambda: g.normal([])))
  RESULTS["strat_ckpt_saved_2"] = _replicas(strat.run(lambda: g.normal([])))
with strat.scope():
  cp.restore(filename)
  print("RNG stream from restoring point:")
  RESULTS["strat_ckpt_restored_1"] = _replicas(strat.run(lambda: g.normal([])))
  RESULTS["strat_ckpt_restored_2"] = _replicas(strat.run(lambda: g.normal([])))
filename = os.path.join(_tmp, "checkpoint")
strat1 = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat1.scope():
  g1 = tf.random.Generator.from_seed(1)
  cp1 = tf.train.Checkpoint(my_generator=g1)
  RESULTS["strat1_before"] = _replicas(strat1.run(lambda: g1.normal([])))
with strat1.scope():
  cp1.write(filename)
  print("RNG stream from saving point:")
  RESULTS["strat1_saved_1"] = _replicas(strat1.run(lambda: g1.normal([])))
  RESULTS["strat1_saved_2"] = _replicas(strat1.run(lambda: g1.normal([])))
strat2 = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1", "cpu:2"])
with strat2.scope():
  g2 = tf.random.Generator.from_seed(1)
  cp2 = tf.train.Checkpoint(my_generator=g2)
  cp2.restore(filename)
  print("RNG stream from restoring point:")
  RESULTS["strat2_restored_1"] = _replicas(strat2.run(lambda: g2.normal([])))
  RESULTS["strat2_restored_2"] = _replicas(strat2.run(lambda: g2.normal([])))
filename = os.path.join(_tmp, "saved_model")

class MyModule(tf.Module):

  def __init__(self):
    super(MyModule, self).__init__()
    self.g = tf.random.Generator.from_seed(0)

  @tf.function
  def __call__(self):
    return self.g.normal([])

  @tf.function
  def state(self):
    return self.g.state

strat = tf.distribute.MirroredStrategy(devices=["cpu:0", "cpu:1"])
with strat.scope():
  m = MyModule()
  RESULTS["module_run_0"] = _replicas(strat.run(m))
  RESULTS["module_state_0"] = m.state()
with strat.scope():
  tf.saved_model.save(m, filename)
  print("RNG stream from saving point:")
  RESULTS["module_run_1"] = _replicas(strat.run(m))
  RESULTS["module_state_1"] = m.state()
  RESULTS["module_run_2"] = _replicas(strat.run(m))
  RESULTS["module_state_2"] = m.state()
imported = tf.saved_model.load(filename)
print("RNG stream from loading point:")
RESULTS["imported_state_0"] = imported.state()
RESULTS["imported_call_1"] = imported()
RESULTS["imported_state_1"] = imported.state()
RESULTS["imported_call_2"] = imported()
RESULTS["imported_state_2"] = imported.state()
print(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2]))
print(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2]))
RESULTS["stateless_1"] = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
RESULTS["stateless_2"] = tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])
