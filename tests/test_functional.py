"""Functional API: tapegrad.autodiff.grad, value_and_grad, vjp, jvp, jacobian (rev/fwd),
hessian, hvp, check_batch_independence."""
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import autodiff as ad

RNG = np.random.default_rng(3)


def c(a):
    return tf.constant(np.asarray(a, np.float64))


def f_scalar(x):
    return tf.reduce_sum(tf.sin(x) * x * x)


def df_scalar(x):
    return np.cos(x) * x * x + 2 * x * np.sin(x)


def d2f_scalar(x):
    return np.diag(-np.sin(x) * x * x + 4 * x * np.cos(x) + 2 * np.sin(x))


X0 = np.array([0.3, -1.2, 2.0])


def test_grad_and_value_and_grad():
    g = ad.grad(f_scalar)(c(X0))
    np.testing.assert_allclose(g.numpy(), df_scalar(X0), rtol=1e-14)
    v, g2 = ad.value_and_grad(f_scalar)(c(X0))
    assert float(v) == pytest.approx(np.sum(np.sin(X0) * X0 * X0))
    np.testing.assert_array_equal(g.numpy(), g2.numpy())


def test_grad_argnums_and_aux():
    def f(a, b, k):
        return tf.reduce_sum(a * b) * k, {"k": k}

    a, b = c([1.0, 2.0]), c([3.0, 4.0])
    (ga, gb), aux = ad.grad(f, argnums=(0, 1), has_aux=True)(a, b, 2.0)
    np.testing.assert_array_equal(ga.numpy(), [6.0, 8.0])
    np.testing.assert_array_equal(gb.numpy(), [2.0, 4.0])
    assert aux == {"k": 2.0}
    gb = ad.grad(lambda a, b: tf.reduce_sum(a * b), argnums=-1)(a, b)
    np.testing.assert_array_equal(gb.numpy(), [1.0, 2.0])
    (v, aux), g = ad.value_and_grad(f, has_aux=True)(a, b, 1.0)
    assert float(v) == 11.0 and aux == {"k": 1.0}


def test_grad_of_python_float_and_higher_orders():
    d = ad.grad(lambda x: x ** 3)
    assert float(d(2.0)) == 12.0
    assert float(ad.grad(d)(2.0)) == 12.0
    assert float(ad.grad(ad.grad(d))(2.0)) == 6.0


def test_grad_nest_argument_and_unconnected_zeros():
    params = {"w": c([1.0, 2.0]), "b": c(0.5), "unused": c([7.0])}
    g = ad.grad(lambda p: tf.reduce_sum(p["w"] * p["w"]) + p["b"])(params)
    assert set(g) == {"w", "b", "unused"}
    np.testing.assert_array_equal(g["w"].numpy(), [2.0, 4.0])
    assert float(g["b"]) == 1.0
    np.testing.assert_array_equal(g["unused"].numpy(), [0.0])


def test_grad_with_variable_argument():
    v = tf.Variable([1.0, 3.0])
    g = ad.grad(lambda w: tf.reduce_sum(w * w))(v)
    np.testing.assert_array_equal(g.numpy(), [2.0, 6.0])


def test_grad_errors():
    with pytest.raises(ValueError, match="must return a scalar, got shape \\[3\\]"):
        ad.grad(lambda x: x * 2.0)(c(X0))
    with pytest.raises(TypeError, match="dtype int32"):
        ad.grad(lambda x: x * 2)(3)
    with pytest.raises(TypeError, match="one scalar tensor"):
        ad.grad(lambda x: [x, x])(c(1.0))
    with pytest.raises(ValueError, match="out of range"):
        ad.grad(lambda x: x, argnums=2)(c(1.0))
    with pytest.raises(TypeError, match="argnums"):
        ad.grad(lambda x: x, argnums="0")(c(1.0))
    with pytest.raises(ValueError, match="pair"):
        ad.grad(lambda x: x, has_aux=True)(c(1.0))


def test_vjp_matches_tape_and_can_be_called_twice():
    w = c(RNG.standard_normal((2, 3)))

    def f(x, y):
        return tf.linalg.matvec(w, x) * y, tf.reduce_sum(x)

    x, y = c([1.0, 2.0, 3.0]), c([0.5, -1.0])
    out, pullback = ad.vjp(f, x, y)
    u = (c([1.0, 2.0]), c(3.0))
    gx, gy = pullback(u)
    np.testing.assert_allclose(gx.numpy(), (np.array([1.0, 2.0]) * y.numpy()) @ w.numpy() + 3.0)
    np.testing.assert_allclose(gy.numpy(), np.array([1.0, 2.0]) * (w.numpy() @ x.numpy()))
    gx2, _ = pullback(u)
    np.testing.assert_array_equal(gx.numpy(), gx2.numpy())
    with pytest.raises(ValueError, match="structure"):
        pullback(c([1.0, 2.0]))
    _, _, aux = ad.vjp(lambda x: (x * 2.0, "aux"), x, has_aux=True)
    assert aux == "aux"
    with pytest.raises(TypeError, match="at least one primal"):
        ad.vjp(f)


def test_jvp_matches_jacobian_times_vector():
    x, v = c(X0), c([1.0, -2.0, 0.5])
    out, t = ad.jvp(lambda x: tf.exp(x) * tf.reduce_sum(x), (x,), (v,))
    j = ad.jacrev(lambda x: tf.exp(x) * tf.reduce_sum(x))(x)
    np.testing.assert_allclose(t.numpy(), j.numpy() @ v.numpy(), rtol=1e-13)
    _, t2, aux = ad.jvp(lambda x: (x * x, 1), [x], [v], has_aux=True)
    np.testing.assert_array_equal(t2.numpy(), 2 * X0 * v.numpy())
    assert aux == 1
    with pytest.raises(ValueError, match="1 primal"):
        ad.jvp(tf.sin, (x,), (v, v))
    with pytest.raises(TypeError, match="lists or tuples"):
        ad.jvp(tf.sin, x, v)


