"""custom_gradient, recompute_grad and grad_pass_through."""
import gc
import tracemalloc

import numpy as np
import pytest

import tapegrad as tf
from tapegrad._dispatch import REGISTRY


def c(a):
    return tf.constant(np.asarray(a, np.float64))


def grad_of(f, *xs):
    with tf.GradientTape() as tape:
        tape.watch(list(xs))
        y = f(*xs)
    return y, tape.gradient(y, list(xs))


# ---------------------------------------------------------------------------- custom_gradient
@tf.custom_gradient
def fake_double(x):
    def grad(dy):
        return dy * 5.0
    return x * 2.0, grad


@tf.custom_gradient
def cube(x):
    def grad(dy):
        return dy * 3.0 * x * x
    return x * x * x, grad


def test_single_output_value_and_gradient():
    y, (g,) = grad_of(fake_double, tf.constant(3.0))
    assert float(y) == 6.0 and float(g) == 5.0
    assert fake_double.__name__ == "fake_double"


def test_no_tape_returns_the_body_value():
    n = len(REGISTRY)
    assert float(fake_double(tf.constant(2.0))) == 4.0
    assert len(REGISTRY) == n


def test_anonymous_ops_are_not_registered():
    n = len(REGISTRY)
    for _ in range(3):
        grad_of(fake_double, tf.constant(3.0))
    assert len(REGISTRY) == n


def test_two_inputs_and_none():
    @tf.custom_gradient
    def mul(a, b):
        def grad(dy):
            return dy * b * 10.0, None
        return a * b, grad

    _, (ga, gb) = grad_of(mul, tf.constant(2.0), tf.constant(3.0))
    assert float(ga) == 30.0 and gb is None


def test_several_outputs_unused_output_gets_zeros():
    seen = []

    @tf.custom_gradient
    def split(x):
        def grad(da, db):
            seen.append((da.numpy().copy(), db.numpy().copy()))
            return da * 10.0 + db * 100.0
        return {"a": x * 2.0, "b": (x * 3.0,)}, grad

    x = c([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        out = split(x)
    assert set(out) == {"a", "b"} and isinstance(out["b"], tuple)
    np.testing.assert_array_equal(tape.gradient(out["a"], x).numpy(), [10.0, 10.0])
    assert not seen[-1][1].any()
    np.testing.assert_array_equal(tape.gradient(out, x).numpy(), [110.0, 110.0])


def test_variables_read_in_body():
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(3.0)
    got = []

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            got.append(list(variables))
            return dy * 0.5, [tf.ones_like(v) * 6.0, dy * 7.0]
        return tf.reduce_sum(v * x) * w, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gv, gw = tape.gradient(y, [x, v, w])
    assert got[0][0] is v and got[0][1] is w  # the order the body read them
    assert float(gx) == 0.5 and float(gw) == 7.0
    np.testing.assert_array_equal(gv.numpy(), [6.0, 6.0])


def test_grad_fn_with_kwargs_accepts_variables():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, **kw):
            return dy, [dy * 4.0 for _ in kw["variables"]]
        return x * v, grad

    _, (gx,) = grad_of(f, tf.constant(1.0))
    assert float(gx) == 1.0


def test_missing_variables_kwarg_raises_at_call():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return dy
        return x * v, grad

    with tf.GradientTape():
        with pytest.raises(TypeError, match="must accept keyword argument 'variables'"):
            f(tf.constant(1.0))


def test_variable_passed_positionally_is_an_input():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x, var):
        def grad(dy):
            return dy * 11.0, dy * 13.0
        return x * var, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x, v)
    assert [float(g) for g in tape.gradient(y, [x, v])] == [11.0, 13.0]


