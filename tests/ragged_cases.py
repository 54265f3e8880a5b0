"""The cases of tools/record_tf_ragged.py, shared with tests/test_ragged.py: each is a Python
expression run with ``tf`` bound to TensorFlow there and to tapegrad here (``r``, ``f``, ``n3``
and ``s`` are the ragged tensors of ``SETUP``). ``encode`` turns a result (tensor, ragged tensor,
shape, nest, or the exception raised) into JSON-able data the same way on both sides."""

SETUP = {
    "r": "tf.ragged.constant([[1, 2], [3], [], [4, 5, 6]])",
    "f": "tf.ragged.constant([[1.5, -2.0], [3.0], [], [0.5, 4.0, -1.0]])",
    "n3": "tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])",
    "s": "tf.ragged.constant([['a b', 'c'], ['d e f']])",
    "u": "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)",
}

CASES = {
    # tf.ragged.constant: dtypes, ranks, inner shapes, bad input
    "constant_int": "r",
    "constant_float": "f",
    "constant_mixed_numbers": "tf.ragged.constant([[1, 2.5], [3]])",
    "constant_bool": "tf.ragged.constant([[True], [], [False, True]])",
    "constant_str": "tf.ragged.constant([['a', 'b'], ['c']])",
    "constant_empty_rows": "tf.ragged.constant([[], []])",
    "constant_nested": "n3",
    "constant_ragged_rank1_inner": "u",
    "constant_inner_shape": "tf.ragged.constant([[[1], [2]], [[3]]], inner_shape=(1,))",
    "constant_dtype": "tf.ragged.constant([[1, 2], [3]], dtype=tf.float64)",
    "constant_int32_splits": "tf.ragged.constant([[1, 2], [3]], row_splits_dtype=tf.int32).row_splits",
    "constant_flat_list": "tf.ragged.constant([1, 2])",
    "constant_scalar": "tf.ragged.constant(5)",
    "constant_empty": "tf.ragged.constant([])",
    "constant_rank0_uniform": "tf.ragged.constant([[1, 2], [3, 4]], ragged_rank=0)",
    "constant_mixed_depth_error": "tf.ragged.constant([[1, [2]]])",
    "constant_ragged_rank_too_big_error": "tf.ragged.constant([[1, 2], [3]], ragged_rank=2)",
    "constant_nonrect_rank0_error": "tf.ragged.constant([[1, 2], [3]], ragged_rank=0)",
    # factories
    "from_row_splits": "tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], row_splits=[0, 3, 3, 5])",
    "from_row_lengths": "tf.RaggedTensor.from_row_lengths([3, 1, 4, 1, 5], row_lengths=[3, 0, 2])",
    "from_value_rowids": "tf.RaggedTensor.from_value_rowids([3, 1, 4, 1, 5], [0, 0, 0, 2, 2], nrows=4)",
    "from_value_rowids_default_nrows": "tf.RaggedTensor.from_value_rowids([3, 1, 4], [0, 2, 2])",
    "from_row_starts": "tf.RaggedTensor.from_row_starts([3, 1, 4, 1, 5], row_starts=[0, 3, 3])",
    "from_row_limits": "tf.RaggedTensor.from_row_limits([3, 1, 4, 1, 5], row_limits=[3, 3, 5])",
    "from_uniform_row_length": "tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 2)",
    "from_uniform_row_length_shape": "tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4, 5, 6], 3).shape",
    "from_nested_row_splits": "tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4], ([0, 2, 3], [0, 1, 3, 4]))",
    "from_nested_row_lengths": "tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4], ([2, 1], [1, 2, 1]))",
    "from_tensor": "tf.RaggedTensor.from_tensor([[1, 2], [3, 4]])",
    "from_tensor_shape": "tf.RaggedTensor.from_tensor([[1, 2], [3, 4]]).shape",
    "from_tensor_padding": "tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0], [0, 0, 0]], padding=0)",
    "from_tensor_lengths": "tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3])",
    "from_tensor_ragged_rank2": "tf.RaggedTensor.from_tensor([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], ragged_rank=2)",
    "from_tensor_padding_inner": "tf.RaggedTensor.from_tensor([[[1, 1], [0, 0]], [[2, 2], [3, 3]]], padding=[0, 0])",
    "from_row_splits_bad_end_error": "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])",
    "from_row_splits_bad_start_error": "tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3])",
    "from_row_splits_decreasing_error": "tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2, 1, 3])",
    "from_row_splits_rank2_error": "tf.RaggedTensor.from_row_splits([1, 2, 3], [[0, 3]])",
    "from_row_lengths_negative_error": "tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, -1, 2])",
    "from_row_lengths_sum_error": "tf.RaggedTensor.from_row_lengths([1, 2, 3], [1, 1])",
    "from_value_rowids_decreasing_error": "tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 1])",
    "from_tensor_rank1_error": "tf.RaggedTensor.from_tensor([1, 2])",
    "from_tensor_both_error": "tf.RaggedTensor.from_tensor([[1, 2]], lengths=[1], padding=0)",
    "constructor_error": "tf.RaggedTensor(1, 2)",
    # accessors
    "values": "n3.values",
    "flat_values": "n3.flat_values",
    "row_splits": "r.row_splits",
    "nested_row_splits": "list(n3.nested_row_splits)",
    "row_lengths": "r.row_lengths()",
    "row_lengths_axis2": "n3.row_lengths(axis=2)",
    "row_lengths_axis0": "r.row_lengths(axis=0)",
    "nested_row_lengths": "list(n3.nested_row_lengths())",
    "row_starts": "r.row_starts()",
    "row_limits": "r.row_limits()",
    "value_rowids": "r.value_rowids()",
    "nrows": "r.nrows()",
    "nrows_int32": "r.nrows(out_type=tf.int32)",
    "ragged_rank": "[r.ragged_rank, n3.ragged_rank, u.ragged_rank]",
    "shape": "[r.shape, n3.shape, u.shape]",
    "shape_list": "r.shape.as_list()",
    "dtype": "[r.dtype, f.dtype, s.dtype]",
    "bounding_shape": "r.bounding_shape()",
    "bounding_shape_nested": "n3.bounding_shape()",
    "bounding_shape_axis": "n3.bounding_shape(axis=1)",
    "uniform_row_length": "[r.uniform_row_length, tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2).uniform_row_length]",
    "to_tensor": "r.to_tensor()",
    "to_tensor_default": "f.to_tensor(default_value=9.0)",
    "to_tensor_shape": "r.to_tensor(shape=[3, 2], default_value=-1)",
    "to_tensor_shape_bigger": "r.to_tensor(shape=[5, 4])",
    "to_tensor_nested": "n3.to_tensor()",
    "to_tensor_str": "s.to_tensor()",
    "to_tensor_inner": "u.to_tensor()",
    "to_list": "r.to_list()",
    "to_list_nested": "n3.to_list()",
    "numpy_ragged": "[a.tolist() for a in r.numpy()]",
    "numpy_uniform": "tf.ragged.constant([[1, 2], [3, 4]]).numpy().tolist()",
    "with_values": "r.with_values(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))",
    "with_values_error": "r.with_values([1, 2])",
    "with_flat_values": "n3.with_flat_values(tf.range(6) * 10)",
    "with_row_splits_dtype": "r.with_row_splits_dtype(tf.int32).row_splits",
    "merge_dims_01": "r.merge_dims(0, 1)",
    "merge_dims_12": "n3.merge_dims(1, 2)",
    "merge_dims_02": "n3.merge_dims(0, 2)",
    "merge_dims_inner": "u.merge_dims(1, 2)",
    "merge_dims_order_error": "r.merge_dims(1, 0)",
    "iterate": "list(r)",
    "iterate_nested": "list(n3)",
    "len_error": "len(r)",
    "bool_error": "bool(r)",
    # indexing
    "index_row": "r[0]",
    "index_negative_row": "r[-1]",
    "index_row_nested": "n3[0]",
    "index_row_then_item": "r[3, 1]",
    "index_rows_slice": "r[1:3]",
    "index_rows_step": "r[::2]",
    "index_within_rows": "r[:, :2]",
    "index_within_rows_neg": "r[:, -2:]",
    "index_within_rows_step": "r[:, ::2]",
    "index_nested_inner": "n3[:, :, :1]",
    "index_nested_mid": "n3[:, 1:]",
    "index_ellipsis": "f[..., :1]",
    "index_inner_dense": "u[:, :, 0]",
    "index_inner_int_error": "r[:, 1]",
    "index_ellipsis_int_error": "r[..., 0]",
    "index_out_of_range_error": "r[7]",
    "index_too_many_error": "r[0, 0, 0]",
    # elementwise ops and operators
    "add_scalar": "r + 3",
    "radd_scalar": "3 + r",
    "tf_add": "tf.add(r, 3)",
    "mul_ragged": "f * f",
    "sub_ragged": "r - r",
    "div": "f / 2.0",
    "neg": "-f",
    "abs": "abs(f)",
    "pow": "f ** 2",
    "floordiv": "r // 2",
    "mod": "r % 2",
    "compare": "r > 2",
    "eq": "r == r",
    "logical": "tf.logical_and(r > 1, r < 5)",
    "invert": "~(r > 2)",
    "sin": "tf.sin(f)",
    "exp": "tf.math.exp(f)",
    "square": "tf.math.square(r)",
    "sqrt_abs": "tf.sqrt(tf.abs(f))",
    "maximum_scalar": "tf.maximum(f, 0.0)",
    "broadcast_column": "f * tf.constant([[1.0], [2.0], [3.0], [4.0]])",
    "broadcast_inner": "u + tf.constant([10, 20])",
    "broadcast_scalar_tensor": "f + tf.constant(1.0)",
    "cast": "tf.cast(r, tf.float32)",
    "mixed_dtype_scalar_error": "r * 2.0",
    "partition_mismatch_error": "r + tf.ragged.constant([[1], [2, 3], [], [4, 5, 6]])",
    "broadcast_row_mismatch_error": "f * tf.constant([1.0, 2.0])",
    "matmul_error": "tf.matmul(f, f)",
    # reductions
    "sum_all": "tf.reduce_sum(r)",
    "sum_axis0": "tf.reduce_sum(r, axis=0)",
    "sum_axis1": "tf.reduce_sum(r, axis=1)",
    "sum_axis_neg": "tf.reduce_sum(r, axis=-1)",
    "sum_keepdims": "tf.reduce_sum(r, axis=1, keepdims=True)",
    "mean_axis1_float": "tf.reduce_mean(f, axis=1)",
    "mean_axis0_float": "tf.reduce_mean(f, axis=0)",
    "mean_int": "tf.reduce_mean(r, axis=1)",
    "mean_all": "tf.reduce_mean(f)",
    "max_axis1": "tf.reduce_max(f, axis=1)",
    "max_axis0": "tf.reduce_max(f, axis=0)",
    "min_axis1": "tf.reduce_min(r, axis=1)",
    "prod_axis1": "tf.reduce_prod(f, axis=1)",
    "prod_axis0": "tf.reduce_prod(f, axis=0)",
    "any_axis1": "tf.reduce_any(r > 4, axis=1)",
    "all_axis1": "tf.reduce_all(r > 1, axis=1)",
    "nested_sum_axis0": "tf.reduce_sum(n3, axis=0)",
    "nested_max_axis0": "tf.reduce_max(n3, axis=0)",
    "nested_sum_axis1": "tf.reduce_sum(n3, axis=1)",
    "nested_sum_axis2": "tf.reduce_sum(n3, axis=2)",
    "nested_sum_axes01": "tf.reduce_sum(n3, axis=[0, 1])",
    "nested_sum_axes12": "tf.reduce_sum(n3, axis=[1, 2])",
    "inner_sum_axis2": "tf.reduce_sum(u, axis=2)",
    "inner_sum_axis1": "tf.reduce_sum(u, axis=1)",
    "math_reduce_sum": "tf.math.reduce_sum(r, 1)",
    # concat, stack, gather, shape ops
    "concat0": "tf.concat([r, r], axis=0)",
    "concat0_dense": "tf.concat([r, [[7, 8]]], axis=0)",
    "concat1": "tf.concat([r, r], axis=1)",
    "concat1_nested": "tf.concat([n3, n3], axis=1)",
    "concat_dtype_error": "tf.concat([r, tf.ragged.constant([[1.0]])], 0)",
    "stack0": "tf.stack([r, r])",
    "stack1": "tf.stack([r, r], axis=1)",
    "ragged_stack": "tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4]])])",
    "ragged_stack_dense": "tf.ragged.stack([[1, 2], [3, 4]], axis=1)",
    "ragged_stack_dense_rows": "tf.ragged.stack([tf.constant([1, 2]), tf.constant([3])])",
    "gather": "tf.gather(r, [3, 0, 3])",
    "gather_2d_indices": "tf.gather(r, [[1, 0], [3, 3]])",
    "gather_scalar": "tf.gather(r, 3)",
    "gather_nested": "tf.gather(n3, [1, 0])",
    "gather_ragged_indices": "tf.gather([10, 20, 30, 40], tf.ragged.constant([[1, 2], [3]]))",
    "gather_out_of_range_error": "tf.gather(r, [4])",
    "shape_op": "tf.shape(r)",
    "shape_op_nested": "tf.shape(n3)",
    "shape_op_dim0": "tf.shape(r)[0]",
    "shape_op_ragged_dim_error": "tf.shape(r)[1]",
    "shape_op_rank": "tf.shape(n3).rank",
    "size": "tf.size(r)",
    "rank": "tf.rank(n3)",
    "expand_dims0": "tf.expand_dims(r, 0)",
    "expand_dims1": "tf.expand_dims(r, 1)",
    "expand_dims2": "tf.expand_dims(r, 2)",
    # tf.ragged functions
    "range": "tf.ragged.range([3, 0, 2])",
    "range_limits": "tf.ragged.range([3, 0, 2], 5)",
    "range_deltas": "tf.ragged.range([0, 5], [10, 0], [3, -2])",
    "range_float": "tf.ragged.range([0.0, 1.0], 2.0, 0.5)",
    "range_shape_error": "tf.ragged.range([1, 2], [3, 4, 5])",
    "range_delta_zero_error": "tf.ragged.range([1], [3], [0])",
    "boolean_mask_dense_2d": "tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])",
    "boolean_mask_rows": "tf.ragged.boolean_mask(r, [True, False, False, True])",
    "boolean_mask_ragged": "tf.ragged.boolean_mask(r, r > 2)",
    "boolean_mask_nested": "tf.ragged.boolean_mask(n3, n3 > 1)",
    "boolean_mask_shape_error": "tf.ragged.boolean_mask([1, 2], [True])",
    "map_flat_values": "tf.ragged.map_flat_values(tf.one_hot, r, 7)",
    "map_flat_values_lambda": "tf.ragged.map_flat_values(lambda x: x * 2 + 1, r)",
    "map_flat_values_two": "tf.ragged.map_flat_values(tf.add, r, r)",
    "map_flat_values_rows_error": "tf.ragged.map_flat_values(lambda x: x[:1], r)",
    "row_splits_to_segment_ids": "tf.ragged.row_splits_to_segment_ids([0, 3, 3, 5])",
    "row_splits_to_segment_ids_int32": "tf.ragged.row_splits_to_segment_ids(tf.constant([0, 2, 3], tf.int32))",
    "segment_ids_to_row_splits": "tf.ragged.segment_ids_to_row_splits([0, 0, 0, 2, 2])",
    "segment_ids_to_row_splits_n": "tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=4, out_type=tf.int32)",
    "spec": "tf.RaggedTensorSpec([None, None], tf.int32)",
    "spec_ragged_rank": "tf.RaggedTensorSpec([2, None, 3], tf.float32, ragged_rank=1)",
    # strings
    "strings_split": "tf.strings.split(['a b', 'c'])",
    "strings_split_scalar": "tf.strings.split('a b')",
    "strings_split_2d": "tf.strings.split([['a b', 'c'], ['d', '']])",
    "strings_split_2d_shape": "tf.strings.split([['a b', 'c'], ['d', '']]).shape",
    "strings_split_ragged": "tf.strings.split(s)",
    "strings_length_ragged": "tf.strings.length(tf.strings.split(['ab c']))",
    "strings_upper_ragged": "tf.strings.upper(s)",
    "strings_substr_ragged": "tf.strings.substr(tf.strings.split(['hello world']), 0, 2)",
    "strings_unicode_roundtrip": "tf.strings.unicode_encode(tf.strings.unicode_decode(['ab', 'c'], 'UTF-8'), 'UTF-8')",
    "strings_unicode_decode_2d": "tf.strings.unicode_decode([['ab'], ['c']], 'UTF-8')",
    "strings_ngrams_ragged": "tf.strings.ngrams(tf.strings.split(['a b c', 'd']), 2)",
    "strings_bytes_split": "tf.strings.bytes_split(['ab', ''])",
    # more ops TensorFlow dispatches for RaggedTensors
    "tile_rows": "tf.tile(r, [2, 1])",
    "tile_within_rows": "tf.tile(r, [1, 2])",
    "tile_both": "tf.tile(r, [2, 3])",
    "tile_nested": "tf.tile(n3, [1, 2, 2])",
    "tile_inner": "tf.tile(u, [1, 1, 2])",
    "map_fn": "tf.map_fn(tf.math.square, r)",
    "map_fn_dense": "tf.map_fn(lambda x: tf.reduce_sum(x), r, fn_output_signature=tf.int32)",
    "map_fn_slice": "tf.map_fn(lambda x: x[:1], r)",
    "embedding_lookup": "tf.nn.embedding_lookup(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 0.0], [1.0, 1.0], [2.0, 2.0]]), r)",
    "strings_join": "tf.strings.join([s, s], separator='+')",
    "strings_join_scalar": "tf.strings.join([s, '!'])",
    "fill_concat": "tf.concat([tf.fill([s.nrows(), 1], '#'), s, tf.fill([s.nrows(), 1], '#')], axis=1)",
    "bigrams": "tf.strings.join([tf.concat([tf.fill([s.nrows(), 1], '#'), s], axis=1)[:, :-1], tf.concat([tf.fill([s.nrows(), 1], '#'), s], axis=1)[:, 1:]], separator='+')",
    "ones_like": "tf.ones_like(r)",
    "zeros_like": "tf.zeros_like(f)",
    "where": "tf.where(r > 2, r, 0)",
    "where_one_arg": "tf.where(r > 2)",
    "where_one_arg_nested": "tf.where(n3 > 1)",
    "one_hot": "tf.one_hot(r, 3)",
    "clip_by_value": "tf.clip_by_value(r, 2, 4)",
    "identity": "tf.identity(r)",
    "reduce_variance": "tf.math.reduce_variance(f, axis=1)",
    "reduce_std": "tf.math.reduce_std(f, axis=0)",
    "relu": "tf.nn.relu(f)",
    "activations": "[tf.nn.relu6(f), tf.nn.elu(f), tf.nn.selu(f), tf.nn.leaky_relu(f, alpha=0.1), tf.nn.gelu(f), tf.nn.silu(f)]",
    "round_sign_reciprocal": "[tf.round(f), tf.math.sign(f), tf.math.reciprocal(f)]",
    "squared_difference": "tf.math.squared_difference(f, f * 2.0)",
    "divide_no_nan": "tf.math.divide_no_nan(f, f - 3.0)",
    "nest_flatten": "tf.nest.flatten({'a': r, 'b': 1})",
    "nest_flatten_expand": "tf.nest.flatten({'a': n3, 'b': 1}, expand_composites=True)",
    "nest_map_expand": "tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, [r], expand_composites=True)",
    "nest_pack_expand": "tf.nest.pack_sequence_as(r, [tf.range(6) * 3, r.row_splits], expand_composites=True)",
    "reshape_dense": "tf.reshape(r, [-1])",
    "reshape_dense_2d": "tf.reshape(r, [3, 2])",
    "reshape_size_error": "tf.reshape(r, [4])",
    "is_tensor": "tf.is_tensor(r)",
    "io_ragged_feature": ("tf.io.parse_example([tf.train.Example(features=tf.train.Features(feature={'v': "
                          "tf.train.Feature(int64_list=tf.train.Int64List(value=v))})).SerializeToString() "
                          "for v in ([1, 2, 3], [4])], {'v': tf.io.RaggedFeature(tf.int64)})['v']"),
    # tf.data
    "data_slices": "list(tf.data.Dataset.from_tensor_slices(r))",
    "data_slices_spec": "tf.data.Dataset.from_tensor_slices(r).element_spec",
    "data_slices_nested": "list(tf.data.Dataset.from_tensor_slices(n3))",
    "data_batch": "list(tf.data.Dataset.from_tensor_slices(r).batch(3))",
    "data_batch_spec": "tf.data.Dataset.from_tensor_slices(r).batch(3).element_spec",
    "data_batch_tuple": "list(tf.data.Dataset.from_tensor_slices((r, [0, 1, 2, 3])).batch(3))",
    "data_unbatch": "list(tf.data.Dataset.from_tensor_slices(r).batch(3).unbatch())",
    "data_unbatch_spec": "tf.data.Dataset.from_tensor_slices(r).batch(3).unbatch().element_spec",
    "data_as_numpy": "[[a.tolist() for a in b] for b in tf.data.Dataset.from_tensor_slices(r).batch(2).as_numpy_iterator()]",
    "data_split_after_batch": "list(tf.data.Dataset.from_tensor_slices(['a b', 'c', 'd e f']).batch(2).map(tf.strings.split))",
    "data_map_rows_then_batch_error": "list(tf.data.Dataset.from_tensor_slices(r).map(lambda x: x * 2).batch(2))",
    "data_ragged_batch": "list(tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).ragged_batch(2))",
    "data_ragged_batch_spec": "tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).ragged_batch(2).element_spec",
}

