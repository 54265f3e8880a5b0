"""Tensors holding non-NumPy arrays: Dask (lazy, out of core), array_api_strict (the op table)
and CuPy's device placement (with a fake CuPy: no GPU here)."""
from __future__ import annotations

import pathlib
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _backend
from tapegrad.errors import InvalidArgumentError, UnimplementedError

ROOT = pathlib.Path(__file__).resolve().parent.parent
da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")
xs = pytest.importorskip("array_api_strict")
pytest.importorskip("array_api_compat")


def _refuse(*args, **kwargs):
    raise AssertionError("a Dask graph was computed")


# --------------------------------------------------------------------------- Dask
def test_dask_forward_and_backward_are_lazy_and_match_numpy():
    sys.path.insert(0, str(ROOT))
    from benchmarks.bench_out_of_core import data, loss_and_gradient
    x, y = data(3000, 700, seed=3)
    w = tf.Variable(np.linspace(-1.0, 1.0, x.shape[1]))
    with dask.config.set(scheduler=_refuse):  # nothing may compute while the graphs are built
        loss, g = loss_and_gradient(x, y, w)
    assert type(g) is _backend.ArrayTensor and g.backend == "dask" and isinstance(g.array, da.Array)
    xn, yn = tf.constant(x.compute()), tf.constant(y.compute())
    with tf.GradientTape() as tape:
        r = tf.linalg.matvec(xn, w) - yn
        ln = tf.reduce_mean(r * r)
    lv, gv = dask.compute(loss, g)
    np.testing.assert_allclose(lv, ln.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gv, tape.gradient(ln, w).numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(g.numpy(), gv)


def test_dask_tensors_behave_as_tensors():
    a = np.arange(6.0).reshape(2, 3)
    x = tf.convert_to_tensor(da.from_array(a, chunks=1))
    assert x.shape == (2, 3) and x.dtype == tf.float64 and x.device.endswith("CPU:0")
    assert "backend=dask" in repr(x)
    y = 2.0 * tf.exp(x) + np.ones(3)  # Python and NumPy operands join the Dask graph
    assert type(y) is _backend.ArrayTensor
    np.testing.assert_allclose(y.numpy(), 2 * np.exp(a) + 1)
    assert float(tf.reduce_sum(x)) == 15.0
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        z = tf.reduce_sum(tf.sin(x) * x)
    np.testing.assert_allclose(acc.jvp(z).numpy(), np.sum(np.cos(a) * a + np.sin(a)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.sin(x) * x
    jac = tape.jacobian(z, x)  # a batched walk: one cotangent row per output
    assert type(jac) is _backend.ArrayTensor and jac.shape == (2, 3, 2, 3)
    np.testing.assert_allclose(np.einsum("ijij->ij", jac.numpy()), np.cos(a) * a + np.sin(a))
    with pytest.raises(ValueError, match="requested dtype float32"):
        tf.convert_to_tensor(da.ones(3), dtype=tf.float32)
    with pytest.raises(InvalidArgumentError, match="different dtypes"):
        x + tf.constant(np.ones(3, np.float32))


def test_an_op_whose_numpy_forward_would_compute_the_dask_array_raises():
    x = tf.convert_to_tensor(da.from_array(np.array([3.0, 1.0, 3.0]), chunks=1))
    with pytest.raises(UnimplementedError, match=r"Unique has no dask form.*compute"):
        tf.unique(x)  # (its output's shape depends on the values)


# --------------------------------------------------------------------------- array_api_strict
def test_array_api_strict_runs_a_small_network_with_gradients():
    a = np.random.default_rng(0).normal(size=(4, 3))
    results = []
    for x in (tf.constant(a), tf.convert_to_tensor(xs.asarray(a))):
        w = tf.Variable(np.ones((3, 2)) / 3)
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = tf.nn.relu(tf.matmul(x, w) - 0.1)
            loss = tf.reduce_mean(tf.nn.softmax(h) ** 2) + tf.reduce_sum(tf.sigmoid(x))
        gx, gw = tape.gradient(loss, [x, w])
        results.append((float(loss), np.asarray(gx), np.asarray(gw)))
    assert type(gx) is _backend.ArrayTensor and gx.backend == "array_api_strict"
    for got, want in zip(results[1], results[0]):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_ops_without_a_form_name_the_op_and_the_backend():
    x = tf.convert_to_tensor(xs.asarray(np.eye(3)))
    with pytest.raises(UnimplementedError, match=r"The op MatrixExponential has no array_api_strict form"):
        tf.linalg.expm(x)  # (the standard's linalg extension has no expm)


def test_the_backend_table_in_the_docs_is_current_and_nothing_differs():
    sys.path.insert(0, str(ROOT / "tools"))
    import backend_table
    rows = backend_table.table()
    wrong = [(name, st) for name, _, st in rows for s, _ in st.values() if s == "differs"]
    assert not wrong, wrong
    for b in ("array_api_strict", "dask"):
        ran = {name for name, _, st in rows if st[b][0] == "runs"}
        assert {"AddV2", "Mul", "Exp", "Tanh", "Sum", "Mean", "BatchMatMulV2", "Relu"} <= ran, b
        # the families an MLP, a CNN or a GP needs, with their gradients, and the decompositions
        needed = {"GatherV2", "GatherV2-axis", "OneHot", "Split", "Unpack", "PadV2", "LogSumExp", "ArgMaxMin",
                  "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", "UnsortedSegmentSum",
                  "Cholesky", "cholesky_solve", "logdet", "MatrixInverse", "MatrixSolve", "MatrixTriangularSolve",
                  "FFT", "RFFT2D", "IRFFT", "Conv2D", "Conv2D-explicit-grouped", "Conv2DBackpropInput",
                  "Conv2DBackpropFilter", "MaxPool", "MaxPoolGrad", "AvgPool", "Softplus", "GatherV2-batch",
                  "top_k", "MatrixDiagV3", "MatrixDeterminant", "LogMatrixDeterminant", "Svd", "SvdValues", "pinv",
                  "Qr", "complex-qr", "SelfAdjointEigV2", "SelfAdjointEigVals", "complex-svd-eigh", "Cross",
                  "FillTriangular", "Einsum-trace-diag", "Einsum-three", "Einsum-complex", "tensordot"}
        if b == "dask":
            needed |= {"MatrixExponential", "MatrixSquareRoot", "MatrixLogarithm", "Eig"}
        assert needed <= ran, (b, sorted(needed - ran))
    doc = (ROOT / "docs" / "backends.md").read_text()
    assert backend_table.markdown(rows) in doc, "regenerate it: python tools/backend_table.py"


# --------------------------------------------------------------------------- CuPy placement
@pytest.fixture
def fake_cupy():
    sys.path.insert(0, str(ROOT))
    from benchmarks import fake_cupy
    with fake_cupy.install(gpus=2) as cupy:
        yield cupy


_GPU0 = "/job:localhost/replica:0/task:0/device:GPU:0"


def test_list_physical_devices_tells_the_truth(fake_cupy):
    assert [d.name for d in tf.config.list_physical_devices("GPU")] == \
        ["/physical_device:GPU:0", "/physical_device:GPU:1"]
    assert tf.config.list_physical_devices("CPU")[0].device_type == "CPU"
    assert [d.name for d in tf.config.list_logical_devices("GPU")][1] == "/device:GPU:1"


def test_no_cupy_no_gpu(monkeypatch):
    monkeypatch.setattr(_backend, "_gpus", [])
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy raises ImportError
    assert tf.config.list_physical_devices("GPU") == []
    with tf.device("/GPU:0"):
        x = tf.constant([1.0])
    assert type(x) is tf.Tensor and x.device.endswith("CPU:0")


def test_gpu_scope_places_new_tensors_and_ops_run_there(fake_cupy):
    with tf.device("/GPU:1"):
        x = tf.constant([1.0, 2.0])
        with tf.device("/job:localhost"):  # a scope naming no device keeps the GPU
            x2 = tf.constant([3.0])
    c = tf.constant([1.0, 2.0])
    assert type(c) is tf.Tensor and c.device.endswith("CPU:0")
    assert type(x) is _backend.ArrayTensor and x.backend == "cupy"
    assert x.device == "/job:localhost/replica:0/task:0/device:GPU:1" and x2.device.endswith("GPU:1")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.exp(x) * 2.0  # a Python scalar's constant is copied to the GPU
        s = tf.reduce_sum(y)
    g = tape.gradient(s, x)
    assert y.device.endswith("GPU:1") and g.device.endswith("GPU:1")
    np.testing.assert_allclose(g.numpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)


def test_mixing_devices_in_one_op_names_both(fake_cupy):
    with tf.device("/GPU:0"):
        x0 = tf.constant([1.0, 2.0])
    with tf.device("/GPU:1"):
        x1 = tf.constant([1.0, 2.0])
    s = x0 + tf.constant([3.0, 4.0])  # a CPU tensor is copied to the GPU, as TF's default policy
    assert s.device == _GPU0
    np.testing.assert_array_equal(s.numpy(), [4.0, 6.0])
    with pytest.raises(InvalidArgumentError, match=r"conflicting devices.*GPU:0.*GPU:1"):
        tf.multiply(x0, x1)
    with pytest.raises(InvalidArgumentError, match=r"conflicting devices.*GPU:0.*dask"):
        x0 + tf.convert_to_tensor(da.ones(2, dtype=np.float32))


def test_bench_cupy_says_when_there_is_no_gpu(monkeypatch, capsys):
    sys.path.insert(0, str(ROOT))
    from benchmarks import bench_cupy
    monkeypatch.setattr(_backend, "_gpus", [])
    monkeypatch.setitem(sys.modules, "cupy", None)
    bench_cupy.main([])
    assert "no GPU" in capsys.readouterr().out


_MAKERS = {
    "zeros": lambda: tf.zeros([2, 3]), "ones": lambda: tf.ones([2], tf.float64),
    "fill": lambda: tf.fill([2, 2], 1.5), "zeros_like": lambda: tf.zeros_like(np.ones(3)),
    "ones_like": lambda: tf.ones_like([1, 2]), "eye": lambda: tf.eye(3, batch_shape=[2]),
    "range": lambda: tf.range(5), "linspace": lambda: tf.linspace(0.0, 1.0, 4),
    "one_hot": lambda: tf.one_hot([0, 2], 3), "constant": lambda: tf.constant([1, 2]),
    "normal": lambda: tf.random.normal([3], seed=1), "uniform": lambda: tf.random.uniform([3], seed=2),
    "uniform-int": lambda: tf.random.uniform([3], 0, 9, tf.int32, seed=2),
    "truncated_normal": lambda: tf.random.truncated_normal([3], seed=3),
    "stateless_normal": lambda: tf.random.stateless_normal([3], seed=[1, 2]),
    "stateless_uniform": lambda: tf.random.stateless_uniform([3], seed=[1, 2]),
    "generator": lambda: tf.random.Generator.from_seed(4).normal([3]),
    "categorical": lambda: tf.random.categorical(tf.math.log([[0.5, 0.5]]), 4, seed=5),
}


@pytest.mark.parametrize("name", list(_MAKERS))
def test_every_maker_places_its_tensor_on_the_gpu_with_the_cpu_numbers(fake_cupy, name):
    tf.random.set_seed(7)
    want = _MAKERS[name]()
    tf.random.set_seed(7)
    with tf.device("/GPU:0"):
        got = _MAKERS[name]()
    assert type(want) is tf.Tensor and type(got) is _backend.ArrayTensor, name
    assert got.device == _GPU0 and got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_static_arguments_held_by_gpu_tensors_are_read_to_the_host(fake_cupy):
    with tf.device("/GPU:0"):
        n, shape, axis = tf.constant(4), tf.constant([2, 3]), tf.constant(1)
        r = tf.range(n)
        x = tf.reshape(tf.range(6.0), shape)
    parts = tf.split(x, 3, axis=axis)
    assert r.device == _GPU0 and x.shape == (2, 3) and [p.shape for p in parts] == [(2, 1)] * 3
    np.testing.assert_array_equal(parts[2].numpy(), [[2.0], [5.0]])


def test_zeros_like_follows_its_input_to_its_device(fake_cupy):
    with tf.device("/GPU:1"):
        x = tf.constant([1.0, 2.0])
    z, o = tf.zeros_like(x), tf.ones_like(x, dtype=tf.int32)  # outside the scope: x's device
    assert z.device.endswith("GPU:1") and o.device.endswith("GPU:1") and o.dtype == tf.int32
    np.testing.assert_array_equal(o.numpy(), [1, 1])


def test_gpu_variables_keep_their_value_on_the_gpu(fake_cupy):
    with tf.device("/GPU:0"):
        v = tf.Variable([1.0, 2.0])
        n = tf.Variable(3)  # integer variables (counters) stay on the host
    assert v.device == _GPU0 and n.device.endswith("CPU:0")
    assert type(v.value()) is _backend.ArrayTensor and "numpy=array([1., 2.]" in repr(v)
    v.assign([5.0, 6.0])  # a host value is copied to the variable's GPU
    v.assign_add(tf.constant([1.0, 1.0]))
    v.assign_sub(np.float32(0.5) * np.ones(2, np.float32))
    assert v.device == _GPU0 and type(v.value().array).__module__ == "cupy"
    np.testing.assert_array_equal(v.numpy(), [5.5, 6.5])
    np.testing.assert_array_equal(np.asarray(v), [5.5, 6.5])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    g = tape.gradient(y, v)
    assert g.device == _GPU0
    np.testing.assert_array_equal(g.numpy(), [11.0, 13.0])
    w = tf.Variable(v)  # from a GPU tensor, outside the scope: on the GPU
    assert w.device == _GPU0
    c = tf.Variable([1.0, 2.0])
    c.assign(v)  # a CPU variable brings a GPU value to the host
    assert c.device.endswith("CPU:0") and type(c.value()) is tf.Tensor
    np.testing.assert_array_equal(c.numpy(), [5.5, 6.5])
    assert v[1:].device == _GPU0 and not hasattr(v[0], "assign")  # a slice of a GPU variable: read only


def _mlp_training(opt_cls, device):
    sys.path.insert(0, str(ROOT))
    from benchmarks.bench_mlp import init, tf_loss
    params, x, y = init(12, 6, np.float32, seed=1)
    with tf.device(device):
        vs = [tf.Variable(p) for p in params]
        xs, ys = tf.constant(x), tf.constant(y)
    opt = opt_cls(learning_rate=0.05)  # made and applied outside the scope: slots follow the variables
    losses = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf_loss(tf, vs, xs, ys)
        grads = tape.gradient(loss, vs)
        opt.apply_gradients(zip(grads, vs))
        losses.append(loss)
    return vs, losses, grads, opt


@pytest.mark.parametrize("opt_cls", [tf.optimizers.SGD, tf.optimizers.Adam])
def test_an_mlp_trains_on_the_gpu_end_to_end_with_the_numpy_numbers(fake_cupy, opt_cls):
    vs, losses, grads, opt = _mlp_training(opt_cls, "/GPU:0")
    for t in [*vs, *losses, *grads]:
        assert t.device == _GPU0, t
    for s in opt.variables:
        if s.dtype.is_floating and s.shape.rank:
            assert s.device == _GPU0, s.name
    want_vs, want_losses, want_grads, _ = _mlp_training(opt_cls, "/CPU:0")
    for got, want in zip([*vs, *losses, *grads], [*want_vs, *want_losses, *want_grads]):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, atol=1e-7)


def test_bench_cupy_dry_runs_on_the_fake_gpu(capsys):
    sys.path.insert(0, str(ROOT))
    from benchmarks import bench_cupy
    bench_cupy.main(["--fake", "--width", "8", "--batch", "4", "--repeat", "1"])
    out = capsys.readouterr().out
    assert "0 differs" in out and "| tapegrad training step (Variables, SGD) | GPU (CuPy) |" in out
    assert "cupy" not in sys.modules or hasattr(sys.modules["cupy"], "__file__")  # the fake is gone


def test_the_fake_cupy_refuses_what_cupy_lacks(fake_cupy):
    """CuPy runs a NumPy function or ufunc on its arrays only when it has one of the same name
    (benchmarks/cupy_names.json, read from CuPy's sources): so does the fake."""
    import scipy.special
    a = fake_cupy.asarray(np.array([0.5, 1.5]))
    np.testing.assert_allclose(np.sin(a).get(), np.sin([0.5, 1.5]))
    np.testing.assert_allclose(scipy.special.gammaln(a).get(), scipy.special.gammaln([0.5, 1.5]))
    np.testing.assert_allclose(np.linalg.norm(a).get(), np.linalg.norm([0.5, 1.5]))
    for f in (np.spacing, scipy.special.spence, lambda v: np.linalg.multi_dot([v, v])):
        with pytest.raises(TypeError):
            f(a)
    with pytest.raises(AttributeError, match="spacing"):
        fake_cupy.spacing


def test_zeta_and_expm_run_on_the_gpu_through_cupyx(fake_cupy):
    """SciPy's zeta is a Python function over a private ufunc and scipy.linalg.expm reads its
    argument to the host: on CuPy both go to cupyx.scipy (the fake maps it to SciPy)."""
    rng = np.random.default_rng(1)
    a, x, q = rng.normal(size=(2, 3, 3)) * 0.3, np.array([2.0, 3.5]), np.array([1.5, 0.7])

    def run(device):
        with tf.device(device):
            ta, tx, tq = tf.constant(a), tf.constant(x), tf.constant(q)
        with tf.GradientTape() as tape:
            tape.watch([ta, tq])
            out = [tf.linalg.expm(ta), tf.math.zeta(tx, tq), tf.math.polygamma(tf.constant([1.0, 2.0], tf.float64), tq)]
            loss = sum(tf.reduce_sum(o) for o in out)
        return [*out, *tape.gradient(loss, [ta, tq])]

    for g, w in zip(run("/GPU:0"), run("/CPU:0")):
        assert g.device == _GPU0
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)


def _cnn_and_gp(device):
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(4, 8, 8, 2)), np.array([0, 2, 1, 2])
    a = rng.normal(size=(5, 5))
    with tf.device(device):
        w = tf.Variable(rng.normal(size=(3, 3, 2, 4)) * 0.3)
        d = tf.Variable(rng.normal(size=(64, 3)) * 0.1)
        xs, ys = tf.constant(x), tf.constant(y)
        k = tf.Variable(a @ a.T + 5 * np.eye(5))
        r = tf.constant(rng.normal(size=(5, 1)))
    with tf.GradientTape() as tape:  # (outside the scope: the NumPy constants rules make are copied)
        h = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(xs, w, 1, "SAME")), 2, 2, "VALID")
        logits = tf.reshape(tf.nn.avg_pool2d(h, 2, 1, "SAME"), [4, -1]) @ d
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(ys, logits))
        loss += tf.reduce_sum(tf.gather(d, [1, 2, 2])) + tf.reduce_sum(tf.math.real(tf.signal.rfft(d[:, 0])))
        chol = tf.linalg.cholesky(k)  # a GP's marginal likelihood
        alpha = tf.linalg.triangular_solve(chol, r)
        nll = 0.5 * tf.reduce_sum(tf.square(alpha)) + tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)))
    grads = tape.gradient([loss, nll], [w, d, k])
    return [loss, nll, *grads]


