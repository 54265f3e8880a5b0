"""tf.SparseTensor and tf.sparse against TensorFlow 2.21's recorded results (tools/record_tf_sparse.py,
cases in tests/sparse_cases.py), and the behaviour TensorFlow leaves to us."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

import sparse_cases
import tapegrad as tf

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "tf_sparse.json").read_text(encoding="utf-8"))

# tapegrad differs on purpose (docs/differences.md): a SparseTensor where a dense tensor is needed is a
# TypeError (tapegrad's error for every composite tensor, saying what to call instead), TF's a ValueError
CONVERSION = {"convert_to_tensor", "exp_refused", "relu_refused"}
# ... and a watched SparseTensor is a gradient source (its values' gradient, at its indices), where TF refuses
SOURCE = "source_sparse"


def close(got, want, path="result"):
    """Structural equality with float leaves compared to 1e-5 relative (float32 sums of a few terms)."""
    if isinstance(want, dict) and "f" in want and len(want) == 1:
        g, w = float(got["f"]), float(want["f"])
        assert (math.isnan(g) and math.isnan(w)) or g == pytest.approx(w, rel=1e-5, abs=1e-6), path
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), f"{path}: {got} != {want}"
        for k in want:
            close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} != {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want, rel=1e-5, abs=1e-6), path
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def check(name, got, want):
    if name == SOURCE:
        assert want["error"] == "ValueError", "TF's error changed"
        assert got == {"sparse": {"indices": [[0, 0], [1, 1]], "dense_shape": [2, 2], "values": {
            "dtype": "float32", "shape": [2], "value": [{"f": "1.0"}, {"f": "1.0"}]}}}, got
        return
    if name in CONVERSION:
        assert want["error"] == "ValueError", "TF's error changed"
        assert got["error"] == "CompositeConversionError" and "tf.sparse.map_values(op, sp)" in got["message"], got
        return
    matches(name, got, want, sparse_cases.MESSAGES)


def matches(name, got, want, messages):
    """``got`` is TF's recorded ``want``: the same error type (and the words ``messages[name]``), or
    the same values (``close``)."""
    if isinstance(want, dict) and "error" in want:
        assert isinstance(got, dict) and got.get("error") == want["error"], f"{name}: {got} (TF: {want})"
        if name in messages:
            assert messages[name] in want["message"], "the recorded message changed"
            assert messages[name] in got["message"], got["message"]
        return
    close(got, want, name)


@pytest.mark.parametrize("name", sorted(sparse_cases.CASES))
def test_matches_tensorflow(name):
    check(name, sparse_cases.run(sparse_cases.CASES[name], tf), RECORDED["cases"][name])


@pytest.mark.parametrize("name", sorted(sparse_cases.GRADS))
def test_gradients_match_tensorflow(name):
    check(name, sparse_cases.run(sparse_cases.GRADS[name], tf), RECORDED["grads"][name])


def test_every_case_is_recorded():
    assert sorted(RECORDED["cases"]) == sorted(sparse_cases.CASES)
    assert sorted(RECORDED["grads"]) == sorted(sparse_cases.GRADS)


def test_gradients_reach_the_values_and_the_dense_operand_numerically():
    """The gradients through sparse_dense_matmul agree with central differences (float64: 1e-6)."""
    idx = [[0, 1], [1, 0], [2, 2]]
    v0, d0 = np.array([0.5, -1.0, 2.0]), np.arange(6.0).reshape(3, 2) / 3

    def loss(v, d):
        return tf.reduce_sum(tf.sin(tf.sparse.sparse_dense_matmul(tf.SparseTensor(idx, v, [3, 3]), d)))

    v, d = tf.Variable(v0), tf.Variable(d0)
    with tf.GradientTape() as t:
        y = loss(v, d)
    gv, gd = t.gradient(y, [v, d])
    eps = 1e-6
    for k in range(3):
        e = np.eye(3)[k] * eps
        num = (loss(tf.constant(v0 + e), tf.constant(d0)) - loss(tf.constant(v0 - e), tf.constant(d0))) / (2 * eps)
        assert float(gv[k]) == pytest.approx(float(num), abs=1e-6)
    e = np.zeros_like(d0)
    e[1, 1] = eps
    num = (loss(tf.constant(v0), tf.constant(d0 + e)) - loss(tf.constant(v0), tf.constant(d0 - e))) / (2 * eps)
    assert float(gd[1, 1]) == pytest.approx(float(num), abs=1e-6)


def test_varlen_feature_parses_into_this_sparse_tensor():
    st = sparse_cases.CASES["parse_varlen"](tf)
    assert isinstance(st, tf.SparseTensor) and isinstance(st, tf.sparse.SparseTensor)
    assert st.dtype == tf.int64 and st.shape == [3, 3]


BAD = [
    ("indices not integers", lambda: tf.SparseTensor([[0.5, 1.0]], [1.0], [2, 2]), TypeError, "must be integers"),
    ("values a matrix", lambda: tf.SparseTensor([[0, 0]], [[1.0]], [2, 2]), ValueError, "must have rank 1"),
    ("to_dense of a dense tensor", lambda: tf.sparse.to_dense(tf.ones([2])), TypeError,
     "sp_input must be a SparseTensor.*tf.sparse.from_dense"),
    ("reshape with two -1", lambda: tf.sparse.reshape(tf.sparse.eye(2), [-1, -1]), tf.errors.InvalidArgumentError,
     "only one output dimension may be -1"),
    ("transpose with a bad perm", lambda: tf.sparse.transpose(tf.sparse.eye(2), [0, 0]),
     tf.errors.InvalidArgumentError, "perm must be a permutation"),
    ("slice with a short start", lambda: tf.sparse.slice(tf.sparse.eye(2), [0], [1, 1]),
     tf.errors.InvalidArgumentError, "start and size to have 2 elements"),
    ("retain with a wrong mask", lambda: tf.sparse.retain(tf.sparse.eye(2), [True]), ValueError,
     "bool vector of length 2"),
    ("split into too many", lambda: tf.sparse.split(sp_input=tf.sparse.eye(2), num_split=3, axis=0),
     tf.errors.InvalidArgumentError, "larger than dimension 0"),
    ("to_indicator of floats", lambda: tf.sparse.to_indicator(tf.sparse.eye(2), 3), TypeError, "integer ids"),
    ("to_indicator out of range", lambda: tf.sparse.to_indicator(
        tf.SparseTensor([[0, 0]], tf.constant([7], tf.int64), [1, 1]), 3), tf.errors.InvalidArgumentError,
     r"values\[0\] = 7 is not in \[0, 3\)"),
    ("softmax of a vector", lambda: tf.sparse.softmax(tf.SparseTensor([[0]], [1.0], [2])),
     tf.errors.InvalidArgumentError, "rank >= 2"),
    ("add of two dtypes", lambda: tf.sparse.add(tf.sparse.eye(2), tf.sparse.eye(2, dtype=tf.int32)), TypeError,
     "dtypes differ"),
    ("map_values on different indices", lambda: tf.sparse.map_values(
        tf.add, tf.sparse.eye(2), tf.SparseTensor([[0, 1], [1, 0]], [1.0, 1.0], [2, 2])),
     tf.errors.InvalidArgumentError, "same indices"),
    ("sparse * sparse", lambda: tf.sparse.eye(2) * tf.sparse.eye(2), TypeError, "tf.sparse.to_dense"),
    ("if sparse", lambda: bool(tf.sparse.eye(2)), TypeError, "ambiguous"),
    ("segment ids unsorted", lambda: tf.sparse.segment_sum(tf.ones([3]), [0, 1, 2], [1, 0, 1]),
     tf.errors.InvalidArgumentError, "not increasing"),
]


@pytest.mark.parametrize("call,error,pattern", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_says_what_is_wrong(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_tf_print_writes_tensorflows_text(capsys):
    """What TensorFlow 2.21's tf.print writes for a SparseTensor (quotes included)."""
    tf.print(tf.SparseTensor([[0, 0], [1, 2]], [1.0, -2.0], [3, 4]))
    assert capsys.readouterr().err == "'SparseTensor(indices=[[0 0]\n [1 2]], values=[1 -2], shape=[3 4])'\n"


def test_a_traced_function_takes_sparse_arguments():
    @tf.function
    def f(sp):
        return tf.sparse.reduce_sum(sp, 1)

    st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])
    assert f(st).numpy().tolist() == [1.0, 2.0, 0.0]
    assert f(st.with_values([3.0, 4.0])).numpy().tolist() == [3.0, 4.0, 0.0]
    assert f(tf.SparseTensor([[2, 1]], [5.0], [3, 4])).numpy().tolist() == [0.0, 0.0, 5.0]


def test_the_tf_sparse_names_not_covered_say_so():
    for name in ("bincount", "sampled_addmm"):
        with pytest.raises(AttributeError, match=f"does not cover tf.sparse.{name} yet"):
            getattr(tf.sparse, name)