@pytest.mark.parametrize("mode", ["rev", "fwd"])
def test_jacobian_modes_against_finite_differences(mode):
    w = c(RNG.standard_normal((4, 3)))

    def f(x):
        return tf.tanh(tf.linalg.matvec(w, x))

    x = c([0.1, -0.4, 0.8])
    j = ad.jacobian(f, mode=mode)(x)
    _, num = tf.test.compute_gradient(f, [x])
    np.testing.assert_allclose(j.numpy().T, num[0], rtol=1e-5, atol=1e-6)
    other = ad.jacobian(f, mode="fwd" if mode == "rev" else "rev")(x)
    np.testing.assert_allclose(j.numpy(), other.numpy(), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("jac", [ad.jacrev, ad.jacfwd])
def test_jacobian_several_outputs_and_arguments(jac):
    def f(a, b):
        return {"p": a * b, "s": tf.reduce_sum(a) * b[0], "i": tf.constant(3)}

    a, b = c([1.0, 2.0]), c([3.0, 4.0])
    j = jac(f, argnums=(0, 1))(a, b)
    assert set(j) == {"p", "s", "i"}
    np.testing.assert_array_equal(j["p"][0].numpy(), np.diag([3.0, 4.0]))
    np.testing.assert_array_equal(j["p"][1].numpy(), np.diag([1.0, 2.0]))
    np.testing.assert_array_equal(j["s"][0].numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(j["s"][1].numpy(), [3.0, 0.0])
    assert j["i"][0].shape == (2,) and not j["i"][0].numpy().any()
    j2, aux = jac(lambda a: (a * a, "aux"), has_aux=True)(a)
    assert aux == "aux" and j2.shape == (2, 2)


def test_jacobian_bad_mode():
    with pytest.raises(ValueError, match="'rev' or 'fwd'"):
        ad.jacobian(tf.sin, mode="forward")


def test_jacobian_of_grad_equals_hessian():
    x = c(X0)
    h = ad.hessian(f_scalar)(x)
    np.testing.assert_allclose(h.numpy(), d2f_scalar(X0), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(ad.jacrev(ad.grad(f_scalar))(x).numpy(), h.numpy(), rtol=1e-14)
    np.testing.assert_allclose(ad.jacfwd(ad.grad(f_scalar))(x).numpy(), h.numpy(), rtol=1e-13,
                               atol=1e-14)
    _, num = tf.test.compute_gradient(ad.grad(f_scalar), [x])
    np.testing.assert_allclose(h.numpy(), num[0], rtol=1e-5, atol=1e-6)


def test_hessian_blocks_for_several_arguments():
    def f(a, b):
        return tf.reduce_sum(a * a * b) + tf.reduce_sum(b * b * b)

    a, b = c([1.0, 2.0]), c([3.0, 4.0])
    (haa, hab), (hba, hbb) = ad.hessian(f, argnums=(0, 1))(a, b)
    np.testing.assert_array_equal(haa.numpy(), np.diag([6.0, 8.0]))
    np.testing.assert_array_equal(hab.numpy(), np.diag([2.0, 4.0]))
    np.testing.assert_array_equal(hba.numpy(), np.diag([2.0, 4.0]))
    np.testing.assert_array_equal(hbb.numpy(), np.diag([18.0, 24.0]))
    with pytest.raises(ValueError, match="scalar"):
        ad.hessian(lambda x: x * x)(a)


def test_hvp_equals_hessian_times_vector():
    x, v = c(X0), c([0.5, 1.0, -2.0])
    got = ad.hvp(f_scalar, x, v)
    np.testing.assert_allclose(got.numpy(), d2f_scalar(X0) @ v.numpy(), rtol=1e-13)
    nest = ad.hvp(lambda p: tf.reduce_sum(p[0] ** 3) * p[1], [c([1.0, 2.0]), c(2.0)],
                  [c([1.0, 0.0]), c(0.0)])
    np.testing.assert_array_equal(nest[0].numpy(), [12.0, 0.0])
    np.testing.assert_array_equal(nest[1].numpy(), 3.0)
    with pytest.raises(ValueError, match="structure"):
        ad.hvp(f_scalar, x, [v])


def test_check_batch_independence():
    w = c(RNG.standard_normal((3, 2)))
    x0 = RNG.standard_normal((4, 3))
    blocks = ad.check_batch_independence(lambda x: tf.sin(tf.matmul(x, w)), x0)
    x = c(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(tf.matmul(x, w))
    np.testing.assert_allclose(blocks.numpy(), tape.batch_jacobian(y, x).numpy(), rtol=1e-14)
    with pytest.raises(ValueError, match="example 2 of the output depends on example 0"):
        ad.check_batch_independence(
            lambda x: x * tf.reshape(tf.stack([c(1.0), c(1.0), x[0, 0], c(1.0)]), [4, 1]), x0)


def test_hessian_of_a_nest_argument():
    def f(p):
        return tf.reduce_sum(p["a"] ** 3) * p["b"]

    h = ad.hessian(f)({"a": c([1.0, 2.0]), "b": c(2.0)})
    np.testing.assert_array_equal(h["a"]["a"].numpy(), np.diag([12.0, 24.0]))
    np.testing.assert_array_equal(h["a"]["b"].numpy(), [3.0, 12.0])
    np.testing.assert_array_equal(h["b"]["a"].numpy(), [3.0, 12.0])
    assert float(h["b"]["b"]) == 0.0
