"""tf.RaggedTensor and tf.ragged: every case of tests/ragged_cases.py against TensorFlow's
recorded results (tests/fixtures/tf_ragged.json, from tools/record_tf_ragged.py), gradients
through ragged ops, and what the fixture cannot show (tf.function, tf.data, bad input)."""
import json
import math
import pathlib

import numpy as np
import pytest

import tapegrad as tf
import ragged_cases as rc

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


def test_every_case_was_recorded():
    assert sorted(FIXTURE["cases"]) == sorted(rc.CASES) and sorted(FIXTURE["grads"]) == sorted(rc.GRADS)


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
