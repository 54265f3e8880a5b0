"""Record TensorFlow 2.21's numbers for the tf.* names of tests/test_surface_names.py.

Development only (tapegrad and CI never import TensorFlow):

    $TAPEGRAD_TF_PYTHON tools/record_tf_surface_names.py

(``TAPEGRAD_PYTHON``, default ``python3``: the Python that writes tapegrad's event files, which
TensorFlow then reads back.)

``VALUES`` are lines of Python run with ``tf`` bound to TensorFlow here and to tapegrad in the
test; each records its tensors (dtype, shape, values) or its error's type. ``GRADS`` are
``(function, arguments)``: the value of ``function(*arguments)`` and the gradient of
``reduce_sum(sin(value))`` with respect to each float64 argument. Results go to
``tests/fixtures/tf_surface_names.json``.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from _tf import quiet_tensorflow  # noqa: E402
from cf_encoding import encode_value  # noqa: E402  (tests/cf_encoding.py: the same encoding)

tf = quiet_tensorflow()
import numpy as np  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                       "fixtures", "tf_surface_names.json")

F = "tf.constant([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0])"
VALUES = [
    "tf.truncatediv(tf.constant([-7.5, 7.5, 3.0]), 2.0)", "tf.truncatediv(tf.constant([-7, 7, -8]), 2)",
    "tf.truncatediv(tf.constant([7], tf.int64), tf.constant([-3], tf.int64))",
    "tf.truncatediv(tf.constant([1]), 0)",
    "tf.truncatemod(tf.constant([-7, 7]), 3)", "tf.scalar_mul(2, tf.constant([1.5, 2.0]))",
    "tf.realdiv(tf.constant([-7.0, 7.0]), 2.0)", "tf.realdiv(tf.constant([1.0], tf.float64), tf.constant([4.0], tf.float64))",
    f"tf.histogram_fixed_width({F}, [0.0, 5.0], nbins=5)",
    f"tf.histogram_fixed_width_bins({F}, [0.0, 5.0], nbins=5)",
    "tf.histogram_fixed_width(tf.constant([1, 2, 3]), [0, 4], nbins=2)",
    "tf.histogram_fixed_width(tf.constant([[0.1, 0.9], [0.5, 0.3]], tf.float64), [0.0, 1.0], nbins=3, dtype=tf.int64)",
    "tf.histogram_fixed_width_bins(tf.constant([[0.1, 0.9], [0.5, 0.3]]), [0.0, 1.0], nbins=4)",
    "tf.searchsorted([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], [[2.5, 0.0], [4.0, 7.0]])",
    "tf.searchsorted([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], [[2.0, 3.0], [4.0, 6.0]], side='right')",
    "tf.searchsorted([1, 2, 2, 3], [2], out_type=tf.int64)",
    "tf.bitcast(tf.constant(1.0), tf.int32)", "tf.bitcast(tf.constant([1, 2], tf.int32), tf.int64)",
    "tf.bitcast(tf.constant(1, tf.int32), tf.uint8)", "tf.bitcast(tf.constant([[1.5], [2.0]], tf.float64), tf.int32)",
    "tf.bitcast(tf.constant([1], tf.int32), tf.int64)",
    "tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])])", "tf.shape_n([tf.zeros([2, 3])], out_type=tf.int64)",
    "tf.unique_with_counts([1, 1, 2, 4, 4, 4])", "tf.unique_with_counts(tf.constant([3.0, 1.0, 3.0]), out_idx=tf.int64)",
    "tf.unique_with_counts([5, 1, 1]).count",
    "tf.reverse_sequence(tf.reshape(tf.range(8), [2, 4]), [3, 1], seq_axis=1, batch_axis=0)",
    "tf.reverse_sequence(tf.reshape(tf.range(12), [4, 3]), [2, 3, 0], seq_axis=0, batch_axis=1)",
    "tf.reverse_sequence(tf.reshape(tf.range(24), [2, 4, 3]), [4, 2], seq_axis=1)",
    "tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3]))",
    "tf.broadcast_dynamic_shape([2, 1], [3])", "tf.broadcast_dynamic_shape(tf.constant([5, 1], tf.int64), [1, 1, 4])",
    "tf.broadcast_dynamic_shape([2], [3])",
    "tf.unravel_index(5, [3, 4])", "tf.unravel_index([5, 7, 0], [3, 4])",
    "tf.unravel_index(tf.constant([[1, 23]], tf.int64), tf.constant([2, 3, 4], tf.int64))",
    "tf.unravel_index([12], [3, 4])",
    "tf.tensor_scatter_nd_sub(tf.ones([3]), [[0], [2], [0]], [1.0, 2.0, 3.0])",
    "tf.tensor_scatter_nd_max(tf.zeros([3]), [[0], [0], [2]], [1.0, 3.0, -1.0])",
    "tf.tensor_scatter_nd_min(tf.zeros([2, 2]), [[0], [1]], [[1.0, -1.0], [-2.0, 2.0]])",
    "tf.tensor_scatter_nd_max(tf.constant([1, 5, 3]), [[1], [2]], [4, 9])",
    "tf.tensor_scatter_nd_max(tf.zeros([3]), [[0], [5]], [1.0, 2.0])",
    "tf.dynamic_partition(tf.constant([10, 20, 30, 40, 50]), [0, 2, 1, 2, 0], 3)",
    "tf.dynamic_partition(tf.reshape(tf.range(12.0), [2, 3, 2]), [[1, 0, 1], [0, 0, 1]], 2)",
    "tf.dynamic_partition(tf.constant([1, 2]), [0, 3], 2)",
    "tf.dynamic_stitch([[0, 2], [1, 3]], [tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])])",
    "tf.dynamic_stitch([[0, 2], [1, 5]], [tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])])",
    "tf.dynamic_stitch([[1], [[0, 1], [2, 2]]], [tf.constant([[1.0, 1.0]]), tf.reshape(tf.range(8.0), [2, 2, 2])])",
    "tf.nn.depth_to_space(tf.reshape(tf.range(32), [1, 2, 2, 8]), 2)",
    "tf.nn.space_to_depth(tf.reshape(tf.range(32), [2, 4, 2, 2]), 2)",
    "tf.nn.depth_to_space(tf.zeros([1, 1, 1, 4]), 1)", "tf.nn.space_to_depth(tf.zeros([1, 3, 3, 1]), 2)",
    "tf.nn.local_response_normalization(tf.reshape(tf.range(1.0, 13.0), [1, 2, 1, 6]) / 4.0)",
    "tf.nn.lrn(tf.reshape(tf.range(1.0, 13.0), [1, 1, 2, 6]) / 4.0, depth_radius=2, bias=0.5, alpha=0.2, beta=0.75)",
    "tf.nn.lrn(tf.ones([1, 2]))",
    "tf.nn.weighted_cross_entropy_with_logits([1.0, 0.0, 0.5], [0.5, -1.0, 3.0], 2.0)",
    "tf.nn.log_poisson_loss([2.0, 0.0, 0.5, 7.0], [0.5, 0.1, -1.0, 2.0])",
    "tf.nn.log_poisson_loss([2.0, 0.0, 0.5, 7.0], [0.5, 0.1, -1.0, 2.0], compute_full_loss=True)",
    "tf.nn.normalize_moments(2.0, tf.constant([3.0]), tf.constant([5.0]), None)",
    "tf.nn.normalize_moments(4.0, tf.constant([3.0, 1.0]), tf.constant([5.0, 2.0]), tf.constant([1.0, 2.0]))",
    "tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [0])[:3]",
    "tf.nn.sufficient_statistics(tf.constant([[1.0, 2.0], [3.0, 4.0]]), [0, 1], shift=1.0, keepdims=True)",
    "tf.nn.weighted_moments(tf.constant([[1.0, 3.0], [2.0, 6.0]]), [1], tf.constant([[3.0, 1.0], [0.0, 0.0]]))",
    "tf.nn.weighted_moments(tf.constant([[1.0, 3.0], [2.0, 6.0]]), [0], tf.constant([2.0, 1.0]), keepdims=True)",
    "tf.nn.crelu(tf.constant([[1.0, -2.0], [0.0, 3.0]]))", "tf.nn.crelu(tf.constant([[1.0, -2.0]]), axis=0)",
    "tf.nn.compute_average_loss([1.0, 2.0, 6.0])",
    "tf.nn.compute_average_loss([1.0, 2.0, 6.0], global_batch_size=6)",
    "tf.nn.compute_average_loss(tf.constant([[1.0, 2.0], [3.0, 4.0]]), sample_weight=[1.0, 0.5])",
    "tf.nn.compute_average_loss([1.0, 2.0], sample_weight=0.5)",
    "tf.nn.compute_average_loss(1.0)",
    "tf.nn.scale_regularization_loss([0.5, 1.5])", "tf.nn.scale_regularization_loss(tf.constant(2.0))",
    "tf.linalg.sqrtm(tf.constant([[4.0, 1.0], [1.0, 9.0]]))",
    "tf.linalg.sqrtm(tf.constant([[[2.0, 1.0], [0.5, 3.0]], [[5.0, 0.0], [0.0, 1.0]]], tf.float64))",
    "tf.matrix_square_root(tf.constant([[1.0, 2.0, 0.0], [0.0, 4.0, 1.0], [0.5, 0.0, 9.0]]))",
    "tf.linalg.sqrtm(tf.constant([[1.0, 2.0], [3.0, 4.0]]))",
    "tf.losses.MeanSquaredError()([1.0, 2.0], [1.5, 1.0])",
    "tf.losses.sparse_categorical_crossentropy(tf.constant([1]), tf.constant([[0.2, 0.8]]))",
    "tf.metrics.Mean()([1.0, 2.0, 6.0])",
    "tf.gradients(tf.constant(1.0), tf.constant(1.0))", "tf.hessians(tf.constant(1.0), tf.constant(1.0))",
    "tf.no_gradient('MyOp')", "tf.no_gradient(3)", "tf.inside_function()", "tf.get_logger().name",
    "tf.type_spec_from_value(tf.constant([1.0, 2.0]))", "tf.is_symbolic_tensor(tf.constant(1.0))",
    "tf.timestamp().dtype", "tf.tuple([tf.constant(1.0), tf.constant([2, 3])])",
    "tf.parallel_stack([1, 2])", "tf.function(lambda: tf.parallel_stack([tf.constant(1), tf.constant(2)]))()",
    "tf.linalg.logm(tf.constant([[2.0, 0.5], [0.1, 3.0]], tf.complex64))",
    "tf.linalg.logm(tf.constant([[[1.0, 0.2], [0.0, 2.0]], [[4.0, 1.0], [-1.0, 4.0]]], tf.complex128))",
    "tf.linalg.logm(tf.constant([[2.0, 0.5], [0.1, 3.0]]))",
]

X5 = "tf.constant(np.sin(np.arange(2 * 5 * 6 * 4 * 3)).reshape(2, 5, 6, 4, 3), tf.float32)"
W5 = "tf.constant(np.cos(np.arange(3 * 2 * 3 * 3 * 2)).reshape(3, 2, 3, 3, 2), tf.float32)"
VALUES += [
    f"tf.nn.conv3d({X5}, {W5}, [1, 1, 1, 1, 1], 'VALID')",
    f"tf.nn.conv3d({X5}, {W5}, [1, 2, 1, 2, 1], 'SAME')", f"tf.nn.conv3d({X5}, {W5}, 2, 'SAME')",
    f"tf.nn.conv3d({X5}, {W5}, [1, 1, 1, 1, 1], 'VALID', dilations=[1, 2, 1, 1, 1])",
    f"tf.nn.conv3d({X5}, {W5}, [1, 1, 1, 1, 1], 'VALID', data_format='NCDHW')",
    f"tf.nn.conv3d(tf.transpose({X5}, [0, 4, 1, 2, 3]), {W5}, [1, 1, 1, 1, 1], 'SAME', data_format='NCDHW')",
    f"tf.nn.max_pool3d(tf.transpose({X5}, [0, 4, 1, 2, 3]), 2, 1, 'SAME', data_format='NCDHW')",
    f"tf.nn.max_pool3d({X5}, 2, 2, 'VALID')", f"tf.nn.max_pool3d({X5}, [1, 3, 2, 3, 1], [1, 2, 1, 2, 1], 'SAME')",
    f"tf.nn.avg_pool3d({X5}, 2, 2, 'VALID')", f"tf.nn.avg_pool3d({X5}, [3, 2, 3], [2, 1, 2], 'SAME')",
    f"tf.nn.avg_pool3d({X5}, 3, 1, 'SAME')",
    (f"tf.nn.conv3d_transpose(tf.nn.conv3d({X5}, {W5}, [1, 2, 1, 2, 1], 'SAME'), {W5}, [2, 5, 6, 4, 3], "
     "[1, 2, 1, 2, 1], 'SAME')"),
    (f"tf.nn.conv3d_transpose(tf.nn.conv3d({X5}, {W5}, [1, 1, 1, 1, 1], 'VALID'), {W5}, [2, 5, 6, 4, 3], "
     "[1, 1, 1, 1, 1], 'VALID')"),
    f"tf.nn.conv3d_transpose(tf.ones([2, 3, 3, 2, 2]), {W5}, [2, 5, 6, 4, 3], [1, 2, 2, 2, 1], 'SAME')",
]

LG = "tf.constant(np.sin(np.arange(6 * 2 * 4) * 0.7).reshape(6, 2, 4), tf.float32)"
VALUES += [
    f"tf.nn.ctc_loss(tf.constant([[1, 2, 2], [3, 0, 0]]), {LG}, [3, 1], [6, 4])",
    f"tf.nn.ctc_loss([[1, 2, 2], [3, 1, 0]], tf.transpose({LG}, [1, 0, 2]), [3, 2], [5, 6], logits_time_major=False)",
    f"tf.nn.ctc_loss([[0, 2], [1, 1]], {LG}, [2, 2], [6, 6], blank_index=-1)",
    f"tf.nn.ctc_loss([[1, 1, 1, 0], [2, 2, 0, 0]], {LG}, [3, 2], [6, 3])",
    "tf.nn.ctc_loss([[1]], tf.zeros([3, 1, 2]), [1], [3])",
]
XP = "tf.constant(np.sin(np.arange(2 * 5 * 6 * 3) * 1.3).reshape(2, 5, 6, 3), tf.float32)"
VALUES += [
    f"tf.nn.max_pool_with_argmax({XP}, 2, 2, 'VALID')", f"tf.nn.max_pool_with_argmax({XP}, 3, 2, 'SAME')",
    f"tf.nn.max_pool_with_argmax({XP}, [1, 2, 3, 1], [1, 1, 2, 1], 'SAME', include_batch_in_index=True)",
    f"tf.nn.max_pool_with_argmax({XP}, 2, 1, 'VALID', output_dtype=tf.int32)",
    "tf.nn.max_pool_with_argmax(tf.zeros([1, 2, 2, 1]), 2, 2, 'VALID')",
]
VALUES += [
    f"tf.nn.pool({XP}, [2, 2], 'MAX', strides=[1, 2])", f"tf.nn.pool({XP}, [3, 2], 'AVG', strides=[2, 2], padding='SAME')",
    f"tf.nn.pool(tf.reshape({XP}, [2, 30, 3]), [4], 'AVG', strides=[3])",
    f"tf.nn.pool({X5}, [2, 2, 2], 'MAX', strides=[2, 2, 2], padding='SAME')",
    "tf.nn.conv_transpose(tf.ones([1, 3, 3, 2]), tf.ones([2, 2, 3, 2]), [1, 6, 6, 3], 2)",
    "tf.nn.conv_transpose(tf.ones([1, 3, 2]), tf.ones([3, 1, 2]), [1, 5, 1], 2, 'SAME')",
    f"tf.nn.conv_transpose(tf.ones([1, 2, 3, 3, 2]), {W5}, [1, 4, 6, 6, 3], [1, 2, 2, 2, 1])",
    "tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 3])",
    "tf.nn.collapse_repeated(tf.constant([[5, 5, 5], [1, 2, 1]], tf.int64), [2, 3])",
    ("tf.nn.batch_norm_with_global_normalization(tf.constant([[2.0, 1.0]]), tf.constant([1.0, 0.5]), "
     "tf.constant([4.0, 1.0]), tf.constant([0.5, 0.0]), tf.constant([3.0, 2.0]), 0.001, True)"),
    ("tf.nn.batch_norm_with_global_normalization(tf.constant([[2.0, 1.0]]), tf.constant([1.0, 0.5]), "
     "tf.constant([4.0, 1.0]), tf.constant([0.5, 0.0]), tf.constant([3.0, 2.0]), 0.001, False)"),
    "tf.autograph.experimental.do_not_convert(lambda: 3)()", "tf.autograph.set_verbosity(0)",
]
X4 = "tf.reshape(tf.range(2 * 4 * 6 * 3), [2, 4, 6, 3])"
VALUES += [
    f"tf.space_to_batch_nd({X4}, [2, 3], [[0, 0], [0, 0]])", f"tf.space_to_batch_nd({X4}, [2, 2], [[1, 1], [0, 2]])",
    f"tf.space_to_batch({X4}, [3], [[1, 1]])", f"tf.nn.space_to_batch({X4}, [2, 2], [[0, 0], [1, 1]])",
    f"tf.batch_to_space(tf.space_to_batch_nd({X4}, [2, 2], [[1, 1], [0, 2]]), [2, 2], [[1, 1], [0, 2]])",
    f"tf.batch_to_space({X4}, [2], [[1, 0]])", f"tf.space_to_batch_nd({X4}, [3, 3], [[0, 0], [0, 0]])",
]
M3 = "tf.constant([[2.0, 0.3, -0.1], [0.5, 4.0, 0.2], [0.1, -0.4, 6.5]])"
MC = "tf.constant([[0.5, -1.0], [1.0, 0.2]], tf.float64)"
VALUES += [
    f"tf.sort(tf.math.real(tf.linalg.eigvals({M3})))", f"tf.sort(tf.math.imag(tf.eigvals({MC})))",
    f"tf.linalg.eigvals({MC}).dtype", f"tf.linalg.eig({M3})[1].dtype",
    f"tf.sort(tf.reduce_sum(tf.abs(tf.linalg.eig({M3})[1]) ** 4, axis=0))",
    f"tf.reduce_max(tf.abs(tf.matmul(tf.cast({M3}, tf.complex64), tf.eig({M3})[1]) - tf.eig({M3})[1] * tf.eig({M3})[0]))",
]
X3 = "tf.reshape(tf.range(24), [2, 3, 4])"
VALUES += [
    f"tf.strided_slice({X3}, [0, 1], [2, 4], [1, 2])", f"tf.strided_slice({X3}, [1, 0, 3], [2, 3, 0], [1, 1, -1])",
    f"tf.strided_slice({X3}, [0, 0, 0], [1, 2, 3], [1, 1, 1], shrink_axis_mask=1)",
    f"tf.strided_slice({X3}, [0, 0, 1], [0, 2, 3], [1, 1, 1], begin_mask=1, end_mask=1, new_axis_mask=2)",
    f"tf.strided_slice({X3}, [0, 1], [0, 3], ellipsis_mask=1)",
    f"tf.strided_slice({X3}, [-1, 0], [0, 0], [1, 1], end_mask=2, shrink_axis_mask=1)",
]
F2, I2 = "tf.constant([1.0, 2.0])", "tf.constant([1, 2])"
VALUES += [  # tf.experimental.numpy: NumPy's dtypes
    "tnp.asarray(1.0)", "tnp.asarray([1, 2])", "tnp.array([1.5], dtype=tnp.float32)", "tnp.zeros(3)",
    "tnp.ones((2, 2), dtype='int32')", "tnp.zeros(2, dtype=int)", "tnp.arange(3)", "tnp.arange(0.0, 1.0, 0.25)",
    "tnp.arange(5, dtype=tnp.float32)", "tnp.linspace(0, 1, 5)", "tnp.eye(2)", "tnp.full((2,), 3)",
    f"tnp.full_like({F2}, 7)", f"tnp.zeros_like({I2})", f"tnp.asarray({F2}, dtype=tnp.float64)",
    f"tnp.add({F2}, 1.0)", f"tnp.add({F2}, 1)", f"tnp.add({I2}, 1.5)", f"tnp.add({I2}, tnp.asarray([1.0]))",
    f"tnp.add({F2}, tnp.asarray([1.0]))", f"tnp.multiply({I2}, {F2})", f"tnp.subtract({I2}, 3)",
    f"tnp.true_divide({I2}, 2)", f"tnp.divide({I2}, {I2})", f"tnp.floor_divide({I2}, 2)", f"tnp.mod({I2}, 2)",
    f"tnp.power({I2}, 2)", f"tnp.maximum({F2}, 0)", f"tnp.minimum({I2}, 1.5)", f"tnp.square({I2})",
    "tnp.abs(tf.constant([-1, 2]))", f"tnp.exp({F2})", f"tnp.log({F2})", f"tnp.sqrt({F2})", f"tnp.tanh({F2})",
    f"tnp.log2({F2})", f"tnp.log10({F2})", f"tnp.arctan2({F2}, 2.0)", f"tnp.hypot({F2}, {F2})",
    f"tnp.logaddexp({F2}, 1.0)", "tnp.sign(tf.constant([-2.0, 0.0]))", f"tnp.floor({F2} / 3)",
    f"tnp.sum({I2})", f"tnp.sum({F2})", f"tnp.prod({I2})", f"tnp.mean({I2})", f"tnp.mean({F2}, axis=0, keepdims=True)",
    f"tnp.std({I2})", "tnp.var(tnp.asarray([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0]]), axis=1)",
    "tnp.average(tnp.asarray([1.0, 2.0, 3.0]), weights=[1, 0, 1])", f"tnp.amax({F2})", f"tnp.max({I2})",
    f"tnp.amin({F2})", "tnp.ptp(tnp.asarray([3, 1, 7]))", "tnp.argmax(tnp.asarray([[1, 3], [2, 0]]))",
    "tnp.argmin(tnp.asarray([[1, 3], [2, 0]]), axis=1)", f"tnp.cumsum({I2})", f"tnp.cumprod({F2})",
    "tnp.count_nonzero(tnp.asarray([0, 1, 2]))", f"tnp.all({F2} > 0)", f"tnp.any({F2} > 1.5)",
    "tnp.reshape(tnp.arange(6), (2, 3))", "tnp.ravel(tnp.ones((2, 2)))", "tnp.transpose(tnp.ones((2, 3)))",
    "tnp.swapaxes(tnp.ones((2, 3, 4)), 0, 2)", "tnp.moveaxis(tnp.ones((2, 3, 4)), 0, -1)",
    f"tnp.expand_dims({F2}, 0)", "tnp.squeeze(tnp.ones((1, 2, 1)))", f"tnp.concatenate([{F2}, tnp.zeros(1)])",
    f"tnp.stack([{F2}, {F2}])", f"tnp.hstack([{F2}, {F2}])", f"tnp.vstack([{F2}, {F2}])",
    "tnp.split(tnp.arange(6), [2, 3])", "tnp.split(tnp.arange(6), 3)", f"tnp.tile({F2}, 2)",
    "tnp.repeat(tnp.asarray([1, 2]), 2)", "tnp.flip(tnp.reshape(tnp.arange(4), (2, 2)))",
    "tnp.roll(tnp.arange(4), 1)", f"tnp.pad({F2}, [[1, 2]], 'constant')", "tnp.pad(tnp.ones((2, 2)), ((1, 0), (0, 2)), 'constant')",
    f"tnp.clip({F2}, 0, 1.5)", f"tnp.where({F2} > 1, {F2}, 0.0)", f"tnp.where({F2} > 1, 1, 2)",
    "tnp.take(tnp.arange(5), [1, 3])", "tnp.sort(tnp.asarray([3, 1, 2]))", "tnp.argsort(tnp.asarray([3, 1, 2]))",
    "tnp.diag(tnp.asarray([1, 2]))", "tnp.diag(tnp.ones((2, 3)))", "tnp.tril(tnp.ones((3, 3)), -1)",
    "tnp.triu(tnp.ones((2, 3)), 1)", "tnp.trace(tnp.reshape(tnp.arange(4.0), (2, 2)))",
    "tnp.diff(tnp.asarray([1, 4, 9, 16]), 2)", f"tnp.dot({F2}, {F2})", "tnp.dot(tnp.ones((2, 2)), tnp.ones(2))",
    "tnp.dot(tnp.ones((2, 3, 4)), tnp.ones((4, 5)))", "tnp.matmul(tnp.ones((3, 2)), tnp.ones(2))",
    "tnp.tensordot(tnp.ones((2, 3)), tnp.ones((3, 4)), 1)", f"tnp.inner({F2}, {F2})", f"tnp.outer({F2}, {F2})",
    f"tnp.einsum('ij,j->i', tnp.ones((2, 2)), {F2})", f"tnp.isclose({F2}, 1.0)", f"tnp.allclose({F2}, {F2})",
    "tnp.array_equal(tnp.asarray([1, 2]), [1, 2])", f"tnp.isnan({F2})", f"tnp.logical_and({F2} > 1, True)",
    f"tnp.equal({I2}, 2)", f"tnp.less({F2}, 1.5)", "tnp.meshgrid(tnp.arange(2), tnp.arange(3))",
    "tnp.shape(tnp.ones((2, 3)))", "tnp.ndim(tnp.ones((2, 3)))", "tnp.size(tnp.ones((2, 3)))",
    "tnp.result_type(tf.constant([1], tf.int32), 1.5)", "tnp.atleast_2d(tnp.asarray([1, 2]))",
]

GRADS = [
    ("lambda x, w: tf.nn.conv3d(x, w, [1, 2, 1, 1, 1], 'SAME')",
     [np.sin(np.arange(60)).reshape(1, 5, 3, 2, 2).tolist(), np.cos(np.arange(24)).reshape(3, 2, 1, 2, 2).tolist()]),
    ("lambda x, w: tf.nn.conv3d_transpose(x, w, [1, 5, 3, 2, 2], [1, 2, 1, 1, 1], 'SAME')",
     [np.sin(np.arange(36)).reshape(1, 3, 3, 2, 2).tolist(), np.cos(np.arange(24)).reshape(3, 2, 1, 2, 2).tolist()]),
    ("lambda x: tf.nn.max_pool3d(tf.cast(x, tf.float32), [2, 2, 1], [2, 1, 1], 'SAME')", [np.sin(np.arange(60)).reshape(1, 5, 3, 2, 2).tolist()]),
    ("lambda x: tf.nn.avg_pool3d(tf.cast(x, tf.float32), [3, 2, 2], [2, 1, 2], 'SAME')", [np.sin(np.arange(60)).reshape(1, 5, 3, 2, 2).tolist()]),
    ("lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2], [0]], u)", [[0.5, -1.0, 0.2], [0.1, 0.7, 0.9]]),
    ("lambda t, u: tf.tensor_scatter_nd_max(t, [[0], [2], [0]], u)", [[0.5, -1.0, 0.2], [0.5, 0.2, 0.1]]),
    ("lambda t, u: tf.tensor_scatter_nd_min(t, [[1], [1]], u)", [[0.5, -1.0, 0.2], [-1.0, -1.0]]),
    ("lambda t, u: tf.tensor_scatter_nd_sub(t, [[1], [1]], u)", [[0.5, -1.0, 0.2], [0.3, 0.4]]),
    ("lambda x: tf.dynamic_partition(x, [1, 0, 1], 2)[1] * 2.0", [[0.5, -1.0, 0.2]]),
    ("lambda x, y: tf.dynamic_stitch([[0, 2], [1, 3]], [x, y])", [[0.5, -1.0], [0.3, 0.4]]),
    ("lambda x: tf.reverse_sequence(x, [2, 3], seq_axis=1)", [[[0.5, -1.0, 0.2], [0.3, 0.4, 0.8]]]),
    ("lambda x: tf.nn.depth_to_space(x, 2)", [np.linspace(-1, 1, 16).reshape(1, 1, 2, 8).tolist()]),
    ("lambda x: tf.nn.space_to_depth(x, 2)", [np.linspace(-1, 1, 16).reshape(1, 2, 4, 2).tolist()]),
    ("lambda x: tf.nn.local_response_normalization(tf.cast(x, tf.float32), 2, 1.5, 0.5, 0.75)",
     [np.linspace(-1, 2, 12).reshape(1, 2, 1, 6).tolist()]),
    ("lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 3.0)", [[1.0, 0.0, 0.3], [0.5, -1.0, 2.0]]),
    ("lambda t, x: tf.nn.log_poisson_loss(t, x, compute_full_loss=True)", [[2.0, 0.5, 3.0], [0.5, -1.0, 1.0]]),
    ("lambda x, w: tf.nn.weighted_moments(x, [1], w)[1]", [[[1.0, 3.0, 2.0], [2.0, 6.0, 0.5]], [[3.0, 1.0, 2.0], [1.0, 1.0, 1.0]]]),
    ("lambda x: tf.nn.sufficient_statistics(x, [0], shift=tf.constant(0.5, tf.float64))[2]", [[[1.0, 3.0], [2.0, 6.0]]]),
    ("lambda x: tf.nn.crelu(x)", [[0.5, -1.0, 0.2]]),
    ("lambda x: tf.nn.compute_average_loss(x, sample_weight=[1.0, 0.5])", [[0.5, -1.0]]),
    ("lambda x: tnp.sum(tnp.square(tnp.multiply(x, 3.0)), axis=0) + tnp.mean(tnp.exp(x))",
     [[[0.5, -1.0], [0.3, 0.4]]]),
    ("lambda x, y: tnp.matmul(x, y) + tnp.dot(x, y) + tnp.outer(x[0], y[:, 0])", [[[0.5, -1.0], [0.3, 0.4]],
                                                                                  [[1.0, 2.0], [0.1, -0.2]]]),
    ("lambda x: tnp.std(x, axis=1) + tnp.var(x, axis=1) + tnp.log2(tnp.abs(x[:, 0]))",
     [[[0.5, -1.0, 2.0], [0.3, 0.4, 0.1]]]),
    ("lambda x: tnp.clip(tnp.tril(x), -0.6, 0.45) + tnp.where(x > 0, x, 0.0) + tnp.pad(x, [[1, 1], [1, 1]], 'constant')[1:-1, 1:-1]",
     [[[0.5, -1.0], [0.3, 0.4]]]),
    ("lambda x: tf.nn.ctc_loss([[1, 2, 2], [3, 0, 0]], tf.cast(x, tf.float32), [3, 1], [4, 3])",
     [np.sin(np.arange(4 * 2 * 4) * 0.7).reshape(4, 2, 4).tolist()]),
    ("lambda x: tf.nn.ctc_loss([[0, 2], [1, 1]], tf.cast(x, tf.float32), [2, 1], [4, 4], logits_time_major=False, blank_index=3)",
     [np.cos(np.arange(2 * 4 * 4) * 0.3).reshape(2, 4, 4).tolist()]),
    ("lambda x: tf.batch_to_space(tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 1]]) * 2.0, [2, 1], [[1, 0], [0, 0]])",
     [np.sin(np.arange(2 * 4 * 3 * 2)).reshape(2, 4, 3, 2).tolist()]),
    ("lambda x: tf.sort(tf.math.real(tf.linalg.eigvals(x)))", [[[2.0, 0.3, -0.1], [0.5, 4.0, 0.2], [0.1, -0.4, 6.5]]]),
    ("lambda x: tf.sort(tf.math.imag(tf.linalg.eigvals(x)))", [[[0.5, -1.0], [1.0, 0.2]]]),
    ("lambda x: tf.sort(tf.reduce_sum(tf.abs(tf.linalg.eig(x)[1]) ** 4, axis=0))",
     [[[2.0, 0.3, -0.1], [0.5, 4.0, 0.2], [0.1, -0.4, 6.5]]]),
    ("lambda x: tf.strided_slice(x, [1, 0], [3, 3], [1, 2], end_mask=2) * 2.0", [np.sin(np.arange(12)).reshape(3, 4).tolist()]),
    ("lambda x: tf.linalg.sqrtm(x)", [[[4.0, 1.0, 0.0], [0.5, 3.0, 0.2], [0.0, 0.3, 2.0]]]),
]


# tapegrad's event files, read back by TensorFlow (run by the system Python, which has tapegrad)
SUMMARY_SCRIPT = """
import sys, numpy as np, tapegrad as tf
w = tf.summary.create_file_writer(sys.argv[1])
with w.as_default():
    for step in range(3):
        tf.summary.scalar('loss', 0.5 / (step + 1), step=step)
        tf.summary.histogram('w', np.arange(10.0) * step - 3.0, step=step, buckets=4)
    tf.summary.text('note', 'hello', step=1)
    tf.summary.image('img', np.linspace(-0.1, 1.1, 2 * 4 * 5 * 3).reshape(2, 4, 5, 3), step=2, max_outputs=1)
    tf.summary.write('raw', tf.constant([[1, 2], [3, 4]], tf.int64), step=5)
    with tf.name_scope('block'):
        tf.summary.scalar('acc', tf.constant(0.9), step=2)
    with tf.summary.record_if(False):
        tf.summary.scalar('skipped', 1.0, step=3)
