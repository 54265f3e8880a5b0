"""tf.RaggedTensor and tf.ragged: every case of tests/ragged_cases.py against TensorFlow's
recorded results (tests/fixtures/tf_ragged.json, from tools/record_tf_ragged.py), gradients
through ragged ops, and what the fixture cannot show (tf.function, tf.data, bad input)."""
import json
import math
import re
import pathlib
import sys

import numpy as np
import pytest

import tapegrad as tf
import ragged_cases as rc

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "tools"))
from record_tf_strings import printed  # noqa: E402

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_ragged.json").read_text())
ENV = rc.setup(tf)

# Where tapegrad raises another error type than TensorFlow, on purpose (docs/differences.md).
OTHER_ERRORS = {
    # an op with no RaggedTensor version (tf.matmul): a TypeError saying to convert it explicitly
    "matmul_error": "CompositeConversionError",
}


def _close(got, want, path="result"):
    """Equal, floats within float32 round-off (values of one op on a few numbers: 1e-6 relative)."""
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (path, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), (path, got, want)
        for k in want:
            if k == "repr" and _has_float(want):
                continue  # (a float's last digits: compared as numbers in "ragged"/"value")
            _close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, float) and not isinstance(want, bool):
        assert isinstance(got, (int, float)), (path, got, want)
        if math.isnan(want):
            assert math.isnan(got), (path, got)
        else:
            assert got == pytest.approx(want, rel=1e-6, abs=1e-6), (path, got, want)
    else:
        assert got == want and type(got) is type(want), (path, got, want)


def _has_float(d):
    return d.get("dtype") in ("float32", "float64", "float16")


@pytest.mark.parametrize("name", sorted(rc.CASES))
def test_matches_tensorflow(name):
    want = FIXTURE["cases"][name]
    got = rc.run(rc.CASES[name], tf, ENV)
    if name in OTHER_ERRORS:
        assert got == {"error": OTHER_ERRORS[name]} and "error" in want
        return
    _close(got, want)


@pytest.mark.parametrize("name", sorted(rc.GRADS))
def test_gradients_match_tensorflow(name):
    want = FIXTURE["grads"][name]
    got = rc.gradient(tf, name)
    _close(got, want)


@pytest.mark.parametrize("name", sorted(rc.PRINTS))
def test_print_matches_tensorflow(name):
    assert printed(tf, eval(rc.PRINTS[name], {"tf": tf, **ENV})) == FIXTURE["prints"][name]  # noqa: S307


def test_every_case_was_recorded():
    assert sorted(FIXTURE["cases"]) == sorted(rc.CASES) and sorted(FIXTURE["grads"]) == sorted(rc.GRADS)
    assert sorted(FIXTURE["prints"]) == sorted(rc.PRINTS)


def test_errors_say_what_was_wrong():
    r = ENV["r"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="row_splits.*must equal the number of values"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="different row partitions"):
        r + tf.ragged.constant([[1], [2, 3], [], [4, 5, 6]])
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension"):
        r[:, 0]
    with pytest.raises(TypeError, match="not a Tensor.*to_tensor"):
        tf.matmul(r, r)
    with pytest.raises(ValueError, match="same nesting depth"):
        tf.ragged.constant([[1, [2]]])
    with pytest.raises(NotImplementedError, match="newaxis"):
        r[tf.newaxis]
    with pytest.raises(ValueError, match="does not keep the 6 rows"):
        tf.ragged.map_flat_values(lambda x: x[:1], r)


def test_gradient_with_respect_to_a_ragged_tensor_is_ragged():
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.reduce_mean(x * x, axis=1))
    g = tape.gradient(loss, x)
    assert isinstance(g, tf.RaggedTensor) and g.to_list() == [[1.0, 2.0], [6.0]]
    assert g.row_splits is x.row_splits


def test_ragged_target_and_forward_mode():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.RaggedTensor.from_row_lengths(x, [2, 1]) * 2.0
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 2.0, 2.0]
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0, 1.0])) as acc:
        s = tf.reduce_sum(tf.RaggedTensor.from_row_lengths(x * x, [2, 1]), axis=1)
    assert acc.jvp(s).numpy().tolist() == [2.0, 6.0]


def test_second_order_through_a_segment_reduction():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.reduce_sum(tf.RaggedTensor.from_row_lengths(x ** 3, [2, 1]), axis=1))
        g = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), [6.0, 12.0, 18.0])


