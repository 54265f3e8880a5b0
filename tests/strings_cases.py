"""The cases of tools/record_tf_strings.py, shared with tests/test_strings.py: each is a Python
expression run with ``tf`` bound to TensorFlow there and to tapegrad here. ``encode`` turns a
result (tensor, ragged tensor, nest, or the exception raised) into JSON-able data, the same way
on both sides."""

W = ["hello world", "  Tab\tand  spaces ", "", "ÉCOLE ß été", "a,b,,c", "日本語テキスト", "x"]
WS = repr(W)

CASES = {
    # tensors of strings
    "constant_scalar": "tf.constant('a')",
    "constant_vec": f"tf.constant({WS})",
    "constant_bytes": r"tf.constant([b'\xff\x00', b'ok'])",
    "constant_2d": "tf.constant([['a', 'bb'], ['ccc', '']])",
    "constant_shape": "tf.constant('ab', shape=[2, 2])",
    "constant_mixed": "tf.constant(['a', 1])",
    "constant_to_int": "tf.constant('a', tf.int32)",
    "constant_from_int": "tf.constant(3, tf.string)",
    "add": "tf.constant(['a', 'b']) + 'c'",
    "radd": "'c' + tf.constant(['a', 'b'])",
    "add_bcast": "tf.add(tf.constant([['a'], ['b']]), tf.constant(['x', 'y']))",
    "mul_error": "tf.constant('a') * 2",
    "sub_error": "tf.constant('a') - tf.constant('b')",
    "less_error": "tf.constant('a') < tf.constant('b')",
    "sum_error": "tf.reduce_sum(tf.constant(['a']))",
    "argmax_error": "tf.math.argmax(tf.constant(['a', 'b']))",
    "conj_error": "tf.math.conj(tf.constant(['a']))",
    "real_error": "tf.math.real(tf.constant(['a']))",
    "imag": "tf.math.imag(tf.constant(['a']))",
    "where_one_arg_error": "tf.where(tf.constant(['a', '']))",
    "count_nonzero": "tf.math.count_nonzero(tf.constant(['a', '', 'b']))",
    "cast_error": "tf.cast(tf.constant('1'), tf.float32)",
    "equal": "tf.equal(tf.constant(['a', 'é', '']), 'é')",
    "not_equal": "tf.constant(['a', 'b']) != tf.constant(['a', 'c'])",
    "reshape": "tf.reshape(tf.constant(['a', 'b', 'c', 'd']), [2, 2])",
    "concat": "tf.concat([tf.constant(['a']), tf.constant(['b', 'c'])], 0)",
    "stack": "tf.stack([tf.constant('a'), tf.constant('b')])",
    "gather": "tf.gather(tf.constant(['a', 'b', 'c']), [2, 0, 2])",
    "gather_scalar": "tf.gather(tf.constant(['a', 'b', 'c']), 1)",
    "where": "tf.where([True, False], tf.constant(['a', 'b']), tf.constant(['x', 'y']))",
    "unique": "tf.unique(tf.constant(['b', 'a', 'b', 'c', 'a']))",
    "boolean_mask": "tf.boolean_mask(tf.constant(['a', 'b', 'c']), [True, False, True])",
    "identity": "tf.identity(tf.constant(['a']))",
    "fill": "tf.fill([2, 3], 'z')",
    "zeros": "tf.zeros([2], tf.string)",
    "zeros_like": "tf.zeros_like(tf.constant(['a', 'b']))",
    "ones_error": "tf.ones([2], tf.string)",
    "index": "tf.constant(['a', 'b', 'c'])[1]",
    "slice": "tf.constant([['a', 'b'], ['c', 'd']])[:, 1]",
    "reverse": "tf.reverse(tf.constant(['a', 'b', 'c']), [0])",
    "tile": "tf.tile(tf.constant(['a', 'b']), [2])",
    "pad": "tf.pad(tf.constant(['a']), [[1, 2]])",
    "pad_value": "tf.pad(tf.constant(['a']), [[1, 0]], constant_values='-')",
    "size_rank_shape": ("[tf.size(tf.constant([['a'], ['b']])), tf.rank(tf.constant('a')), "
                        "tf.shape(tf.constant(['a', 'b']))]"),
    "expand_squeeze": "tf.squeeze(tf.expand_dims(tf.constant(['a', 'b']), 0))",
    "transpose": "tf.transpose(tf.constant([['a', 'b'], ['c', 'd']]))",
    "split_op": "tf.split(tf.constant(['a', 'b', 'c', 'd']), 2)",
    "unstack": "tf.unstack(tf.constant(['a', 'b']))",
    "variable": "tf.Variable(['a', 'b']).assign(['c', 'd'])",
    # tf.strings
    "length": f"tf.strings.length({WS})",
    "length_utf8": f"tf.strings.length({WS}, unit='UTF8_CHAR')",
    "length_invalid_utf8": r"tf.strings.length([b'\xff\xc3', b'\xc3\xa9'], unit='UTF8_CHAR')",
    "lower": f"tf.strings.lower({WS})",
    "upper": f"tf.strings.upper({WS})",
    "lower_utf8": f"tf.strings.lower({WS}, encoding='utf-8')",
    "upper_utf8": f"tf.strings.upper({WS}, encoding='utf-8')",
    "strip": f"tf.strings.strip({WS})",
    "strip_ws": r"tf.strings.strip(['\n\x0b\x0c\r a \t', ' '])",
    "split_ws": f"tf.strings.split({WS}).to_list()",
    "split_sep": "tf.strings.split(['a,b,,c', '', ',', 'abc'], sep=',').to_list()",
    "split_sep_max": "tf.strings.split(['a,b,,c', 'x,y'], sep=',', maxsplit=1).to_list()",
    "split_multi_sep": "tf.strings.split(['1<>2<><>3'], sep='<>').to_list()",
    "split_scalar": "tf.strings.split('a b  c')",
    "split_to_tensor": "tf.strings.split(['a b', 'c', '']).to_tensor()",
    "split_to_tensor_default": "tf.strings.split(['a b', 'c d e']).to_tensor(default_value='<pad>')",
    "split_to_tensor_shape": "tf.strings.split(['a b', 'c d e']).to_tensor(default_value='-', shape=[3, 2])",
    "split_ragged_parts": ("[tf.strings.split(['a b', 'c']).values, tf.strings.split(['a b', 'c']).row_splits, "
                           "tf.strings.split(['a b', 'c']).row_lengths()]"),
    "split_ragged_shape": "tf.strings.split(['a b', 'c']).shape.as_list()",
    "split_ragged_row": "tf.strings.split(['a b', 'c'])[0]",
    "ngrams_dense": "tf.strings.ngrams(tf.constant([['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'h']]), 2)",
    "ngrams_widths": ("tf.strings.ngrams(tf.constant([['a', 'b', 'c', 'd'], ['e', 'f', 'g', 'h']]), [1, 3], "
                      "separator='_')"),
    "ngrams_ragged": "tf.strings.ngrams(tf.strings.split(['a b c', 'd', '']), 2).to_list()",
    "ngrams_pad": "tf.strings.ngrams(tf.strings.split(['a b c', 'd', '']), 2, pad_values='#').to_list()",
    "ngrams_pad_pair": ("tf.strings.ngrams(tf.strings.split(['a b c', 'd', '']), 3, pad_values=('<', '>'), "
                        "padding_width=1).to_list()"),
    "ngrams_preserve": ("tf.strings.ngrams(tf.strings.split(['a b c', 'd', '']), 3, "
                        "preserve_short_sequences=True).to_list()"),
    "ngrams_preserve_pad": ("tf.strings.ngrams(tf.strings.split(['a b c d e', 'd', '']), [4, 5], pad_values='#', "
                            "padding_width=1, preserve_short_sequences=True).to_list()"),
    "ngrams_1d": "tf.strings.ngrams(tf.constant(['a', 'b', 'c']), 2)",
    "ngrams_short_1d": "tf.strings.ngrams(tf.constant(['a']), 2)",
    "join": "tf.strings.join([tf.constant(['a', 'b']), tf.constant(['x', 'y'])], separator='-')",
    "join_scalar": "tf.strings.join(['a', tf.constant(['x', 'y']), 'z'])",
    "join_empty_sep": "tf.strings.join(['a', 'b'])",
    "reduce_join": "tf.strings.reduce_join([['a', 'b'], ['c', 'd']])",
    "reduce_join_axis0": "tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=0, separator='|')",
    "reduce_join_axis1_keep": "tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=-1, keepdims=True)",
    "reduce_join_1d": "tf.strings.reduce_join(['x', 'y', 'z'], separator=', ')",
    "regex_replace": f"tf.strings.regex_replace({WS}, '[aeiou]', '_')",
    "regex_replace_once": f"tf.strings.regex_replace({WS}, 'l+', 'L', replace_global=False)",
    "regex_replace_group": r"tf.strings.regex_replace(['john smith', 'ada lovelace'], r'(\w+) (\w+)', r'\2, \1')",
    "regex_replace_whole": r"tf.strings.regex_replace(['abc'], r'b', r'[\0]')",
    "regex_replace_punct": r"tf.strings.regex_replace(['Hello, World! (ok)'], r'[^\w\s]', '')",
    "regex_replace_utf8": "tf.strings.regex_replace(['été'], '.', 'x')",
    "regex_full_match": f"tf.strings.regex_full_match({WS}, '[a-z ]+')",
    "regex_full_match_dot": "tf.strings.regex_full_match(['abc', 'ab', 'é'], '..')",
    "substr": "tf.strings.substr(['hello', 'world'], 1, 3)",
    "substr_neg": "tf.strings.substr(['hello', 'world'], -3, 2)",
    "substr_long": "tf.strings.substr(['hello'], 2, 10)",
    "substr_vec": "tf.strings.substr(['hello', 'world'], [0, 1], [1, 2])",
    "substr_utf8": "tf.strings.substr(['été ok'], 1, 3, unit='UTF8_CHAR')",
    "substr_error": "tf.strings.substr(['abc'], 5, 1)",
    "to_number": "tf.strings.to_number(['1.5', '-2', '1e3', ' 7 ', 'inf', '-0'])",
    "to_number_forms": "tf.strings.to_number(['0x10', '-0x1p-2', 'nan', '-Infinity', '1.5e-3'])",
    "to_number_bad_forms": "[tf.strings.to_number(s) for s in ['1_0', '', '1e', '--1']]",
    "to_number_f64": "tf.strings.to_number(['0.1', '1e-300'], tf.float64)",
    "to_number_int": "tf.strings.to_number(['12', '-3', '+4'], tf.int32)",
    "to_number_int64": "tf.strings.to_number(['9007199254740993'], tf.int64)",
    "to_number_error": "tf.strings.to_number(['abc'])",
    "to_number_int_error": "tf.strings.to_number(['1.5'], tf.int32)",
    "as_string_float": "tf.strings.as_string([1.5, -0.25, 3.0, 1e10, 1e-7])",
    "as_string_int": "tf.strings.as_string([1, -20, 300])",
    "as_string_bool": "tf.strings.as_string([True, False])",
    "as_string_precision": "tf.strings.as_string([3.14159, 2.0], precision=2)",
    "as_string_scientific": "tf.strings.as_string([3.14159, 1234.5], scientific=True)",
    "as_string_shortest": "tf.strings.as_string([3.14159, 0.1, 1e20], shortest=True)",
    "as_string_width": "tf.strings.as_string([7, 42], width=4)",
    "as_string_fill": "tf.strings.as_string([7, 42], width=4, fill='0')",
    "as_string_f64": "tf.strings.as_string(tf.constant([0.1, 2.5], tf.float64))",
    "as_string_top": "tf.as_string(tf.constant(5))",
    "format": "tf.strings.format('x={} y={}', (tf.constant(3), tf.constant([1.5, 2.0])))",
    "format_one": "tf.strings.format('v: {}', tf.constant(['a', 'b']))",
    "format_summarize": "tf.strings.format('{}', tf.range(10), summarize=2)",
    "format_placeholder": "tf.strings.format('[%]', tf.constant(1), placeholder='%')",
    "bytes_split": "tf.strings.bytes_split(['ab', '', 'é']).to_list()",
    "bytes_split_scalar": "tf.strings.bytes_split('abc')",
    "unicode_decode": "tf.strings.unicode_decode(['été', 'ab', ''], 'UTF-8').to_list()",
    "unicode_decode_scalar": "tf.strings.unicode_decode('日本', 'UTF-8')",
    "unicode_decode_invalid": r"tf.strings.unicode_decode([b'a\xffb', b'\xc3', b'\xe6\x97x'], 'UTF-8').to_list()",
    "unicode_decode_ignore": r"tf.strings.unicode_decode([b'a\xffb'], 'UTF-8', errors='ignore').to_list()",
    "unicode_decode_strict": r"tf.strings.unicode_decode([b'a\xffb'], 'UTF-8', errors='strict')",
    "unicode_encode": "tf.strings.unicode_encode([104, 233, 26085], 'UTF-8')",
    "unicode_encode_2d": "tf.strings.unicode_encode([[104, 105], [233, 33]], 'UTF-8')",
    "unicode_encode_ragged": "tf.strings.unicode_encode(tf.strings.unicode_decode(['été', 'ab'], 'UTF-8'), 'UTF-8')",
    "unicode_split": "tf.strings.unicode_split(['été', 'ab'], 'UTF-8').to_list()",
    "hash_fast": f"tf.strings.to_hash_bucket_fast({WS}, 1000)",
    "hash_fast_2d": "tf.strings.to_hash_bucket_fast([['a', 'b'], ['c', 'd']], 7)",
    "hash_fast_long": "tf.strings.to_hash_bucket_fast(['x' * 100, 'abc' * 50, 'q' * 64, 'w' * 65], 2 ** 62)",
    "hash_legacy": f"tf.strings.to_hash_bucket({WS}, 1000)",
    "hash_legacy_big": "tf.strings.to_hash_bucket(['', 'x' * 17, bytes(range(256))], 2 ** 62)",
    "hash_strong": f"tf.strings.to_hash_bucket_strong({WS}, 1000, [1, 2])",
    "hash_strong_big": "tf.strings.to_hash_bucket_strong(['a', 'b' * 20], 2 ** 62, [123456789, 987654321])",
    "unsorted_segment_join": "tf.strings.unsorted_segment_join(['a', 'b', 'c', 'd'], [1, 0, 1, 3], 4, separator=':')",
    "unsorted_segment_join_2d": "tf.strings.unsorted_segment_join([['a', 'b'], ['c', 'd']], [0, 0], 1)",
    # gradients, functions, data
    "watch_string": "tf.GradientTape().__enter__().watch(tf.constant('a'))",
    "function_signature": ("tf.function(lambda s: tf.strings.length(s) + 1, input_signature=[tf.TensorSpec("
                           "[None], tf.string)])(tf.constant(['ab', 'cde']))"),
    "function_double": "tf.function(lambda a: a + a)(tf.constant('ab'))",
    "dataset_spec": "tf.data.Dataset.from_tensor_slices(['a b', 'c']).element_spec.dtype.name",
    "dataset_map": ("list(tf.data.Dataset.from_tensor_slices(['a b', 'c']).map(lambda s: tf.strings.length(s))"
                    ".as_numpy_iterator())"),
    "dataset_map_split": ("list(tf.data.Dataset.from_tensor_slices(['a b', 'c d']).map(lambda s: tf.strings.split(s))"
                          ".as_numpy_iterator())"),
    "dataset_batch": "list(tf.data.Dataset.from_tensor_slices(['a', 'b', 'c']).batch(2).as_numpy_iterator())",
    "dataset_filter": ("list(tf.data.Dataset.from_tensor_slices(tf.constant(['a b', 'c', 'dd e f']))"
                       ".filter(lambda s: tf.strings.length(s) > 1).as_numpy_iterator())"),
    "dataset_padded_split": ("list(tf.data.Dataset.from_tensor_slices(['a b', 'c', 'dd e f'])"
                             ".map(lambda s: tf.strings.split(s)).padded_batch(2).as_numpy_iterator())"),
    "dataset_batch_pairs": ("list(tf.data.Dataset.from_tensor_slices(['a b', 'c']).map(lambda s: "
                            "(s, tf.strings.length(s))).batch(2).as_numpy_iterator())"),
    "dataset_unbatch": ("list(tf.data.Dataset.from_tensor_slices(['a', 'b', 'c']).batch(2).unbatch()"
                        ".as_numpy_iterator())"),
    "dataset_upper": "[t.numpy() for t in tf.data.Dataset.from_tensor_slices(['ab', 'c']).map(tf.strings.upper)]",
}

