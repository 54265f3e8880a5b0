"""tapegrad.data against TensorFlow 2.21's tf.data.

The cases in tests/fixtures/tf_data.json were run under TensorFlow by tools/record_tf_data.py;
here the same snippets run with ``import tapegrad as tf`` and the encoded results must agree
(dtypes and shapes exactly, values to float32 rtol 1e-6, errors by type name or a base class).
Deliberate differences are listed in DIFFERENCES with what tapegrad gives instead.
"""
import json
import os
import pickle
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))

import tapegrad as tf  # noqa: E402
from record_tf_data import encode, run_case  # noqa: E402

with open(os.path.join(HERE, "fixtures", "tf_data.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]

# What tapegrad gives where it deliberately differs (docs/data.md, "Differences").
DIFFERENCES = {
    # int32 + int64 inside reduce_func: tapegrad's add raises InvalidArgumentError for mixed
    # dtypes everywhere (TF raises TypeError for this one at trace time).
    "reduce_dtype_mismatch": {"t": "error", "type": "InvalidArgumentError"},
    # ignore_errors goes on after an error raised in a CSV record or a map or filter function,
    # through batch and prefetch; an error raised below another transformation (enumerate here)
    # ends the iteration with NotImplementedError saying where to put ignore_errors instead.
    "ignore_errors_strict_below": {"t": "error", "type": "NotImplementedError"},
}


def _same(got, want, path="out"):
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"], f"{path}: {got} vs {want}"
        if want["dtype"].startswith("float"):
            np.testing.assert_allclose(got["v"], want["v"], rtol=1e-6, err_msg=path)
        else:
            assert got["v"] == want["v"], f"{path}: {got} vs {want}"
    elif isinstance(want, dict) and want.get("t") == "error":
        assert isinstance(got, dict) and got.get("t") == "error", f"{path}: {got} vs {want}"
        names = {c.__name__ for c in _error_classes(got["type"])}
        assert want["type"] in names, f"{path}: raised {got['type']}, TF raised {want['type']}"
    elif isinstance(want, dict) and "t" in want:
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        for k in want:
            if k != "t":
                _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: {got} vs {want}"
        for k in want:
            _same(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} vs {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


def _error_classes(name):
    for mod in (tf.errors, __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)):
        cls = getattr(mod, name, None) if not isinstance(mod, dict) else mod.get(name)
        if isinstance(cls, type):
            return cls.__mro__
    return ()


def _run(name):
    return run_case(tf, CASES[name]["code"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    tf.random.set_seed(None)  # seeded orders assume no global seed, as when they were recorded
    got = _run(name)
    _same(got, DIFFERENCES.get(name, CASES[name]["tf"]), name)


def test_differences_are_real():
    for name in DIFFERENCES:
        assert CASES[name]["tf"] != DIFFERENCES[name]


# --------------------------------------------------------------------------- beyond the fixture
def test_from_generator_with_output_types():
    def gen():
        yield 1, [1.0]
        yield 2, [2.0, 3.0]
    ds = tf.data.Dataset.from_generator(gen, output_types=(tf.int32, tf.float32), output_shapes=((), (None,)))
    assert repr(ds.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    out = [(int(a), b.numpy().tolist(), b.dtype) for a, b in ds]
    assert out == [(1, [1.0], tf.float32), (2, [2.0, 3.0], tf.float32)]
    assert list(ds.as_numpy_iterator())[0][0].dtype == np.int32  # each iteration calls gen again


def test_from_generator_bad_yield():
    bad_shape = tf.data.Dataset.from_generator(lambda: iter([[1, 2, 3]]), output_types=tf.int32, output_shapes=(2,))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[3\].*\(2,\)"):
        list(bad_shape)
    bad_type = tf.data.Dataset.from_generator(lambda: iter([1.5]), output_types=tf.int64)
    with pytest.raises(TypeError, match="int64"):
        list(bad_type)
    with pytest.raises(TypeError, match="output_signature"):
        tf.data.Dataset.from_generator(lambda: iter([1]))


def test_mismatched_slices_message_names_components():
    with pytest.raises(ValueError, match=r"component \['a'\] has 3 .* component \['b'\] has 2"):
        tf.data.Dataset.from_tensor_slices({"a": np.zeros(3), "b": np.zeros((2, 4))})


def test_elements_are_tensors_on_the_tape():
    w = tf.Variable(2.0)
    ds = tf.data.Dataset.from_tensor_slices(np.array([1.0, 2.0, 3.0], np.float32)).batch(2)
    with tf.GradientTape() as tape:
        loss = tf.add_n([tf.reduce_sum(w * b) for b in ds])
    assert float(tape.gradient(loss, w)) == pytest.approx(6.0)
    assert isinstance(next(iter(ds)), tf.Tensor)


def test_from_tensor_slices_copies_its_input():
    x = np.arange(4.0)
    ds = tf.data.Dataset.from_tensor_slices(x)
    x[0] = 100.0
    assert [float(v) for v in ds] == [0.0, 1.0, 2.0, 3.0]


def test_batch_slices_the_arrays_once_per_batch():
    x = np.arange(40.0, dtype=np.float32).reshape(20, 2)
    ds = tf.data.Dataset.from_tensor_slices((x, np.arange(20))).skip(1).take(15).repeat(2).batch(4)
    got = [(a.numpy(), b.numpy()) for a, b in ds]
    order = (list(range(1, 16)) * 2)
    want = [order[i:i + 4] for i in range(0, 30, 4)]
    assert [b.tolist() for _, b in got] == want
    for a, b in got:
        np.testing.assert_array_equal(a, x[b])
    assert [len(b) for _, b in ds.unbatch().batch(7)] == [7, 7, 7, 7, 2]


def test_shuffle_seed_reproducible_and_reshuffles():
    ds = tf.data.Dataset.range(100).shuffle(30, seed=7)
    a, b = list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator())
    assert sorted(a) == list(range(100)) and a != b  # reshuffle_each_iteration
    assert list(tf.data.Dataset.range(100).shuffle(30, seed=7).as_numpy_iterator()) == a  # run to run
    fixed = tf.data.Dataset.range(100).shuffle(30, seed=7, reshuffle_each_iteration=False)
    assert list(fixed.as_numpy_iterator()) == list(fixed.as_numpy_iterator())
    epochs = list(tf.data.Dataset.range(10).shuffle(10, seed=1).repeat(2).as_numpy_iterator())
    assert sorted(epochs[:10]) == sorted(epochs[10:]) == list(range(10)) and epochs[:10] != epochs[10:]
    tf.random.set_seed(3)
    c = list(tf.data.Dataset.range(50).shuffle(50).as_numpy_iterator())
    tf.random.set_seed(3)
    assert list(tf.data.Dataset.range(50).shuffle(50).as_numpy_iterator()) == c


def test_shuffle_buffer_bounds_displacement():
    # with a buffer of b, element i cannot come out before position i - b + 1
    out = list(tf.data.Dataset.range(200).shuffle(5, seed=0).as_numpy_iterator())
    assert all(v <= pos + 4 for pos, v in enumerate(out))
    rows = tf.data.Dataset.from_tensor_slices(np.arange(200)).shuffle(5, seed=0).batch(200)
    batch = next(iter(rows)).numpy()
    assert all(v <= pos + 4 for pos, v in enumerate(batch)) and sorted(batch) == list(range(200))


def test_shuffle_whole_dataset_and_strings():
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c"]).shuffle(tf.data.UNKNOWN_CARDINALITY, seed=2)
    assert sorted(ds.as_numpy_iterator()) == [b"a", b"b", b"c"]
    assert next(iter(tf.data.Dataset.from_tensor_slices(["xy"]).batch(2).as_numpy_iterator())).tolist() == [b"xy"]


def test_cache_replays_the_first_iteration():
    calls = []
    ds = tf.data.Dataset.range(3).map(lambda x: (calls.append(1), x)[1]).cache()
    assert list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator()) == [0, 1, 2]
    assert len(calls) == 3
    shuffled = tf.data.Dataset.from_tensor_slices(np.arange(20)).shuffle(20, seed=1).cache()
    first = list(shuffled.as_numpy_iterator())
    assert list(shuffled.as_numpy_iterator()) == first
    with pytest.raises(NotImplementedError, match="in memory"):
        tf.data.Dataset.range(3).cache("/tmp/x")


def test_map_side_effects_run_per_element():
    seen = []
    ds = tf.data.Dataset.range(3).map(lambda x: seen.append(int(x)) or x)
    list(ds)
    assert seen == [0, 1, 2]


def test_filter_needs_a_bool():
    with pytest.raises(TypeError, match="scalar bool"):
        list(tf.data.Dataset.range(3).filter(lambda x: x))


def test_iteration_is_lazy_and_starts_over():
    ds = tf.data.Dataset.range(10 ** 15).map(lambda x: x * 2).skip(10 ** 3).take(2)
    assert [int(v) for v in ds] == [2000, 2002] == [int(v) for v in ds]
    it = iter(ds)
    assert int(next(it)) == 2000 and it.element_spec == ds.element_spec


def test_window_of_tuples_and_spec():
    ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [4.0, 5.0, 6.0])).window(2)
    assert repr(ds.element_spec) == ("(DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorShape([])), "
                                     "DatasetSpec(TensorSpec(shape=(), dtype=tf.float32, name=None), TensorShape([])))")
    got = [(list(a.as_numpy_iterator()), list(b.as_numpy_iterator())) for a, b in ds]
    assert got == [([1, 2], [4.0, 5.0]), ([3], [6.0])]


def test_bad_arguments():
    ds = tf.data.Dataset.range(3)
    with pytest.raises(TypeError, match="batch_size"):
        ds.batch(2.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size"):
        ds.shuffle(-3)
    with pytest.raises(TypeError, match="Dataset"):
        ds.flat_map(lambda x: x).element_spec
    with pytest.raises(TypeError, match="datasets"):
        tf.data.Dataset.zip((ds, 1))
    with pytest.raises(AttributeError, match="Dataset"):
        tf.data.Datset


def test_padded_batch_with_padding_value_and_bad_shape():
    ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x))
    with pytest.raises(tf.errors.DataLossError, match="padded shape"):
        list(ds.padded_batch(3, padded_shapes=[2]))