# what tf.print writes (TensorFlow's ragged_tensor_to_string)
PRINTS = {
    "int": "[r]",
    "float_and_text": "['x', f, {'a': s}]",
    "quotes": "[tf.ragged.constant([[\"a'b\", 'c\\\\d'], []])]",
    "summarized": "[tf.ragged.range(tf.range(9))]",
    "nested": "[n3, u]",
    "bool": "[r > 2]",
}

# (setup name, function of the ragged tensor): the gradient of the function's sum with respect
# to the ragged tensor itself (a RaggedTensor, as TensorFlow gives it)
GRADS = {
    "square": ("f", "lambda x: x * x"),
    "mean_rows": ("f", "lambda x: tf.reduce_mean(x, axis=1)"),
    "max_rows": ("f", "lambda x: tf.reduce_max(x, axis=1)"),
    "max_columns": ("f", "lambda x: tf.reduce_max(x, axis=0)"),
    "prod_rows": ("f", "lambda x: tf.reduce_prod(x, axis=1)"),
    "sum_columns": ("f", "lambda x: tf.reduce_sum(x, axis=0) * tf.range(3, dtype=tf.float32)"),
    "to_tensor": ("f", "lambda x: x.to_tensor() * tf.constant([[1.0, 2.0, 3.0]])"),
    "slice_rows": ("f", "lambda x: tf.sin(x[1:, :2])"),
    "row": ("f", "lambda x: x[3] * 3.0"),
    "broadcast": ("f", "lambda x: x * tf.constant([[1.0], [2.0], [3.0], [4.0]])"),
    "concat": ("f", "lambda x: tf.concat([x, x * 2.0], axis=1)"),
    "gather": ("f", "lambda x: tf.gather(x, [3, 3, 0])"),
    "map_flat_values": ("f", "lambda x: tf.ragged.map_flat_values(tf.tanh, x)"),
}