PRINTS = {  # tf.print cases: the arguments, as an expression giving a tuple
    "vector": "(tf.constant(['ab', 'é', '']),)",
    "scalar_alone": "(tf.constant('x y'),)",
    "scalar_with_text": "('v:', tf.constant('x y'))",
    "escapes": r"""(tf.constant(['q"\'\\', 'a\nb\t', '\x01\x7f']),)""",
    "summarized": "(tf.constant([str(i) for i in range(9)]),)",
    "matrix": "(tf.constant([['a', 'b'], ['c', 'd']]),)",
    "nested": "({'k': tf.constant(['a'])},)",
}

REPRS = {
    "scalar": "tf.constant('a')",
    "vector": "tf.constant(['ab', 'é', ''])",
    "matrix": "tf.constant([['a', 'b'], ['c', 'd']])",
}


def encode(x, np, depth=0):
    """``x`` as JSON-able data: bytes as latin-1 text in {"b": ...}."""
    if isinstance(x, BaseException):
        return {"error": type(x).__name__}
    if isinstance(x, bytes):
        return {"b": x.decode("latin-1")}
    if hasattr(x, "dtype") and hasattr(x, "numpy") and hasattr(x, "shape") and not hasattr(x, "row_splits"):
        v = np.asarray(x.numpy())
        return {"dtype": x.dtype.name, "shape": list(v.shape), "value": encode(v.tolist(), np, depth + 1)}
    if hasattr(x, "row_splits"):
        return {"ragged": encode(x.to_list(), np, depth + 1)}
    if isinstance(x, np.ndarray):
        return {"array": encode(x.tolist(), np, depth + 1), "dtype": str(x.dtype) if x.dtype != object else "object"}
    if isinstance(x, np.generic):
        return encode(x.item(), np, depth + 1)
    if isinstance(x, (list, tuple)):
        return [encode(v, np, depth + 1) for v in x]
    if isinstance(x, dict):
        return {str(k): encode(v, np, depth + 1) for k, v in x.items()}
    if isinstance(x, float):
        return {"f": repr(x)}
    return x


def run(expr, tf, np):
    """The encoded result of ``expr`` (or of the exception it raised)."""
    try:
        return encode(eval(expr, {"tf": tf, "np": np}), np)
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return encode(e, np)