def test_options_accepted_and_lazy_import():
    o = tf.data.Options()
    o.experimental_deterministic = False
    o.threading.private_threadpool_size = 1
    assert o.threading.private_threadpool_size == 1
    assert list(tf.data.Dataset.range(2).with_options(o).prefetch(tf.data.AUTOTUNE).as_numpy_iterator()) == [0, 1]
    import subprocess
    code = "import sys, tapegrad; print('tapegrad.data' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=os.path.dirname(HERE)).stdout.strip() == "False"


def test_string_columns_flow_into_a_keras_model():
    """A dict of object-array columns (strings) and numbers, as pandas gives them, through
    from_tensor_slices and a functional model with tf.string inputs and StringLookup."""
    rng = np.random.default_rng(0)
    cols = {"town": np.array(["a", "b", "c"], dtype=object)[rng.integers(0, 3, 40)],
            "age": rng.random(40).astype(np.float32)}
    y = rng.integers(0, 2, 40)
    inputs = {"town": tf.keras.Input(shape=(1,), name="town", dtype=tf.string),
              "age": tf.keras.Input(shape=(1,), name="age", dtype=tf.float32)}
    lookup = tf.keras.layers.StringLookup(vocabulary=np.unique(cols["town"]))
    one_hot = tf.keras.layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())
    head = tf.keras.layers.Concatenate()([inputs["age"], one_hot(lookup(inputs["town"]))])
    pre = tf.keras.Model(inputs, head)
    got = pre({"town": np.array(["c", "zz"], dtype=object), "age": np.array([0.5, 1.0], np.float32)}).numpy()
    np.testing.assert_array_equal(got, [[0.5, 0, 0, 0, 1], [1.0, 1, 0, 0, 0]])  # "zz": the OOV index 0
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(pre(inputs)))
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), optimizer="adam")
    ds = tf.data.Dataset.from_tensor_slices((cols, y))
    assert ds.element_spec[0]["town"] == tf.TensorSpec((), tf.string)
    first = next(iter(ds.batch(4)))[0]["town"]
    assert first.dtype == tf.string and first.shape == (4,)
    for data in ({"x": cols, "y": y}, {"x": ds.shuffle(40, seed=1).batch(16)}):
        loss = model.fit(**data, epochs=2, verbose=0).history["loss"]
        assert len(loss) == 2 and np.all(np.isfinite(loss))


