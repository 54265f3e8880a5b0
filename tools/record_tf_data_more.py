"""Record what TensorFlow's tf.data gives for the cases tests/test_data_more.py replays on tapegrad:
group_by_window, bucket_by_sequence_length, random, sample_from_datasets, choose_from_datasets,
get_single_element, unique, rebatch, options, the tf.data.experimental functions and when a
shuffle().repeat() draws its next pass's seeds (issue #24).

Run with a Python that has TensorFlow 2.21 (never needed by tapegrad or by CI; the tests read
only the JSON this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_data_more.py

Cases are snippets as in tools/record_tf_data.py (whose ``encode`` and ``run_case`` they share),
written to ``tests/fixtures/tf_data_more.json``. ``--only SUBSTRING`` prints the matching cases'
results without writing.
"""
import os

import record_tf_data  # tools/record_tf_data.py (this script's folder is on sys.path)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_data_more.json")

GW = "lambda k, w: w.batch(3)"
LENS = "D.from_tensor_slices(np.array([1, 5, 3, 2, 7, 4, 6, 1, 8, 2], np.int64)).map(lambda n: tf.fill([n], n))"

CASES = {
    # group_by_window
    "gbw_basic": f"out = el(D.range(10).group_by_window(lambda x: x % 2, {GW}, window_size=3))",
    "gbw_flush_sorted": ("out = el(D.from_tensor_slices(np.array([5, 3, 9, 1, 5, 7], np.int64))"
                         ".group_by_window(lambda x: x % 4, lambda k, w: w.batch(10), window_size=5))"),
    "gbw_size_func": ("out = el(D.range(12).group_by_window(lambda x: x % 3, lambda k, w: w.batch(5),"
                      " window_size_func=lambda k: k + 1))"),
    "gbw_reduce_uses_key": ("out = el(D.range(8).group_by_window(lambda x: x % 2,"
                            " lambda k, w: w.map(lambda v: v * 10 + k), window_size=2))"),
    "gbw_spec": f"out = D.range(10).group_by_window(lambda x: x % 2, {GW}, window_size=3).element_spec",
    "gbw_spec_tuple": ("out = D.from_tensor_slices((np.arange(6), np.ones((6, 2), np.float32)))"
                       ".group_by_window(lambda a, b: a % 2, lambda k, w: w.batch(2), window_size=2).element_spec"),
    "gbw_tuple": ("out = el(D.from_tensor_slices((np.arange(6), np.arange(6.0, dtype=np.float32)))"
                  ".group_by_window(lambda a, b: a % 3, lambda k, w: w.batch(2), window_size=2))"),
    "gbw_cardinality": f"out = D.range(10).group_by_window(lambda x: x % 2, {GW}, window_size=3).cardinality()",
    "gbw_both_sizes": f"out = D.range(4).group_by_window(lambda x: x, {GW}, window_size=2, window_size_func=lambda k: k)",
    "gbw_no_size": f"out = D.range(4).group_by_window(lambda x: x, {GW})",
    "gbw_int32_key": ("out = el(D.from_tensor_slices([1, 2, 3]).group_by_window(lambda x: x % 2, "
                      "lambda k, w: w.batch(2), window_size=2))"),
    "gbw_zero_size": f"out = el(D.range(4).group_by_window(lambda x: x % 2, {GW}, window_size=0))",
    "gbw_not_dataset": "out = D.range(4).group_by_window(lambda x: x % 2, lambda k, w: k, window_size=2)",
    "gbw_shuffled": ("out = el(D.range(20).shuffle(20, seed=3).group_by_window(lambda x: x % 3,"
                     " lambda k, w: w.batch(4), window_size=4))"),
    "gbw_iterate_twice": ("ds = D.range(7).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)\n"
                          "out = (el(ds), el(ds))"),
    # bucket_by_sequence_length
    "bucket_padded": f"ds = {LENS}.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2])\n"
                     "out = (el(ds), ds.element_spec)",
    "bucket_to_boundary": (f"ds = {LENS}.filter(lambda x: tf.shape(x)[0] < 6)"
                           ".bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 3, 2],"
                           " pad_to_bucket_boundary=True)\nout = (el(ds), ds.element_spec)"),
    "bucket_to_boundary_last": (f"ds = {LENS}.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 6], [2, 3, 2],"
                                " pad_to_bucket_boundary=True)\nout = el(ds)"),
    "bucket_no_padding": ("ds = D.range(10).map(lambda x: (x, tf.fill([2], x)))"
                          ".bucket_by_sequence_length(lambda a, b: a, [4], [3, 2], no_padding=True)\n"
                          "out = (el(ds), ds.element_spec)"),
    "bucket_drop_remainder": (f"ds = {LENS}.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [2, 3],"
                              " drop_remainder=True)\nout = (el(ds), ds.element_spec)"),
    "bucket_padding_values": (f"ds = {LENS}.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [3, 3],"
                              " padding_values=np.int64(-1))\nout = el(ds)"),
    "bucket_padded_shapes": (f"ds = {LENS}.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [4], [3, 3],"
                             " padded_shapes=tf.TensorShape([9]))\nout = (el(ds), ds.element_spec)"),
    "bucket_dict": ("ds = D.from_tensor_slices({'n': np.array([1, 4, 2, 5], np.int64)})"
                    ".map(lambda d: {'x': tf.fill([d['n']], 1.0), 'n': d['n']})"
                    ".bucket_by_sequence_length(lambda d: d['n'], [3], [2, 2])\nout = (el(ds), ds.element_spec)"),
    "bucket_no_padding_int32": ("ds = D.range(10).map(lambda x: (x, tf.fill([2], x)))"
                                ".bucket_by_sequence_length(lambda a, b: tf.cast(a, tf.int32), [4], [3, 2], no_padding=True)\n"
                                "out = (el(ds), ds.element_spec)"),
    "bucket_dict_int32": ("ds = D.from_tensor_slices({'n': np.array([1, 4, 2, 5], np.int64)})"
                          ".map(lambda d: {'x': tf.fill([d['n']], 1.0), 'n': d['n']})"
                          ".bucket_by_sequence_length(lambda d: tf.shape(d['x'])[0], [3], [2, 2])\n"
                          "out = (el(ds), ds.element_spec)"),
    "bucket_python_int_length": "out = el(D.range(5).map(lambda x: tf.fill([x], x)).bucket_by_sequence_length(lambda x: 2, [3], [2, 2]))",
    "bucket_float_length": ("out = el(D.range(5).map(lambda x: tf.fill([x], x))"
                            ".bucket_by_sequence_length(lambda x: tf.cast(tf.shape(x)[0], tf.float32), [3], [2, 2]))"),
    "bucket_bad_sizes": "out = D.range(3).bucket_by_sequence_length(lambda x: x, [3], [1, 2, 3])",
    # random
    "random_seeded": "out = el(D.random(seed=4).take(6))",
    "random_same_each_epoch": "ds = D.random(seed=7).take(4)\nout = (el(ds), el(ds))",
    "random_rerandomize": "ds = D.random(seed=7, rerandomize_each_iteration=True).take(4)\nout = (el(ds), el(ds))",
    "random_repeat_rerandomize": "out = el(D.random(seed=3, rerandomize_each_iteration=True).take(3).repeat(3))",
    "random_global_seed": "tf.random.set_seed(11)\nout = (el(D.random().take(3)), el(D.random().take(3)))\ntf.random.set_seed(None)",
    "random_global_and_op_seed": "tf.random.set_seed(11)\nout = el(D.random(seed=2).take(3))\ntf.random.set_seed(None)",
    "random_spec_cardinality": "out = (D.random(seed=1).element_spec, D.random(seed=1).cardinality())",
    # element_spec runs no map function in TF (a trace): the Variable a function updates stays put
    # a function's random kernels: one instance per iterator, whose passes (repeat) go on drawing; a
    # tf.function called in it draws from that instance's kernels, apart from its eager calls
    "map_random_repeat_goes_on": ("tf.random.set_seed(3)\nds = D.range(2).map(lambda x: tf.cast(x, tf.float32)"
                                  " + tf.random.uniform(()))\nout = (el(ds.repeat(2)), el(ds.batch(1).repeat(2)), el(ds))\n"
                                  "tf.random.set_seed(None)"),
    "map_nested_function_random": ("tf.random.set_seed(3)\n@tf.function\ndef f(x):\n    return x + tf.random.uniform(())\n"
                                   "first = [f(tf.constant(0.0)), f(tf.constant(0.0))]\n"
                                   "ds = D.range(3).map(lambda x: f(tf.cast(x, tf.float32)))\n"
                                   "out = (first, el(ds), el(ds.repeat(2)), f(tf.constant(0.0)))\ntf.random.set_seed(None)"),
    "map_nested_function_traced_in_map": ("tf.random.set_seed(3)\n@tf.function\ndef g(x):\n    return x + tf.random.uniform(())\n"
                                          "ds = D.range(3).map(lambda x: g(tf.cast(x, tf.float32)))\n"
                                          "out = (el(ds), el(ds), g(tf.constant(0.0)), g(tf.constant(0.0)))\n"
                                          "tf.random.set_seed(None)"),
    "map_variable_spec_first": ("v = tf.Variable(np.int64(0))\nds = D.range(3).map(lambda x: x * 10 + v.assign_add(1))\n"
                                "spec = ds.batch(2).element_spec\nout = (v.numpy(), el(ds), v.numpy(), spec)"),
    # sample_from_datasets
    "sample_uniform": "out = el(D.sample_from_datasets([D.range(5), D.range(100, 105)], seed=1))",
    "sample_weights": "out = el(D.sample_from_datasets([D.range(6), D.range(100, 106)], weights=[0.2, 0.8], seed=3))",
    "sample_three": ("out = el(D.sample_from_datasets([D.range(4), D.range(10, 14), D.range(20, 24)],"
                     " weights=[0.5, 0.3, 0.2], seed=5))"),
    "sample_float64_weights": ("out = el(D.sample_from_datasets([D.range(4), D.range(10, 14)],"
                               " weights=np.array([0.3, 0.7]), seed=9))"),
    "sample_tensor_weights": ("out = el(D.sample_from_datasets([D.range(4), D.range(10, 14)],"
                              " weights=tf.constant([0.6, 0.4]), seed=2))"),
    "sample_stop_on_empty": ("out = el(D.sample_from_datasets([D.range(3), D.range(100, 110)], seed=1,"
                             " stop_on_empty_dataset=True))"),
    "sample_zero_weight": "out = el(D.sample_from_datasets([D.range(3), D.range(100, 103)], weights=[0.0, 1.0], seed=1))",
    "sample_all_zero": "out = el(D.sample_from_datasets([D.range(3), D.range(100, 103)], weights=[0.0, 0.0], seed=1))",
    "sample_one": "out = el(D.sample_from_datasets([D.range(3)], seed=1))",
    "sample_repeat_same": "ds = D.sample_from_datasets([D.range(4), D.range(10, 14)], seed=8)\nout = (el(ds), el(ds))",
    "sample_rerandomize": ("ds = D.sample_from_datasets([D.range(4), D.range(10, 14)], seed=8,"
                           " rerandomize_each_iteration=True)\nout = (el(ds), el(ds))"),
    "sample_global_seed": ("tf.random.set_seed(5)\nout = el(D.sample_from_datasets([D.range(4), D.range(10, 14)]))\n"
                           "tf.random.set_seed(None)"),
    "sample_weights_dataset": ("w = D.from_tensor_slices(np.array([[0.9, 0.1], [0.1, 0.9]] * 4, np.float32))\n"
                               "out = el(D.sample_from_datasets([D.range(10), D.range(100, 110)], weights=w, seed=4))"),
    "sample_spec_cardinality": ("ds = D.sample_from_datasets([D.range(4).batch(2), D.range(10, 13).batch(3)], seed=1)\n"
                                "out = (ds.element_spec, ds.cardinality(),"
                                " D.sample_from_datasets([D.range(4), D.range(3).repeat()], seed=1).cardinality())"),
    "sample_empty_list": "out = D.sample_from_datasets([])",
    "sample_bad_length": "out = D.sample_from_datasets([D.range(3), D.range(3)], weights=[1.0])",
    "sample_int_weights": "out = D.sample_from_datasets([D.range(3), D.range(3)], weights=[1, 2])",
    "sample_incompatible": "out = D.sample_from_datasets([D.range(3), D.from_tensor_slices([1.0])])",
    "sample_dict": ("out = el(D.sample_from_datasets([D.from_tensor_slices({'a': [1, 2]}),"
                    " D.from_tensor_slices({'a': [7, 8]})], seed=6))"),
    "sample_long": "out = el(D.sample_from_datasets([D.range(40), D.range(100, 140)], weights=[0.3, 0.7], seed=12))",
    # choose_from_datasets
    "choose_basic": ("out = el(D.choose_from_datasets([D.from_tensors('foo').repeat(), D.from_tensors('bar').repeat(),"
                     " D.from_tensors('baz').repeat()], D.range(3).repeat(3)))"),
    "choose_stop": "out = el(D.choose_from_datasets([D.range(2), D.range(10, 15)], D.from_tensor_slices(np.array([0, 1, 0, 0, 1], np.int64))))",
    "choose_no_stop": ("out = el(D.choose_from_datasets([D.range(2), D.range(10, 15)],"
                       " D.from_tensor_slices(np.array([0, 1, 0, 0, 1, 1], np.int64)), stop_on_empty_dataset=False))"),
    "choose_out_of_range": "out = el(D.choose_from_datasets([D.range(2), D.range(10, 15)], D.range(3)))",
    "choose_int32": "out = D.choose_from_datasets([D.range(2)], D.from_tensor_slices([0, 0]))",
    "choose_not_dataset": "out = D.choose_from_datasets([D.range(2)], [0, 0])",
    "choose_empty": "out = D.choose_from_datasets([], D.range(2))",
    "choose_spec_cardinality": ("ds = D.choose_from_datasets([D.range(2).map(lambda x: tf.fill([x], x)),"
                                " D.range(3).map(lambda x: tf.fill([2], x))], D.range(2))\n"
                                "out = (ds.element_spec, ds.cardinality())"),
    # get_single_element
    "single": "out = D.range(5).batch(5).get_single_element()",
    "single_tuple": "out = D.from_tensors((1, [2.0, 3.0])).get_single_element()",
    "single_empty": "out = D.range(0).get_single_element()",
    "single_many": "out = D.range(2).get_single_element()",
    # unique
    "unique_int32": "out = el(D.from_tensor_slices([1, 37, 2, 37, 2, 1]).unique())",
    "unique_strings": "out = el(D.from_tensor_slices(['a', 'b', 'a', 'c', 'b']).unique())",
    "unique_vectors": "out = el(D.from_tensor_slices(np.array([[1, 2], [1, 2], [2, 1]], np.int64)).unique())",
    "unique_float": "out = D.from_tensor_slices([1.0]).unique()",
    "unique_tuple": "out = el(D.from_tensor_slices(([1, 1], [2, 2])).unique())",
    "unique_cardinality": "out = D.range(4).unique().cardinality()",
    # rebatch
    "rebatch_basic": "ds = D.range(10).batch(4).rebatch(3)\nout = (el(ds), ds.element_spec)",
    "rebatch_drop": "ds = D.range(10).batch(4).rebatch(3, drop_remainder=True)\nout = (el(ds), ds.element_spec)",
    "rebatch_divides": "ds = D.range(12).batch(4, drop_remainder=True).rebatch(2)\nout = (el(ds), ds.element_spec)",
    "rebatch_list": "ds = D.range(12).batch(6).rebatch([1, 2, 3])\nout = (el(ds), ds.element_spec)",
    "rebatch_tuple": "ds = D.from_tensor_slices((np.arange(5), np.arange(10).reshape(5, 2))).batch(2).rebatch(3)\nout = el(ds)",
    "rebatch_scalar": "out = D.range(4).rebatch(2)",
    "rebatch_cardinality": "out = D.range(10).batch(4).rebatch(3).cardinality()",
    # options
    "options_deterministic": ("o = tf.data.Options()\no.deterministic = False\n"
                              "out = D.range(3).with_options(o).map(lambda x: x).options().deterministic"),
    "options_merge": ("a = tf.data.Options()\na.deterministic = False\nb = tf.data.Options()\nb.deterministic = True\n"
                      "out = D.range(3).with_options(a).with_options(b).options().deterministic"),
    # rejection_resample
    "resample_known_initial": ("ds = D.from_tensor_slices(np.array([0, 0, 0, 1] * 25, np.int64))"
                               ".rejection_resample(lambda x: x, [0.5, 0.5], initial_dist=[0.75, 0.25], seed=1)\n"
                               "out = (el(ds), ds.element_spec)"),
    "resample_estimated": ("ds = D.from_tensor_slices(np.array([0, 0, 0, 1, 2] * 20, np.int64))"
                           ".rejection_resample(lambda x: x, [0.2, 0.3, 0.5], seed=3)\nout = el(ds)"),
    "resample_tuple": ("ds = D.from_tensor_slices((np.array([0, 1, 1, 1] * 10, np.int32), np.arange(40.0, dtype=np.float32)))"
                       ".rejection_resample(lambda c, x: c, [0.5, 0.5], initial_dist=[0.25, 0.75], seed=2)\n"
                       "out = (el(ds), ds.element_spec)"),
    "resample_identity": ("ds = D.range(6).rejection_resample(lambda x: x % 2, [0.5, 0.5], initial_dist=[0.5, 0.5], seed=2)\n"
                          "out = el(ds)"),
    "resample_apply": ("ds = D.from_tensor_slices(np.array([0, 1, 1, 1] * 10, np.int64)).apply("
                       "tf.data.experimental.rejection_resample(lambda x: x, [0.5, 0.5], seed=7))\nout = el(ds)"),
    # sparse_batch / dense_to_sparse_batch
    "sparse_batch": ("ds = D.range(1, 5).map(lambda n: tf.fill([n], n)).sparse_batch(3, [5])\n"
                     "out = ([(s.indices, s.values, s.dense_shape) for s in ds], repr(ds.element_spec))"),
    "sparse_batch_negative_dim": "out = D.range(1, 5).map(lambda n: tf.fill([n], n)).sparse_batch(2, [-1])",
    "sparse_batch_unknown_dim": ("ds = D.range(1, 5).map(lambda n: tf.fill([n], n)).sparse_batch(2, [None])\n"
                                 "out = ([(s.indices, s.values, s.dense_shape) for s in ds], repr(ds.element_spec))"),
    "sparse_batch_2d": ("ds = D.from_tensor_slices(np.arange(12).reshape(3, 2, 2)).apply("
                        "tf.data.experimental.dense_to_sparse_batch(2, [2, 3]))\n"
                        "out = [(s.indices, s.values, s.dense_shape) for s in ds]"),
    "sparse_batch_too_big": "ds = D.range(1, 5).map(lambda n: tf.fill([n], n)).sparse_batch(2, [2])\nout = [s.values for s in ds]",
    "sparse_batch_bad_rank": "ds = D.range(1, 5).sparse_batch(2, [2])\nout = [s.values for s in ds]",
    # experimental
    "exp_assert_cardinality": ("ds = D.range(10).filter(lambda x: x < 5).apply(tf.data.experimental.assert_cardinality(5))\n"
                               "out = (el(ds), ds.cardinality())"),
    "exp_assert_cardinality_fewer": "out = el(D.range(3).apply(tf.data.experimental.assert_cardinality(5)))",
    "exp_assert_cardinality_more": "out = el(D.range(7).apply(tf.data.experimental.assert_cardinality(5)))",
    "exp_assert_cardinality_infinite": ("out = el(D.range(3).apply(tf.data.experimental.assert_cardinality("
                                        "tf.data.INFINITE_CARDINALITY)))"),
    "exp_group_by_reducer": ("r = tf.data.experimental.Reducer(init_func=lambda k: np.int64(0), reduce_func=lambda s, x: s + x,"
                             " finalize_func=lambda s: s)\n"
                             "ds = D.from_tensor_slices(np.array([5, 3, 9, 1, 5, 7, 2], np.int64))"
                             ".apply(tf.data.experimental.group_by_reducer(lambda x: x % 4, r))\n"
                             "out = (el(ds), ds.element_spec, ds.cardinality())"),
    "exp_group_by_reducer_tuple_state": ("r = tf.data.experimental.Reducer(lambda k: (k, np.int64(0)),"
                                         " lambda s, x: (s[0], s[1] + 1), lambda k, n: {'key': k, 'count': n})\n"
                                         "ds = D.range(10).apply(tf.data.experimental.group_by_reducer(lambda x: x % 3, r))\n"
                                         "out = (el(ds), ds.element_spec)"),
    "exp_group_by_window": ("out = el(D.range(10).apply(tf.data.experimental.group_by_window("
                            "lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)))"),
    "exp_bucket": ("out = el(" + LENS + ".apply(tf.data.experimental.bucket_by_sequence_length("
                   "lambda x: tf.shape(x)[0], [4], [2, 2])))"),
    "exp_choose_default_no_stop": ("out = el(tf.data.experimental.choose_from_datasets([D.range(2), D.range(10, 15)],"
                                   " D.from_tensor_slices(np.array([0, 1, 0, 0, 1, 1], np.int64))))"),
    "exp_sample": "out = el(tf.data.experimental.sample_from_datasets([D.range(4), D.range(10, 14)], [0.3, 0.7], seed=4))",
    "exp_get_single_element": "out = tf.data.experimental.get_single_element(D.range(3).batch(3))",
    "exp_get_next_as_optional": ("it = iter(D.range(1))\no1 = tf.data.experimental.get_next_as_optional(it)\n"
                                 "o2 = tf.data.experimental.get_next_as_optional(it)\n"
                                 "out = (o1.has_value(), o1.get_value(), o2.has_value())"),
    "exp_dense_to_ragged_batch": ("ds = D.range(1, 4).map(lambda x: tf.fill([x], x))"
                                  ".apply(tf.data.experimental.dense_to_ragged_batch(2))\nout = [b.to_list() for b in ds]"),
    "exp_enumerate": "out = el(D.range(3).apply(tf.data.experimental.enumerate_dataset(5)))",
    "exp_unbatch": "out = el(D.range(5).batch(2).apply(tf.data.experimental.unbatch()))",
    "exp_unique": "out = el(D.from_tensor_slices([3, 1, 3]).apply(tf.data.experimental.unique()))",
    "exp_scan": ("out = el(D.range(5).apply(tf.data.experimental.scan(np.int64(0),"
                 " lambda s, x: (s + x, s * 10))))"),
    "exp_take_while": "out = el(D.range(10).apply(tf.data.experimental.take_while(lambda x: x < 4)))",
    "exp_parallel_interleave": ("out = el(D.range(1, 4).apply(tf.data.experimental.parallel_interleave("
                                "lambda x: D.range(10 * x, 10 * x + 3), cycle_length=2)))"),
    "exp_parallel_interleave_block": ("out = el(D.range(1, 4).apply(tf.data.experimental.parallel_interleave("
                                      "lambda x: D.range(10 * x, 10 * x + 5), cycle_length=2, block_length=2)))"),
    "exp_map_and_batch": ("ds = D.range(7).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 3))\n"
                          "out = (el(ds), ds.element_spec)"),
    "exp_map_and_batch_drop": ("ds = D.range(7).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 3,"
                               " drop_remainder=True))\nout = (el(ds), ds.element_spec)"),
    "exp_shuffle_and_repeat": "out = el(D.range(6).apply(tf.data.experimental.shuffle_and_repeat(4, count=3, seed=3)))",
    "exp_from_list": ("ds = tf.data.experimental.from_list([(1, 'a'), (2, 'bc')])\n"
                      "out = (el(ds), ds.element_spec, ds.cardinality())"),
    "exp_from_list_shapes": ("ds = tf.data.experimental.from_list([np.array([1, 2]), np.array([3])])\n"
                             "out = (el(ds), ds.element_spec)"),
    "exp_from_list_dict": "out = el(tf.data.experimental.from_list([{'a': 1.5}, {'a': 2.5}]))",
    "exp_from_list_empty": "out = tf.data.experimental.from_list([])",
    "exp_from_list_mismatch": "out = tf.data.experimental.from_list([1, 'a'])",
    "exp_random_dataset": "out = el(tf.data.experimental.RandomDataset(seed=4).take(3))",
    "exp_copy_to_device": ("out = el(D.range(3).apply(tf.data.experimental.copy_to_device('/cpu:0'))"
                           ".apply(tf.data.experimental.prefetch_to_device('/cpu:0')))"),
    "exp_tfrecord_writer": ("import os, tempfile\npath = os.path.join(tempfile.mkdtemp(), 'r.tfrecord')\n"
                            "tf.data.experimental.TFRecordWriter(path).write(D.from_tensor_slices(['a', 'bc', '']))\n"
                            "out = el(tf.data.TFRecordDataset(path))"),
    "exp_tfrecord_writer_gzip": ("import os, tempfile\npath = os.path.join(tempfile.mkdtemp(), 'r.tfrecord')\n"
                                 "tf.data.experimental.TFRecordWriter(path, 'GZIP').write(D.from_tensor_slices(['x', 'yz']))\n"
                                 "out = el(tf.data.TFRecordDataset(path, 'GZIP'))"),
    "exp_tfrecord_writer_bad": ("import os, tempfile\n"
                                "tf.data.experimental.TFRecordWriter(os.path.join(tempfile.mkdtemp(), 'r')).write(D.range(3))"),
    "exp_batched_features": (
        "import os, tempfile\nd = tempfile.mkdtemp()\n"
        "def ex(i):\n"
        "    f = {'x': tf.train.Feature(float_list=tf.train.FloatList(value=[i * 1.5, -i])),"
        " 'y': tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3]))}\n"
        "    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()\n"
        "for k in range(2):\n"
        "    with tf.io.TFRecordWriter(os.path.join(d, f'f{k}.tfrecord')) as w:\n"
        "        for i in range(5):\n"
        "            w.write(ex(10 * k + i))\n"
        "feats = {'x': tf.io.FixedLenFeature([2], tf.float32), 'y': tf.io.FixedLenFeature([], tf.int64)}\n"
        "ds = tf.data.experimental.make_batched_features_dataset(os.path.join(d, '*.tfrecord'), 3, feats, label_key='y',"
        " num_epochs=1, shuffle=False)\n"
        "out = (el(ds), ds.element_spec)"),
    "exp_batched_features_shuffled": (
        "import os, tempfile\nd = tempfile.mkdtemp()\n"
        "def ex(i):\n"
        "    f = {'y': tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}\n"
        "    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()\n"
        "for k in range(3):\n"
        "    with tf.io.TFRecordWriter(os.path.join(d, f'f{k}.tfrecord')) as w:\n"
        "        for i in range(4):\n"
        "            w.write(ex(10 * k + i))\n"
        "feats = {'y': tf.io.FixedLenFeature([], tf.int64)}\n"
        "ds = tf.data.experimental.make_batched_features_dataset(os.path.join(d, '*.tfrecord'), 4, feats,"
        " num_epochs=2, shuffle_seed=5, reader_num_threads=2)\n"
        "out = el(ds)"),
    "exp_parse_example_dataset": (
        "ex = [tf.train.Example(features=tf.train.Features(feature={'a': tf.train.Feature("
        "int64_list=tf.train.Int64List(value=[i]))})).SerializeToString() for i in range(5)]\n"
        "ds = D.from_tensor_slices(ex).batch(2).apply(tf.data.experimental.parse_example_dataset("
        "{'a': tf.io.FixedLenFeature([], tf.int64)}))\nout = (el(ds), ds.element_spec)"),
    "exp_at": "out = (tf.data.experimental.at(D.range(10).map(lambda x: x * 3), 4), tf.data.experimental.at(D.range(3), 0))",
    "exp_at_out_of_range": "out = tf.data.experimental.at(D.range(5), 7)",
    "exp_at_negative": "out = tf.data.experimental.at(D.range(5), -1)",
    "exp_at_filter": "out = tf.data.experimental.at(D.range(5).filter(lambda x: x > 1), 1)",
    "exp_pad_to_cardinality": ("ds = D.from_tensor_slices({'a': [1, 2], 'b': [[1.0], [2.0]]})"
                               ".apply(tf.data.experimental.pad_to_cardinality(4))\nout = (el(ds), ds.element_spec)"),
    "exp_pad_to_cardinality_not_dict": "out = D.range(2).apply(tf.data.experimental.pad_to_cardinality(4))",
    "exp_pad_to_cardinality_too_many": "out = D.from_tensor_slices({'a': [1, 2]}).apply(tf.data.experimental.pad_to_cardinality(1))",
    "exp_get_structure": "out = (tf.data.experimental.get_structure(D.range(2)), tf.data.experimental.get_structure(iter(D.range(2))))",
    "exp_random_dataset_class": ("ds = tf.data.experimental.RandomDataset(seed=5)\n"
                                 "out = (isinstance(ds, tf.data.Dataset), el(ds.take(2)), ds.cardinality())"),
    "sparse_batch_cardinality": "out = D.range(7).map(lambda x: tf.fill([2], x)).sparse_batch(3, [2]).cardinality()",
    "resample_cardinality_spec": ("ds = D.range(10).rejection_resample(lambda x: x % 2, [0.5, 0.5], seed=1)\n"
                                  "out = (ds.cardinality(), ds.element_spec)"),
    "snapshot_roundtrip": ("import tempfile\npath = tempfile.mkdtemp()\n"
                           "ds = D.range(5).map(lambda x: (x, tf.fill([2], x))).snapshot(path)\n"
                           "out = (el(ds), el(ds), ds.cardinality(), ds.element_spec)"),
    "fingerprint_type": "fp = D.range(3).fingerprint()\nout = (fp.dtype.name, fp.shape.rank)",
    "options_default": "out = D.range(3).options().deterministic",
    "gbw_reduce_drop_map": ("ds = D.range(10).group_by_window(lambda x: x % 2, lambda k, w: w.batch(4, drop_remainder=True)"
                            ".map(lambda b: b * 2), window_size=4)\nout = (el(ds), ds.element_spec)"),
    "gbw_reduce_padded_by_key": ("ds = D.range(1, 7).map(lambda n: tf.fill([n], n)).group_by_window("
                                 "lambda x: tf.cast(tf.shape(x)[0] > 3, tf.int64), lambda k, w: w.padded_batch(2,"
                                 " padded_shapes=[4 + 4 * k]), window_size=2)\nout = (el(ds), ds.element_spec)"),
    "gbw_vector_key": "out = el(D.range(4).group_by_window(lambda x: tf.stack([x, x]), lambda k, w: w.batch(2), window_size=2))",
    "gbw_int32_window_size_func": ("out = el(D.range(4).group_by_window(lambda x: x % 2, lambda k, w: w.batch(2),"
                                   " window_size_func=lambda k: tf.constant(2)))"),
    "gbw_python_int_key": "out = el(D.range(5).group_by_window(lambda x: 1, lambda k, w: w.batch(2), window_size=2))",
    "gbw_window_size_tensor": "out = el(D.range(5).group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=tf.constant(2, tf.int64)))",
    "choose_incompatible": "out = D.choose_from_datasets([D.range(2), D.from_tensors('a')], D.range(2))",
    "choose_shapes_relaxed": ("ds = D.choose_from_datasets([D.from_tensors([1, 2]), D.from_tensors([[1]])], D.range(2))\n"
                              "out = (ds.element_spec, el(ds))"),
    "rebatch_zero": "out = el(D.range(4).batch(2).rebatch([0, 2]))",
    "rebatch_zero_cycle": "out = el(D.range(5).batch(2).rebatch([0, 2, 1]))",
    "rebatch_only_zero": "out = el(D.range(5).batch(2).rebatch([0]).take(3))",
    "rebatch_matrix": "out = D.range(4).batch(2).rebatch([[1, 2]])",
    "unique_twice": "ds = D.from_tensor_slices([1, 2, 1]).unique()\nout = (el(ds), el(ds))",
    "bucket_boundary_padded_shapes": (f"ds = {LENS}.filter(lambda x: tf.shape(x)[0] < 6).bucket_by_sequence_length("
                                      "lambda x: tf.shape(x)[0], [3, 6], [2, 2, 2], padded_shapes=[None],"
                                      " pad_to_bucket_boundary=True)\nout = (el(ds), ds.element_spec)"),
    "sample_weights_shape_bad": "out = D.sample_from_datasets([D.range(3), D.range(3)], weights=tf.constant([1.0, 2.0, 3.0]))",
    "single_twice_batched": "out = D.from_tensor_slices({'a': [[1, 2]]}).get_single_element()",
    # a repeat begins its next pass (a shuffle in it draws its seeds) as a pass's last element is
    # taken (a new iterator made after exactly k passes gets the (k + 2)-th seeds)
    "shuffle_repeat_whole_passes": ("ds = D.range(6).shuffle(6, seed=7).repeat()\nit = iter(ds)\n"
                                    "a = [int(next(it)) for _ in range(12)]\nout = (a, el(ds.take(6)))"),
    "shuffle_repeat_one_pass": ("ds = D.range(6).shuffle(6, seed=7).repeat()\nit = iter(ds)\n"
                                "a = [int(next(it)) for _ in range(6)]\nout = (a, el(ds.take(6)))"),
    "shuffle_repeat_small_buffer": ("ds = D.range(10).shuffle(4, seed=7).repeat()\nit = iter(ds)\n"
                                    "a = [int(next(it)) for _ in range(10)]\nout = (a, el(ds.take(10)))"),
    "shuffle_repeat_mid_pass": ("ds = D.range(10).shuffle(4, seed=7).repeat()\nit = iter(ds)\n"
                                "a = [int(next(it)) for _ in range(7)]\nout = (a, el(ds.take(10)))"),
    "shuffle_repeat_twice_then_new": ("ds = D.range(6).shuffle(6, seed=7).repeat(2)\n"
                                      "out = (el(ds), el(ds.take(6)))"),
    "shuffle_map_repeat_one_pass": ("ds = D.range(6).shuffle(6, seed=7).map(lambda x: x * 2).repeat()\n"
                                    "it = iter(ds)\na = [int(next(it)) for _ in range(6)]\nout = (a, el(ds.take(6)))"),
    "shuffle_batch_repeat_passes": ("ds = D.range(6).shuffle(6, seed=7).batch(2).repeat()\nit = iter(ds)\n"
                                    "a = [next(it) for _ in range(6)]\nout = (a, el(ds.take(3)))"),
    "shuffle_repeat_batched_fit": ("ds = D.range(8).shuffle(8, seed=7).repeat().batch(4)\nit = iter(ds)\n"
                                   "a = [next(it) for _ in range(4)]\nout = (a, el(ds.take(2)))"),
}


def main(argv=None):
    record_tf_data.main(argv, CASES, FIXTURE, __doc__.split("\n\n")[0])

if __name__ == "__main__":
    main()
