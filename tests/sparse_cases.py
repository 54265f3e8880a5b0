"""The cases of tools/record_tf_sparse.py, shared with tests/test_sparse.py: each is a function of ``tf``
(TensorFlow when recorded, tapegrad when replayed). Results are encoded by ``encode``: a SparseTensor as its
indices, values, dense shape and dtype; a tensor as in tests/strings_cases.py; an exception as its type's name
and message (the test compares the type, and the words of ``MESSAGES``)."""
import numpy as np

from strings_cases import encode as _encode


def encode(x):
    if isinstance(x, BaseException):
        return {"error": type(x).__name__, "message": str(x)}
    if hasattr(x, "dense_shape") and hasattr(x, "indices") and hasattr(x, "values") and hasattr(x, "with_values"):
        return {"sparse": {"indices": np.asarray(x.indices.numpy()).tolist(), "values": _encode(x.values, np),
                           "dense_shape": np.asarray(x.dense_shape.numpy()).tolist()}}
    if type(x).__name__ == "IndexedSlices":  # (a gradient's form is part of the result)
        return {"indexed_slices": [encode(x.indices), encode(x.values)]}
    if isinstance(x, (list, tuple)):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {str(k): encode(v) for k, v in x.items()}
    if x is None:
        return None
    return _encode(x, np)


def run(fn, tf):
    try:
        return encode(fn(tf))
    except Exception as e:  # noqa: BLE001  (the error is the result)
        return encode(e)


def _st(tf):
    return tf.SparseTensor(indices=[[0, 0], [0, 2], [1, 1], [2, 3]], values=[1.0, -2.0, 3.0, 4.0], dense_shape=[3, 4])


def _st3(tf):
    return tf.SparseTensor([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1]], [1, 2, 3, 4], [2, 2, 3])


def _unsorted(tf):
    return tf.SparseTensor([[2, 3], [0, 2], [1, 1], [0, 0]], [4.0, -2.0, 3.0, 1.0], [3, 4])


def _b(tf):
    return tf.SparseTensor([[0, 2], [1, 0], [2, 3]], [2.0, 5.0, -4.0], [3, 4])


def _varlen(tf):
    def ex(v):
        f = {"v": tf.train.Feature(int64_list=tf.train.Int64List(value=v))} if v else {}
        return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()
    return [ex([3, 1, 4]), ex([]), ex([1, 5])]


