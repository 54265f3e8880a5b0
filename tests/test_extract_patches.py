"""tf.image.extract_patches, tf.extract_volume_patches and keras.ops' extract_patches against
TensorFlow 2.21's and Keras 3.15's numbers (tests/fixtures/tf_extract_patches.json, recorded by
tools/record_tf_extract_patches.py from tests/extract_patches_cases.py), plus the patch layout,
the gradient checker to second order and the errors."""
import numpy as np
import pytest

import tapegrad as tf
import tf_compare
from tapegrad import keras

import extract_patches_cases as cases

REC = tf_compare.load_fixture("tf_extract_patches.json")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_patches_and_gradients_match_tensorflow(name):
    want, got = REC["cases"][name], cases.run_case(tf, keras, name)
    dtype = cases.CASES[name][2]
    out = np.asarray(got["out"])
    assert out.shape == np.asarray(want["out"]).shape
    if dtype == "int32":   # a copy of the input's values: exact
        np.testing.assert_array_equal(out, want["out"])
        assert want["grad"] is None
        return
    # the patches are copies and the gradient sums at most prod(sizes) products per entry: the
    # floor of tf_compare (512 units in the last place) holds both with room
    tf_compare.assert_close(out.astype(dtype), want["out"], err_msg=f"{name} out")
    tf_compare.assert_close(np.asarray(got["grad"], dtype), want["grad"], err_msg=f"{name} grad")


@pytest.mark.parametrize("name", sorted(cases.ERROR_CASES))
def test_bad_arguments_raise_tensorflows_exception_types(name):
    assert cases.run_error_case(tf, name) == REC["errors"][name]


def test_patch_layout_is_row_major_positions_then_depth():
    x = np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3)
    y = tf.image.extract_patches(x, [1, 2, 3, 1], [1, 1, 2, 1], [1, 2, 1, 1], "VALID").numpy()
    assert y.shape == (2, 2, 2, 18)
    for b, i, j in np.ndindex(2, 2, 2):
        window = x[b, i:i + 3:2, 2 * j:2 * j + 3, :]   # rows i, i + 2 (rate 2); columns 2j .. 2j + 2
        np.testing.assert_array_equal(y[b, i, j], window.reshape(-1))


def test_same_padding_puts_the_odd_pixel_after_and_pads_zeros():
    x = tf.ones([1, 4, 4, 1])
    y = tf.image.extract_patches(x, [1, 3, 3, 1], [1, 3, 3, 1], [1, 1, 1, 1], "SAME").numpy()
    # ceil(4 / 3) = 2 windows per axis; 2 * 3 + 0 - 4 = 2 padded rows: one before, one after
    assert y.shape == (1, 2, 2, 9)
    np.testing.assert_array_equal(y[0, 0, 0].reshape(3, 3), [[0, 0, 0], [0, 1, 1], [0, 1, 1]])
    np.testing.assert_array_equal(y[0, 1, 1].reshape(3, 3), [[1, 1, 0], [1, 1, 0], [0, 0, 0]])


@pytest.mark.parametrize("fn", [
    lambda x: tf.image.extract_patches(x, [1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
    lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1], "VALID"),
], ids=["same", "valid"])
def test_gradient_checker_to_second_order(fn):
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 4, 5, 2)))
    tf.test.check_grads(lambda v: fn(v * v), [x], order=2, modes=["rev", "fwd"])


def test_volume_gradient_checker_and_keras_ops_in_a_model():
    v = tf.constant(np.random.default_rng(1).normal(size=(1, 3, 3, 4, 2)))
    tf.test.check_grads(lambda a: tf.extract_volume_patches(a * a, [1, 2, 2, 2, 1], [1, 1, 2, 1, 1], "SAME"),
                        [v], order=2, modes=["rev", "fwd"])
    inp = keras.Input((8, 8, 3))
    out = keras.ops.extract_patches(inp, 2)
    assert tuple(out.shape) == (None, 4, 4, 12)
    model = keras.Model(inp, out)
    assert model(np.ones((2, 8, 8, 3), np.float32)).shape == (2, 4, 4, 12)


def test_errors_say_what_to_pass():
    x = tf.zeros([1, 5, 6, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"list of 4 ints \[1, n, n, 1\]"):
        tf.image.extract_patches(x, [2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID")
    with pytest.raises(tf.errors.UnimplementedError, match="across space"):
        tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 2], "VALID")
    with pytest.raises(tf.errors.InvalidArgumentError, match="upper case"):
        tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "same")
    with pytest.raises(tf.errors.InvalidArgumentError, match="cast it first"):
        tf.image.extract_patches(tf.zeros([1, 2, 2, 1], tf.bool), [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME")
    with pytest.raises(ValueError, match="length 2 or 3"):
        keras.ops.extract_patches(x, (2, 2, 2, 2))
    with pytest.raises(TypeError, match="Expected an int or a tuple"):
        keras.ops.extract_patches(x, "2")


def test_keras_patches_copy_values_where_keras_convolution_makes_nan():
    # docs/differences.md: Keras convolves with an identity kernel, so 0 * inf spreads NaN
    x = np.ones((1, 4, 4, 2), np.float32)
    x[0, 1, 1, 0] = np.inf
    y = keras.ops.image.extract_patches(x, 2).numpy()
    assert np.isinf(y[0, 0, 0, 6]) and np.isfinite(np.delete(y[0, 0, 0], 6)).all()
    y = keras.ops.image.extract_patches(np.ones((1, 9, 9, 1), np.float32), 2, strides=2, dilation_rate=2)
    assert y.shape == (1, 4, 4, 4)


def test_a_traced_function_replays_patches_and_gradients_of_each_call():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.extract_patches(x * x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME")
            s = tf.reduce_sum(y * y)
        return y, tape.gradient(s, x)

    for k in range(3):
        x = tf.constant(np.random.default_rng(k).normal(size=(2, 5, 6, 2)).astype(np.float32))
        y, g = f(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y2 = tf.image.extract_patches(x * x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME")
            s = tf.reduce_sum(y2 * y2)
        # the replay runs the same NumPy calls as eager: equal up to a few float32 roundings
        np.testing.assert_allclose(y.numpy(), y2.numpy(), rtol=1e-6)
        np.testing.assert_allclose(g.numpy(), tape.gradient(s, x).numpy(), rtol=1e-6, atol=1e-6)
    assert f.experimental_get_tracing_count() == 1