tf.summary.experimental.set_step(7)
w.set_as_default()
tf.summary.scalar('late', 1.0)
"""


def _summaries() -> list:
    import glob
    import subprocess
    import tempfile
    logdir = tempfile.mkdtemp()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python = os.environ.get("TAPEGRAD_PYTHON", "python3")  # a Python with NumPy and SciPy
    subprocess.run([python, "-c", SUMMARY_SCRIPT, logdir], check=True, env={**os.environ, "PYTHONPATH": root})
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*.v2"))
    out = []
    for e in tf.compat.v1.train.summary_iterator(path):
        if e.file_version:
            out.append(["file_version", e.file_version])
        for v in e.summary.value:
            a = tf.make_ndarray(v.tensor)
            if v.tag == "img":
                a = np.stack([tf.io.decode_png(b).numpy() for b in a[2:]])
            vals = [x.decode() for x in a.ravel()] if a.dtype == object else a.tolist()
            out.append([int(e.step), v.tag, v.metadata.plugin_data.plugin_name, int(v.metadata.data_class),
                        str(a.dtype), list(a.shape), vals])
    return out


def _encode(v):
    return encode_value(v, tf)


def _outcome(code: str) -> list:
    try:
        return ["ok", _encode(eval(code, {"tf": tf, "np": np, "tnp": tnp}))]  # noqa: S307  (our own case strings)
    except Exception as e:  # noqa: BLE001  (the error is what is recorded)
        return [type(e).__name__, str(e).split("\n")[0][:300]]


def _grad(code: str, args: list) -> dict:
    xs = [tf.constant(np.asarray(a, np.float64)) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = eval(code, {"tf": tf, "np": np, "tnp": tnp})(*xs)  # noqa: S307
        loss = tf.reduce_sum(tf.sin(y))
    return {"value": y.numpy().tolist(), "grads": [g.numpy().tolist() for g in tape.gradient(loss, xs)]}


def main() -> None:
    out = {"generator": "tools/record_tf_surface_names.py", "tensorflow": tf.__version__,
           "values": {code: _outcome(code) for code in VALUES},
           "grads": {code + " @ " + json.dumps(args): _grad(code, args) for code, args in GRADS},
           "summary_script": SUMMARY_SCRIPT, "summary": _summaries()}
    with open(FIXTURE, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
