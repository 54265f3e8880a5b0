"""tf.lookup against TensorFlow 2.21's recorded results (tools/record_lookup.py, cases in
tests/lookup_cases.py), and the behaviour TensorFlow leaves to us."""
import json
from pathlib import Path

import pytest

import lookup_cases
import tapegrad as tf
from test_sparse import matches

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_lookup.json").read_text(encoding="utf-8"))
# tapegrad differs on purpose (docs/differences.md): a RaggedTensor where a dense tensor is needed is a
# TypeError saying what to call instead (tapegrad's error for every composite tensor), TF's a ValueError
CONVERSION = {"mutable_ragged_keys"}


def check(name, got, want):
    if name in CONVERSION:
        assert want["error"] == "ValueError", "TF's error changed"
        assert got["error"] == "CompositeConversionError" and ".flat_values" in got["message"], got
        return
    matches(name, got, want, lookup_cases.MESSAGES)


@pytest.mark.parametrize("name", sorted(lookup_cases.CASES))
def test_matches_tensorflow(name):
    check(name, lookup_cases.run(lookup_cases.CASES[name], tf), RECORDED["cases"][name])


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(lookup_cases.CASES)
    assert set(lookup_cases.MESSAGES) <= set(lookup_cases.CASES)


def _static_ints():
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [10, 20]), -1)


def test_vectorized_map_batches_a_static_lookup(recwarn):
    table = _static_ints()
    out = tf.vectorized_map(lambda k: table.lookup(k), tf.constant([[1, 3], [2, 1]]))
    assert out.numpy().tolist() == [[10, -1], [20, 10]] and not recwarn.list


def test_vectorized_map_batches_a_vocabulary_lookup_of_strings(recwarn):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    table = tf.lookup.StaticVocabularyTable(init, 3)
    out = tf.vectorized_map(lambda k: table.lookup(k), tf.constant([["a", "zz"], ["b", "a"]]))
    assert out.numpy().tolist() == [[0, 3], [1, 0]] and not recwarn.list  # (zz: TF's bucket 1, recorded)


def test_vectorized_map_runs_a_mutable_lookup_once_per_row():
    table = tf.lookup.experimental.MutableHashTable(tf.int32, tf.int32, -1)
    table.insert(tf.constant([1, 2]), tf.constant([10, 20]))
    with pytest.warns(UserWarning, match="running fn once per row"):
        out = tf.vectorized_map(lambda k: table.lookup(k), tf.constant([[1, 3], [2, 1]]))
    assert out.numpy().tolist() == [[10, -1], [20, 10]]


def test_a_lookup_is_a_constant_to_tapes_and_accumulators():
    values = tf.constant([1.5, 2.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(values)
        table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], values), 0.0)
        found = table.lookup(tf.constant([2]))
    assert tape.gradient(found, values) is None
    with tf.autodiff.ForwardAccumulator(values, tf.ones_like(values)) as acc:
        found = table.lookup(tf.constant([1]))
    assert acc.jvp(found) is None


def test_a_traced_function_replays_reads_and_writes_in_order():
    table = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, 0.0)

    @tf.function
    def bump(k):
        table.insert(k, table.lookup(k) + 1.0)
        return table.lookup(k)
    for _ in range(3):
        out = bump(tf.constant([7, 8], tf.int64))
    assert out.numpy().tolist() == [3.0, 3.0] and int(table.size()) == 2


def test_saved_model_keeps_static_tables_and_refuses_mutable_ones(tmp_path):
    class Vocab(tf.Module):
        def __init__(self, table):
            super().__init__()
            self.table = table

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def __call__(self, k):
            return self.table.lookup(k), self.table.size()
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
    tf.saved_model.save(Vocab(tf.lookup.StaticVocabularyTable(init, 3)), str(tmp_path / "static"))
    ids, size = tf.saved_model.load(str(tmp_path / "static"))(tf.constant(["b", "zz", "hello"]))
    assert ids.numpy().tolist() == [1, 3, 3] and int(size) == 5  # (TF's buckets, as recorded)
    mutable = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    with pytest.raises(ValueError, match=r"tf\.lookup MutableHashTable\.lookup"):
        tf.saved_model.save(Vocab(mutable), str(tmp_path / "mutable"))


def test_a_static_table_with_trailing_zero_bytes_keeps_them():
    init = tf.lookup.KeyValueTensorInitializer(["a\0", "a"], ["n\0", "m"])
    table = tf.lookup.StaticHashTable(init, "d")  # (looked up in its dict: an S array would drop them)
    found = table.lookup(tf.constant(["a", "a\0", "a\0\0"]))
    assert found.numpy().tolist() == [b"m", b"n\0", b"d"]
    plain = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["bb", "a"], ["n", "m"]), "d")
    assert plain.lookup(tf.constant(["a", "a\0", "bb", "b", ""])).numpy().tolist() == [b"m", b"d", b"n", b"d", b"d"]


def test_checkpoint_keeps_every_byte_of_string_keys(tmp_path):
    keys = [b"", b"a\x00", b"\x00", "\u00e9t\u00e9".encode(), b"x" * 300]
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(keys), tf.constant([0, 1, 2, 3, 4], tf.int64))
    path = tf.train.Checkpoint(t=table).write(str(tmp_path / "ckpt"))
    table.remove(tf.constant(keys[:3]))
    tf.train.Checkpoint(t=table).read(path).assert_consumed()
    assert table.lookup(tf.constant(keys)).numpy().tolist() == [0, 1, 2, 3, 4]
    reader = tf.train.load_checkpoint(path)
    assert sorted(reader.get_tensor("t/.ATTRIBUTES/table-keys").tolist()) == sorted(keys)
    assert reader.get_variable_to_dtype_map()["t/.ATTRIBUTES/table-keys"] == tf.string


def test_export_lists_pairs_in_insertion_order():
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    table.insert(tf.constant(["b", "a", "c"]), tf.constant([2, 1, 3], tf.int64))
    table.remove(tf.constant(["a"]))
    keys, values = table.export()
    assert keys.numpy().tolist() == [b"b", b"c"] and values.numpy().tolist() == [2, 3]


def test_a_name_tf_lookup_lacks_is_an_attribute_error():
    with pytest.raises(AttributeError, match="tapegrad.lookup"):
        tf.lookup.no_such_table  # noqa: B018
    assert tf.data.experimental.DatasetInitializer.__module__ == "tapegrad.lookup._tables"


def test_a_keras_layer_looks_up_tokens_in_fit_and_predict():
    keras = tf.keras

    class Tokens(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            init = tf.lookup.KeyValueTensorInitializer(["a", "b"], tf.constant([0, 1], tf.int64))
            self.table = tf.lookup.StaticVocabularyTable(init, 2)
            self.embed = keras.layers.Embedding(4, 2)

        def call(self, x):
            return self.embed(self.table.lookup(x))
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input(shape=(3,), dtype="string"), Tokens(),
                              keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = tf.constant([["a", "b", "zz"], ["b", "b", "q"]]), tf.constant([[1.0], [0.0]])
    losses = model.fit(x, y, epochs=3, verbose=0).history["loss"]
    assert losses[-1] < losses[0] and model.predict(x, verbose=0).shape == (2, 1)