def test_tf_function_takes_ragged_arguments():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return tf.reduce_sum(x, axis=1)

    a = f(tf.ragged.constant([[1, 2], [3]]))
    b = f(tf.ragged.constant([[1, 2, 3], [3], [4]]))
    assert a.numpy().tolist() == [3, 3] and b.numpy().tolist() == [6, 3, 4]
    assert f.experimental_get_tracing_count() == 2  # (one per shape and dtype, as TensorFlow)

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.float32)])
    def g(x):
        return x * 2.0

    assert g(tf.ragged.constant([[1.0], [2.0, 3.0]])).to_list() == [[2.0], [4.0, 6.0]]
    with pytest.raises(TypeError, match="does not fit"):
        g(tf.ragged.constant([[1], [2, 3]]))


def test_ragged_ops_inside_a_function_on_dense_arguments():
    @tf.function
    def f(x, lengths):
        rt = tf.RaggedTensor.from_row_lengths(x, lengths)
        return tf.reduce_max(rt, axis=1), rt.to_tensor()

    m, d = f(tf.constant([1.0, 5.0, 2.0]), tf.constant([2, 1], tf.int64))
    assert m.numpy().tolist() == [5.0, 2.0] and d.numpy().tolist() == [[1.0, 5.0], [2.0, 0.0]]
    m, d = f(tf.constant([1.0, 5.0, 2.0]), tf.constant([1, 2], tf.int64))
    assert m.numpy().tolist() == [1.0, 5.0] and d.numpy().tolist() == [[1.0, 0.0], [5.0, 2.0]]


def test_repr_and_str():
    r = tf.ragged.constant([[1, 2], [3]])
    assert repr(r) == str(r) == "<tf.RaggedTensor [[1, 2], [3]]>"
    assert repr(tf.shape(r)) == "<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>"


