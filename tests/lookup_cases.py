"""The cases of tools/record_lookup.py, shared with tests/test_lookup.py: each is a function of ``tf``
(TensorFlow when recorded, tapegrad when replayed), encoded as tests/sparse_cases.py encodes (a tensor's
dtype, shape and values; a RaggedTensor's list; a SparseTensor's parts; an error's type and message: the
test compares the type, and the words of ``MESSAGES``). A table's ``export`` is sorted by key: its order
is the hash table's, which tapegrad does not reproduce (docs/differences.md)."""
import os
import tempfile

import numpy as np

from sparse_cases import encode, run  # noqa: F401  (run: the recorder's and the test's entry)


def _kv(tf, keys=("a", "b", "c"), values=(7, 8, 9), **kw):
    return tf.lookup.KeyValueTensorInitializer(list(keys), list(values), **kw)


def _static(tf, default=-1, **kw):
    return tf.lookup.StaticHashTable(_kv(tf, **kw), default)


def _vocab(tf, n=3, keys=("a", "b")):
    init = tf.lookup.KeyValueTensorInitializer(list(keys), tf.constant(list(range(len(keys))), tf.int64))
    return tf.lookup.StaticVocabularyTable(init, n)


def _int_vocab(tf, n=5, **kw):
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64))
    return tf.lookup.StaticVocabularyTable(init, n, **kw)


def _file(name, text):
    path = os.path.join(tempfile.mkdtemp(), name)
    with open(path, "w", newline="") as f:
        f.write(text)
    return path


_ELP = "emerson 10\nlake 20\npalmer 30\n"


def _text(tf, key_dtype, key_index, value_dtype, value_index, default, text=_ELP, **kw):
    init = tf.lookup.TextFileInitializer(_file("vocab.txt", text), key_dtype, key_index, value_dtype, value_index, **kw)
    return tf.lookup.StaticHashTable(init, default)


def _sorted_export(table):
    keys, values = (np.asarray(t.numpy()) for t in table.export())
    order = np.argsort(keys.reshape(len(keys), -1)[:, 0], kind="stable")
    return [keys[order].tolist(), values[order].tolist(), list(keys.shape), list(values.shape)]


def _mutable(tf, key_dtype=None, value_dtype=None, default=-1, **kw):
    return tf.lookup.experimental.MutableHashTable(key_dtype or tf.string, value_dtype or tf.int64, default, **kw)