def test_a_cnn_and_a_gp_likelihood_run_on_the_gpu_with_the_numpy_numbers(fake_cupy):
    got, want = _cnn_and_gp("/GPU:0"), _cnn_and_gp("/CPU:0")
    for g, w in zip(got, want):
        assert g.device == _GPU0
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-9, atol=1e-12)


def test_backend_forms_keep_non_finite_values_in_place():
    logits, v = np.array([[0.0, -np.inf, 1.0]]), np.array([[3.0, np.inf, -1.0, np.nan]])
    got = [tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([2]), tf.convert_to_tensor(xs.asarray(logits))),
           tf.sort(tf.convert_to_tensor(da.from_array(v, chunks=2)))]
    want = [tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([2]), tf.constant(logits)), tf.sort(tf.constant(v))]
    for g, w in zip(got, want):
        assert type(g) is _backend.ArrayTensor
        np.testing.assert_array_equal(g.numpy(), w.numpy())


def test_tf_function_runs_backend_tensors_eagerly_with_a_warning(fake_cupy):
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.exp(x) * 2.0 + x)

    with tf.device("/GPU:0"):
        g = tf.constant(np.ones((4, 3)))
    for x in (tf.convert_to_tensor(da.ones((4, 3), chunks=2)), g):
        with pytest.warns(UserWarning, match=r"runs eagerly.*ran on (dask|cupy) arrays"):
            f(x)
        for _ in range(2):  # later calls run eagerly too, without tracing again
            r = f(x)
            assert type(r) is _backend.ArrayTensor and float(r) == pytest.approx(12 * (2 * np.e + 1))
        f = tf.function(f.python_function)