CASES = {
    # the type
    "construct": lambda tf: _st(tf),
    "repr": lambda tf: repr(_st(tf)),
    "str_int": lambda tf: str(_st3(tf)),
    "props": lambda tf: [list(_st(tf).shape), _st(tf).dtype.name, _st(tf).indices.dtype.name,
                         _st(tf).dense_shape.dtype.name, list(_st3(tf).get_shape())],
    "from_value": lambda tf: tf.SparseTensor.from_value(_st(tf)),
    "with_values": lambda tf: _st(tf).with_values(tf.constant([1, 2, 3, 4], tf.int64)),
    "empty": lambda tf: tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 2]),
    "alias": lambda tf: tf.sparse.SparseTensor([[1]], [2.0], [3]),
    "spec": lambda tf: [repr(tf.SparseTensorSpec([None, 4], tf.float32)),
                        tf.SparseTensorSpec([None, 4], tf.float32).is_compatible_with(_st(tf)),
                        tf.SparseTensorSpec([None, 5], tf.float32).is_compatible_with(_st(tf))],
    "bad_indices_rank": lambda tf: tf.SparseTensor([0, 0], [1.0], [3, 4]),
    "bad_values_count": lambda tf: tf.SparseTensor([[0, 0]], [1.0, 2.0], [3, 4]),
    "bad_shape_rank": lambda tf: tf.SparseTensor([[0, 0]], [1.0], [3, 4, 5]),
    "bad_int32_indices": lambda tf: tf.SparseTensor(tf.constant([[0, 0]], tf.int32), [1.0], [3, 4]),
    "convert_to_tensor": lambda tf: tf.convert_to_tensor(_st(tf)),
    # operators
    "mul_scalar": lambda tf: _st(tf) * 2.0,
    "mul_dense": lambda tf: _st(tf) * tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]),
    "mul_broadcast_row": lambda tf: _st(tf) * tf.constant([1.0, 10.0, 100.0, 1000.0]),
    "div_dense": lambda tf: _st(tf) / tf.constant([[2.0], [4.0], [8.0]]),
    "mul_bad_broadcast": lambda tf: _st(tf) * tf.ones([5]),
    # conversion
    "to_dense": lambda tf: tf.sparse.to_dense(_st(tf)),
    "to_dense_default": lambda tf: tf.sparse.to_dense(_st3(tf), default_value=-1),
    "to_dense_string": lambda tf: tf.sparse.to_dense(tf.SparseTensor([[1]], ["a"], [3])),
    "to_dense_unsorted": lambda tf: tf.sparse.to_dense(_unsorted(tf)),
    "to_dense_unsorted_unvalidated": lambda tf: tf.sparse.to_dense(_unsorted(tf), validate_indices=False),
    "to_dense_out_of_bounds": lambda tf: tf.sparse.to_dense(tf.SparseTensor([[0, 0], [5, 0]], [1.0, 2.0], [3, 4])),
    "to_dense_repeated": lambda tf: tf.sparse.to_dense(tf.SparseTensor([[0, 1], [0, 1]], [1.0, 2.0], [3, 4])),
    "from_dense": lambda tf: tf.sparse.from_dense(tf.constant([[0.0, 1.5], [-2.0, 0.0]])),
    "from_dense_string": lambda tf: tf.sparse.from_dense(tf.constant([["", "x"], ["y", ""]])),
    "from_dense_3d": lambda tf: tf.sparse.from_dense(tf.sparse.to_dense(_st3(tf))),
    "reorder": lambda tf: tf.sparse.reorder(_unsorted(tf)),
    # shape ops
    "reshape": lambda tf: tf.sparse.reshape(_st(tf), [2, -1]),
    "reshape_3d": lambda tf: tf.sparse.reshape(_st3(tf), [4, 3]),
    "reshape_bad": lambda tf: tf.sparse.reshape(_st(tf), [5, -1]),
    "reshape_bad_total": lambda tf: tf.sparse.reshape(_st(tf), [5, 2]),
    "transpose": lambda tf: tf.sparse.transpose(_st(tf)),
    "transpose_perm": lambda tf: tf.sparse.transpose(_st3(tf), [1, 2, 0]),
    "expand_dims": lambda tf: [tf.sparse.expand_dims(_st(tf), 0), tf.sparse.expand_dims(_st(tf)),
                               tf.sparse.expand_dims(_st(tf), -2)],
    "expand_dims_bad": lambda tf: tf.sparse.expand_dims(_st(tf), 5),
    "eye": lambda tf: [tf.sparse.eye(3), tf.sparse.eye(2, 4, dtype=tf.int32)],
    "reset_shape": lambda tf: [tf.sparse.reset_shape(_st(tf)), tf.sparse.reset_shape(_st(tf), [4, 6])],
    "reset_shape_smaller": lambda tf: tf.sparse.reset_shape(_st(tf), [2, 6]),
    # arithmetic
    "add": lambda tf: tf.sparse.add(_st(tf), _b(tf)),
    "add_threshold": lambda tf: tf.sparse.add(_st(tf), _b(tf), threshold=0.5),
    "add_threshold_big": lambda tf: tf.sparse.add(_st(tf), _b(tf), threshold=3.0),
    "add_dense": lambda tf: tf.sparse.add(_st(tf), tf.ones([3, 4])),
    "add_dense_first": lambda tf: tf.sparse.add(tf.ones([3, 4]), _st(tf)),
    "add_two_dense": lambda tf: tf.sparse.add(tf.ones([2]), tf.ones([2])),
    "add_shape_mismatch": lambda tf: tf.sparse.add(_st(tf), tf.SparseTensor([[0, 0]], [1.0], [3, 5])),
    "maximum": lambda tf: tf.sparse.maximum(_st(tf), _b(tf)),
    "minimum": lambda tf: tf.sparse.minimum(_st(tf), _b(tf)),
    "concat0": lambda tf: tf.sparse.concat(0, [_st(tf), _b(tf)]),
    "concat1": lambda tf: tf.sparse.concat(1, [_st(tf), _b(tf)]),
    "concat_expand": lambda tf: tf.sparse.concat(1, [_st(tf), tf.SparseTensor([[4, 0]], [7.0], [5, 2])],
                                                 expand_nonconcat_dims=True),
    "concat_mismatch": lambda tf: tf.sparse.concat(1, [_st(tf), tf.SparseTensor([[4, 0]], [7.0], [5, 2])]),
    "slice": lambda tf: tf.sparse.slice(_st(tf), [0, 1], [2, 5]),
    "slice_3d": lambda tf: tf.sparse.slice(_st3(tf), [1, 0, 1], [1, 2, 2]),
    "split": lambda tf: tf.sparse.split(sp_input=_st(tf), num_split=3, axis=1),
    "split_rows": lambda tf: tf.sparse.split(sp_input=_st(tf), num_split=2, axis=0),
    "retain": lambda tf: tf.sparse.retain(_st(tf), [True, False, False, True]),
    "fill_empty_rows": lambda tf: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[1, 0], [1, 3], [3, 1]], [1.0, 2.0, 3.0], [5, 4]), -1.0),
    "sparse_dense_matmul": lambda tf: tf.sparse.sparse_dense_matmul(_st(tf), tf.reshape(tf.range(8.0), [4, 2])),
    "sparse_dense_matmul_adjoint_a": lambda tf: tf.sparse.sparse_dense_matmul(
        _st(tf), tf.reshape(tf.range(6.0), [3, 2]), adjoint_a=True),
    "sparse_dense_matmul_adjoint_b": lambda tf: tf.sparse.sparse_dense_matmul(
        _st(tf), tf.reshape(tf.range(8.0), [2, 4]), adjoint_b=True),
    "sparse_dense_matmul_dense_first": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.reshape(tf.range(6.0), [2, 3]), _st(tf)),
    "sparse_dense_matmul_rank3": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.SparseTensor([[0, 0, 0]], [1.0], [2, 2, 2]), tf.ones([2, 2])),
    "sparse_dense_matmul_inner": lambda tf: tf.sparse.sparse_dense_matmul(_st(tf), tf.ones([3, 2])),
    "reduce_sum": lambda tf: [tf.sparse.reduce_sum(_st(tf)), tf.sparse.reduce_sum(_st(tf), 0),
                              tf.sparse.reduce_sum(_st(tf), 1, keepdims=True), tf.sparse.reduce_sum(_st3(tf), [0, 2])],
    "reduce_sum_sparse": lambda tf: [tf.sparse.reduce_sum(_st(tf), 1, output_is_sparse=True),
                                     tf.sparse.reduce_sum(_st3(tf), -1, keepdims=True, output_is_sparse=True)],
    "reduce_max": lambda tf: [tf.sparse.reduce_max(_st(tf)), tf.sparse.reduce_max(_st(tf), 0),
                              tf.sparse.reduce_max(tf.SparseTensor([[0, 0], [2, 1]], [-1.0, -2.0], [3, 4]), 1)],
    "reduce_max_sparse": lambda tf: tf.sparse.reduce_max(_st(tf), 1, output_is_sparse=True),
    "reduce_bad_axis": lambda tf: tf.sparse.reduce_sum(_st(tf), 2),
    "softmax": lambda tf: tf.sparse.softmax(_st(tf)),
    "softmax_3d": lambda tf: tf.sparse.softmax(tf.SparseTensor(_st3(tf).indices, tf.constant([1.0, 2.0, 3.0, 4.0],
                                                                                           tf.float64), [2, 2, 3])),
    "to_indicator": lambda tf: tf.sparse.to_indicator(
        tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([2, 0, 1], tf.int64), [2, 2]), 4),
    "map_values": lambda tf: [tf.sparse.map_values(tf.square, _st(tf)),
                              tf.sparse.map_values(tf.add, _st(tf), _st(tf) * 2.0)],
    "map_values_none": lambda tf: tf.sparse.map_values(tf.square, tf.ones([2])),
    "cast": lambda tf: tf.cast(_st(tf), tf.int32),
    "abs": lambda tf: tf.math.abs(_st(tf)),
    "negative": lambda tf: tf.math.negative(_st(tf)),
    "shape": lambda tf: [tf.shape(_st(tf)), tf.shape(_st(tf), out_type=tf.int64), tf.size(_st(tf)), tf.rank(_st(tf))],
    "zero_preserving_unary": lambda tf: [tf.math.sign(_st(tf)), tf.identity(_st(tf)), tf.math.square(_st(tf)),
                                         tf.math.sin(_st(tf)), tf.math.tanh(_st(tf)), tf.math.sqrt(tf.math.abs(_st(tf)))],
    "exp_refused": lambda tf: tf.exp(_st(tf)),
    "relu_refused": lambda tf: tf.nn.relu(_st(tf)),
    "add_operator_refused": lambda tf: _st(tf) + _st(tf),
    "segment_sum": lambda tf: tf.sparse.segment_sum(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                                                    [0, 2, 1], [0, 0, 1]),
    "segment_mean": lambda tf: tf.sparse.segment_mean(tf.constant([1.0, 2.0, 4.0]), [0, 2, 1], [0, 0, 2]),
    "segment_sqrt_n": lambda tf: tf.sparse.segment_sqrt_n(tf.constant([1.0, 2.0, 4.0]), [0, 2, 1], [0, 0, 1],
                                                          num_segments=3),
    "segment_bad_index": lambda tf: tf.sparse.segment_sum(tf.constant([1.0, 2.0]), [0, 5], [0, 0]),
    "mask": lambda tf: tf.sparse.mask(tf.IndexedSlices(tf.constant([[1.0], [2.0], [3.0]]), tf.constant([0, 4, 7]),
                                                       tf.constant([8, 1])), [4]).indices,
    # tf.data slices and batches SparseTensors
    "dataset_slices": lambda tf: [repr(tf.data.Dataset.from_tensor_slices(_st(tf)).element_spec),
                                  list(tf.data.Dataset.from_tensor_slices(_st(tf)))],
    "dataset_batch": lambda tf: [repr(tf.data.Dataset.from_tensor_slices(_st3(tf)).batch(2).element_spec),
                                 list(tf.data.Dataset.from_tensor_slices(_st3(tf)).batch(2)),
                                 list(tf.data.Dataset.from_tensor_slices(_st(tf)).batch(2))],
    "dataset_map": lambda tf: list(tf.data.Dataset.from_tensor_slices((_st(tf), [1, 2, 3])).map(
        lambda s, y: (tf.sparse.reduce_sum(s), y))),
    # tf.io.VarLenFeature parses into a SparseTensor
    "parse_varlen": lambda tf: tf.io.parse_example(_varlen(tf), {"v": tf.io.VarLenFeature(tf.int64)})["v"],
    "parse_single_varlen": lambda tf: tf.io.parse_single_example(
        _varlen(tf)[0], {"v": tf.io.VarLenFeature(tf.int64)})["v"],
}