def test_encode_roundtrip_is_plain_json():
    out = encode((tf.constant([1.0]), b"x", {"a": np.int64(2)}))
    assert json.loads(json.dumps(out)) == out
    assert pickle.loads(pickle.dumps(out)) == out


def test_benchmark_runs_at_a_tiny_size():
    sys.path.insert(0, os.path.dirname(HERE))
    from benchmarks import bench_data
    (row,) = bench_data.measure("tapegrad", smoke=True)
    assert row["ms"] > 0 and row["base_ms"] > 0


def test_save_and_load_round_trip(tmp_path):
    """Dataset.save / Dataset.load (and tf.data.experimental's): the elements, their structure and
    spec come back (strings with any bytes, shapes that vary, nests), by shard in order."""
    ds = tf.data.Dataset.from_tensor_slices({"x": np.arange(6.0, dtype=np.float32).reshape(3, 2),
                                             "s": ["a", "", "c\x00"], "i": [1, 2, 3]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="different shapes"):  # (as TF: pad or go ragged)
        list(ds.map(lambda e: tf.fill([e["i"]], e["s"])).batch(2))
    ds = ds.map(lambda e: (e, tf.fill([e["i"]], e["s"]))).padded_batch(2)
    ds.save(str(tmp_path / "a"))
    back = tf.data.Dataset.load(str(tmp_path / "a"))
    assert back.element_spec == ds.element_spec and int(back.cardinality()) == 2
    for (a, sa), (b, sb) in zip(ds.as_numpy_iterator(), back.as_numpy_iterator()):
        assert sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)
        assert sa.tolist() == sb.tolist() and sb.dtype == object
    nums = tf.data.Dataset.range(10)
    tf.data.experimental.save(nums, str(tmp_path / "b"), compression="GZIP", shard_func=lambda x: x % 3)
    assert sorted(os.listdir(tmp_path / "b")) == ["dataset_spec.json", "shard_00000.npz", "shard_00001.npz",
                                                  "shard_00002.npz"]
    assert [int(v) for v in tf.data.experimental.load(str(tmp_path / "b"))] == [0, 3, 6, 9, 1, 4, 7, 2, 5, 8]
    mixed = tf.data.Dataset.load(str(tmp_path / "b"), reader_func=lambda shards: shards.interleave(lambda s: s, cycle_length=3))
    assert [int(v) for v in mixed] == list(range(10))
    it = iter(tf.data.Dataset.load(str(tmp_path / "b")).shuffle(4, seed=1))  # a loaded dataset's iterator saves
    next(it)
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "c"))
    rest = [int(v) for v in it]
    again = iter(tf.data.Dataset.load(str(tmp_path / "b")).shuffle(4, seed=1))
    tf.train.Checkpoint(it=again).restore(path)
    assert [int(v) for v in again] == rest


