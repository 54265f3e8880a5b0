"""Scientific programs on chunked Dask arrays, with gradients: each builds lazy graphs (a
scheduler that refuses to compute stands guard), and each equals the same program on NumPy."""
from __future__ import annotations

import contextlib
import pathlib
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _backend
from tapegrad.errors import InvalidArgumentError

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
pytest.importorskip("array_api_compat")
from dask.local import get_sync  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from benchmarks.bench_gp_dask import gp_nll  # noqa: E402

RTOL = 1e-10


def _refuse(*args, **kwargs):
    raise AssertionError("a Dask graph was computed")


def lazy():
    """Nothing may compute inside."""
    return dask.config.set(scheduler=_refuse)


class Counting:
    """A scheduler that counts the computes (``dask.compute`` calls) it runs."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, *args, **kwargs):
        self.n += 1
        return get_sync(*args, **kwargs)


def chunked(a: np.ndarray, rows: int) -> tf.Tensor:
    return tf.convert_to_tensor(da.from_array(a, chunks=(rows,) + a.shape[1:]))


def close(got, want) -> None:
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=RTOL, atol=1e-13)


# --------------------------------------------------------------------------- 1. regression
def _logistic_steps(X, y, steps: int = 3, compute=None):
    """Gradient descent on the L2-regularised sigmoid cross-entropy; ``compute`` turns the loss
    and gradients into values (one ``dask.compute`` on Dask) before the Variables are updated."""
    w = tf.Variable(np.zeros(X.shape[1]))
    b = tf.Variable(0.0, dtype=tf.float64)
    losses = []
    for _ in range(steps):
        with lazy() if compute else contextlib.nullcontext():
            with tf.GradientTape() as tape:
                z = tf.linalg.matvec(X, w) + b
                xent = tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z)
                loss = tf.reduce_mean(xent) + 0.01 * tf.reduce_sum(w * w)
            gw, gb = tape.gradient(loss, [w, b])
        if compute:
            loss, gw, gb = compute(loss, gw, gb)
        w.assign_sub(0.5 * gw)
        b.assign_sub(0.5 * gb)
        losses.append(float(loss))
    return losses, w.numpy(), b.numpy()


def test_logistic_regression_steps_on_a_tall_chunked_design_matrix():
    rng = np.random.default_rng(0)
    Xn = rng.standard_normal((600, 5))
    yn = (Xn @ np.array([1.0, -2.0, 0.5, 0.0, 1.5]) + 0.3 * rng.standard_normal(600) > 0).astype(float)
    want = _logistic_steps(tf.constant(Xn), tf.constant(yn))
    counter = Counting()
    with dask.config.set(scheduler=counter):  # one pass over the data per step
        got = _logistic_steps(chunked(Xn, 150), chunked(yn, 150), compute=dask.compute)
    assert counter.n == 3
    for g, w in zip(got, want):
        close(g, w)


def test_assigning_a_dask_value_to_a_host_variable_computes_it():
    X = chunked(np.arange(12.0).reshape(6, 2), 2)
    w = tf.Variable(np.ones(2))
    with lazy():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.linalg.matvec(X, w) ** 2)
        g = tape.gradient(loss, w)
    assert type(g) is _backend.ArrayTensor
    counter = Counting()
    with dask.config.set(scheduler=counter):
        w.assign_sub(0.001 * g)  # a Variable holds a value: the gradient is computed here
    assert counter.n == 1 and type(w.value()) is tf.Tensor
    close(w.numpy(), 1 - 0.001 * 2 * np.arange(12.0).reshape(6, 2).T @ (np.arange(12.0).reshape(6, 2) @ np.ones(2)))
    lazy_w = tf.Variable(X[0])  # a Variable made from a Dask tensor stays lazy
    with lazy():
        lazy_w.assign_sub(0.001 * g)
        lazy_w.assign(lazy_w * 2.0)
    assert type(lazy_w.value()) is _backend.ArrayTensor
    close(lazy_w.numpy(), 2 * (np.array([0.0, 1.0]) - 0.001 * g.numpy()))


def test_an_optimizer_computes_the_dask_gradients_of_host_variables_in_one_pass():
    rng = np.random.default_rng(1)
    Xn, yn = rng.standard_normal((400, 3)), rng.standard_normal(400)

    def fit(X, y):
        w, b = tf.Variable(np.zeros(3)), tf.Variable(0.0, dtype=tf.float64)
        opt = tf.keras.optimizers.Adam(0.1)
        for _ in range(2):
            with tf.GradientTape() as tape:
                r = tf.linalg.matvec(X, w) + b - y
                loss = tf.reduce_mean(r * r)
            opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
        return w.numpy(), b.numpy()
    counter = Counting()
    with dask.config.set(scheduler=counter):
        got = fit(chunked(Xn, 100), chunked(yn, 100))
    assert counter.n == 2  # (one per step, not one per variable)
    for g, w in zip(got, fit(tf.constant(Xn), tf.constant(yn))):
        close(g, w)


def test_softmax_regression_gradients_and_a_forward_mode_tangent():
    rng = np.random.default_rng(2)
    Xn, labels = rng.standard_normal((300, 4)), rng.integers(0, 3, 300)

    def grads(X, Y):
        W = tf.Variable(0.1 * np.arange(12.0).reshape(4, 3))
        onehot = tf.one_hot(Y, 3, dtype=tf.float64)
        with tf.GradientTape() as tape:
            logits = X @ W
            by_hand = tf.reduce_mean(tf.reduce_logsumexp(logits, axis=1) - tf.reduce_sum(onehot * logits, axis=1))
            sparse = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=Y, logits=logits))
            dense = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=onehot, logits=logits))
            total = by_hand + sparse + dense + 1e-3 * tf.reduce_sum(W * W)
        with tf.autodiff.ForwardAccumulator(W, tf.ones_like(W)) as acc:
            loss = tf.reduce_mean(-tf.reduce_sum(onehot * tf.nn.log_softmax(X @ W), axis=1))
        return total, tape.gradient(total, W), acc.jvp(loss)
    with lazy():
        got = grads(chunked(Xn, 75), chunked(labels, 75))
    assert all(type(t) is _backend.ArrayTensor for t in got)
    for g, w in zip(dask.compute(*got), grads(tf.constant(Xn), tf.constant(labels))):
        close(g, w)


# --------------------------------------------------------------------------- 2. Gaussian process
def _gp(X, y, params, eye):
    """The GP's negative log marginal likelihood, its gradient with respect to the
    hyperparameters, and its tangent along the length scale."""
    with tf.GradientTape() as tape:
        tape.watch(params)
        value = gp_nll(X, y, *params, eye)
    with tf.autodiff.ForwardAccumulator(params[0], tf.constant(1.0, tf.float64)) as acc:
        tangent = gp_nll(X, y, *params, eye)
    return [value, *tape.gradient(value, params), acc.jvp(tangent)]


@pytest.mark.parametrize("n, rows", [(120, 40), (130, 40)])  # (130: not a whole number of chunks)
def test_gp_marginal_likelihood_with_a_kernel_in_several_chunks(monkeypatch, n, rows):
    rng = np.random.default_rng(3)
    Xn = rng.uniform(-3, 3, (n, 2))
    yn = np.sin(Xn[:, 0]) + 0.1 * rng.standard_normal(n)
    params = [tf.constant(v, tf.float64) for v in (1.2, 1.5, 0.1)]

    def whole(*args):
        raise AssertionError("a matrix was taken whole")
    monkeypatch.setattr(_backend, "per_matrix", whole)  # Dask's blocked Cholesky and solves only
    with lazy():
        got = _gp(chunked(Xn, rows), chunked(yn, rows), params,
                  tf.convert_to_tensor(da.eye(n, chunks=rows)))
    assert all(type(t) is _backend.ArrayTensor for t in got)
    monkeypatch.undo()
    want = _gp(tf.constant(Xn), tf.constant(yn), params, tf.eye(n, dtype=tf.float64))
    for g, w in zip(dask.compute(*got), want):
        close(g, w)
    with lazy():  # a NumPy eye joins the graph too (chunked as the kernel)
        again = _gp(chunked(Xn, rows), chunked(yn, rows), params, tf.eye(n, dtype=tf.float64))
    close(again[1].numpy(), want[1])


@pytest.mark.parametrize("n, rows, dtype", [(10, 3, np.float64), (9, 3, np.float64), (7, 2, np.complex128)])
def test_blocked_cholesky_and_triangular_solves_read_what_numpy_reads(n, rows, dtype):
    rng = np.random.default_rng(4)
    m = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if dtype is np.complex128 else 0)
    a = np.tril(m @ np.conj(m.T) + n * np.eye(n)) + np.triu(rng.standard_normal((n, n)), 1)  # upper: not read
    b = rng.standard_normal((n, 3)).astype(dtype)

    def run(A, B):
        L = tf.linalg.cholesky(A)
        outs = [L]
        for adjoint in (False, True):
            outs.append(tf.linalg.triangular_solve(L, B, lower=True, adjoint=adjoint))
            outs.append(tf.linalg.triangular_solve(tf.linalg.adjoint(L), B, lower=False, adjoint=adjoint))
        return outs
    with lazy():
        got = run(tf.convert_to_tensor(da.from_array(a, chunks=rows)),
                  tf.convert_to_tensor(da.from_array(b, chunks=(rows, 2))))
    assert max(got[0].array.chunks[0]) == rows
    for g, w in zip(got, run(tf.constant(a), tf.constant(b))):
        close(g.numpy(), w.numpy())


def test_a_non_positive_definite_kernel_in_chunks_raises_when_computed():
    a = np.eye(6)
    a[4, 4] = -1.0
    L = tf.linalg.cholesky(tf.convert_to_tensor(da.from_array(a, chunks=2)))
    with pytest.raises(np.linalg.LinAlgError):
        L.numpy()


# --------------------------------------------------------------------------- 3. MLP via tf.data
def _train_mlp(dataset, epochs: int = 2):
    rng = np.random.default_rng(5)
    w1, b1 = tf.Variable(0.5 * rng.standard_normal((4, 8))), tf.Variable(np.zeros(8))
    w2, b2 = tf.Variable(0.5 * rng.standard_normal((8, 1))), tf.Variable(np.zeros(1))
    variables = [w1, b1, w2, b2]
    opt = tf.keras.optimizers.SGD(0.1)
    losses = []
    for _ in range(epochs):
        for xb, yb in dataset:
            with tf.GradientTape() as tape:
                h = tf.nn.relu(xb @ w1 + b1)
                loss = tf.reduce_mean(tf.square(h @ w2 + b2 - yb))
            opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
            losses.append(float(loss))
    return losses, [v.numpy() for v in variables]


def test_mlp_trained_on_batches_of_a_chunked_dask_dataset():
    rng = np.random.default_rng(6)
    Xn = rng.standard_normal((256, 4))
    Yn = np.tanh(Xn @ rng.standard_normal((4, 1)))
    with lazy():  # making the dataset and reading its spec compute nothing
        ds = tf.data.Dataset.from_tensor_slices((chunked(Xn, 64), chunked(Yn, 64))).batch(32)
        assert ds.element_spec[0].shape.as_list() == [None, 4]
    counter = Counting()
    with dask.config.set(scheduler=counter):
        got = _train_mlp(ds)
    assert counter.n == 2 * 2 * 4  # epochs x components x chunks: each chunk once per epoch
    want = _train_mlp(tf.data.Dataset.from_tensor_slices((Xn, Yn)).batch(32))
    for g, w in zip(got[0] + got[1], want[0] + want[1]):
        close(g, w)

    def fit(ds):  # the same through Keras
        tf.keras.utils.set_random_seed(1)
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        return model.fit(ds, epochs=2, verbose=0).history["loss"], model.get_weights()
    got, want = fit(ds), fit(tf.data.Dataset.from_tensor_slices((Xn, Yn)).batch(32))
    for g, w in zip(got[0] + got[1], want[0] + want[1]):
        close(g, w)


def test_dask_values_made_in_a_dataset_are_computed_one_element_at_a_time():
    Xn = np.arange(40.0).reshape(20, 2)
    X = chunked(Xn, 5)
    with lazy():
        ds = tf.data.Dataset.range(4).map(lambda i: X[i * 5:(i + 1) * 5] * 2.0)
        one = tf.data.Dataset.from_tensors(X)
        assert ds.element_spec.shape.as_list() == [5, 2] and one.element_spec.shape.as_list() == [20, 2]
    counter = Counting()
    with dask.config.set(scheduler=counter):
        batches = list(ds.as_numpy_iterator())
    assert counter.n == 4 and all(type(b) is np.ndarray for b in batches)
    close(np.concatenate(batches), 2 * Xn)
    close(next(iter(one)).numpy(), Xn)
    shuffled = tf.data.Dataset.from_tensor_slices(X).shuffle(20, seed=3).batch(6)
    close(np.concatenate(list(shuffled.as_numpy_iterator())),
          np.concatenate(list(tf.data.Dataset.from_tensor_slices(Xn).shuffle(20, seed=3).batch(6).as_numpy_iterator())))


# --------------------------------------------------------------------------- 4. ODE integration
def _rk4(y0, k, c, steps: int = 6, h: float = 0.05):
    """A damped, slightly nonlinear oscillator integrated with RK4 over a batch of states."""
    def f(y):
        x, v = y[:, 0], y[:, 1]
        return tf.stack([v, -k * x - c * v + 0.1 * tf.sin(x)], axis=1)
    y = y0
    for _ in range(steps):
        k1 = f(y)
        k2 = f(y + 0.5 * h * k1)
        k3 = f(y + 0.5 * h * k2)
        k4 = f(y + h * k3)
        y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return y


def _ode_program(y0):
    k, c = tf.Variable(2.0, dtype=tf.float64), tf.Variable(0.3, dtype=tf.float64)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.reduce_sum(tf.square(_rk4(y0, k, c)), axis=1))
    gk, gc = tape.gradient(loss, [k, c])
    with tf.autodiff.ForwardAccumulator([k, c], [tf.constant(1.0, tf.float64), tf.constant(-1.0, tf.float64)]) as acc:
        again = tf.reduce_mean(tf.reduce_sum(tf.square(_rk4(y0, k, c)), axis=1))
    return [loss, gk, gc, acc.jvp(again)]


def test_rk4_integrator_over_a_chunked_batch_with_parameter_gradients():
    y0 = np.random.default_rng(7).uniform(-1, 1, (400, 2))
    with lazy():
        got = _ode_program(chunked(y0, 100))
    assert all(type(t) is _backend.ArrayTensor for t in got)
    # slicing gradients pad (Dask's setitem would copy the whole graph into each: 90,000 tasks)
    assert len(got[1].array.__dask_graph__()) < 10_000
    want = _ode_program(tf.constant(y0))
    for g, w in zip(dask.compute(*got), want):
        close(g, w)
    close(got[3].numpy(), want[1].numpy() - want[2].numpy())


# --------------------------------------------------------------------------- 5. mixing
def test_dask_tensors_mix_with_variables_scalars_numpy_and_tf_function():
    a = np.arange(12.0).reshape(6, 2)
    X = chunked(a, 2)
    w = tf.Variable([1.0, 2.0], dtype=tf.float64)

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.linalg.matvec(x, w) * 2.5 + 1 + np.ones(6))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with lazy(), tf.GradientTape() as tape:
            y = f(X)
        g = tape.gradient(y, w)
    assert type(y) is _backend.ArrayTensor and type(g) is _backend.ArrayTensor
    assert any("runs eagerly" in str(m.message) and "dask" in str(m.message) for m in caught)
    close(float(y), float(f(tf.constant(a))))
    close(g.numpy(), 2.5 * a.sum(axis=0))
    with pytest.raises(InvalidArgumentError, match="different dtypes"):
        tf.linalg.matvec(tf.convert_to_tensor(da.ones((4, 2), dtype=np.float32, chunks=2)), w)
    assert (tf.convert_to_tensor(da.ones(3, dtype=np.float32)) * 2.0).dtype == tf.float32


def _stepped(x, v):
    """Three while_loop steps over the rows, then a running sum of the rows (scan)."""
    _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y + 0.1 * tf.tanh(y * v)), (0, x))
    return tf.reduce_sum(tf.scan(lambda acc, r: acc + r, y, initializer=tf.zeros(3, tf.float64))[-1])


def test_control_flow_vmap_and_custom_gradients_on_dask_tensors():
    a = np.random.default_rng(8).standard_normal((12, 3))
    X = chunked(a, 4)
    w = tf.Variable([1.0, -1.0, 0.5], dtype=tf.float64)

    def per_example(r):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * r) ** 2
        return tape.gradient(loss, w)

    @tf.custom_gradient
    def closes_over_data(v):
        def grad(g):
            return g * tf.reduce_sum(X, axis=0)
        return tf.reduce_sum(tf.linalg.matvec(X, v)), grad

    recomputed = tf.recompute_grad(lambda v: tf.reduce_sum(tf.sin(tf.linalg.matvec(X, v))))
    with lazy():
        rows = tf.vectorized_map(per_example, X)
        with tf.GradientTape(persistent=True) as tape:
            custom = closes_over_data(w)
            looped = _stepped(X, w)
            branch = tf.cond(w[0] > 0, lambda: recomputed(w), lambda: custom)
        g_custom, g_loop, g_branch = (tape.gradient(y, w) for y in (custom, looped, branch))
    assert all(type(t) is _backend.ArrayTensor for t in (rows, g_custom, g_loop, g_branch))
    close(rows.numpy(), 2 * (a @ w.numpy())[:, None] * a)
    close(g_custom.numpy(), a.sum(axis=0))
    close(g_branch.numpy(), a.T @ np.cos(a @ w.numpy()))
    with tf.GradientTape() as tape:
        want = _stepped(tf.constant(a), w)
    close(g_loop.numpy(), tape.gradient(want, w).numpy())
    # fn reading a row's value into Python: vectorized_map runs it row by row, and says so
    with pytest.warns(UserWarning, match="reads a value that depends on the row"):
        out = tf.vectorized_map(lambda r: r * 2.0 if float(tf.reduce_sum(r)) > 0 else r, X)
    close(out.numpy(), np.where(a.sum(axis=1, keepdims=True) > 0, 2 * a, a))
