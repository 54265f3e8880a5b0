"""Record what TensorFlow's tf.data gives for the cases tests/test_data.py replays on tapegrad.

Run with a Python that has TensorFlow 2.21 (never needed by tapegrad or by CI; the tests read
only the JSON this script writes):

    $TAPEGRAD_TF_PYTHON tools/record_tf_data.py

Each case is a snippet of Python that uses ``tf`` and ``np`` and sets ``out``; the snippet and
the encoding of ``out`` (or of the exception raised) go into ``tests/fixtures/tf_data.json``.
``encode`` is shared with the test: tensors become dtype, shape and values; element specs and
datasets their ``repr``-like text; an exception its type name. ``--only SUBSTRING`` prints the
matching cases' results without writing.
"""
import argparse
import json
import os

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_data.json")

CASES = {
    # sources
    "range_stop": "out = el(D.range(5))",
    "range_start_stop_step": "out = el(D.range(2, 10, 3))",
    "range_negative_step": "out = el(D.range(10, 2, -3))",
    "range_empty": "out = el(D.range(5, 2))",
    "range_dtype": "out = el(D.range(3, output_type=tf.int32))",
    "range_spec": "out = D.range(3).element_spec",
    "range_zero_step": "out = D.range(0, 10, 0)",
    "range_tensors": "out = list(D.range(3))",
    "slices_list": "out = list(D.from_tensor_slices([1.0, 2.0, 3.0]))",
    "slices_matrix": "out = el(D.from_tensor_slices([[1, 2], [3, 4], [5, 6]]))",
    "slices_numpy_float64": "out = el(D.from_tensor_slices(np.arange(4.0).reshape(2, 2)))",
    "slices_tuple": "out = el(D.from_tensor_slices((np.arange(3.0, dtype=np.float32), np.array([4, 5, 6]))))",
    "slices_dict": "out = el(D.from_tensor_slices({'b': [1, 2], 'a': [[1.0], [2.0]]}))",
    "slices_nested": "out = el(D.from_tensor_slices(({'x': [1, 2]}, ([3.0, 4.0], [5, 6]))))",
    "slices_tensor": "out = el(D.from_tensor_slices(tf.constant([[1.5, 2.5], [3.5, 4.5]])))",
    "slices_spec_tuple": "out = D.from_tensor_slices((np.zeros((4, 3), np.float32), np.zeros(4, np.int64))).element_spec",
    "slices_spec_dict": "out = D.from_tensor_slices({'a': np.zeros((2, 3)), 'b': [1, 2]}).element_spec",
    "slices_mismatch": "out = D.from_tensor_slices((np.zeros(3), np.zeros(2)))",
    "slices_mismatch_dict": "out = D.from_tensor_slices({'a': np.zeros(3), 'b': np.zeros(2)})",
    "slices_scalar": "out = D.from_tensor_slices(5)",
    "slices_empty_rows": "out = (D.from_tensor_slices(np.zeros((0, 3))).element_spec, el(D.from_tensor_slices(np.zeros((0, 3)))))",
    "slices_strings": "out = (el(D.from_tensor_slices(['a', 'bc'])), D.from_tensor_slices(['a', 'bc']).element_spec)",
    "slices_repr": "out = repr(D.from_tensor_slices([1, 2]))",
    "tensors": "out = (list(tf.data.Dataset.from_tensors([1, 2])), tf.data.Dataset.from_tensors([1, 2]).element_spec)",
    "tensors_tuple": "out = list(tf.data.Dataset.from_tensors((1.0, [2, 3])).as_numpy_iterator())",
    "tensors_cardinality": "out = tf.data.Dataset.from_tensors(1).cardinality()",
    "generator_signature": (
        "def gen():\n    for i in range(3):\n        yield i, [float(i)] * i\n"
        "ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec((), tf.int32),"
        " tf.TensorSpec((None,), tf.float32)))\n"
        "out = (el(ds), ds.element_spec, ds.cardinality())"),
    "generator_types_shapes": (
        "def gen():\n    yield [1, 2]\n    yield [3, 4]\n"
        "ds = tf.data.Dataset.from_generator(gen, output_types=tf.int64, output_shapes=(2,))\n"
        "out = (el(ds), ds.element_spec)"),
    "generator_types_only": (
        "ds = tf.data.Dataset.from_generator(lambda: iter([1.0, 2.0]), output_types=tf.float32)\n"
        "out = (el(ds), ds.element_spec)"),
    "generator_args": (
        "ds = tf.data.Dataset.from_generator(lambda n: iter(range(n)), args=(3,),"
        " output_signature=tf.TensorSpec((), tf.int64))\n"
        "out = el(ds)"),
    "generator_restarts": (
        "ds = tf.data.Dataset.from_generator(lambda: iter([1, 2]), output_signature=tf.TensorSpec((), tf.int32))\n"
        "out = (el(ds), el(ds), el(ds.repeat(2)))"),
    # transformations
    "batch": "out = el(D.range(7).batch(3))",
    "batch_drop": "out = el(D.range(7).batch(3, drop_remainder=True))",
    "batch_spec": "out = (D.range(7).batch(3).element_spec, D.range(7).batch(3, drop_remainder=True).element_spec)",
    "batch_tuple": "out = el(D.from_tensor_slices((np.arange(10.0).reshape(5, 2), np.arange(5))).batch(2))",
    "batch_dict": "out = el(D.from_tensor_slices({'a': np.arange(5), 'b': np.arange(5.0)}).batch(4))",
    "batch_zero": "out = D.range(5).batch(0)",
    "batch_ragged": "out = el(D.range(4).map(lambda x: tf.fill([x], x)).batch(2))",
    "batch_of_batch": "out = el(D.range(8).batch(2).batch(2))",
    "batch_after_take_skip": "out = el(D.from_tensor_slices(np.arange(20)).skip(3).take(10).batch(4))",
    "batch_after_shard": "out = el(D.from_tensor_slices(np.arange(20)).shard(3, 2).batch(2))",
    "batch_after_repeat": "out = el(D.from_tensor_slices(np.arange(5)).repeat(2).batch(3))",
    "padded_batch": "out = el(D.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(2))",
    "padded_batch_shapes": (
        "ds = D.range(1, 4).map(lambda x: tf.fill([x], x)).padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64))\n"
        "out = (el(ds), ds.element_spec)"),
    "padded_batch_spec": "out = D.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(2, drop_remainder=True).element_spec",
    "unbatch": "out = el(D.range(7).batch(3).unbatch())",
    "unbatch_tuple": "out = el(D.from_tensor_slices(([[1, 2], [3, 4]], [[5.0], [6.0]])).unbatch())",
    "unbatch_scalar": "out = D.range(3).unbatch()",
    "unbatch_spec": "out = D.from_tensor_slices(np.zeros((2, 3, 4))).unbatch().element_spec",
    "map_scalar": "out = el(D.range(4).map(lambda x: x * 2))",
    "map_tuple_args": "out = el(D.from_tensor_slices(([1, 2], [10, 20])).map(lambda a, b: a + b))",
    "map_dict_arg": "out = el(D.from_tensor_slices({'a': [1, 2]}).map(lambda d: d['a'] + 1))",
    "map_returns_list": "out = (el(D.range(2).map(lambda x: [x, x + 1])), D.range(2).map(lambda x: [x, x]).element_spec)",
    "map_returns_python_float": "out = (el(D.range(2).map(lambda x: 1.5)), D.range(2).map(lambda x: 1.5).element_spec)",
    "map_returns_dict": "out = el(D.range(2).map(lambda x: {'y': x, 'z': tf.cast(x, tf.float32)}))",
    "map_parallel": "out = el(D.range(5).map(lambda x: x + 1, num_parallel_calls=tf.data.AUTOTUNE))",
    "map_spec": "out = D.from_tensor_slices(np.zeros((3, 2), np.float32)).map(lambda x: (x, tf.reduce_sum(x))).element_spec",
    "map_spec_batched": "out = D.range(7).batch(3).map(lambda x: (x, tf.reduce_sum(x), x * 2, tf.stack([x, x], 1))).element_spec",
    "map_spec_value_shape": "out = D.range(1, 5).map(lambda x: (tf.fill([x], x), tf.zeros([2, x]))).element_spec",
    "map_spec_dict_batched": (
        "ds = D.from_tensor_slices({'a': np.zeros((5, 3), np.float32), 'b': np.arange(10).reshape(5, 2)}).batch(2)\n"
        "out = ds.map(lambda d: (d['a'], d['b'][:, 0], tf.reduce_mean(d['a'], 0))).element_spec"),
    "flat_map_spec": "out = D.range(1, 4).flat_map(lambda x: D.range(x).batch(2, drop_remainder=True)).element_spec",
    "filter": "out = el(D.range(10).filter(lambda x: x % 3 == 0))",
    "filter_tuple": "out = el(D.from_tensor_slices(([1, 2, 3], [4, 5, 6])).filter(lambda a, b: a + b > 6))",
    "repeat": "out = el(D.range(3).repeat(2))",
    "repeat_forever_take": "out = el(D.range(3).repeat().take(7))",
    "repeat_empty": "out = (el(D.range(0).repeat()), D.range(0).repeat().cardinality())",
    "take_skip": "out = (el(D.range(10).take(3)), el(D.range(10).skip(7)), el(D.range(10).take(-1)), el(D.range(10).skip(-1)))",
    "take_huge": "out = el(D.range(10**12).take(3))",
    "enumerate": "out = (el(D.range(3, 6).enumerate()), D.range(3).enumerate(5).element_spec)",
    "enumerate_tuple": "out = el(D.from_tensor_slices(([1, 2], [3.0, 4.0])).enumerate(10))",
    "shard": "out = (el(D.range(10).shard(3, 1)), D.range(10).shard(3, 1).cardinality(), D.range(10).shard(3, 0).cardinality())",
    "shard_bad_index": "out = D.range(10).shard(3, 3)",
    "zip_tuple": "out = el(tf.data.Dataset.zip((D.range(3), D.range(10, 15))))",
    "zip_args": "out = el(tf.data.Dataset.zip(D.range(3), D.range(10, 15)))",
    "zip_dict": "out = el(tf.data.Dataset.zip({'a': D.range(2), 'b': D.from_tensor_slices([1.0, 2.0, 3.0])}))",
    "zip_nested": "out = tf.data.Dataset.zip((D.range(2), (D.range(2), D.range(2)))).element_spec",
    "concatenate": "out = el(D.range(3).concatenate(D.range(10, 12)))",
    "concatenate_mismatch": "out = D.range(3).concatenate(D.from_tensor_slices([1.0]))",
    "concatenate_shapes": "out = D.from_tensor_slices(np.zeros((2, 3))).concatenate(D.from_tensor_slices(np.zeros((2, 4)))).element_spec",
    "flat_map": "out = el(D.range(4).flat_map(lambda x: D.range(x)))",
    "flat_map_slices": "out = el(D.from_tensor_slices([[1, 2], [3, 4]]).flat_map(lambda x: D.from_tensor_slices(x * 10)))",
    "interleave": "out = el(D.range(5).interleave(lambda x: D.range(x), cycle_length=2, block_length=2))",
    "interleave_defaults": "out = el(D.range(1, 4).interleave(lambda x: D.range(x * 10, x * 10 + 3), cycle_length=3))",
    "interleave_block1": "out = el(D.range(1, 6).interleave(lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2, block_length=1))",
    "reduce": "out = D.range(5).reduce(np.int64(0), lambda s, x: s + x)",
    "reduce_tuple_state": "out = D.range(1, 5).reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * x))",
    "reduce_dtype_mismatch": "out = D.range(3).reduce(0, lambda s, x: s + x)",
    "scan": "out = el(D.range(5).scan(np.int64(0), lambda s, x: (s + x, s * 10)))",
    "take_while": "out = (el(D.range(10).take_while(lambda x: x < 4)), D.range(10).take_while(lambda x: x < 4).cardinality())",
    "apply": "out = el(D.range(6).apply(lambda ds: ds.filter(lambda x: x > 2)))",
    "cache": "out = (el(D.range(3).map(lambda x: x + 1).cache()), D.range(3).cache().cardinality())",
    "prefetch": "out = (el(D.range(3).prefetch(tf.data.AUTOTUNE)), repr(D.range(3).prefetch(1)))",
    "window": "out = [el(w) for w in D.range(7).window(3, shift=2)]",
    "window_drop": (
        "out = ([el(w) for w in D.range(7).window(3, shift=2, stride=2, drop_remainder=True)],"
        " D.range(7).window(3, shift=2, drop_remainder=True).cardinality())"),
    "window_flat_map_batch": "out = el(D.range(6).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3)))",
    "shuffle_is_permutation": "out = sorted(el(D.range(50).shuffle(10, seed=3)))",
    "shuffle_cardinality": "out = (D.range(10).shuffle(3).cardinality(), D.range(10).shuffle(3).element_spec)",
    "shuffle_zero_buffer": "out = D.range(5).shuffle(0)",
    "shuffle_batch_sorted": (
        "ds = D.from_tensor_slices((np.arange(100.0).reshape(50, 2), np.arange(50))).shuffle(20, seed=1).batch(16)\n"
        "bs = list(ds.as_numpy_iterator())\n"
        "out = ([b[1].shape for b in bs], sorted(np.concatenate([b[1] for b in bs]).tolist()),"
        " bool(all((b[0][:, 0] == 2 * b[1]).all() for b in bs)))"),
    # seeded shuffle orders (TF's Philox streams; set_seed cases clear the global seed after)
    "shuffle_order_seed": "ds = D.range(30).shuffle(7, seed=11)\nout = (el(ds), el(ds), el(ds))",
    "shuffle_order_no_reshuffle": "out = el(D.range(12).shuffle(5, seed=2, reshuffle_each_iteration=False).repeat(3))",
    "shuffle_order_repeat": "out = el(D.range(9).shuffle(4, seed=4).repeat(3))",
    "shuffle_order_buffer_larger": "out = el(D.range(6).shuffle(100, seed=-5))",
    "shuffle_order_whole": "out = el(D.range(10).shuffle(tf.data.UNKNOWN_CARDINALITY, seed=8))",
    "shuffle_order_filtered": "out = el(D.range(40).filter(lambda x: x % 3 > 0).shuffle(6, seed=9))",
    "shuffle_order_slices_batch": (
        "ds = D.from_tensor_slices((np.arange(100.0).reshape(50, 2), np.arange(50))).shuffle(20, seed=1).batch(16)\n"
        "out = (el(ds), el(ds))"),
    "shuffle_order_long": (
        "a = np.array(el(D.range(10000).shuffle(1000, seed=3)))\n"
        "out = (a[:40], a[-40:], int((a * np.arange(a.size)).sum()))"),
    "shuffle_order_set_seed": (
        "tf.random.set_seed(5)\n"
        "a = el(D.range(10).shuffle(10))\nu = tf.random.uniform([3])\nb = D.range(8).shuffle(3)\n"
        "c = el(D.range(8).shuffle(4, seed=1))\nout = (a, u, el(b), el(b), c, tf.random.shuffle(tf.range(6)))\n"
        "tf.random.set_seed(None)"),
    # cardinality and len
    "cardinality": (
        "d = D.range(10)\n"
        "out = [int(x.cardinality()) for x in (d, d.batch(3), d.batch(3, drop_remainder=True), d.repeat(),"
        " d.repeat(3), d.filter(lambda x: x > 2), d.take(4), d.skip(4), d.skip(20), d.repeat().take(5),"
        " d.repeat().skip(5), d.take(-1), d.skip(-1), d.map(lambda x: x), d.prefetch(2),"
        " d.batch(2).unbatch(), tf.data.Dataset.zip((d, d.take(3))), tf.data.Dataset.zip((d, d.repeat())),"
        " tf.data.Dataset.zip((d.repeat(), d.repeat())), tf.data.Dataset.zip((d.filter(lambda x: True), d)),"
        " d.concatenate(d.take(2)), d.concatenate(d.repeat()), d.concatenate(d.filter(lambda x: True)),"
        " d.flat_map(lambda x: tf.data.Dataset.range(1)), d.repeat(0), d.repeat().batch(4),"
        " d.filter(lambda x: True).repeat(), d.filter(lambda x: True).take(2), d.enumerate(), d.window(3),"
        " d.scan(np.int64(0), lambda s, x: (s, x)), d.repeat().filter(lambda x: True))]"),
    "cardinality_tensor": "out = D.range(4).cardinality()",
    "constants": "out = (tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY, tf.data.AUTOTUNE,"
                 " tf.data.experimental.AUTOTUNE, tf.data.experimental.INFINITE_CARDINALITY)",
    "experimental_cardinality": "out = tf.data.experimental.cardinality(D.range(4).repeat())",
    "len": "out = (len(D.range(4)), len(D.range(7).batch(2)))",
    "len_infinite": "out = len(D.range(4).repeat())",
    "len_unknown": "out = len(D.range(4).filter(lambda x: True))",
    # iteration
    "iter_restarts": "d = D.range(3)\nit = iter(d)\nout = (next(it), next(it), list(d), next(it))",
    "iter_exhausted": "it = iter(D.range(1))\nnext(it)\nout = next(it)",
    "iter_get_next": "it = iter(D.range(2))\nout = (it.get_next(), it.element_spec)",
    "numpy_iterator_nested": "out = el(D.from_tensor_slices({'a': [1, 2], 'b': ([1.0, 2.0], [3, 4])}))",
    "options": "o = tf.data.Options()\no.deterministic = False\nout = el(D.range(3).with_options(o))",
    # errors dropped (a failed check in a map or filter function; CSV records: tests/io_cases.py)
    "ignore_errors_map": (
        "ds = D.from_tensor_slices([1., 0., 2., 0., 4.]).map(lambda x: tf.debugging.check_numerics(1. / x, 'e'))\n"
        "out = (el(ds.ignore_errors()), ds.ignore_errors().cardinality(), ds.ignore_errors().element_spec)"),
    "ignore_errors_batch": (
        "ds = D.from_tensor_slices([1., 0., 2., 0., 4., 5.]).map(lambda x: tf.debugging.check_numerics(1. / x, 'e'))\n"
        "out = (el(ds.batch(2).ignore_errors()), el(ds.ignore_errors().batch(2)),"
        " el(ds.prefetch(1).batch(4, drop_remainder=True).ignore_errors()))"),
    "ignore_errors_filter_apply": (
        "ds = D.from_tensor_slices([1., 0., -2., 3.]).filter(lambda x: tf.debugging.check_numerics(1. / x, 'e') > 0)\n"
        "out = (el(ds.ignore_errors()), el(ds.apply(tf.data.experimental.ignore_errors())))"),
    "ignore_errors_none": "out = el(D.range(4).map(lambda x: x * 2).ignore_errors(log_warning=True))",
    "ignore_errors_strict_below": (
        "ds = D.from_tensor_slices([1., 0., 2.]).map(lambda x: tf.debugging.check_numerics(1. / x, 'e'))\n"
        "out = el(ds.enumerate().ignore_errors())"),
    # an iterator in a tf.train.Checkpoint: save where it stands, restore into a new iterator
    "checkpoint_iterator_shuffle_repeat_batch": (
        "import os, tempfile\nds = D.range(10).shuffle(5, seed=2).repeat().batch(3)\n"
        "it = iter(ds)\na = [next(it) for _ in range(4)]\n"
        "p = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "b = [next(it) for _ in range(6)]\nit2 = iter(ds)\ntf.train.Checkpoint(it=it2).restore(p)\n"
        "out = (a, b, [next(it2) for _ in range(6)])"),
    "checkpoint_iterator_rebuilt_dataset": (
        "import os, tempfile\n"
        "def make():\n"
        "    x = tf.range(12.)[:, None]\n"
        "    return (D.from_tensor_slices(dict(x=x, y=x * 5.)).map(lambda e: (e['x'], e['y'] + 1.))"
        ".shuffle(7, seed=4).repeat().batch(2))\n"
        "it = iter(make())\n_ = [next(it) for _ in range(9)]\n"
        "p = tf.train.Checkpoint(it=it, step=tf.Variable(1)).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "b = [next(it) for _ in range(8)]\nit2 = iter(make())\n"
        "tf.train.Checkpoint(it=it2, step=tf.Variable(1)).restore(p).assert_consumed()\n"
        "out = (b, [next(it2) for _ in range(8)], [n for n, _ in tf.train.list_variables(p) if 'OBJECT_GRAPH' not in n])"),
    "checkpoint_iterator_pipeline": (
        "import os, tempfile\n"
        "ds = tf.data.Dataset.zip((D.range(40).filter(lambda x: x % 3 > 0).shuffle(6, seed=9).skip(2), "
        "D.range(100, 200).interleave(lambda x: D.range(x, x + 3), cycle_length=2).take(50))).enumerate().batch(4)\n"
        "it = iter(ds)\n_ = [next(it) for _ in range(3)]\n"
        "p = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "b = list(it)\nit2 = iter(ds)\ntf.train.Checkpoint(it=it2).restore(p)\nout = (b, list(it2))"),
    "checkpoint_iterator_unseeded_shuffle": (
        "import os, tempfile\nds = D.range(20).shuffle(20).repeat(3)\nit = iter(ds)\n_ = [next(it) for _ in range(25)]\n"
        "p = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "b = [int(v) for v in it]\nit2 = iter(ds)\ntf.train.Checkpoint(it=it2).restore(p)\n"
        "out = (len(b), b == [int(v) for v in it2])"),
    "checkpoint_iterator_exhausted": (
        "import os, tempfile\nds = D.range(3)\nit = iter(ds)\n_ = list(it)\n"
        "p = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "it2 = iter(ds)\ntf.train.Checkpoint(it=it2).restore(p)\nout = list(it2)"),
    "checkpoint_iterator_generator": (
        "import os, tempfile\n"
        "ds = D.from_generator(lambda: iter(range(5)), output_signature=tf.TensorSpec((), tf.int64))\n"
        "it = iter(ds)\nnext(it)\nout = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))"),
    "checkpoint_iterator_random_map": (
        "import os, tempfile\nit = iter(D.range(5).map(lambda x: tf.random.uniform([])))\nnext(it)\n"
        "out = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))"),
    "checkpoint_iterator_py_function": (
        "import os, tempfile\nit = iter(D.range(5).map(lambda x: tf.py_function(lambda v: v * 2, [x], tf.int64)))\n"
        "next(it)\nout = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))"),
    "checkpoint_iterator_variable_update": (
        "import os, tempfile\nv = tf.Variable(0, dtype=tf.int64)\nit = iter(D.range(5).map(lambda x: x + v.assign_add(1)))\n"
        "next(it)\nout = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))"),
    "checkpoint_iterator_other_dataset": (
        "import os, tempfile\nit = iter(D.range(6).shuffle(6, seed=3))\nnext(it)\n"
        "p = tf.train.Checkpoint(it=it).save(os.path.join(tempfile.mkdtemp(), 'c'))\n"
        "out = tf.train.Checkpoint(it=iter(D.range(6).batch(2))).restore(p)"),
    "slices_dict_strings": (
        "ds = D.from_tensor_slices({'s': np.array(['a', 'bc', 'd'], dtype=object), 'f': np.array([1.0, 2.0, 3.0]),"
        " 'b': np.array([b'x', b'y', b'z'])})\n"
        "out = (el(ds), el(ds.batch(2)), ds.element_spec, ds.batch(2).element_spec)"),
}


def encode(x):
    """JSON-able description of a case's result (used by the recorder and by the test)."""
    if isinstance(x, BaseException):
        return {"t": "error", "type": type(x).__name__}
    if isinstance(x, bytes):
        return {"t": "bytes", "v": x.decode("latin-1")}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
        vals = [v.decode("latin-1") for v in a.ravel()] if a.dtype == object else a.tolist()
        return {"t": "np", "dtype": "string" if a.dtype == object else str(a.dtype),
                "shape": list(a.shape), "v": vals}
    if isinstance(x, dict):
        return {"t": "dict", "v": {str(k): encode(v) for k, v in x.items()}}
    if isinstance(x, (list, tuple)):
        return {"t": type(x).__name__ if type(x) in (list, tuple) else "tuple", "v": [encode(v) for v in x]}
    if hasattr(x, "numpy") and hasattr(x, "dtype"):  # a tensor
        a = np.asarray(x.numpy())
        vals = [v.decode("latin-1") for v in a.ravel()] if a.dtype == object else a.tolist()
        return {"t": "tensor", "dtype": x.dtype.name, "shape": list(a.shape), "v": vals}
    if hasattr(x, "element_spec"):  # a dataset
        return {"t": "dataset", "spec": encode(x.element_spec)}
    if hasattr(x, "shape") and hasattr(x, "dtype"):  # a TensorSpec
        return {"t": "spec", "v": repr(x)}
    raise TypeError(f"cannot encode {type(x).__name__}: {x!r}")


def run_case(tf, code):
    env = {"tf": tf, "np": np, "D": tf.data.Dataset, "el": lambda ds: list(ds.as_numpy_iterator())}
    try:
        exec(code, env)
    except Exception as e:  # noqa: BLE001  (the error is the recorded result)
        return encode(e)
    return encode(env["out"])


def main(argv=None, cases=None, fixture=None, description=None):
    """Record ``cases`` (default: this script's) into ``fixture``; other recorders of tf.data cases
    (tools/record_tf_data_more.py) call it with theirs."""
    cases, fixture = cases or CASES, fixture or FIXTURE
    parser = argparse.ArgumentParser(description=description or __doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the results of cases whose name contains this")
    args = parser.parse_args(argv)
    from _tf import quiet_tensorflow  # tools/_tf.py (this script's folder is on sys.path)
    tf = quiet_tensorflow()
    names = [n for n in cases if args.only is None or args.only in n]
    results = {}
    for name in names:
        first = run_case(tf, cases[name])
        if first != run_case(tf, cases[name]):
            raise SystemExit(f"case {name}: two runs disagree")
        results[name] = {"code": cases[name], "tf": first}
        if args.only is not None:
            print(name, json.dumps(first)[:2000])
    if args.only is None:
        with open(fixture, "w", encoding="utf-8") as fh:
            json.dump({"tensorflow": tf.__version__, "cases": results}, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(f"wrote {len(results)} cases to {fixture}")


if __name__ == "__main__":
    main()