def test_save_and_load_refuse_what_they_cannot_do(tmp_path):
    with pytest.raises(ValueError, match="infinite"):
        tf.data.Dataset.range(3).repeat().save(str(tmp_path / "x"))
    with pytest.raises(NotImplementedError, match="to_tensor"):
        tf.data.Dataset.range(1, 3).map(lambda x: tf.fill([x], x)).ragged_batch(2).save(str(tmp_path / "r"))
    with pytest.raises(NotImplementedError, match="checkpoint_args"):
        tf.data.Dataset.range(3).save(str(tmp_path / "c"), checkpoint_args={})
    with pytest.raises(TypeError, match="shard_func"):
        tf.data.Dataset.range(3).save(str(tmp_path / "f"), shard_func=lambda x: tf.cast(x, tf.float32))
    with pytest.raises(tf.errors.NotFoundError, match="no dataset saved by tapegrad"):
        tf.data.Dataset.load(str(tmp_path / "nothing"))
    tf.data.Dataset.range(3).save(str(tmp_path / "ok"))
    with pytest.raises(ValueError, match="element_spec"):
        tf.data.Dataset.load(str(tmp_path / "ok"), element_spec=tf.TensorSpec((), tf.float32))


def test_checkpointed_iterator_over_a_filled_cache(tmp_path):
    """An iterator that reads a cache an earlier iteration filled restores into the same dataset;
    into a new one (empty cache, elements that cannot be known again) it says so."""
    def make():
        return tf.data.Dataset.range(8).shuffle(8, seed=1).cache()
    ds = make()
    list(ds)
    it = iter(ds)
    [next(it) for _ in range(3)]
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "c"))
    rest = [int(x) for x in it]
    again = iter(ds)
    tf.train.Checkpoint(it=again).restore(path)
    assert [int(x) for x in again] == rest
    with pytest.raises(tf.errors.NotFoundError, match="cache"):
        tf.train.Checkpoint(it=iter(make())).restore(path)
    fresh = iter(make().repeat(2))  # a cache filled by the iterator itself replays anywhere
    [next(fresh) for _ in range(11)]
    path = tf.train.Checkpoint(it=fresh).save(str(tmp_path / "d"))
    rest = [int(x) for x in fresh]
    other = iter(make().repeat(2))
    tf.train.Checkpoint(it=other).restore(path)
    assert [int(x) for x in other] == rest


