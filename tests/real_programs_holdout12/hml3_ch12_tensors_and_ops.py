"""Title: Using TensorFlow like NumPy: tensors, variables, strings, ragged and sparse tensors, tensor arrays, sets, queues (Hands-On ML 3rd ed., chapter 12)
Source: https://github.com/ageron/handson-ml3/blob/e3f3f9e66d58cfa1d068a498433063a1d3fba9ef/12_custom_models_and_training_with_tensorflow.ipynb
Licence: Apache-2.0 (ageron/handson-ml3)
Changed: the notebook's code cells of the "Using TensorFlow like NumPy" section (cells 11-96) in
order, with the setup cells (version asserts) before them; each cell whose last expression the
notebook displays -> `RESULTS[name] = expression` (shapes as lists, dtypes by name, ragged
tensors as their flat values and row splits, sparse tensors as indices/values/dense shape, the
queue's dequeued pair as its two parts, a variable by its value when displayed, a string
array as a NumPy bytes array); the printed error messages -> RESULTS as the exception
type's name (the message text is TensorFlow's own wording); `q.enqueue_many(...)` displays
nothing (it returns None) and is kept as a statement. No data, no randomness.
"""
RESULTS = {}

import sys

assert sys.version_info >= (3, 7)
from packaging import version
import tensorflow as tf

assert version.parse(tf.__version__) >= version.parse("2.8.0")
t = tf.constant([[1., 2., 3.], [4., 5., 6.]]) # matrix
RESULTS["t"] = t
RESULTS["t_shape"] = list(t.shape)
RESULTS["t_dtype"] = t.dtype.name
RESULTS["t_slice_cols_1_on"] = t[:, 1:]
RESULTS["t_col1_newaxis"] = t[..., 1, tf.newaxis]
RESULTS["t_plus_10"] = t + 10
RESULTS["square_t"] = tf.square(t)
RESULTS["t_matmul_t_transposed"] = t @ tf.transpose(t)
RESULTS["constant_42"] = tf.constant(42)
K = tf.keras.backend
RESULTS["K_square_transpose_plus_10"] = K.square(K.transpose(t)) + 10
RESULTS["tf_square_transpose_plus_10"] = tf.square(tf.transpose(t)) + 10
import numpy as np

a = np.array([2., 4., 5.])
RESULTS["constant_from_numpy"] = tf.constant(a)
RESULTS["constant_from_numpy_dtype"] = tf.constant(a).dtype.name
RESULTS["t_numpy"] = t.numpy()
RESULTS["np_array_t"] = np.array(t)
RESULTS["tf_square_numpy"] = tf.square(a)
RESULTS["tf_square_numpy_dtype"] = tf.square(a).dtype.name
RESULTS["np_square_t"] = np.square(t)
try:
    tf.constant(2.0) + tf.constant(40)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
    RESULTS["float_plus_int_error"] = type(ex).__name__
try:
    tf.constant(2.0) + tf.constant(40., dtype=tf.float64)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
    RESULTS["float32_plus_float64_error"] = type(ex).__name__
t2 = tf.constant(40., dtype=tf.float64)
RESULTS["float32_plus_cast"] = tf.constant(2.0) + tf.cast(t2, tf.float32)
v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
RESULTS["v"] = v.numpy()
RESULTS["v_assign_2v"] = v.assign(2 * v).numpy()
RESULTS["v_0_1_assign_42"] = v[0, 1].assign(42).numpy()
RESULTS["v_col2_assign"] = v[:, 2].assign([0., 1.]).numpy()
RESULTS["v_scatter_nd_update"] = v.scatter_nd_update(
    indices=[[0, 0], [1, 2]], updates=[100., 200.]).numpy()
# extra code – shows how to use scatter_update()
sparse_delta = tf.IndexedSlices(values=[[1., 2., 3.], [4., 5., 6.]],
                                indices=[1, 0])
