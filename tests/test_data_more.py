"""tapegrad.data's grouping, sampling and other later tf.data methods against TensorFlow 2.21.

The cases in tests/fixtures/tf_data_more.json were run under TensorFlow by
tools/record_tf_data_more.py; here the same snippets run with ``import tapegrad as tf`` and the
encoded results must agree: dtypes, shapes, integers and strings exactly (the seeded draws of
``random`` and ``sample_from_datasets`` included), floats by tests/tf_compare.py's rule, errors
by type name or a base class.
"""
import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))

import tapegrad as tf  # noqa: E402
from record_tf_data import run_case  # noqa: E402
from tf_compare import assert_close  # noqa: E402

with open(os.path.join(HERE, "fixtures", "tf_data_more.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]

# What tapegrad gives where it deliberately differs (docs/data.md, "Differences").
DIFFERENCES = {
    # from_list of elements of different dtypes: TF 2.21 fails with AttributeError ('NoneType' object
    # has no attribute '_flat_tensor_specs'); tapegrad says which elements differ.
    "exp_from_list_mismatch": {"t": "error", "type": "ValueError"},
}


def _same(got, want, path="out"):
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"], f"{path}: {got} vs {want}"
        if want["dtype"].startswith("float"):
            assert_close(np.asarray(got["v"], want["dtype"]), np.asarray(want["v"], want["dtype"]), err_msg=path)
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
    cls = getattr(tf.errors, name, None) or getattr(__builtins__ if not isinstance(__builtins__, dict) else None,
                                                   name, None) or (__builtins__.get(name) if isinstance(__builtins__, dict) else None)
    return cls.__mro__ if isinstance(cls, type) else ()


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    tf.random.set_seed(None)  # seeded draws assume no global seed, as when they were recorded
    got = run_case(tf, CASES[name]["code"])
    _same(got, DIFFERENCES.get(name, CASES[name]["tf"]))


# ----------------------------------------------------------------------------- beyond the recorded cases
def _take(it, n):
    return [tf.nest.map_structure(lambda t: t.numpy().tolist(), next(it)) for _ in range(n)]


@pytest.mark.parametrize("make", [
    lambda: tf.data.Dataset.random(seed=3, rerandomize_each_iteration=True).take(5).repeat(3),
    lambda: tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(20), tf.data.Dataset.range(100, 120)],
                                                 weights=[0.3, 0.7], seed=2),
    lambda: tf.data.Dataset.range(30).shuffle(30, seed=4).group_by_window(
        lambda x: x % 3, lambda k, w: w.batch(4), window_size=4),
    lambda: tf.data.Dataset.range(40).map(lambda x: tf.fill([x % 5 + 1], x)).bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3], [2, 3]),
])
def test_checkpointed_iterator_goes_on_where_it_stood(make, tmp_path):
    it = iter(make())
    _take(it, 4)
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    after = _take(it, 5)
    again = iter(make())
    tf.train.Checkpoint(it=again).restore(path)
    assert _take(again, 5) == after


def test_sample_from_datasets_follows_the_weights():
    ds = tf.data.Dataset.sample_from_datasets([tf.data.Dataset.from_tensors(0).repeat(),
                                               tf.data.Dataset.from_tensors(1).repeat()], weights=[0.2, 0.8], seed=0)
    ones = np.mean([int(x) for x in ds.take(4000)])
    assert abs(ones - 0.8) < 0.03  # 4000 draws: standard deviation 0.0063


def test_rejection_resample_reaches_the_target():
    classes = np.array([0] * 9 + [1], np.int64)
    ds = tf.data.Dataset.from_tensor_slices(classes).repeat(300).rejection_resample(
        lambda c: c, [0.5, 0.5], seed=5)
    got = np.array([int(c) for c, _ in ds.take(1500)])
    assert abs(got.mean() - 0.5) < 0.06  # the estimate of the input's classes starts at 1:1 and converges


def test_group_by_window_refuses_an_int32_key_and_bad_sizes():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    with pytest.raises(ValueError, match="tf.int64"):
        list(ds.group_by_window(lambda x: x % 2, lambda k, w: w.batch(2), window_size=2))
    with pytest.raises(ValueError, match="window_size"):
        ds.group_by_window(lambda x: 0, lambda k, w: w)
    with pytest.raises(TypeError, match="reduce_func"):
        tf.data.Dataset.range(3).group_by_window(lambda x: x, lambda k, w: 1, window_size=1)


