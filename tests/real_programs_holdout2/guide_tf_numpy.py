"""Title: NumPy API on TensorFlow (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/tf_numpy.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: keras.utils.set_random_seed(0) (the guide's tnp.random draws are unseeded); matplotlib
(the histogram and the benchmark plot) removed; print(...) -> RESULTS (the printed values, dtypes,
shapes and devices; the timings are computed but not recorded); np.random.randn of the sigmoid
benchmark's NumPy inputs seeded by np.random.seed(0).
"""
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp
import timeit

tf.keras.utils.set_random_seed(0)
RESULTS = {}

tnp.experimental_enable_numpy_behavior()

# Create an ND array and check out different attributes.
ones = tnp.ones([5, 3], dtype=tnp.float32)
RESULTS["ones"] = "Created ND array with shape = %s, rank = %s, dtype = %s on device = %s\n" % (
    ones.shape, ones.ndim, ones.dtype, ones.device)

# `ndarray` is just an alias to `tf.Tensor`.
RESULTS["is_tensor"] = isinstance(ones, tf.Tensor)

# Try commonly used member functions.
RESULTS["T_shape"] = "ndarray.T has shape %s" % str(ones.T.shape)
RESULTS["reshape"] = "narray.reshape(-1) has shape %s" % ones.reshape(-1).shape

promotions = []
values = [tnp.asarray(1, dtype=d) for d in
          (tnp.int32, tnp.int64, tnp.float32, tnp.float64)]
for i, v1 in enumerate(values):
  for v2 in values[i + 1:]:
    promotions.append("%s + %s => %s" %
          (v1.dtype.name, v2.dtype.name, (v1 + v2).dtype.name))
RESULTS["promotions"] = promotions

RESULTS["inference"] = ["tnp.asarray(1).dtype == tnp.%s" % tnp.asarray(1).dtype.name,
                        "tnp.asarray(1.).dtype == tnp.%s\n" % tnp.asarray(1.).dtype.name]

tnp.experimental_enable_numpy_behavior(prefer_float32=True)
RESULTS["prefer_float32"] = ["tnp.asarray(1.).dtype == tnp.%s" % tnp.asarray(1.).dtype.name,
                             "tnp.add(1., 2.).dtype == tnp.%s" % tnp.add(1., 2.).dtype.name]

tnp.experimental_enable_numpy_behavior(prefer_float32=False)
RESULTS["prefer_float64"] = ["tnp.asarray(1.).dtype == tnp.%s" % tnp.asarray(1.).dtype.name,
                             "tnp.add(1., 2.).dtype == tnp.%s" % tnp.add(1., 2.).dtype.name]

x = tnp.ones([2, 3])
y = tnp.ones([3])
z = tnp.ones([1, 2, 1])
RESULTS["broadcasting"] = "Broadcasting shapes %s, %s and %s gives shape %s" % (
    x.shape, y.shape, z.shape, (x + y + z).shape)

x = tnp.arange(24).reshape(2, 3, 4)

RESULTS["basic_indexing"] = x[1, tnp.newaxis, 1:3, ...]

RESULTS["boolean_indexing"] = x[:, (True, False, True)]

RESULTS["advanced_indexing"] = x[1, (0, 0, 1), tnp.asarray([0, 1, 1])]

# Mutation is currently not supported
try:
  tnp.arange(6)[1] = -1
except TypeError:
  RESULTS["mutation"] = "Currently, TensorFlow NumPy does not support mutation."


class Model(object):
  """Model with a dense and a linear layer."""

  def __init__(self):
    self.weights = None

  def predict(self, inputs):
    if self.weights is None:
      size = inputs.shape[1]
      # Note that type `tnp.float32` is used for performance.
      stddev = tnp.sqrt(size).astype(tnp.float32)
      w1 = tnp.random.randn(size, 64).astype(tnp.float32) / stddev
      bias = tnp.random.randn(64).astype(tnp.float32)
      w2 = tnp.random.randn(64, 2).astype(tnp.float32) / 8
      self.weights = (w1, bias, w2)
    else:
      w1, bias, w2 = self.weights
    y = tnp.matmul(inputs, w1) + bias
    y = tnp.maximum(y, 0)  # Relu
    return tnp.matmul(y, w2)  # Linear projection

