"""Title: DTensor concepts (TensorFlow guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/dtensor_overview.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: the guide's code cells in order; the three help(...) cells removed (they print
docstrings); the printed DTensors, component tensors and their devices, sharding specs, and the
caught errors' type names -> RESULTS (the bare `except:` of the last cell records the type of
what it catches). No data or randomness beyond the guide's own stateless seeds.
"""
import numpy as np

RESULTS = {}
import tensorflow as tf
from tensorflow.experimental import dtensor

print('TensorFlow version:', tf.__version__)


def configure_virtual_cpus(ncpu):
  phy_devices = tf.config.list_physical_devices('CPU')
  tf.config.set_logical_device_configuration(phy_devices[0], [
        tf.config.LogicalDeviceConfiguration(),
    ] * ncpu)

configure_virtual_cpus(6)
DEVICES = [f'CPU:{i}' for i in range(6)]

RESULTS["logical_devices"] = np.array([d.name for d in tf.config.list_logical_devices('CPU')])
mesh_1d = dtensor.create_mesh([('x', 6)], devices=DEVICES)
print(mesh_1d)
RESULTS["mesh_1d_shape"] = mesh_1d.shape()
RESULTS["mesh_1d_dims"] = np.array(mesh_1d.dim_names)
mesh_2d = dtensor.create_mesh([('x', 3), ('y', 2)], devices=DEVICES)
print(mesh_2d)
RESULTS["mesh_2d_shape"] = mesh_2d.shape()
RESULTS["mesh_2d_dims"] = np.array(mesh_2d.dim_names)
layout = dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh_1d)
RESULTS["layout_1"] = np.array(layout.sharding_specs)
layout = dtensor.Layout([dtensor.UNSHARDED, 'x'], mesh_1d)
RESULTS["layout_2"] = np.array(layout.sharding_specs)
layout = dtensor.Layout(['y', 'x'], mesh_2d)
RESULTS["layout_3"] = np.array(layout.sharding_specs)
layout = dtensor.Layout(["x", dtensor.UNSHARDED], mesh_2d)
RESULTS["layout_4"] = np.array(layout.sharding_specs)


def dtensor_from_array(arr, layout, shape=None, dtype=None):
  """Convert a DTensor from something that looks like an array or Tensor.

  This function is convenient for quick doodling DTensors from a known,
  unsharded data object in a single-client environment. This is not the
  most efficient way of creating a DTensor, but it will do for this
  tutorial.
  """
  if shape is not None or dtype is not None:
    arr = tf.constant(arr, shape=shape, dtype=dtype)

  # replicate the input to the mesh
  a = dtensor.copy_to_mesh(arr,
          layout=dtensor.Layout.replicated(layout.mesh, rank=layout.rank))
  # shard the copy to the desirable layout
  return dtensor.relayout(a, layout=layout)


mesh = dtensor.create_mesh([("x", 6)], devices=DEVICES)
layout = dtensor.Layout([dtensor.UNSHARDED], mesh)

my_first_dtensor = dtensor_from_array([0, 1], layout)

print(my_first_dtensor)
print("global shape:", my_first_dtensor.shape)
print("dtype:", my_first_dtensor.dtype)
RESULTS["first_shape"] = my_first_dtensor.shape.as_list()
RESULTS["first_dtype"] = np.array(my_first_dtensor.dtype.name)
print(dtensor.fetch_layout(my_first_dtensor))
RESULTS["first_layout"] = np.array(dtensor.fetch_layout(my_first_dtensor).sharding_specs)
assert layout == dtensor.fetch_layout(my_first_dtensor)
_devs, _vals = [], []
for component_tensor in dtensor.unpack(my_first_dtensor):
  print("Device:", component_tensor.device, ",", component_tensor)
  _devs.append(component_tensor.device)
  _vals.append(component_tensor.numpy())
RESULTS["first_component_devices"] = np.array(_devs)
RESULTS["first_components"] = np.array(_vals)
packed_dtensor = dtensor.pack(
    [[0, 1], [0, 1], [0, 1],
     [0, 1], [0, 1], [0, 1]],
     layout=layout
)
print(packed_dtensor)
RESULTS["packed_components"] = np.array([t.numpy() for t in dtensor.unpack(packed_dtensor)])
mesh = dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)
fully_sharded_dtensor = dtensor_from_array(
    tf.reshape(tf.range(6), (3, 2)),
    layout=dtensor.Layout(["x", "y"], mesh))

_devs, _vals = [], []
for raw_component in dtensor.unpack(fully_sharded_dtensor):
  print("Device:", raw_component.device, ",", raw_component)
  _devs.append(raw_component.device)
  _vals.append(raw_component.numpy())
RESULTS["fully_sharded_devices"] = np.array(_devs)
RESULTS["fully_sharded_components"] = np.array(_vals)
fully_replicated_dtensor = dtensor_from_array(
    tf.reshape(tf.range(6), (3, 2)),
    layout=dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh))

_vals = []
for component_tensor in dtensor.unpack(fully_replicated_dtensor):
  print("Device:", component_tensor.device, ",", component_tensor)
  _vals.append(component_tensor.numpy())
RESULTS["fully_replicated_components"] = np.array(_vals)
hybrid_sharded_dtensor = dtensor_from_array(
    tf.reshape(tf.range(6), (3, 2)),
    layout=dtensor.Layout(['x', dtensor.UNSHARDED], mesh))

_vals = []
for component_tensor in dtensor.unpack(hybrid_sharded_dtensor):
  print("Device:", component_tensor.device, ",", component_tensor)
  _vals.append(component_tensor.numpy())