@pytest.mark.parametrize("call", ["all_keywords", "mixed", "keyword_tensor"])
def test_keyword_calls_use_the_custom_rule(call):
    @tf.custom_gradient
    def scaled(x, scale=1.0):
        def grad(dy):
            if call == "keyword_tensor":  # a tensor keyword argument is an input too
                return dy * 100.0, dy * 1000.0
            return dy * 100.0
        return x * scale, grad

    x = tf.constant(2.0)
    s = tf.constant(5.0)
    with tf.GradientTape() as tape:
        tape.watch([x, s])
        y = {"all_keywords": lambda: scaled(x=x, scale=5.0), "mixed": lambda: scaled(x, scale=5.0),
             "keyword_tensor": lambda: scaled(x, scale=s)}[call]()
    gx, gs = tape.gradient(y, [x, s])
    assert float(y) == 10.0 and float(gx) == 100.0
    assert (gs is None) if call != "keyword_tensor" else float(gs) == 1000.0


def test_positional_number_counts_as_input_like_tf():
    @tf.custom_gradient
    def f(x, k):
        def grad(dy):
            return dy * k
        return x * k, grad

    with tf.GradientTape() as tape:
        x = tf.constant(2.0)
        tape.watch(x)
        y = f(x, 3.0)
    with pytest.raises(ValueError, match="expected to return 2 gradients, but returned 1"):
        tape.gradient(y, x)