def test_list_files_sorts_then_shuffles_as_tensorflow(tmp_path):
    for n in "dcba":
        (tmp_path / f"{n}.txt").write_text("")
    pattern = str(tmp_path / "*.txt")
    names = lambda ds: [os.path.basename(f.decode()) for f in ds.as_numpy_iterator()]  # noqa: E731
    assert names(tf.data.Dataset.list_files(pattern, shuffle=False)) == ["a.txt", "b.txt", "c.txt", "d.txt"]
    # (TensorFlow 2.21 gives this order for seed=1 and no global seed: a shuffle of all the names)
    tf.random.set_seed(None)
    assert names(tf.data.Dataset.list_files(pattern, seed=1)) == ["a.txt", "d.txt", "b.txt", "c.txt"]
    assert tf.data.Dataset.list_files(pattern).element_spec == tf.TensorSpec([], tf.string)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern: .*png"):
        tf.data.Dataset.list_files(str(tmp_path / "*.png"))


@pytest.mark.parametrize("cores, parallel, cycle", [(2, None, 2), (2, "auto", 1), (6, "auto", 2), (6, 4, 4), (3, 8, 3)])
def test_interleave_cycle_length_by_default_is_tensorflows(monkeypatch, cores, parallel, cycle):
    # TF's ComputeCycleLength: the schedulable cores; with num_parallel_calls=n, min(n, cores);
    # with AUTOTUNE, a third of the cores rounded up (order as a sequential interleave of that cycle)
    import os
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    calls = tf.data.AUTOTUNE if parallel == "auto" else parallel
    ds = tf.data.Dataset.range(8).interleave(lambda i: tf.data.Dataset.from_tensors(i).repeat(2),
                                             num_parallel_calls=calls)
    want = tf.data.Dataset.range(8).interleave(lambda i: tf.data.Dataset.from_tensors(i).repeat(2),
                                               cycle_length=cycle)
    assert [int(v) for v in ds] == [int(v) for v in want]