model = Model()
# Create input data and compute predictions.
RESULTS["predict"] = model.predict(tnp.ones([2, 32], dtype=tnp.float32))

# ND array passed into NumPy function.
np_sum = np.sum(tnp.ones([2, 3]))
RESULTS["np_sum"] = "sum = %s. Class: %s" % (float(np_sum), np_sum.__class__)

# `np.ndarray` passed into TensorFlow NumPy function.
tnp_sum = tnp.sum(np.ones([2, 3]))
RESULTS["tnp_sum"] = float(tnp_sum)

labels = 15 + 2 * tnp.random.randn(1, 1000)
RESULTS["labels_hist"] = np.histogram(labels)[0]

x = tnp.ones([2]) + np.ones([2])
RESULTS["x"] = x

x = tf.constant([1, 2])
RESULTS["x_constant"] = x

# `asarray` and `convert_to_tensor` here are no-ops.
tnp_x = tnp.asarray(x)
RESULTS["tnp_x"] = tnp_x
RESULTS["converted"] = tf.convert_to_tensor(tnp_x)

# Note that tf.Tensor.numpy() will continue to return `np.ndarray`.
RESULTS["numpy_class"] = str(x.numpy().__class__)

# ND array passed into TensorFlow function.
tf_sum = tf.reduce_sum(tnp.ones([2, 3], tnp.float32))
RESULTS["tf_sum"] = tf_sum

# `tf.Tensor` passed into TensorFlow NumPy function.
tnp_sum = tnp.sum(tf.ones([2, 3]))
RESULTS["tnp_sum_of_tensor"] = tnp_sum


def create_batch(batch_size=32):
  """Creates a batch of input and labels."""
  return (tnp.random.randn(batch_size, 32).astype(tnp.float32),
          tnp.random.randn(batch_size, 2).astype(tnp.float32))

def compute_gradients(model, inputs, labels):
  """Computes gradients of squared loss between model prediction and labels."""
  with tf.GradientTape() as tape:
    assert model.weights is not None
    # Note that `model.weights` need to be explicitly watched since they
    # are not tf.Variables.
    tape.watch(model.weights)
    # Compute prediction and loss
    prediction = model.predict(inputs)
    loss = tnp.sum(tnp.square(prediction - labels))
  # This call computes the gradient through the computation above.
  return tape.gradient(loss, model.weights)

inputs, labels = create_batch()
gradients = compute_gradients(model, inputs, labels)

# Inspect the shapes of returned gradients to verify they match the
# parameter shapes.
RESULTS["parameter_shapes"] = str([w.shape for w in model.weights])
RESULTS["gradient_shapes"] = str([g.shape for g in gradients])
RESULTS.update({f"gradients_{i}": g for i, g in enumerate(gradients)})
# Verify that gradients are of type ND array.
assert isinstance(gradients[0], tnp.ndarray)

# Computes a batch of jacobians. Each row is the jacobian of an element in the
# batch of outputs w.r.t. the corresponding input batch element.
def prediction_batch_jacobian(inputs):
  with tf.GradientTape() as tape:
    tape.watch(inputs)
    prediction = model.predict(inputs)
  return prediction, tape.batch_jacobian(prediction, inputs)

inp_batch = tnp.ones([16, 32], tnp.float32)
output, batch_jacobian = prediction_batch_jacobian(inp_batch)
# Note how the batch jacobian shape relates to the input and output shapes.
RESULTS["output_shape"] = output.shape
RESULTS["batch_jacobian"] = batch_jacobian

inputs, labels = create_batch(512)
compute_gradients(model, inputs, labels)
eager_ms = timeit.timeit(lambda: compute_gradients(model, inputs, labels),
                         number=10) * 100

compiled_compute_gradients = tf.function(compute_gradients)
RESULTS.update({f"compiled_gradients_{i}": g for i, g in enumerate(
    compiled_compute_gradients(model, inputs, labels))})  # warmup
compiled_ms = timeit.timeit(lambda: compiled_compute_gradients(model, inputs, labels),
                            number=10) * 100

@tf.function
def vectorized_per_example_gradients(inputs, labels):
  def single_example_gradient(arg):
    inp, label = arg
    return compute_gradients(model,
                             tnp.expand_dims(inp, 0),
                             tnp.expand_dims(label, 0))
  # Note that a call to `tf.vectorized_map` semantically maps
  # `single_example_gradient` over each row of `inputs` and `labels`.
  # The interface is similar to `tf.map_fn`.
  # The underlying machinery vectorizes away this map loop which gives
  # nice speedups.
  return tf.vectorized_map(single_example_gradient, (inputs, labels))