def test_snapshot_writes_once_and_reads_after(tmp_path):
    calls = []

    def f(x):
        calls.append(1)
        return x * 2
    ds = tf.data.Dataset.range(4).map(f).snapshot(str(tmp_path))
    it = iter(ds)
    next(it)  # an iteration that stops early writes nothing
    assert list(tmp_path.iterdir()) == []
    first = [int(x) for x in ds]
    n = len(calls)
    assert first == [0, 2, 4, 6] and len(list(tmp_path.iterdir())) == 1
    assert [int(x) for x in ds] == first and len(calls) == n  # read from the snapshot
    other = tf.data.Dataset.range(5).map(f).snapshot(str(tmp_path))
    assert [int(x) for x in other] == [0, 2, 4, 6, 8] and len(list(tmp_path.iterdir())) == 2


def test_fingerprint_follows_the_definition():
    a = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x + 1)
    b = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x + 1)
    c = tf.data.Dataset.from_tensor_slices([1, 2, 4]).map(lambda x: x + 1)
    d = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: x + 2)
    fa = a.fingerprint()
    assert fa.dtype == tf.uint64 and fa.shape == ()
    assert int(fa) == int(b.fingerprint())
    assert len({int(fa), int(c.fingerprint()), int(d.fingerprint())}) == 3
    k = [2, 3]
    e, f = (tf.data.Dataset.range(3).map(lambda x, k=k[0]: x * k), tf.data.Dataset.range(3).map(lambda x, k=k[1]: x * k))
    assert int(e.fingerprint()) != int(f.fingerprint())  # captured values count
    g, h = (tf.data.Dataset.range(9).bucket_by_sequence_length(lambda x: 1, [b], [2, 2], no_padding=True) for b in (2, 5))
    assert int(g.fingerprint()) != int(h.fingerprint())


def test_unseeded_random_differs_between_datasets():
    a = list(tf.data.Dataset.random().take(4).as_numpy_iterator())
    b = list(tf.data.Dataset.random().take(4).as_numpy_iterator())
    assert a != b and all(0 <= v < 2 ** 32 for v in a)


def test_new_methods_iterate_in_a_function():
    ds = tf.data.Dataset.range(6).group_by_window(lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)

    @tf.function
    def total(d):
        s = tf.constant(0, tf.int64)
        for b in d:
            s += tf.reduce_sum(b)
        return s
    with pytest.warns(UserWarning, match="runs eagerly"):  # (a dataset loop inside: tapegrad runs it eagerly)
        assert int(total(ds)) == 15


def test_get_single_element_in_a_function_reads_each_call():
    @tf.function
    def first_row(x):
        return tf.data.Dataset.from_tensor_slices(x).batch(2).take(1).get_single_element()

    with pytest.warns(UserWarning, match="runs eagerly"):
        assert first_row(tf.constant([1, 2, 3])).numpy().tolist() == [1, 2]
    assert first_row(tf.constant([7, 8, 9])).numpy().tolist() == [7, 8]  # not the first call's value


def test_checkpoint_refuses_a_random_window_size_func(tmp_path):
    ds = tf.data.Dataset.range(8).group_by_window(
        lambda x: x % 2, lambda k, w: w.batch(2),
        window_size_func=lambda k: 2 + tf.cast(tf.random.uniform([]) > 2, tf.int64))
    it = iter(ds)
    next(it)
    with pytest.raises(tf.errors.FailedPreconditionError, match="random op"):
        tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))


def test_repeat_reads_ahead_but_raises_an_error_on_its_element():
    """A repeat reads an element ahead (TF's injected prefetch) but an error in the element read
    ahead is raised when that element is asked for, as TensorFlow's prefetch raises it."""
    ds = tf.data.Dataset.range(3).map(
        lambda x: tf.debugging.check_numerics(1.0 / (tf.cast(x, tf.float32) - 2.0), "x")).repeat()
    it = iter(ds)
    assert [float(next(it)) for _ in range(2)] == [-0.5, -1.0]
    with pytest.raises(tf.errors.InvalidArgumentError):
        next(it)