def _filled(tf):
    m = _mutable(tf)
    m.insert(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
    return m


def _after(table, *ops):
    """``table`` after the calls ``ops`` (functions of it), then ``[size, sorted export]``."""
    for op in ops:
        op(table)
    return [table.size(), _sorted_export(table)]


def _dense(tf, key_dtype=None, value_dtype=None, default=-1, empty=0, deleted=-1, **kw):
    return tf.lookup.experimental.DenseHashTable(key_dtype or tf.int64, value_dtype or tf.int64, default,
                                                 empty_key=empty, deleted_key=deleted, **kw)


def _dense_export(table):
    """A DenseHashTable's export: every bucket, where TF's hash and probing put each pair."""
    return [np.asarray(t.numpy()).tolist() for t in table.export()]


def _dense_history(tf):
    """Inserts, removes and growth of a DenseHashTable: its buckets after each step (a key inserted
    again after another on its probe path was removed lands in that free bucket: TF's table then
    holds it twice, and a remove uncovers the older value)."""
    d = _dense(tf, initial_num_buckets=16)
    out = []
    for op, keys in (("i", [1, 17, 33, 2]), ("r", [1]), ("i", [17]), ("r", [17]), ("i", [49, 3, 65, 81, 97]),
                     ("i", list(range(100, 110))), ("r", [2, 3, 200])):
        if op == "i":
            d.insert(_i64(tf, keys), _i64(tf, [k * 10 + len(out) for k in keys]))
        else:
            d.remove(_i64(tf, keys))
        out.append([_dense_export(d), d.size()])
    return [out, d.lookup(_i64(tf, [1, 17, 33, 49, 105, 7]))]


def _dense_strings(tf):
    d = _dense(tf, tf.string, tf.float32, 0.0, "", "$", initial_num_buckets=4)
    words = ["the", "cat", "sat", "on", "a", "mat", "and", "then", "ran", "off", "é", "x" * 40]
    d.insert(words, [float(i) for i in range(len(words))])
    d.remove(tf.constant(["sat", "zz"]))
    d.insert(["sat", "dog"], [20.0, 21.0])
    return [_dense_export(d), d.size(), d.lookup(words + ["dog", "q"])]


def _i64(tf, v):
    return tf.constant(v, tf.int64)


def _dataset_init(tf):
    keys = tf.data.Dataset.range(5)
    return tf.data.experimental.DatasetInitializer(tf.data.Dataset.zip((keys, keys.map(lambda x: tf.strings.as_string(x * 2)))))


def _words(tf):
    return tf.data.Dataset.from_tensor_slices(["a", "b", "c"])


def _in_function(tf):
    m = _mutable(tf)

    @tf.function
    def step(k, v):
        m.insert(k, v)
        return m.lookup(k), m.size()
    return [step(tf.constant(["x"]), _i64(tf, [1])), step(tf.constant(["y"]), _i64(tf, [2])),
            step(tf.constant(["x"]), _i64(tf, [5])), m.lookup(tf.constant(["x", "y", "z"]))]


def _static_in_function(tf):
    t = _static(tf)

    @tf.function
    def f(k):
        return t.lookup(k) * 2
    return [f(tf.constant(["a"])), f(tf.constant(["c"])), f(tf.constant(["q", "b"]))]


def _closure_sees_inserts(tf):
    m = _filled(tf)

    @tf.function
    def f():
        return m.lookup(tf.constant(["a", "z"]))
    first = f()
    m.insert(tf.constant(["z"]), _i64(tf, [26]))
    return [first, f()]


def _dataset_map(tf):
    t = _vocab(tf)
    ds = tf.data.Dataset.from_tensor_slices(["a b", "c a", "b b b"]).map(lambda s: t.lookup(tf.strings.split(s)))
    return [x.tolist() for x in ds.as_numpy_iterator()]


def _grad(tf):
    x = tf.Variable(2.0)
    t = _static(tf, keys=("a", "b"), values=(1.5, 2.5), default=0.0)
    with tf.GradientTape() as g:
        y = tf.reduce_sum(t.lookup(tf.constant(["a", "b", "q"])) * x)
    return [y, g.gradient(y, x)]


def _grad_values(tf):
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as g:
        g.watch(v)
        y = tf.reduce_sum(_static(tf, keys=("a", "b"), values=v, default=0.0).lookup(tf.constant(["a"])))
    return g.gradient(y, v)


def _checkpoint(tf):
    m = _filled(tf)
    d = _dense(tf, initial_num_buckets=4)
    d.insert(_i64(tf, [5, 6]), _i64(tf, [50, 60]))
    s = _static(tf)
    ckpt = tf.train.Checkpoint(m=m, d=d, s=s)
    path = ckpt.save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    names = [n for n, _ in tf.train.list_variables(path) if "ATTRIBUTES/table" in n]
    m.remove(tf.constant(["a"]))
    m.insert(tf.constant(["q"]), _i64(tf, [17]))
    d.insert(_i64(tf, [7]), _i64(tf, [70]))
    ckpt.restore(path)
    return [names, _after(m), d.size(), d.lookup(_i64(tf, [5, 6, 7]))]


def _module_checkpoint(tf):
    class Vocab(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = _mutable(tf)
    mod = Vocab()
    mod.table.insert(tf.constant(["z"]), _i64(tf, [26]))
    path = tf.train.Checkpoint(mod=mod).save(os.path.join(tempfile.mkdtemp(), "ckpt"))
    return [n for n, _ in tf.train.list_variables(path) if "ATTRIBUTES/table" in n]


CASES = {
    # StaticHashTable
    "static_lookup": lambda tf: _static(tf).lookup(tf.constant(["a", "z", "c"])),
    "static_lookup_2d": lambda tf: _static(tf).lookup(tf.constant([["a", "b"], ["c", "d"]])),
    "static_scalar": lambda tf: _static(tf)[tf.constant("b")],
    "static_ragged": lambda tf: _static(tf).lookup(tf.ragged.constant([["a", "b"], [], ["z"]])),
    "static_sparse": lambda tf: _static(tf).lookup(tf.sparse.from_dense(tf.constant([["a", ""], ["", "c"]]))),
    "static_props": lambda tf: [_static(tf).name, _static(tf).key_dtype.name, _static(tf).value_dtype.name,
                                _static(tf).default_value, _static(tf).size()],
    "static_export": lambda tf: _sorted_export(_static(tf)),
    "static_int_keys_float_values": lambda tf: _static(tf, keys=(1, 2), values=(1.5, 2.5), default=0.0).lookup(
        tf.constant([1, 3, 2])),
    "static_int64_to_string": lambda tf: _static(tf, keys=tf.constant([1, 2], tf.int64), values=("x", "y"),
                                                 default="q").lookup(_i64(tf, [[1], [3]])),
    "static_string_to_bool": lambda tf: _static(tf, values=(True, False, True), default=False).lookup(
        tf.constant(["a", "b", "z"])),
    "static_key_dtype_arg": lambda tf: _kv(tf, keys=(1, 2), values=(1, 2), key_dtype=tf.int64).key_dtype.name,
    "static_2d_initializer": lambda tf: _static(tf, keys=[[1, 2]], values=[[3, 4]]).lookup(tf.constant([2, 1, 0])),
    "static_empty_keys": lambda tf: _static(tf).lookup(tf.constant([], tf.string)),
    "static_duplicate_same": lambda tf: _static(tf, keys=("a", "a"), values=(1, 1)).size(),
    # StaticHashTable: bad input
    "static_wrong_key_dtype": lambda tf: _static(tf).lookup(tf.constant([1, 2])),
    "static_list_keys": lambda tf: _static(tf).lookup(["a"]),
    "static_float_default": lambda tf: _static(tf, default=-1.0),
    "static_vector_default": lambda tf: _static(tf, default=[1, 2]),
    "static_duplicate_keys": lambda tf: _static(tf, keys=("a", "a"), values=(1, 2)),
    "static_shape_mismatch": lambda tf: _static(tf, keys=("a", "b"), values=(1, 2, 3)),
    "static_no_kernel_bool": lambda tf: _static(tf, keys=(1, 2), values=(True, False), default=False),
    "static_no_kernel_float_keys": lambda tf: _static(tf, keys=(1.0, 2.0), values=(1, 2), default=0),
    "static_int64_keys_int32_lookup": lambda tf: _static(tf, keys=tf.constant([1, 2], tf.int64), values=(1.5, 2.5),
                                                         default=0.0).lookup(tf.constant([1])),
    # StaticVocabularyTable
    "vocab_lookup": lambda tf: _vocab(tf).lookup(tf.constant(["a", "b", "c", "hello", "world", "", "the"])),
    "vocab_size": lambda tf: _vocab(tf).size(),
    "vocab_name": lambda tf: [_vocab(tf).name, tf.lookup.StaticVocabularyTable(
        _kv(tf, values=tf.constant([0, 1, 2], tf.int64)), 2, name="outer/vocab/").name],
    "vocab_ragged": lambda tf: _vocab(tf).lookup(tf.strings.split(tf.constant(["a q", "zz b a"]))),
    "vocab_sparse": lambda tf: _vocab(tf, 7).lookup(tf.sparse.from_dense(tf.constant([["a", ""], ["", "tok"]]))),
    "vocab_many_buckets": lambda tf: _vocab(tf, 1000).lookup(tf.constant(["x", "y", "z", "lookup", "ünï", "a" * 70])),
    "vocab_int64_keys": lambda tf: _int_vocab(tf).lookup(_i64(tf, [10, 20, 30, -7, 123456])),
    "vocab_int32_lookup_keys": lambda tf: _int_vocab(tf, lookup_key_dtype=tf.int32).lookup(
        tf.constant([10, 20, 30, -7, 123456])),
    "vocab_no_initializer": lambda tf: [tf.lookup.StaticVocabularyTable(None, 4).lookup(tf.constant(["x", "y"])),
                                        tf.lookup.StaticVocabularyTable(None, 4).size(),
                                        tf.lookup.StaticVocabularyTable(None, 4).name],
    "vocab_int32_values": lambda tf: tf.lookup.StaticVocabularyTable(_kv(tf), 3),
    "vocab_zero_buckets": lambda tf: _vocab(tf, 0),
    "vocab_int32_table_keys": lambda tf: tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([1, 2]), _i64(tf, [0, 1])), 3),
    "vocab_integer_lookup_of_strings": lambda tf: tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        ["a"], _i64(tf, [0])), 3, lookup_key_dtype=tf.int64),
    "vocab_wrong_key_dtype": lambda tf: _int_vocab(tf, lookup_key_dtype=tf.int32).lookup(_i64(tf, [10])),
    # TextFileInitializer
    "text_columns": lambda tf: _text(tf, tf.string, 0, tf.int64, 1, -1, delimiter=" ").lookup(
        tf.constant(["palmer", "lake", "tarkus"])),
    "text_whole_line": lambda tf: _text(tf, tf.string, -2, tf.int64, -1, -1).lookup(tf.constant(["palmer 30", "lake"])),
    "text_line_to_string": lambda tf: _text(tf, tf.int64, -1, tf.string, -2, "UNK").lookup(_i64(tf, [0, 2, 5])),
    "text_vocab_size": lambda tf: _text(tf, tf.string, 0, tf.int64, -1, -1, vocab_size=2, delimiter=" ").lookup(
        tf.constant(["emerson", "palmer"])),
    "text_offset": lambda tf: _text(tf, tf.string, 0, tf.int64, -1, -1, delimiter=" ", value_index_offset=3).lookup(
        tf.constant(["lake", "emerson"])),
    "text_float_values": lambda tf: _text(tf, tf.string, 0, tf.float32, 1, -1.0, delimiter=" ").lookup(
        tf.constant(["lake", "x"])),
    "text_int_keys_tab": lambda tf: _text(tf, tf.int64, 0, tf.string, 1, "q", text="5\t x\n7\ty\n").lookup(
        _i64(tf, [5, 7, 9])),
    "text_crlf_no_final_newline": lambda tf: _sorted_export(_text(tf, tf.string, -2, tf.int64, -1, -1,
                                                                  text="a\r\nb\r\nc")),
    "text_whole_line_int_keys": lambda tf: _text(tf, tf.int64, -2, tf.int64, -1, -1, text="5\n70\n").lookup(
        _i64(tf, [70, 5, 1])),
    "text_vocab_table": lambda tf: tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
        _file("v.txt", _ELP), tf.string, 0, tf.int64, -1, delimiter=" "), 2).lookup(tf.constant(["lake", "and", "x"])),
    "text_filename_tensor": lambda tf: tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        tf.constant(_file("v.txt", _ELP)), tf.string, -2, tf.int64, -1), -1).size(),
    # TextFileInitializer: bad input
    "text_vocab_size_too_big": lambda tf: _text(tf, tf.string, 0, tf.int64, -1, -1, vocab_size=5, delimiter=" "),
    "text_missing_column": lambda tf: _text(tf, tf.string, 0, tf.int64, 2, -1, delimiter=" "),
    "text_not_an_int": lambda tf: _text(tf, tf.string, 0, tf.int64, 0, -1, delimiter=" "),
    "text_not_an_int_whole_line": lambda tf: _text(tf, tf.int64, -2, tf.int64, -1, -1, text="5\n7x\n"),
    "text_empty_line": lambda tf: _text(tf, tf.string, -2, tf.int64, -1, -1, text="a\nb\n\nc\n"),
    "text_duplicate_line": lambda tf: _text(tf, tf.string, -2, tf.int64, -1, -1, text="a\nb\na\n"),
    "text_no_file": lambda tf: tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        os.path.join(tempfile.mkdtemp(), "nope.txt"), tf.string, -2, tf.int64, -1), -1),
    "text_line_number_key_string": lambda tf: tf.lookup.TextFileInitializer("f.txt", tf.string, -1, tf.int64, 1),
    "text_line_number_value_int32": lambda tf: tf.lookup.TextFileInitializer("f.txt", tf.string, 0, tf.int32, -1),
    "text_whole_line_float_key": lambda tf: tf.lookup.TextFileInitializer("f.txt", tf.float32, -2, tf.int64, -1),
    "text_bad_index": lambda tf: tf.lookup.TextFileInitializer("f.txt", tf.string, -3, tf.int64, 1),
    "text_no_filename": lambda tf: tf.lookup.TextFileInitializer("", tf.string, 0, tf.int64, 1),
    "text_zero_vocab_size": lambda tf: tf.lookup.TextFileInitializer("f.txt", tf.string, 0, tf.int64, 1, vocab_size=0),
    "text_index_constants": lambda tf: [tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER],
    # DatasetInitializer
    "dataset_initializer": lambda tf: [_dataset_init(tf).key_dtype.name, _dataset_init(tf).value_dtype.name,
                                       tf.lookup.StaticHashTable(_dataset_init(tf), "").lookup(_i64(tf, [0, 4, 9]))],
    "dataset_initializer_three": lambda tf: tf.data.experimental.DatasetInitializer(
        tf.data.Dataset.zip((tf.data.Dataset.range(2),) * 3)),
    "dataset_initializer_batched": lambda tf: tf.data.experimental.DatasetInitializer(
        tf.data.Dataset.zip((tf.data.Dataset.range(4).batch(2),) * 2)),
    "dataset_initializer_not_pairs": lambda tf: tf.data.experimental.DatasetInitializer(tf.data.Dataset.range(2)),
    # tf.data.experimental.table_from_dataset and index_table_from_dataset
    "table_from_dataset": lambda tf: tf.data.experimental.table_from_dataset(
        tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(5).map(tf.strings.as_string))),
        default_value="n/a", key_dtype=tf.int64).lookup(_i64(tf, [0, 1, 9])),
    "table_from_dataset_no_default": lambda tf: tf.data.experimental.table_from_dataset(
        tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(5).map(tf.strings.as_string))),
        key_dtype=tf.int64),
    "table_from_dataset_buckets": lambda tf: (lambda t: [t.lookup(tf.constant(["c", "zz"])), t.size()])(
        tf.data.experimental.table_from_dataset(tf.data.Dataset.zip((_words(tf), tf.data.Dataset.range(3))),
                                                num_oov_buckets=2)),
    "index_table": lambda tf: (lambda t: [t.lookup(tf.constant(["b", "q"])), t.size()])(
        tf.data.experimental.index_table_from_dataset(_words(tf))),
    "index_table_buckets": lambda tf: (lambda t: [t.lookup(tf.constant(["b", "q", "hello", "world"])), t.size(),
                                                  t.name])(
        tf.data.experimental.index_table_from_dataset(_words(tf), num_oov_buckets=3)),
    "index_table_buckets_default": lambda tf: tf.data.experimental.index_table_from_dataset(
        _words(tf), num_oov_buckets=3, default_value=7).lookup(tf.constant(["b", "q", "hello", "world"])),
    "index_table_ragged": lambda tf: tf.data.experimental.index_table_from_dataset(
        _words(tf), num_oov_buckets=3).lookup(tf.ragged.constant([["a", "q"], [], ["c"]])),
    "index_table_vocab_size": lambda tf: (lambda t: [t.lookup(tf.constant(["a", "b", "c"])), t.size()])(
        tf.data.experimental.index_table_from_dataset(_words(tf), vocab_size=2)),
    "index_table_int_keys": lambda tf: tf.data.experimental.index_table_from_dataset(
        tf.data.Dataset.from_tensor_slices(_i64(tf, [10, 20])), num_oov_buckets=4, key_dtype=tf.int64).lookup(
        _i64(tf, [10, 20, 30, -7])),
    "index_table_int32_lookup": lambda tf: tf.data.experimental.index_table_from_dataset(
        tf.data.Dataset.from_tensor_slices(_i64(tf, [10, 20])), num_oov_buckets=4, key_dtype=tf.int32).lookup(
        tf.constant([10, 20, 30, -7])),
    "index_table_vocab_size_too_big": lambda tf: tf.data.experimental.index_table_from_dataset(_words(tf), vocab_size=5),
    "index_table_negative_buckets": lambda tf: tf.data.experimental.index_table_from_dataset(_words(tf),
                                                                                            num_oov_buckets=-1),
    "index_table_zero_vocab_size": lambda tf: tf.data.experimental.index_table_from_dataset(_words(tf), vocab_size=0),
    "index_table_float_keys": lambda tf: tf.data.experimental.index_table_from_dataset(_words(tf), key_dtype=tf.float32),
    "index_table_wrong_key_dtype": lambda tf: tf.data.experimental.index_table_from_dataset(
        _words(tf), key_dtype=tf.int64).lookup(_i64(tf, [1])),
    "index_table_bad_hasher": lambda tf: tf.data.experimental.index_table_from_dataset(
        _words(tf), num_oov_buckets=3, hasher_spec="x"),
    # MutableHashTable
    "mutable_insert_lookup": lambda tf: _filled(tf).lookup(tf.constant(["a", "q", "c"])),
    "mutable_python_keys": lambda tf: _filled(tf).lookup(["b", "z"]),
    "mutable_props": lambda tf: [_filled(tf).name, _filled(tf).key_dtype.name, _filled(tf).value_dtype.name,
                                 _filled(tf).size()],
    "mutable_overwrite": lambda tf: _after(_filled(tf), lambda m: m.insert(["a", "d"], _i64(tf, [10, 40]))),
    "mutable_remove": lambda tf: _after(_filled(tf), lambda m: m.remove(tf.constant(["c", "zz"]))),
    "mutable_insert_2d": lambda tf: _after(_mutable(tf), lambda m: m.insert([["c", "d"]], _i64(tf, [[3, 4]]))),
    "mutable_dynamic_default": lambda tf: _filled(tf).lookup(["a", "q"], dynamic_default_values=_i64(tf, [10, 20])),
    "mutable_dynamic_default_scalar": lambda tf: _filled(tf).lookup(["a", "q"], dynamic_default_values=_i64(tf, 5)),
    "mutable_getitem": lambda tf: _filled(tf)[tf.constant(["a"])],
    "mutable_vector_values": lambda tf: _after(_mutable(tf, tf.int64, tf.float32, [0.0, 0.0]), lambda m: m.insert(
        _i64(tf, [1, 2]), [[1.0, 2.0], [3.0, 4.0]])),
    "mutable_vector_lookup": lambda tf: (lambda m: [m.insert(_i64(tf, [1]), [[1.0, 2.0]]), m.lookup(_i64(tf, [[1, 5]])),
                                                    m.lookup(_i64(tf, [1, 5]), dynamic_default_values=[
                                                        [9.0, 9.0], [8.0, 8.0]])][1:])(
        _mutable(tf, tf.int64, tf.float32, [0.0, 0.0])),
    "mutable_int64_to_string": lambda tf: _after(_mutable(tf, tf.int64, tf.string, ""), lambda m: m.insert(
        _i64(tf, [3, 1]), ["three", "one"])),
    "mutable_empty_export": lambda tf: _after(_mutable(tf)),
    "mutable_float_values": lambda tf: (lambda m: [m.insert(["x"], [0.25]), m.lookup(["x", "y"])][1])(
        _mutable(tf, tf.string, tf.float64, 0.5)),
    # MutableHashTable: bad input
    "mutable_wrong_key_list": lambda tf: _filled(tf).lookup([1]),
    "mutable_wrong_key_tensor": lambda tf: _filled(tf).insert(tf.constant([1]), [1]),
    "mutable_wrong_value_tensor": lambda tf: _filled(tf).insert(["c"], tf.constant([1])),
    "mutable_value_shape": lambda tf: _filled(tf).insert(["c", "d"], _i64(tf, [1])),
    "mutable_remove_list": lambda tf: _filled(tf).remove(["c"]),
    "mutable_remove_wrong_dtype": lambda tf: _filled(tf).remove(tf.constant([1])),
    "mutable_dynamic_default_dtype": lambda tf: _filled(tf).lookup(["a", "q"], dynamic_default_values=[10, 20]),
    "mutable_dynamic_default_shape": lambda tf: _filled(tf).lookup(["a", "q"], dynamic_default_values=_i64(tf, [5, 6, 7])),
    "mutable_vector_value_shape": lambda tf: _mutable(tf, tf.int64, tf.float32, [0.0, 0.0]).insert(
        _i64(tf, [1]), [[1.0, 2.0, 3.0]]),
    "mutable_no_kernel_string_string": lambda tf: _mutable(tf, tf.string, tf.string, ""),
    "mutable_no_kernel_int32_int64": lambda tf: _mutable(tf, tf.int32, tf.int64, 0),
    "mutable_float_default_int_table": lambda tf: _mutable(tf, default=0.5),
    "mutable_matrix_default": lambda tf: _mutable(tf, default=[[0]]),
    "mutable_ragged_keys": lambda tf: _filled(tf).lookup(tf.ragged.constant([["a"]])),
    # DenseHashTable
    "dense_insert_lookup": lambda tf: (lambda d: [d.insert(_i64(tf, [1, 2, 3]), _i64(tf, [10, 20, 30])),
                                                  d.lookup(_i64(tf, [1, 4, 3])), d.size()][1:])(_dense(tf)),
    "dense_remove": lambda tf: (lambda d: [d.insert(_i64(tf, [1, 2, 3]), _i64(tf, [10, 20, 30])),
                                           d.remove(_i64(tf, [3, 99])), d.lookup(_i64(tf, [1, 3])), d.size()][2:])(_dense(tf)),
    "dense_strings": lambda tf: (lambda d: [d.insert(["a", "b", "c"], _i64(tf, [0, 1, 2])), d.remove(tf.constant(["c"])),
                                            d.lookup(tf.constant(["a", "b", "c", "d"]))][2])(
        _dense(tf, tf.string, empty="", deleted="$")),
    "dense_grow": lambda tf: (lambda d: [d.insert(["a", "b", "c", "d", "e"], [1.0, 2.0, 3.0, 4.0, 5.0]), d.size(),
                                         _dense_export(d), d.lookup(["a", "e", "zz"])][1:])(
        _dense(tf, tf.string, tf.float32, 0.0, "", "$", initial_num_buckets=4)),
    "dense_export_fresh": lambda tf: _dense_export(_dense(tf, tf.string, tf.float32, 0.0, "", "$", initial_num_buckets=8)),
    "dense_default_buckets": lambda tf: [list(t.shape) for t in _dense(tf).export()],
    "dense_vector_values": lambda tf: (lambda d: [d.insert(_i64(tf, [3]), [[1.0, 2.0, 3.0]]), _dense_export(d),
                                                  d.lookup(_i64(tf, 3)), d.lookup(_i64(tf, [[3]]))][1:])(
        _dense(tf, tf.int64, tf.float32, [0.0, 0.0, 0.0], -1, -2, initial_num_buckets=4)),
    "dense_scalar_keys": lambda tf: (lambda d: [d.insert(_i64(tf, 5), _i64(tf, 7)), d.lookup(_i64(tf, 5)),
                                                _dense_export(d)][1:])(_dense(tf, empty=-1, deleted=-2, initial_num_buckets=4)),
    "dense_vector_keys": lambda tf: (lambda d: [d.insert(_i64(tf, [[3, 4], [5, 6]]), _i64(tf, [1, 2])),
                                                d.lookup(_i64(tf, [[3, 4], [0, 0]])), d.lookup(_i64(tf, [[[3, 4]]])),
                                                _dense_export(d)][1:])(
        _dense(tf, empty=[-1, -1], deleted=[-2, -2], initial_num_buckets=4)),
    "dense_insert_or_assign": lambda tf: (lambda d: [d.insert_or_assign(_i64(tf, [1]), _i64(tf, [5])),
                                                     d.insert_or_assign(_i64(tf, [1]), _i64(tf, [6])),
                                                     d.lookup(_i64(tf, [1]))][2])(_dense(tf)),
    "dense_bool_values": lambda tf: (lambda d: [d.insert(["t"], [True]), d.lookup(["t", "f"])][1])(
        _dense(tf, tf.string, tf.bool, False, "", "$")),
    "dense_history": _dense_history,
    "dense_strings_buckets": _dense_strings,
    "dense_props": lambda tf: [_dense(tf).name, _dense(tf).key_dtype.name, _dense(tf).value_dtype.name],
    # DenseHashTable: bad input
    "dense_insert_empty_key": lambda tf: _dense(tf).insert(_i64(tf, [0]), _i64(tf, [1])),
    "dense_insert_deleted_key": lambda tf: _dense(tf).insert(_i64(tf, [-1]), _i64(tf, [1])),
    "dense_lookup_empty_key": lambda tf: _dense(tf).lookup(_i64(tf, [0])),
    "dense_remove_deleted_key": lambda tf: _dense(tf).remove(_i64(tf, [-1])),
    "dense_remove_wrong_dtype": lambda tf: _dense(tf).remove(tf.constant([3])),
    "dense_remove_list": lambda tf: _dense(tf).remove([3]),
    "dense_equal_keys": lambda tf: _dense(tf, empty=5, deleted=5),
    "dense_bad_buckets": lambda tf: _dense(tf, initial_num_buckets=6),
    "dense_small_buckets": lambda tf: _dense(tf, initial_num_buckets=2),
    "dense_key_shapes_differ": lambda tf: _dense(tf, empty=[-1, 0], deleted=-2),
    "dense_lookup_key_shape": lambda tf: _dense(tf, tf.string, tf.float32, 0.0, "", "$").lookup([["a", "e"]]),
    "dense_insert_key_shape": lambda tf: _dense(tf).insert(_i64(tf, [[3, 4]]), _i64(tf, [[1, 2]])),
    "dense_value_shape": lambda tf: _dense(tf, tf.int64, tf.float32, [0.0, 0.0], -1, -2).insert(_i64(tf, [3]), [1.0]),
    "dense_no_kernel": lambda tf: _dense(tf, tf.int32, tf.bool, False),
    # tables in tf.function, tf.data, under a tape, in checkpoints
    "function_mutable": _in_function,
    "function_static": _static_in_function,
    "function_sees_inserts": _closure_sees_inserts,
    "dataset_map": _dataset_map,
    "gradient_through_values": _grad,
    "gradient_to_initializer": _grad_values,
    "checkpoint": _checkpoint,
    "checkpoint_module": _module_checkpoint,
}