# ----------------------------------------------------------------------------- bad input
# (id, call, error type, regex the message must match), as tests/test_bad_input.py
R = tf.ragged.constant([[1, 2], [3]])
F = tf.ragged.constant([[1.0, 2.0], [3.0]])
BAD = [
    ("splits-not-vector", lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [[0, 3]]), ValueError,
     r"row_splits must be a vector"),
    ("splits-float", lambda: tf.RaggedTensor.from_row_splits([1.0], tf.constant([0.0, 1.0])), TypeError,
     r"row_splits must be an int32 or int64 tensor, got float32"),
    ("splits-empty", lambda: tf.RaggedTensor.from_row_splits([1], tf.constant([], tf.int64)),
     tf.errors.InvalidArgumentError, r"must not be empty"),
    ("splits-start", lambda: tf.RaggedTensor.from_row_splits([1, 2], [1, 2]), tf.errors.InvalidArgumentError,
     r"must start with 0, got 1"),
    ("splits-decreasing", lambda: tf.RaggedTensor.from_row_splits([1, 2], [0, 2, 1, 2]),
     tf.errors.InvalidArgumentError, r"non-decreasing, got \[0, 2, 1, 2\]"),
    ("lengths-negative", lambda: tf.RaggedTensor.from_row_lengths([1, 2], [3, -1]),
     tf.errors.InvalidArgumentError, r"row_lengths must be non-negative"),
    ("rowids-too-big", lambda: tf.RaggedTensor.from_value_rowids([1, 2], [0, 3], nrows=2),
     tf.errors.InvalidArgumentError, r"value_rowids \(3\) must be less than nrows \(2\)"),
    ("uniform-mismatch", lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3], 2, nrows=2),
     tf.errors.InvalidArgumentError, r"nrows \* uniform_row_length \(2 \* 2\) must equal the number of values \(3\)"),
    ("uniform-negative", lambda: tf.RaggedTensor.from_uniform_row_length([1, 2], -1), ValueError,
     r"non-negative"),
    ("scalar-values", lambda: tf.RaggedTensor.from_row_splits(1, [0, 1]), ValueError, r"rank at least 1"),
    ("nested-splits-tensor", lambda: tf.RaggedTensor.from_nested_row_splits([1], tf.constant([0, 1])),
     TypeError, r"list of tensors"),
    ("from-tensor-rank1", lambda: tf.RaggedTensor.from_tensor([1, 2]), ValueError, r"rank of a RaggedTensor"),
    ("from-tensor-both", lambda: tf.RaggedTensor.from_tensor([[1]], lengths=[1], padding=0), ValueError,
     r"lengths or padding, but not both"),
    ("from-tensor-lengths-count", lambda: tf.RaggedTensor.from_tensor([[1, 2]], lengths=[1, 1]), ValueError,
     r"lengths must have 1 entries"),
    ("from-tensor-lengths-range", lambda: tf.RaggedTensor.from_tensor([[1, 2]], lengths=[3]),
     tf.errors.InvalidArgumentError, r"lengths must be in \[0, 2\]"),
    ("from-tensor-padding-shape", lambda: tf.RaggedTensor.from_tensor([[[1, 2]]], padding=[0, 0, 0]), ValueError,
     r"padding must have shape \[2\]"),
    ("with-values-rows", lambda: R.with_values([1.0]), ValueError, r"new_values must have 3 rows"),
    ("splits-dtype", lambda: R.with_row_splits_dtype(tf.float32), ValueError, r"int32 or int64"),
    ("merge-dims-order", lambda: R.merge_dims(1, 0), ValueError, r"outer_axis \(1\) to be less than or equal"),
    ("row-lengths-axis", lambda: R.row_lengths(axis=5), ValueError, r"axis=5 out of bounds"),
    ("to-tensor-rank", lambda: R.to_tensor(shape=[2]), ValueError, r"must have rank 2"),
    ("to-tensor-default-shape", lambda: R.to_tensor(default_value=[1, 2]), ValueError,
     r"default_value must broadcast to the shape of one value"),
    ("index-inner-ragged", lambda: R[:, 0], ValueError, r"Cannot index into an inner ragged dimension"),
    ("index-row-range", lambda: R[2], IndexError, r"Row key 2 out of bounds \(the RaggedTensor has 2 rows\)"),
    ("index-float", lambda: R[1.5], TypeError, r"integers, slices or Ellipsis"),
    ("index-two-ellipsis", lambda: R[..., ...], ValueError, r"at most one Ellipsis"),
    ("index-too-many", lambda: R[:, :, 0], ValueError, r"Too many indices"),
    ("partition-mismatch", lambda: R + tf.ragged.constant([[1], [2, 3]]), tf.errors.InvalidArgumentError,
     r"different row partitions.*\[\[2, 1\]\] and \[\[1, 2\]\]"),
    ("dense-too-long", lambda: F * tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.errors.InvalidArgumentError,
     r"only size 1 broadcasts to a ragged dimension"),
    ("dense-rows", lambda: F * tf.constant([[1.0], [2.0], [3.0]]), tf.errors.InvalidArgumentError,
     r"against a RaggedTensor of shape \(2, None\) \(2 rows\)"),
    ("dense-rank", lambda: F * tf.ones([1, 1, 1]), ValueError, r"rank-3 tensor does not broadcast"),
    ("no-ragged-version", lambda: tf.linalg.matmul(F, F), TypeError, r"not a Tensor.*\.to_tensor\(\).*flat_values"),
    ("reduce-axis", lambda: tf.reduce_sum(R, axis=2), ValueError, r"axis=2 out of bounds"),
    ("gather-range", lambda: tf.gather(R, [2]), tf.errors.InvalidArgumentError, r"indices\[0\] = 2 is not in \[0, 2\)"),
    ("gather-axis", lambda: tf.gather(R, [0], axis=1), NotImplementedError, r"axis=0 and batch_dims=0"),
    ("gather-float", lambda: tf.gather(R, [0.5]), TypeError, r"indices must be an integer tensor"),
    ("concat-rank", lambda: tf.concat([R, [1, 2]], 0), ValueError, r"rank-1 tensor cannot be joined"),
    ("stack-rows", lambda: tf.stack([R, tf.ragged.constant([[1]])], axis=1), tf.errors.InvalidArgumentError,
     r"same number of rows in every tensor, got \[1, 2\]"),
    ("constant-depth", lambda: tf.ragged.constant([[1, [2]]]), ValueError, r"same nesting depth"),
    ("constant-tensor", lambda: tf.ragged.constant(tf.constant([1])), TypeError, r"nested Python lists"),
    ("constant-rank", lambda: tf.ragged.constant([[1]], ragged_rank=-1), ValueError, r"must be nonnegative"),
    ("constant-inner", lambda: tf.ragged.constant([[[1, 2]], [[3]]], ragged_rank=1), ValueError,
     r"inconsistent shapes.*ragged_rank=1"),
    ("constant-splits-dtype", lambda: tf.ragged.constant([[1]], row_splits_dtype=tf.float32), ValueError,
     r"int32 or int64"),
    ("range-delta", lambda: tf.ragged.range([1], [3], [0]), tf.errors.InvalidArgumentError, r"delta != 0"),
    ("range-shapes", lambda: tf.ragged.range([1, 2], [3, 4, 5]), tf.errors.InvalidArgumentError,
     r"same shape"),
    ("range-dtypes", lambda: tf.ragged.range(tf.constant([1.0]), tf.constant([3])), TypeError,
     r"different dtypes"),
    ("mask-dtype", lambda: tf.ragged.boolean_mask(R, tf.ragged.constant([[1, 0], [1]])), TypeError,
     r"mask must be a bool tensor"),
    ("mask-scalar", lambda: tf.ragged.boolean_mask([1], True), ValueError, r"cannot be a scalar"),
    ("mask-rows", lambda: tf.ragged.boolean_mask([1, 2], [True]), ValueError, r"mask has 1 rows and the data 2"),
    ("mask-rank", lambda: tf.ragged.boolean_mask([1, 2], [[True]]), ValueError, r"at most the data's"),
    ("mask-partition", lambda: tf.ragged.boolean_mask(R, tf.ragged.constant([[True], [True, False]])),
     tf.errors.InvalidArgumentError, r"same lengths as the data's"),
    ("map-partitions", lambda: tf.ragged.map_flat_values(tf.add, R, tf.ragged.constant([[1], [2, 3]])),
     ValueError, r"different row partitions"),
    ("segment-ids-negative", lambda: tf.ragged.segment_ids_to_row_splits([-1, 0]),
     tf.errors.InvalidArgumentError, r"non-negative"),
    ("splits-to-ids", lambda: tf.ragged.row_splits_to_segment_ids([0, 2, 1]), tf.errors.InvalidArgumentError,
     r"non-decreasing"),
    ("spec-ragged-rank", lambda: tf.RaggedTensorSpec([None, None], tf.int32, ragged_rank=2), ValueError,
     r"less than the rank \(2\)"),
    ("spec-no-rank", lambda: tf.RaggedTensorSpec(None, tf.int32), ValueError, r"ragged_rank or a shape"),
    ("shape-ragged-dim", lambda: tf.shape(R)[1], ValueError, r"Index 1 is not uniform"),
    ("len", lambda: len(R), TypeError, r"has no len"),
    ("bool", lambda: bool(R), TypeError, r"may not be used as a boolean"),
    ("hash", lambda: {R: 1}, TypeError, r"unhashable"),
    ("constructor", lambda: tf.RaggedTensor(R.values, R.row_splits), ValueError, r"constructor is private"),
    ("data-batch-rows", lambda: list(tf.data.Dataset.from_tensor_slices(R).map(lambda x: x).batch(2)),
     tf.errors.InvalidArgumentError, r"different shapes.*padded_batch.*ragged_batch"),
    ("data-ragged-batch-inner", lambda: list(tf.data.Dataset.from_tensors(tf.zeros([1, 2])).concatenate(
        tf.data.Dataset.from_tensors(tf.zeros([1, 3]))).ragged_batch(2)), tf.errors.InvalidArgumentError,
     r"same dimensions after the first"),
]