RESULTS["v_scatter_update"] = v.scatter_update(sparse_delta).numpy()
try:
    v[1] = [7., 8., 9.]
except TypeError as ex:
    print(ex)
    RESULTS["v_item_assignment_error"] = type(ex).__name__
RESULTS["hello_world"] = tf.constant(b"hello world")
RESULTS["cafe"] = tf.constant("café")
u = tf.constant([ord(c) for c in "café"])
RESULTS["u"] = u
b = tf.strings.unicode_encode(u, "UTF-8")
RESULTS["length_utf8_chars"] = tf.strings.length(b, unit="UTF8_CHAR")
RESULTS["unicode_decode"] = tf.strings.unicode_decode(b, "UTF-8")
RESULTS["hello_world_2"] = tf.constant(b"hello world")
RESULTS["cafe_2"] = tf.constant("café")
u = tf.constant([ord(c) for c in "café"])
RESULTS["u_2"] = u
b = tf.strings.unicode_encode(u, "UTF-8")
RESULTS["b_encoded"] = b
RESULTS["b_length_utf8_chars"] = tf.strings.length(b, unit="UTF8_CHAR")
RESULTS["b_unicode_decode"] = tf.strings.unicode_decode(b, "UTF-8")
p = tf.constant(["Café", "Coffee", "caffè", "咖啡"])
RESULTS["p_length_utf8_chars"] = tf.strings.length(p, unit="UTF8_CHAR")
RESULTS["p_length_bytes"] = tf.strings.length(p)
r = tf.strings.unicode_decode(p, "UTF8")
RESULTS["r_flat_values"] = r.flat_values
RESULTS["r_row_splits"] = r.row_splits
RESULTS["r_1"] = r[1]
_r13 = r[1:3]  # extra code – a slice of a ragged tensor is a ragged tensor
RESULTS["r_1_3_flat_values"] = _r13.flat_values
RESULTS["r_1_3_row_splits"] = _r13.row_splits
r2 = tf.ragged.constant([[65, 66], [], [67]])
_rr = tf.concat([r, r2], axis=0)
RESULTS["concat_axis0_flat_values"] = _rr.flat_values
RESULTS["concat_axis0_row_splits"] = _rr.row_splits
r3 = tf.ragged.constant([[68, 69, 70], [71], [], [72, 73]])
print(tf.concat([r, r3], axis=1))
_rr = tf.concat([r, r3], axis=1)
RESULTS["concat_axis1_flat_values"] = _rr.flat_values
RESULTS["concat_axis1_row_splits"] = _rr.row_splits
RESULTS["r_to_tensor"] = r.to_tensor()
s = tf.SparseTensor(indices=[[0, 1], [1, 0], [2, 3]],
                    values=[1., 2., 3.],
                    dense_shape=[3, 4])
RESULTS["s_to_dense"] = tf.sparse.to_dense(s)
_s42 = s * 42.0
RESULTS["s_times_42_indices"] = _s42.indices
RESULTS["s_times_42_values"] = _s42.values
RESULTS["s_times_42_dense_shape"] = _s42.dense_shape
try:
    s + 42.0
except TypeError as ex:
    print(ex)
    RESULTS["sparse_plus_scalar_error"] = type(ex).__name__
# extra code – shows how to multiply a sparse tensor and a dense tensor
s4 = tf.constant([[10., 20.], [30., 40.], [50., 60.], [70., 80.]])
RESULTS["sparse_dense_matmul"] = tf.sparse.sparse_dense_matmul(s, s4)
# extra code – when creating a sparse tensor, values must be given in "reading
#              order", or else `to_dense()` will fail.
s5 = tf.SparseTensor(indices=[[0, 2], [0, 1]],  # WRONG ORDER!
                     values=[1., 2.],
                     dense_shape=[3, 4])
try:
    tf.sparse.to_dense(s5)
except tf.errors.InvalidArgumentError as ex:
    print(ex)
    RESULTS["wrong_order_to_dense_error"] = type(ex).__name__