batch_size = 128
inputs, labels = create_batch(batch_size)

per_example_gradients = vectorized_per_example_gradients(inputs, labels)
RESULTS["per_example_shapes"] = [
    "Weight shape: %s, batch size: %s, per example gradient shape: %s " % (
        w.shape, batch_size, p.shape) for w, p in zip(model.weights, per_example_gradients)]
RESULTS.update({f"per_example_vectorized_{i}": g[:4] for i, g in enumerate(per_example_gradients)})

# Benchmark the vectorized computation above and compare with
# unvectorized sequential computation using `tf.map_fn`.
@tf.function
def unvectorized_per_example_gradients(inputs, labels):
  def single_example_gradient(arg):
    inp, label = arg
    return compute_gradients(model,
                             tnp.expand_dims(inp, 0),
                             tnp.expand_dims(label, 0))

  return tf.map_fn(single_example_gradient, (inputs, labels),
                   fn_output_signature=(tf.float32, tf.float32, tf.float32))

vectorized_ms = timeit.timeit(lambda: vectorized_per_example_gradients(inputs, labels),
                              number=10) * 100

per_example_gradients = unvectorized_per_example_gradients(inputs, labels)
RESULTS.update({f"per_example_map_fn_{i}": g[:4] for i, g in enumerate(per_example_gradients)})
unvectorized_ms = timeit.timeit(lambda: unvectorized_per_example_gradients(inputs, labels),
                                number=10) * 100

RESULTS["logical_devices"] = [d.name for d in tf.config.list_logical_devices()]

# Try to get the GPU device. If unavailable, fallback to CPU.
try:
  device = tf.config.list_logical_devices(device_type="GPU")[0]
except IndexError:
  device = "/device:CPU:0"

# Run operations in the `tf.device` scope.
# If a GPU is available, these operations execute on the GPU and outputs are
# placed on the GPU memory.
with tf.device(device):
  prediction = model.predict(create_batch(5)[0])

RESULTS["prediction"] = prediction
RESULTS["prediction_device"] = prediction.device

with tf.device("/device:CPU:0"):
  prediction_cpu = tnp.copy(prediction)
RESULTS["prediction_cpu_device"] = prediction_cpu.device


def benchmark(f, inputs, number=30, force_gpu_sync=False):
  """Utility to benchmark `f` on each value in `inputs`."""
  times = []
  for inp in inputs:
    def _g():
      if force_gpu_sync:
        one = tnp.asarray(1)
      f(inp)
      if force_gpu_sync:
        with tf.device("CPU:0"):
          tnp.copy(one)  # Force a sync for GPU case

    _g()  # warmup
    t = timeit.timeit(_g, number=number)
    times.append(t * 1000. / number)
  return times


# Define a simple implementation of `sigmoid`, and benchmark it using
# NumPy and TensorFlow NumPy for different input sizes.

def np_sigmoid(y):
  return 1. / (1. + np.exp(-y))

def tnp_sigmoid(y):
  return 1. / (1. + tnp.exp(-y))

@tf.function
def compiled_tnp_sigmoid(y):
  return tnp_sigmoid(y)

np.random.seed(0)
sizes = (2 ** 0, 2 ** 5, 2 ** 10, 2 ** 15, 2 ** 20)
np_inputs = [np.random.randn(size).astype(np.float32) for size in sizes]
np_times = benchmark(np_sigmoid, np_inputs)

with tf.device("/device:CPU:0"):
  tnp_inputs = [tnp.random.randn(size).astype(np.float32) for size in sizes]
  tnp_times = benchmark(tnp_sigmoid, tnp_inputs)
  compiled_tnp_times = benchmark(compiled_tnp_sigmoid, tnp_inputs)

has_gpu = len(tf.config.list_logical_devices("GPU"))
RESULTS["has_gpu"] = has_gpu
RESULTS["sigmoid"] = [tnp_sigmoid(v)[:1] for v in tnp_inputs]
RESULTS["compiled_sigmoid"] = [compiled_tnp_sigmoid(v)[:1] for v in tnp_inputs]