@pytest.mark.parametrize("name,call,etype,pattern", [pytest.param(*b, id=b[0]) for b in BAD])
def test_bad_input(name, call, etype, pattern):
    with pytest.raises(etype) as info:
        call()
    msg = str(info.value)
    assert re.search(pattern, msg, re.S), f"message does not match {pattern!r}: {msg!r}"
    tb, last = info.value.__traceback__, None
    while tb is not None:
        last, tb = tb.tb_frame.f_code.co_filename, tb.tb_next
    assert "numpy" not in (last or ""), f"raised from inside NumPy: {msg!r}"


def test_a_traced_function_returns_fresh_ragged_results():
    """A replayed trace rebuilds a RaggedTensor output from the replay's values and row splits
    (it once returned the trace's own RaggedTensor: the first call's values, silently)."""
    @tf.function
    def f(x):
        return tf.RaggedTensor.from_row_lengths(x * 2.0, [2, 1])

    @tf.function
    def g(s):
        return tf.strings.split(s)

    assert f(tf.constant([1.0, 2.0, 3.0])).to_list() == [[2.0, 4.0], [6.0]]
    assert f(tf.constant([5.0, 6.0, 7.0])).to_list() == [[10.0, 12.0], [14.0]]
    assert g(tf.constant(["a b", "c"])).to_list() == [[b"a", b"b"], [b"c"]]
    assert g(tf.constant(["d", "e f g"])).to_list() == [[b"d"], [b"e", b"f", b"g"]]
    assert f.experimental_get_tracing_count() == 1 and g.experimental_get_tracing_count() == 1