@pytest.mark.parametrize("returned,match", [
    ((), "expected to return 1 gradients, but returned 0"),
    ("shape", "gradient of shape \\[3\\] for input 0 of shape \\[2\\]"),
    ("dtype", "dtype float32 for input 0 of dtype float64"),
])
def test_grad_fn_results_are_validated(returned, match):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            if returned == "shape":
                return c([1.0, 2.0, 3.0])
            if returned == "dtype":
                return tf.constant([1.0, 2.0])
            return returned
        return x * 2.0, grad

    x = c([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    with pytest.raises(ValueError, match=match):
        tape.gradient(y, x)


def test_variable_gradient_count_validated():
    v, w = tf.Variable(2.0), tf.Variable(3.0)

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            return dy, [dy]
        return x * v * w, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    with pytest.raises(ValueError, match="Must return gradient for each variable.*2 variable"):
        tape.gradient(y, [x, v, w])


def test_body_must_return_a_pair():
    @tf.custom_gradient
    def f(x):
        return x * 2.0

    with tf.GradientTape():
        with pytest.raises(TypeError, match=r"must return \(outputs, grad_fn\)"):
            f(tf.constant(1.0))


def test_second_order_differentiates_grad_fn():
    x = c(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        g = inner.gradient(y, x)
    assert float(g) == 12.0 and float(outer.gradient(g, x)) == 12.0


def test_grad_fn_is_what_second_order_sees():
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return dy * tf.sin(x)  # deliberately not the derivative of x * x
        return x * x, grad

    x = c(0.7)
    h = tf.autodiff.hessian(f)(x)
    np.testing.assert_allclose(float(h), np.cos(0.7))


def test_forward_mode_differentiates_the_body():
    x = tf.constant(3.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = fake_double(x)
    assert float(acc.jvp(y)) == 2.0


def test_forward_over_reverse_through_grad_fn():
    x = c(2.0)
    with tf.autodiff.ForwardAccumulator(x, c(1.0)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = cube(x)
        g = tape.gradient(y, x)
    assert float(acc.jvp(g)) == 12.0


@pytest.mark.parametrize("pfor", [True, False])
def test_jacobian_through_custom_gradient(pfor):
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            return tf.clip_by_value(dy, -1.0, 1.0) * 5.0  # cannot take a batch axis blindly
        return x * 2.0, grad

    x = c([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x) * c([0.5, 2.0, -3.0])
    np.testing.assert_array_equal(tape.jacobian(y, x, experimental_use_pfor=pfor).numpy(),
                                  np.diag([2.5, 5.0, -5.0]))


def test_error_in_grad_fn_propagates():
    @tf.custom_gradient
    def f(x):
        def grad(dy):
            raise ZeroDivisionError("custom grad failed")
        return x * 2.0, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    with pytest.raises(ZeroDivisionError, match="custom grad failed"):
        tape.gradient(y, x)


def test_decorator_without_call_and_bad_argument():
    assert tf.custom_gradient() is tf.custom_gradient
    with pytest.raises(TypeError, match="decorates a function"):
        tf.custom_gradient(3)


# ---------------------------------------------------------------------------- grad_pass_through
def test_grad_pass_through_round_and_assign():
    x = tf.constant([1.2, 2.6])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.round)(x) * 3.0
    np.testing.assert_array_equal(y.numpy(), [3.0, 9.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [3.0, 3.0])
    v = tf.Variable(0.0)
    z = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = tf.grad_pass_through(v.assign)(z * z)
    assert float(y) == 9.0 and float(v) == 9.0 and float(tape.gradient(y, z)) == 6.0


def test_grad_pass_through_variables_get_none():
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda t: t * v)(x)
    gx, gv = tape.gradient(y, [x, v])
    assert float(y) == 6.0 and float(gx) == 1.0 and gv is None


def test_grad_pass_through_shape_change_is_an_error():
    x = c([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(tf.reduce_sum)(x)
    with pytest.raises(ValueError, match="shape"):
        tape.gradient(y, x)


# ---------------------------------------------------------------------------- recompute_grad
def block(x):
    return tf.tanh(x * 2.0) * x


def test_recompute_matches_plain_and_calls_f_again():
    calls = []

    def counted(x):
        calls.append(1)
        return block(x)

    x = c([0.5, -1.0])
    wrapped = tf.recompute_grad(counted)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y_plain = tf.reduce_sum(block(x))
        y_re = tf.reduce_sum(wrapped(x) + wrapped(x))
    assert len(calls) == 2
    g_plain, g_re = tape.gradient(y_plain, x), tape.gradient(y_re, x)
    assert len(calls) == 4
    np.testing.assert_allclose(2 * g_plain.numpy(), g_re.numpy(), rtol=1e-15)
    assert float(y_re) == pytest.approx(2 * float(y_plain))


def test_recompute_with_variable_and_second_order():
    w = tf.Variable([1.0, -2.0])

    def f(x):
        return tf.reduce_sum(w * x * x)

    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(f)(x)
    gx, gw = tape.gradient(y, [x, w])
    np.testing.assert_array_equal(gx.numpy(), [6.0, -16.0])
    np.testing.assert_array_equal(gw.numpy(), [9.0, 16.0])
    x = c(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.recompute_grad(lambda t: t * t * t)(x)
        g = inner.gradient(y, x)
    assert float(g) == 12.0 and float(outer.gradient(g, x)) == 12.0


def test_recompute_jacobian_recomputes_once():
    calls = []

    def f(x):
        calls.append(1)
        return tf.sin(x) * x

    x = c([0.1, 0.2, 0.3, 0.4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(f)(x)
    j = tape.jacobian(y, x)
    assert len(calls) == 2  # one forward, one batched recomputation for all 4 rows
    v = np.array([0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(j.numpy(), np.diag(np.cos(v) * v + np.sin(v)), rtol=1e-14)


def test_recompute_forward_mode_raises():
    x = tf.constant(3.0)
    with pytest.raises(NotImplementedError, match="recompute_grad"):
        with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)):
            tf.recompute_grad(lambda t: t * t)(x)


def test_recompute_holds_less_memory():
    """The tape keeps only the block's inputs and outputs, not its 30 intermediates."""
    x0 = np.linspace(-1.0, 1.0, 50_000)

    def deep(x):
        for _ in range(30):
            x = tf.sin(x) * 1.01
        return x

    def held(fn):
        gc.collect()
        x = c(x0)
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        gc.collect()
        now = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        g = tape.gradient(y, x)
        return now, g.numpy()

    plain, g1 = held(deep)
    saved, g2 = held(tf.recompute_grad(deep))
    np.testing.assert_allclose(g1, g2, rtol=1e-14)
    assert saved < plain / 5, (saved, plain)