def _keras_fit(device):
    keras = tf.keras
    keras.utils.set_random_seed(0)
    x = np.random.default_rng(0).normal(size=(16, 4)).astype(np.float32)
    with tf.device(device):
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
        m.compile(optimizer="adam", loss="mse")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (its tf.function steps run eagerly on the GPU)
            h = m.fit(x, 2 * x[:, :1], epochs=2, batch_size=8, verbose=0, shuffle=False)
    return h.history["loss"], m.weights


def test_a_keras_model_fits_on_the_gpu_with_the_numpy_numbers(fake_cupy):
    got, weights = _keras_fit("/GPU:0")
    assert all(w.device == _GPU0 for w in weights)
    want, cpu_weights = _keras_fit("/CPU:0")
    np.testing.assert_allclose(got, want, rtol=1e-6)
    for w, c in zip(weights, cpu_weights):
        np.testing.assert_allclose(w.numpy(), c.numpy(), rtol=1e-5, atol=1e-7)


# --------------------------------------------------------------------------- decompositions on backends
def _decompositions(x, y, ts):
    """SVD-, QR-, eigh-, slogdet- and expm-based losses of a batch of tall matrices ``x`` and of
    symmetric positive-definite ones ``y``; ``ts``: their tangents for forward mode."""
    with tf.autodiff.ForwardAccumulator([x, y], ts) as acc:
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            s, u, v = tf.linalg.svd(x)
            q, r = tf.linalg.qr(x)
            e, w = tf.linalg.eigh(y)
            _, ld = tf.linalg.slogdet(y)
            loss = (tf.reduce_sum(s * s[..., :1]) + tf.reduce_sum(u ** 3) + tf.reduce_sum(v * r)
                    + tf.reduce_sum(q[..., :1, :] ** 2) + tf.reduce_sum(e[..., None] * w ** 2) + tf.reduce_sum(ld)
                    + tf.reduce_sum(tf.linalg.expm(0.1 * y)) + tf.einsum("bij,bjk->", x, y))
    return [loss, *tape.gradient(loss, [x, y]), acc.jvp(loss)]