# extra code – shows how to fix the sparse tensor s5 by reordering its values
s6 = tf.sparse.reorder(s5)
RESULTS["s6_to_dense"] = tf.sparse.to_dense(s6)
array = tf.TensorArray(dtype=tf.float32, size=3)
array = array.write(0, tf.constant([1., 2.]))
array = array.write(1, tf.constant([3., 10.]))
array = array.write(2, tf.constant([5., 7.]))
tensor1 = array.read(1)  # returns (and zeros out!) tf.constant([3., 10.])
RESULTS["tensor1"] = tensor1
RESULTS["array_stack"] = array.stack()
# extra code – shows how to disable clear_after_read
array2 = tf.TensorArray(dtype=tf.float32, size=3, clear_after_read=False)
array2 = array2.write(0, tf.constant([1., 2.]))
array2 = array2.write(1, tf.constant([3., 10.]))
array2 = array2.write(2, tf.constant([5., 7.]))
tensor2 = array2.read(1)  # returns tf.constant([3., 10.])
RESULTS["array2_stack"] = array2.stack()
# extra code – shows how to create and use a tensor array with a dynamic size
array3 = tf.TensorArray(dtype=tf.float32, size=0, dynamic_size=True)
array3 = array3.write(0, tf.constant([1., 2.]))
array3 = array3.write(1, tf.constant([3., 10.]))
array3 = array3.write(2, tf.constant([5., 7.]))
tensor3 = array3.read(1)
RESULTS["tensor3"] = tensor3
RESULTS["array3_stack"] = array3.stack()
a = tf.constant([[1, 5, 9]])
b = tf.constant([[5, 6, 9, 11]])
u = tf.sets.union(a, b)
RESULTS["union_indices"] = u.indices
RESULTS["union_values"] = u.values
RESULTS["union_dense_shape"] = u.dense_shape
RESULTS["union_to_dense"] = tf.sparse.to_dense(u)
a = tf.constant([[1, 5, 9], [10, 0, 0]])
b = tf.constant([[5, 6, 9, 11], [13, 0, 0, 0]])
u = tf.sets.union(a, b)
RESULTS["union2_to_dense"] = tf.sparse.to_dense(u)
# extra code – shows how to use a different default value: -1 in this case
a = tf.constant([[1, 5, 9], [10, -1, -1]])
b = tf.constant([[5, 6, 9, 11], [13, -1, -1, -1]])
u = tf.sets.union(a, b)
RESULTS["union3_to_dense_default_minus_1"] = tf.sparse.to_dense(u, default_value=-1)
# extra code – shows how to use `tf.sets.difference()`
set1 = tf.constant([[2, 3, 5, 7], [7, 9, 0, 0]])
set2 = tf.constant([[4, 5, 6], [9, 10, 0]])
RESULTS["difference_to_dense"] = tf.sparse.to_dense(tf.sets.difference(set1, set2))
# extra code – shows how to use `tf.sets.difference()`
RESULTS["intersection_to_dense"] = tf.sparse.to_dense(tf.sets.intersection(set1, set2))
# extra code – check whether set1[0] contains 5
RESULTS["set1_0_contains_5"] = tf.sets.size(tf.sets.intersection(set1[:1], tf.constant([[5, 0, 0, 0]]))) > 0
q = tf.queue.FIFOQueue(3, [tf.int32, tf.string], shapes=[(), ()])
q.enqueue([10, b"windy"])
q.enqueue([15, b"sunny"])
RESULTS["q_size"] = q.size()
_d = q.dequeue()
RESULTS["q_dequeue_int"] = _d[0]
RESULTS["q_dequeue_str"] = _d[1]
q.enqueue_many([[13, 16], [b'cloudy', b'rainy']])
_d = q.dequeue_many(3)
RESULTS["q_dequeue_many_ints"] = _d[0]
RESULTS["q_dequeue_many_strs"] = _d[1].numpy().astype("S")
RESULTS["q_size_after"] = q.size()