# the words of TF's error messages that tapegrad's say too (the rest names TF's kernels and paths)
MESSAGES = {
    "static_wrong_key_dtype": "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>",
    "static_list_keys": "object has no attribute 'dtype'",
    "static_vector_default": "Shapes (2,) and () are not compatible",
    "static_duplicate_keys": "HashTable has different value for same key. Key a has 1 and trying to add value 2",
    "static_shape_mismatch": "Expected shape [2] for value, got [3]",
    "static_no_kernel_bool": "Could not find device for node: {{node HashTableV2}}",
    "static_no_kernel_float_keys": "Could not find device for node: {{node HashTableV2}}",
    "static_int64_keys_int32_lookup": "Dtype of argument `keys` must be <dtype: 'int64'>, received: <dtype: 'int32'>",
    "vocab_int32_values": "Invalid `value_dtype`, expected <dtype: 'int64'> but got <dtype: 'int32'>.",
    "vocab_zero_buckets": "`num_oov_buckets` must be > 0; use StaticHashTable.",
    "vocab_int32_table_keys": "Invalid `key_dtype`, expected one of (tf.int64, tf.string), but got <dtype: 'int32'>.",
    "vocab_integer_lookup_of_strings": "Invalid `key_dtype`, expected integer but got <dtype: 'string'>.",
    "vocab_wrong_key_dtype": "Dtype of argument `keys` must be <dtype: 'int32'>, received: <dtype: 'int64'>",
    "text_vocab_size_too_big": ": expected 5 but got 3",
    "text_missing_column": "line 0 (emerson 10) : expected at least 3 got 2",
    "text_not_an_int": "Field emerson in line 0 is not a valid int64.",
    "text_not_an_int_whole_line": "Field 7x in line 1 is not a valid int64.",
    "text_empty_line": "empty line found at position 5.",
    "text_duplicate_line": "HashTable has different value for same key. Key a has 0 and trying to add value 2",
    "text_no_file": "nope.txt; No such file or directory",
    "text_line_number_key_string": "`key_dtype` must be int64 if `key_index` is -1, received: <dtype: 'string'>",
    "text_line_number_value_int32": "`value_dtype` must be int64 for `value_index` -1, received: <dtype: 'int32'>",
    "text_whole_line_float_key": "`key_dtype` should be either integer or string for `key_index` -2, received: "
                                 "<dtype: 'float32'>",
    "text_bad_index": "`key_index` should be >= -2, received: -3.",
    "text_no_filename": "`filename` argument required for tf.lookup.TextFileInitializer",
    "text_zero_vocab_size": "`vocab_size` should be > 0, received: 0",
    "dataset_initializer_three": "produces 3 components instead of two (key, value) components.",
    "dataset_initializer_batched": "non-scalar key Tensors of rank 1.",
    "dataset_initializer_not_pairs": "has no len()",
    "table_from_dataset_no_default": "`default_value` must be specified when creating a table from a dataset that "
                                     "produces values of type <dtype: 'string'>.",
    "index_table_vocab_size_too_big": "Input dataset was expected to contain 5 elements but contained only 3 elements.",
    "index_table_negative_buckets": "`num_oov_buckets` must be greater than or equal to 0, got -1.",
    "index_table_zero_vocab_size": "`vocab_size` must be greater than 0, got 0.",
    "index_table_float_keys": "`key_dtype` must be either an integer or string type, but got <dtype: 'float32'>",
    "index_table_wrong_key_dtype": "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int64'>",
    "index_table_bad_hasher": "`hasher_spec` must be of type HasherSpec, got <class 'str'>.",
    "mutable_value_shape": "Expected shape [2] for value, got [1]",
    "mutable_remove_list": "object has no attribute 'dtype'",
    "mutable_remove_wrong_dtype": "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>",
    "mutable_dynamic_default_dtype": "Signature mismatch, have: resource, string, int32->int32 expected: resource, "
                                     "string, int64->int64",
    "mutable_dynamic_default_shape": "Expected shape [] or [2] for default value, got [3]",
    "mutable_vector_value_shape": "Expected shape [1,2] for value, got [1,3]",
    "mutable_no_kernel_string_string": "Could not find device for node: {{node MutableHashTableV2}}",
    "mutable_no_kernel_int32_int64": "Could not find device for node: {{node MutableHashTableV2}}",
    "mutable_matrix_default": "Default value must be a vector, got shape [1,1]",
    "dense_insert_empty_key": "Using the empty_key as a table key is not allowed",
    "dense_insert_deleted_key": "Using the deleted_key as a table key is not allowed",
    "dense_lookup_empty_key": "Using the empty_key as a table key is not allowed",
    "dense_remove_deleted_key": "Using the deleted_key as a table key is not allowed",
    "dense_remove_wrong_dtype": "Signature mismatch. Keys must be dtype <dtype: 'int64'>, got <dtype: 'int32'>.",
    "dense_remove_list": "object has no attribute 'dtype'",
    "dense_equal_keys": "Empty and deleted keys cannot be equal",
    "dense_bad_buckets": "Number of buckets must be at least 4 and a power of 2, got: 6",
    "dense_small_buckets": "Number of buckets must be at least 4 and a power of 2, got: 2",
    "dense_key_shapes_differ": "Empty and deleted keys must have same shape, got shapes: [2] and []",
    "dense_lookup_key_shape": "Expected key shape [1] got [1,2]",
    "dense_insert_key_shape": "Expected key shape [1] got [1,2]",
    "dense_value_shape": "Expected shape [1,2] for value, got [1]",
    "dense_no_kernel": "Could not find device for node: {{node MutableDenseHashTableV2}}",
}
