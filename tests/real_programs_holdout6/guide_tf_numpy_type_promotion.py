"""Title: TF-NumPy Type Promotion (TF guide)
Source: https://github.com/tensorflow/docs/blob/7c3650212740204359d4ceae481abc79345541be/site/en/guide/tf_numpy_type_promotion.ipynb
Licence: Apache-2.0 (tensorflow/docs)
Changed: `!pip install tf_nightly` and the version print dropped; the displayed tensors -> RESULTS
(each value and its dtype name), the caught exceptions' type names -> RESULTS; at the end the
conversion mode is set back to "legacy" (the global mode would otherwise outlive the program in a
shared process).
"""
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

RESULTS = {}


def _show(key, t):
  RESULTS[key] = t
  RESULTS[key + "_dtype"] = t.dtype.name


tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

# i32 + f32 returns a f32 result in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, dtype = tf.int32)
b = tf.constant(5.0, dtype = tf.float32)
_show("i32_f32_all", a + b)  # <tf.Tensor: shape=(), dtype=float32, numpy=15.0>

# This promotion is not allowed in SAFE mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
a = tf.constant(10, dtype = tf.int32)
b = tf.constant(5.0, dtype = tf.float32)
RESULTS["i32_f32_safe_error"] = "none"
try:
  a + b
except TypeError as e:
   print(f'{type(e)}: {e}')  # TypeError: explicitly specify the dtype or switch to ALL mode.
   RESULTS["i32_f32_safe_error"] = type(e).__name__

# i8 + u32 returns an i64 result in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, dtype = tf.int8)
b = tf.constant(5, dtype = tf.uint32)
_show("i8_u32_all", a + b)

# This promotion is not allowed in SAFE mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
a = tf.constant(10, dtype = tf.int8)
b = tf.constant(5, dtype = tf.uint32)
RESULTS["i8_u32_safe_error"] = "none"
try:
  a + b
except TypeError as e:
   print(f'{type(e)}: {e}')  # TypeError: explicitly specify the dtype or switch to ALL mode.
   RESULTS["i8_u32_safe_error"] = type(e).__name__

# The first input is promoted to f16 in ALL mode.
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
_show("i64_f16", tf.constant(1, tf.int64) + tf.constant(3.2, tf.float16))  # <tf.Tensor: shape=(), dtype=float16, numpy=4.2>

_show("weak_f_f16", tf.constant(1.2) + tf.constant(3.1, tf.float16))  # <tf.Tensor: shape=(), dtype=float16, numpy=4.3>

_show("weak_const", tf.constant(5))  # <tf.Tensor: shape=(), dtype=int32, numpy=5, weak=True>

_show("weak_list", tf.constant([5.0, 10.0, 3]))  # <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 5., 10.,  3.], dtype=float32), weak=True>

# A normal Tensor is created when dtype arg is specified.
_show("strong_const", tf.constant(5, tf.int32))  # <tf.Tensor: shape=(), dtype=int32, numpy=5>

_show("abs", tf.math.abs([100.0, 4.0]))  # <tf.Tensor: shape=(2,), dtype=float32, numpy=array([100., 4.], dtype=float32), weak=True>

# Setup
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
a = np.array(1, dtype=np.int8)
b = tf.constant(1)
c = np.array(1, dtype=np.float16)

# (a + b) + c throws an InvalidArgumentError.
RESULTS["legacy_abc_error"] = "none"
try:
  tf.add(tf.add(a, b), c)
except tf.errors.InvalidArgumentError as e:
  print(f'{type(e)}: {e}')  # InvalidArgumentError
  RESULTS["legacy_abc_error"] = type(e).__name__

# (b + a) + c returns an i32 result.
_show("legacy_bac", tf.add(tf.add(b, a), c))  # <tf.Tensor: shape=(), dtype=int32, numpy=3>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = np.array(1, dtype=np.int8)
b = tf.constant(1)
c = np.array(1, dtype=np.float16)

# (a + b) + c returns a f16 result.
_show("all_abc", tf.add(tf.add(a, b), c))  # <tf.Tensor: shape=(), dtype=float16, numpy=3.0>

# (b + a) + c also returns a f16 result.
_show("all_bac", tf.add(tf.add(b, a), c))  # <tf.Tensor: shape=(), dtype=float16, numpy=3.0>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")

_show("legacy_chain", np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50))  # <tf.Tensor: shape=(), dtype=float64, numpy=54.19921875>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")

_show("all_chain", np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50))  # <tf.Tensor: shape=(), dtype=float16, numpy=54.2>

_show("neg", -tf.constant(5))  # <tf.Tensor: shape=(), dtype=int32, numpy=-5, weak=True>

_show("i16_f32", tf.constant(5, tf.int16) - tf.constant(1, tf.float32))  # <tf.Tensor: shape=(), dtype=float32, numpy=4.0>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.Variable(10, tf.int32)
_show("assign_add", a.assign_add(tf.constant(5, tf.int16)))  # <tf.Variable shape=() dtype=int32, numpy=15>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
a = tf.constant(10, tf.int16)
_show("const_of_tensor", tf.constant(a, tf.float32))  # <tf.Tensor: shape=(), dtype=float32, numpy=10.0>

_show("tnp_array_int", tnp.array(1))  # <tf.Tensor: shape=(), dtype=int32, numpy=1, weak=True>

_show("tnp_array_float", tnp.array(1.0))  # <tf.Tensor: shape=(), dtype=int32, numpy=1, weak=True>

tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