# the words of TensorFlow's message that tapegrad's must contain too
MESSAGES = {
    "to_dense_unsorted": "is out of order",
    "to_dense_out_of_bounds": "is out of bounds: need 0 <= index < [3,4]",
    "to_dense_repeated": "indices[1] = [0,1] is repeated",
    "bad_indices_rank": "must have rank 2",
    "bad_values_count": "Dimensions 1 and 2 are not compatible",
    "bad_shape_rank": "Dimensions 2 and 3 are not compatible",
    "add_two_dense": "At least one input should be SparseTensor",
    "sparse_dense_matmul_rank3": "Tensor 'a_shape' must have 2 elements",
    "map_values_none": "No SparseTensor in argument list of map_values",
}


def _grad_to_dense(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum(tf.sparse.to_dense(st) * tf.reshape(tf.range(12.0), [3, 4]))
    return t.gradient(loss, v)


def _grad_matmul(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    d = tf.Variable(tf.reshape(tf.range(8.0) / 4.0, [4, 2]))
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, d) ** 2)
    return t.gradient(loss, [v, d])


def _grad_matmul_adjoint(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    d = tf.Variable(tf.reshape(tf.range(6.0) / 4.0, [2, 3]))
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(st, d, adjoint_a=True, adjoint_b=True) ** 2)
    return t.gradient(loss, [v, d])


