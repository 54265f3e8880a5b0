"""Title: Customization basics: tensors and operations (TF tutorial)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/tutorials/customization/basics.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: prints -> results in RESULTS; tf.random.set_seed(0) added (the uniform draws and the
dataset's shuffle are unseeded); the timing cell's 1000x1000 matmuls -> 100x100 and its timings
not recorded; the GPU branch not taken (no GPU); the temporary CSV file removed at the end.
"""
import os
import tensorflow as tf
tf.random.set_seed(0)
RESULTS = {}

RESULTS["add"] = tf.math.add(1, 2)
RESULTS["add_list"] = tf.math.add([1, 2], [3, 4])
RESULTS["square"] = tf.math.square(5)
RESULTS["reduce_sum"] = tf.math.reduce_sum([1, 2, 3])
RESULTS["overloaded"] = tf.math.square(2) + tf.math.square(3)

x = tf.linalg.matmul([[1]], [[2, 3]])
RESULTS["matmul"] = x
RESULTS["matmul_shape"] = list(x.shape)
RESULTS["matmul_dtype"] = x.dtype.name

import numpy as np

ndarray = np.ones([3, 3])
tensor = tf.math.multiply(ndarray, 42)
RESULTS["multiply"] = tensor
RESULTS["multiply_dtype"] = tensor.dtype.name
RESULTS["np_add"] = np.add(tensor, 1)
RESULTS["numpy"] = tensor.numpy()

x = tf.random.uniform([3, 3])
RESULTS["uniform"] = x
RESULTS["gpus"] = len(tf.config.list_physical_devices("GPU"))
RESULTS["on_gpu"] = x.device.endswith('GPU:0')

import time


def time_matmul(x):
    start = time.time()
    for loop in range(10):
        tf.linalg.matmul(x, x)
    result = time.time() - start
    print("10 loops: {:0.2f}ms".format(1000 * result))


with tf.device("CPU:0"):
    x = tf.random.uniform([100, 100])
    assert x.device.endswith("CPU:0")
    time_matmul(x)
RESULTS["cpu_uniform_sum"] = tf.reduce_sum(x)

ds_tensors = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])

import tempfile
_, filename = tempfile.mkstemp()

with open(filename, 'w') as f:
    f.write("""Line 1
Line 2
Line 3
  """)

ds_file = tf.data.TextLineDataset(filename)

ds_tensors = ds_tensors.map(tf.math.square).shuffle(2).batch(2)
ds_file = ds_file.batch(2)

RESULTS["ds_tensors"] = [x.numpy() for x in ds_tensors]
RESULTS["ds_file"] = [b"|".join(x.numpy()).decode() for x in ds_file]
os.remove(filename)