def encode(x, depth=0):
    """``x`` as JSON-able data, the same for TensorFlow's and tapegrad's objects."""
    name = type(x).__name__
    if isinstance(x, BaseException):
        return {"error": name}
    if name == "RaggedTensor":
        return {"ragged": _plain(x.to_list()), "dtype": x.dtype.name, "shape": _shape(x.shape),
                "ragged_rank": x.ragged_rank, "splits_dtype": x.row_splits.dtype.name, "repr": repr(x)}
    if name == "TensorShape":
        return {"tensorshape": _shape(x)}
    if name in ("DynamicRaggedShape", "RaggedTensorSpec"):
        return {"repr": repr(x)}
    if name == "DType":
        return {"dtype": x.name}
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        v = x.numpy()
        return {"dtype": x.dtype.name, "shape": list(getattr(v, "shape", ())),
                "value": _plain(v.tolist() if hasattr(v, "tolist") else v)}
    if isinstance(x, (list, tuple)):
        return [encode(v, depth + 1) for v in x]
    if x is None or isinstance(x, (bool, int, float, str)):
        return {"py": x}
    return {"repr": repr(x)}


def _shape(s):
    try:
        return s.as_list()
    except ValueError:
        return None


def _plain(v):
    if isinstance(v, list):
        return [_plain(e) for e in v]
    if isinstance(v, bytes):
        return "b:" + v.decode("utf-8", "backslashreplace")
    return v


def run(expr, tf, env):
    """The encoded result of ``expr`` (or of the exception it raised)."""
    try:
        return encode(eval(expr, {"tf": tf, **env}))  # noqa: S307  (the cases above)
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return encode(e)


def setup(tf):
    return {k: eval(v, {"tf": tf}) for k, v in SETUP.items()}  # noqa: S307


def gradient(tf, name):
    """The value and the gradient (partition and dense flat values) of a GRADS case."""
    src, fn = GRADS[name]
    x = eval(SETUP[src], {"tf": tf})  # noqa: S307
    f = eval(fn, {"tf": tf})  # noqa: S307
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x.flat_values)
        y = f(x)
        loss = tf.reduce_sum(y.flat_values if type(y).__name__ == "RaggedTensor" else y)
    g = tape.gradient(loss, x.flat_values)
    as_ragged = tape.gradient(loss, x)
    return {"loss": float(loss.numpy()), "grad": tf.convert_to_tensor(g).numpy().tolist(),
            "ragged_grad_type": type(as_ragged).__name__,
            "ragged_grad_splits": [t.numpy().tolist() for t in as_ragged.nested_row_splits]}