def _grad_reduce_sum(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum(tf.sparse.reduce_sum(st, 1) ** 2)
    return t.gradient(loss, v)


def _grad_add(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    w = tf.Variable([2.0, 5.0, -4.0])
    with tf.GradientTape() as t:
        a = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        b = tf.SparseTensor([[0, 2], [1, 0], [2, 3]], w * 1.0, [3, 4])
        s = tf.sparse.add(a, b)
        loss = tf.reduce_sum(s.values ** 2)
    return t.gradient(loss, [v, w])


def _grad_softmax(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum(tf.sparse.softmax(st).values * tf.constant([1.0, 2.0, 3.0, 4.0]))
    return t.gradient(loss, v)


def _grad_mul_dense(tf):
    v = tf.Variable([1.0, -2.0, 3.0, 4.0])
    d = tf.Variable(tf.reshape(tf.range(12.0), [3, 4]))
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 3]], v * 1.0, [3, 4])
        loss = tf.reduce_sum((st * d).values ** 2)
    return t.gradient(loss, [v, d])


def _grad_source_sparse(tf):
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        st = tf.SparseTensor([[0, 0], [1, 1]], v, [2, 2])
        t.watch(st)
        loss = tf.reduce_sum(tf.sparse.to_dense(st))
    return t.gradient(loss, st)


GRADS = {
    "to_dense": _grad_to_dense,
    "sparse_dense_matmul": _grad_matmul,
    "sparse_dense_matmul_adjoint": _grad_matmul_adjoint,
    "reduce_sum": _grad_reduce_sum,
    "add": _grad_add,
    "softmax": _grad_softmax,
    "mul_dense": _grad_mul_dense,
    "source_sparse": _grad_source_sparse,
}