def test_decompositions_on_a_chunked_dask_batch_stay_lazy_and_match_numpy():
    rng = np.random.default_rng(5)
    a, m = rng.normal(size=(6, 4, 3)), rng.normal(size=(6, 3, 3))
    b = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)
    ts = [rng.normal(size=a.shape), rng.normal(size=b.shape)]
    with dask.config.set(scheduler=_refuse):  # forward, gradients and tangents: graphs only
        got = _decompositions(*(tf.convert_to_tensor(da.from_array(v, chunks=(2, 2, 2))) for v in (a, b)),
                              [tf.convert_to_tensor(da.from_array(t, chunks=2)) for t in ts])
    assert all(type(g) is _backend.ArrayTensor and g.backend == "dask" for g in got)
    assert got[1].array.chunks[0] == (2, 2, 2)  # the batch keeps its chunks: one block of matrices each
    want = _decompositions(tf.constant(a), tf.constant(b), [tf.constant(t) for t in ts])
    for g, w in zip(dask.compute(*got), want):
        np.testing.assert_allclose(g, w.numpy(), rtol=1e-10, atol=1e-10)


def test_decompositions_and_einsum_on_array_api_strict_match_numpy():
    rng = np.random.default_rng(6)
    a = rng.normal(size=(2, 4, 3)) + 1j * rng.normal(size=(2, 4, 3))
    results = []
    for x in (tf.constant(a), tf.convert_to_tensor(xs.asarray(a))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            s, u, v = tf.linalg.svd(x, full_matrices=True)
            e, w = tf.linalg.eigh(tf.einsum("bji,bjk->bik", tf.math.conj(x), x))  # x^H x
            q, r = tf.linalg.qr(x)
            y = tf.einsum("bii->b", r) + tf.einsum("bij,bij,b->b", q, tf.math.conj(q), tf.cast(s[..., 0], q.dtype))
            loss = tf.reduce_sum(tf.math.real(y)) + tf.reduce_sum(tf.math.real(e)) + tf.reduce_sum(tf.math.real(u * tf.math.conj(u))[..., 0, :] * s[..., :1])
        results.append([np.asarray(t) for t in (s, u, v, e, q, r, loss, tape.gradient(loss, x))])
    assert type(x) is _backend.ArrayTensor
    for got, want in zip(results[1], results[0]):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_lu_of_an_empty_batch():  # (per_matrix reads the outputs' shapes from an empty batch)
    lu, p = tf.linalg.lu(np.zeros((0, 3, 3)))
    assert lu.shape == (0, 3, 3) and p.shape == (0, 3) and p.dtype == tf.int32


# --------------------------------------------------------------------------- gather/scatter, segments, special functions
def _on(backend: str, a: np.ndarray) -> tf.Tensor:
    arr = xs.asarray(a) if backend == "strict" else da.from_array(a, chunks=tuple(max(1, (n + 1) // 2) for n in a.shape))
    return tf.convert_to_tensor(arr)


def _run(fn, ts: list) -> tuple:
    """Outputs of ``fn(*ts)`` and the gradients of their sum w.r.t. the float inputs."""
    with tf.GradientTape() as tape:
        for t in ts:
            if t.dtype.is_floating:
                tape.watch(t)
        out = fn(*ts)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        sums = [tf.reduce_sum(tf.math.real(o)) for o in outs if o.dtype.is_floating or o.dtype.is_complex]
    grads = tape.gradient(tf.add_n(sums), [t for t in ts if t.dtype.is_floating]) if sums else []
    return [np.asarray(o) for o in outs], [np.asarray(tf.convert_to_tensor(g)) for g in grads if g is not None]


def _same_as_numpy(fn, *arrays: np.ndarray, exact: bool = False) -> None:
    want = _run(fn, [tf.constant(a) for a in arrays])
    for backend in ("strict", "dask"):
        got = _run(fn, [_on(backend, a) for a in arrays])
        for g, w in zip(got[0] + got[1], want[0] + want[1]):
            assert g.dtype == w.dtype, backend
            if exact:
                np.testing.assert_array_equal(g, w, err_msg=backend)
            else:
                np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-14, err_msg=backend)


def test_nd_scatters_on_backends_follow_numpy_with_duplicate_indices():
    rng = np.random.default_rng(5)
    t, u = rng.normal(size=(4, 3)), rng.normal(size=(5, 3))
    dup = [[2], [0], [2], [3], [2]]
    _same_as_numpy(lambda u: tf.scatter_nd(dup, u, [4, 3]) ** 2, u)  # duplicates add up
    _same_as_numpy(lambda t, u: tf.tensor_scatter_nd_update(t, dup, u) * t, t, u)  # the last write wins
    _same_as_numpy(lambda t, u: tf.tensor_scatter_nd_update(t, [[1, 2], [1, 2], [0, 0]], u[0]), t, u)
    _same_as_numpy(lambda t, u: [tf.tensor_scatter_nd_max(t, dup, u) * t, tf.tensor_scatter_nd_min(t, dup, u)], t, u)
    same = [[1]] * 5  # every update on one row: the result does not see t's row, ties split
    _same_as_numpy(lambda t, u: tf.tensor_scatter_nd_max(t, same, tf.round(u)), t, u)
    _same_as_numpy(lambda t, u: tf.tensor_scatter_nd_sub(t, dup, u), t, u)
    _same_as_numpy(lambda t, u: tf.tensor_scatter_nd_update(t, np.zeros((2, 0), np.int32), tf.stack([t, t * 2])), t, u)
    _same_as_numpy(lambda u: tf.scatter_nd(np.zeros((5, 0), np.int64), u, [3]), u)
    ints = np.arange(15).reshape(5, 3)
    _same_as_numpy(lambda u: [tf.scatter_nd(dup, u, [4, 3]), tf.tensor_scatter_nd_update(u[:4], dup, u)], ints, exact=True)
    _same_as_numpy(lambda t: tf.gather_nd(t, [[[1], [0]], [[2], [2]]], batch_dims=1), rng.normal(size=(2, 3, 2)))
    _same_as_numpy(lambda t: tf.dynamic_stitch([[0, 3, 1], [1, 2]], [t[0], t[1, :2]]), t)


def test_nd_gathers_and_scatters_give_backend_jacobians():
    x = np.arange(1.0, 7.0).reshape(2, 3)
    for backend in ("strict", "dask"):
        results = []
        for t in (tf.constant(x), _on(backend, x)):
            with tf.GradientTape(persistent=True) as tape:
                tape.watch(t)
                y = tf.gather_nd(t, [[1, 2], [0, 0], [1, 2]]) ** 2
                z = tf.scatter_nd([[1], [1]], t[:, :2] ** 2, [3, 2])
                u = tf.tensor_scatter_nd_update(t * t, [[0, 1], [0, 1]], t[1, :2])
                m = tf.tensor_scatter_nd_max(t, [[1], [1]], tf.reverse(t, [0]) * 1.5)
            results.append([np.asarray(tape.jacobian(v, t)) for v in (y, z, u, m)])
        for g, w in zip(*results):
            np.testing.assert_allclose(g, w, rtol=1e-12)


def test_segment_extremes_and_products_on_backends_follow_numpy():
    d = np.array([[1.0, 4.0], [np.nan, 2.0], [3.0, -1.0], [5.0, 5.0], [0.0, 7.0], [2.0, np.nan]])
    ids = [0, 0, 0, 2, -1, 2]  # NaN inside a segment, a dropped entry, an empty segment (1)
    _same_as_numpy(lambda d: [tf.math.unsorted_segment_max(d, ids, 4), tf.math.unsorted_segment_min(d, ids, 4)], d,
                   exact=True)
    _same_as_numpy(lambda d: tf.math.segment_max(d, [0, 0, 2, 2, 2, 3]), np.nan_to_num(d))  # empty: 0, ties split
    _same_as_numpy(lambda d: tf.math.unsorted_segment_min(d, [1, 1, 0, 0, -1, 1], 3), np.round(np.nan_to_num(d)))
    _same_as_numpy(lambda d: tf.math.unsorted_segment_max(d, ids, 3), np.arange(12, dtype=np.int32).reshape(6, 2),
                   exact=True)
    zeros = np.array([2.0, 0.0, 3.0, 0.0, 0.0, 4.0])  # a lone zero and two zeros in a segment
    _same_as_numpy(lambda d: tf.math.unsorted_segment_prod(d, [0, 0, 1, 1, 2, 3], 5), zeros)
    _same_as_numpy(lambda a, b: tf.math.unsorted_segment_prod(tf.complex(a, b), [1, 0, 1, 1], 3),
                   np.array([1.0, 2.0, -0.5, 3.0]), np.array([0.5, -1.0, 2.0, 0.0]))


def test_special_functions_run_chunk_by_chunk_on_dask_in_their_dtype():
    x = np.linspace(0.3, 4.0, 12).reshape(3, 4).astype(np.float32)
    q = np.linspace(1.5, 3.0, 4).astype(np.float32)

    def f(x, q):
        return [tf.math.lgamma(x - 1.0), tf.math.digamma(x), tf.math.zeta(x + 1.5, q),
                tf.math.polygamma(tf.constant(2.0), x), tf.math.igamma(q, x), tf.math.igammac(x, q),
                tf.math.betainc(x, x + 1.0, x / 5.0), tf.math.lbeta(x)]
    want = [o.numpy() for o in f(tf.constant(x), tf.constant(q))]
    X = tf.convert_to_tensor(da.from_array(x, chunks=(2, 3)))  # chunks that do not line up
    Q = tf.convert_to_tensor(da.from_array(q, chunks=1))
    with dask.config.set(scheduler=_refuse):
        got = f(X, Q)
    for g, w in zip(got, want):
        assert type(g) is _backend.ArrayTensor and g.dtype == tf.float32
        np.testing.assert_array_equal(g.numpy(), w)


def test_elementwise_and_cumulative_forms_on_array_api_strict():
    seq = np.sort(np.random.default_rng(2).normal(size=(2, 5)), axis=-1)
    _same_as_numpy(lambda s: [tf.searchsorted(s, s[:, ::2], side=side) for side in ("left", "right")], seq, exact=True)
    x = np.array([[-1000.0, 0.0, 3.0, -np.inf, 2.0], [1.0, -np.inf, -np.inf, 5.0, 700.0]])
    _same_as_numpy(lambda x: [tf.math.cumulative_logsumexp(x, axis=1, exclusive=e, reverse=r)
                              for e in (False, True) for r in (False, True)], x)
    _same_as_numpy(lambda x, y: [tf.math.xlogy(x, y), tf.math.xlog1py(x, y), tf.math.xdivy(x, y)],
                   np.array([0.0, -0.0, 2.0, -1.5]), np.array([0.0, 1.0, 3.0, 0.5]), exact=True)
    _same_as_numpy(lambda x, y: [tf.truncatediv(x, y), tf.math.angle(tf.complex(x, y)), tf.sign(tf.complex(x, y))],
                   np.array([-7.0, 7.0, 0.0, -3.5]), np.array([2.0, -2.0, 0.0, 1.0]))
    _same_as_numpy(lambda p: tf.math.invert_permutation(p), np.array([3, 0, 4, 1, 2], np.int32), exact=True)
    _same_as_numpy(lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), np.array([[3.0, 4.0], [0.0, 0.0]]))


def test_dask_gathers_scatters_segments_and_lgamma_stay_lazy_with_gradients():
    a = np.random.default_rng(3).uniform(0.5, 3.0, size=(6, 4))
    ids = np.array([0, 2, 2, 1, 0, 2])

    def chain(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            m = tf.math.unsorted_segment_max(tf.math.lgamma(x), ids, 3)
            s = tf.tensor_scatter_nd_update(m, [[1], [1]], tf.gather_nd(x, [[0], [5]]))
            y = tf.reduce_sum(tf.scatter_nd([[2], [0], [2]], s, [4, 4]) ** 2)
        return y, tape.gradient(y, x)
    want = chain(tf.constant(a))
    with dask.config.set(scheduler=_refuse):
        got = chain(tf.convert_to_tensor(da.from_array(a, chunks=(3, 2))))
    for g, w in zip(got, want):
        assert type(g) is _backend.ArrayTensor and isinstance(g.array, da.Array)
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-12)