RESULTS["hybrid_sharded_components"] = np.array(_vals)
print(fully_replicated_dtensor.numpy())
RESULTS["fully_replicated_numpy"] = fully_replicated_dtensor.numpy()

_caught = []
try:
  fully_sharded_dtensor.numpy()
except tf.errors.UnimplementedError as _e:
  print("got an error as expected for fully_sharded_dtensor")
  _caught.append(type(_e).__name__)

try:
  hybrid_sharded_dtensor.numpy()
except tf.errors.UnimplementedError as _e:
  print("got an error as expected for hybrid_sharded_dtensor")
  _caught.append(type(_e).__name__)
RESULTS["numpy_errors"] = np.array(_caught)
mesh = dtensor.create_mesh([("x", 6)], devices=DEVICES)
layout = dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh)
a = dtensor_from_array([[1, 2, 3], [4, 5, 6]], layout=layout)
b = dtensor_from_array([[6, 5], [4, 3], [2, 1]], layout=layout)

c = tf.matmul(a, b) # runs 6 identical matmuls in parallel on 6 devices

print('Sharding spec:', dtensor.fetch_layout(c).sharding_specs)
RESULTS["matmul_1_spec"] = np.array(dtensor.fetch_layout(c).sharding_specs)
print("components:")
_vals = []
for component_tensor in dtensor.unpack(c):
  print(component_tensor.device, component_tensor.numpy())
  _vals.append(component_tensor.numpy())
RESULTS["matmul_1_components"] = np.array(_vals)
mesh = dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)
a_layout = dtensor.Layout([dtensor.UNSHARDED, 'x'], mesh)
a = dtensor_from_array([[1, 2, 3], [4, 5, 6]], layout=a_layout)
b_layout = dtensor.Layout(['x', dtensor.UNSHARDED], mesh)
b = dtensor_from_array([[6, 5], [4, 3], [2, 1]], layout=b_layout)

c = tf.matmul(a, b)
print('Sharding spec:', dtensor.fetch_layout(c).sharding_specs)
RESULTS["matmul_2_spec"] = np.array(dtensor.fetch_layout(c).sharding_specs)
RESULTS["matmul_2_components"] = np.array([t.numpy() for t in dtensor.unpack(c)])
mesh = dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)

a_layout = dtensor.Layout(['y', 'x'], mesh)
a = dtensor_from_array([[1, 2, 3], [4, 5, 6]], layout=a_layout)
b_layout = dtensor.Layout(['x', dtensor.UNSHARDED], mesh)
b = dtensor_from_array([[6, 5], [4, 3], [2, 1]], layout=b_layout)

c = tf.matmul(a, b)
print('Sharding spec:', dtensor.fetch_layout(c).sharding_specs)
RESULTS["matmul_3_spec"] = np.array(dtensor.fetch_layout(c).sharding_specs)
print("components:")
_vals = []
for component_tensor in dtensor.unpack(c):
  print(component_tensor.device, component_tensor.numpy())
  _vals.append(component_tensor.numpy())
RESULTS["matmul_3_components"] = np.array(_vals)
mesh = dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)
ones = dtensor.call_with_layout(tf.ones, dtensor.Layout(['x', 'y'], mesh), shape=(6, 4))
print(ones)
RESULTS["ones_spec"] = np.array(dtensor.fetch_layout(ones).sharding_specs)
RESULTS["ones_components"] = np.array([t.numpy() for t in dtensor.unpack(ones)])
ones = dtensor.call_with_layout(
    tf.function(tf.random.stateless_normal),
    dtensor.Layout(['x', 'y'], mesh),
    shape=(6, 4),
    seed=(1, 1))
print(ones)
RESULTS["stateless_normal_spec"] = np.array(dtensor.fetch_layout(ones).sharding_specs)
RESULTS["stateless_normal_components"] = np.array([t.numpy() for t in dtensor.unpack(ones)])
ones = dtensor.call_with_layout(
    tf.function(tf.ones),
    dtensor.Layout(['x', 'y'], mesh),
    shape=(6, 4))
print(ones)
RESULTS["ones_fn_components"] = np.array([t.numpy() for t in dtensor.unpack(ones)])
mesh = dtensor.create_mesh([("x", 6)], devices=DEVICES)
layout = dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], mesh)

v = dtensor.DVariable(
    initial_value=dtensor.call_with_layout(
        tf.function(tf.random.stateless_normal),
        layout=layout,
        shape=tf.TensorShape([64, 32]),
        seed=[1, 1],
        dtype=tf.float32))

print(v.handle)
RESULTS["dvariable_initial"] = dtensor.unpack(v.read_value())[0]
assert layout == dtensor.fetch_layout(v)
a = dtensor.call_with_layout(tf.ones, layout=layout, shape=(64, 32))
b = v + a # add DVariable and DTensor
print(b)
RESULTS["dvariable_plus_ones"] = dtensor.unpack(b)[0]
RESULTS["dvariable_plus_ones_spec"] = np.array(dtensor.fetch_layout(b).sharding_specs)
v.assign(a) # assign a DTensor to a DVariable
print(a)
RESULTS["dvariable_assigned"] = dtensor.unpack(v.read_value())[0]
another_mesh = dtensor.create_mesh([("x", 3), ("y", 2)], devices=DEVICES)
b = dtensor.call_with_layout(tf.ones,
                     layout=dtensor.Layout([dtensor.UNSHARDED, dtensor.UNSHARDED], another_mesh),
                     shape=(64, 32))
_assign_error = "none"
try:
  v.assign(b)
except Exception as _e:
  print("exception raised")
  _assign_error = type(_e).__name__
RESULTS["assign_other_mesh_error"] = np.array(_assign_error)
