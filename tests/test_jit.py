"""Compiled optimizer updates (tapegrad/_jit.py, numba): the same bits as NumPy's fused passes,
used when asked for (``Model.compile(jit_compile=...)``, ``tf.config.optimizer.set_jit``), and
a clear word, with NumPy's numbers, where numba is missing.

Exact comparison is sound (as in test_optimizers_fused.py): both paths run, in one process, the
same elementwise IEEE operations (+, −, ×, ÷, sqrt, max) in the same order and precision, each
rounded once; numba compiles without ``fastmath``, so LLVM contracts nothing into an FMA.
"""
import warnings

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _jit, _philox, _scatter

K = tf.keras.optimizers
CASES = [
    (K.SGD, {}), (K.SGD, {"momentum": 0.9}), (K.SGD, {"momentum": 0.9, "nesterov": True}),
    (K.Adam, {}), (K.Adam, {"amsgrad": True}), (K.AdamW, {}), (K.Adam, {"weight_decay": 0.01}),
    (K.RMSprop, {}), (K.RMSprop, {"centered": True}), (K.RMSprop, {"momentum": 0.5}),
    (K.RMSprop, {"momentum": 0.5, "centered": True}), (K.Adagrad, {}),
]
needs_numba = pytest.mark.skipif(not _jit.available(), reason="numba is not installed (tapegrad[jit])")


def _run(cls, kw, dtype, jit, special=False):
    rng = np.random.default_rng(0)
    vs = [tf.Variable(rng.standard_normal(s).astype(dtype)) for s in ((5, 3), (3,), (), (2, 4, 3), (300,))]
    opt = cls(**kw)
    opt._jit_compile = jit
    for step in range(4):
        grads = [rng.standard_normal(v.shape).astype(dtype) for v in vs]
        if special and step == 2:   # NaN and infinities go through both paths alike
            grads[4][:3] = [np.nan, np.inf, -np.inf]
        opt.apply_gradients(zip([tf.constant(g) for g in grads], vs))
    return [v.numpy() for v in vs] + [s.numpy() for s in opt.variables]


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("cls,kw", CASES, ids=lambda c: getattr(c, "__name__", str(c)))
def test_the_compiled_update_gives_numpy_s_bits(cls, kw, dtype, monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    compiled = _run(cls, kw, dtype, True)
    assert calls, "the compiled kernel was not used"
    plain = _run(cls, kw, dtype, False)
    for a, b in zip(compiled, plain):
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


@needs_numba
@pytest.mark.parametrize("cls,kw", [(K.Adam, {"amsgrad": True}), (K.RMSprop, {"centered": True}),
                                    (K.Adagrad, {}), (K.SGD, {"momentum": 0.9})])
def test_nan_and_infinities_give_numpy_s_bits(cls, kw):
    compiled = _run(cls, kw, np.float32, True, special=True)
    plain = _run(cls, kw, np.float32, False, special=True)
    assert np.isnan(plain[4]).any()
    for a, b in zip(compiled, plain):
        assert np.array_equal(a, b, equal_nan=True)


@needs_numba
def test_sparse_and_strided_gradients_take_numpy_s_path(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    v = tf.Variable(np.ones((6, 4), np.float32))
    opt = K.Adam(0.1)
    opt._jit_compile = True
    opt.apply_gradients([(tf.IndexedSlices(tf.ones((2, 4)), tf.constant([1, 3]), tf.constant([6, 4])), v)])
    assert not calls   # (rows: the sparse update)
    assert _jit.flat(np.ones((4, 6), np.float32).T) is None


@needs_numba
def test_set_jit_turns_compiled_updates_on_for_every_optimizer(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    v = tf.Variable([1.0, 2.0])
    try:
        tf.config.optimizer.set_jit(True)
        assert tf.config.optimizer.get_jit() == "autoclustering"
        K.Adam(0.1).apply_gradients([(tf.constant([0.5, -3.0]), v)])
    finally:
        tf.config.optimizer.set_jit(False)
    assert calls == ["adam"]
    assert tf.config.optimizer.get_jit() == ""
    np.testing.assert_array_equal(v.numpy().round(4), np.float32([0.9, 2.1]))   # (the docstring example of Adam)


@needs_numba
def test_an_update_writes_over_the_old_values_only_where_nobody_holds_them(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append((name, *a)) or kernel(name, *a))
    rng = np.random.default_rng(3)
    grads = [rng.standard_normal(5).astype(np.float32) for _ in range(5)]
    v, plain = tf.Variable(np.ones(5, np.float32)), tf.Variable(np.ones(5, np.float32))
    opt, ref = K.Adam(0.1), K.Adam(0.1)
    opt._jit_compile, ref._jit_compile = True, False
    for step, g in enumerate(grads):
        held = v.value() if step == 1 else np.asarray(v.value()) if step == 2 else None
        kept = None if held is None else np.array(held)
        shared = held is not None and np.shares_memory(np.asarray(held), np.asarray(v.value()))
        assert shared == (held is not None)
        opt.apply_gradients([(tf.constant(g), v)])
        ref.apply_gradients([(tf.constant(g), plain)])
        # a value someone holds is never written (a new array takes the update); else in place
        assert calls[-1] == ("adam", not shared)
        if held is not None:
            np.testing.assert_array_equal(np.array(held), kept)
        del held
        assert np.array_equal(v.numpy(), plain.numpy())
    assert np.array_equal(opt.variables[-1].numpy(), ref.variables[-1].numpy())


@needs_numba
def test_a_traced_fit_step_updates_in_place_with_the_eager_numbers(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append((name, *a)) or kernel(name, *a))
    x = np.random.default_rng(0).standard_normal((64, 8)).astype(np.float32)
    y = (x.sum(1) > 0).astype(np.int32)

    def trained(eager):
        tf.keras.utils.set_random_seed(1)
        m = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
        m.compile(K.Adam(0.01), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  run_eagerly=eager)
        m.fit(x, y, batch_size=16, epochs=2, verbose=0)
        return m.get_weights()
    traced = trained(False)
    assert ("adam", True) in calls   # (the replay releases the step's reads before the update)
    for a, b in zip(traced, trained(True)):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", ["yes", 1, 0, None, 0.5])
def test_set_jit_rejects_what_tensorflow_would_read_silently(bad):
    with pytest.raises(ValueError, match="set_jit takes True, False or 'autoclustering'"):
        tf.config.optimizer.set_jit(bad)


def _model():
    tf.keras.utils.set_random_seed(0)
    m = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(3)])
    return m


def test_compile_resolves_jit_compile_as_keras_does():
    m = _model()
    m.compile("adam", "mse")
    assert m.jit_compile is _jit.available() and m.optimizer._jit_compile is m.jit_compile
    with pytest.warns(UserWarning, match="run_eagerly` is True, then `jit_compile` cannot"):
        m.compile("adam", "mse", jit_compile=True, run_eagerly=True)
    assert m.jit_compile is False
    m.compile("adam", "mse", jit_compile="auto", run_eagerly=True)
    assert m.jit_compile is False
    m.compile("adam", "mse", jit_compile=False)
    assert m.jit_compile is False and m.optimizer._jit_compile is False
    with pytest.raises(ValueError, match="`jit_compile` must be True, False or 'auto'"):
        m.compile("adam", "mse", jit_compile="xla")


@needs_numba
def test_fit_with_jit_compile_gives_the_plain_fit_s_weights():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((64, 4)).astype(np.float32), rng.integers(0, 3, 64)
    weights = []
    for jit in (True, False):
        m = _model()
        m.compile(K.Adam(0.01), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=jit)
        m.fit(x, y, batch_size=16, epochs=2, verbose=0)
        weights.append(m.get_weights())
    for a, b in zip(*weights):
        assert np.array_equal(a, b)


def test_without_numba_jit_compile_says_so_once_and_trains(monkeypatch):
    monkeypatch.setattr(_jit, "_numba", False)
    monkeypatch.setattr(_jit, "_warned", False)
    m = _model()
    with pytest.warns(UserWarning, match=r"need numba \(`pip install tapegrad\[jit\]`\)"):
        m.compile("adam", "mse", jit_compile=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.compile("adam", "mse", jit_compile=True)   # (once)
        m.compile("adam", "mse")                     # ("auto": no word)
    assert m.jit_compile is False   # ("auto" without numba)
    hist = m.fit(np.ones((8, 4), np.float32), np.zeros((8, 3), np.float32), verbose=0)
    assert np.isfinite(hist.history["loss"]).all()


# -- image kernels: max pooling, its gradient, a convolution's input gradient ---------------------

POOLS = [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 2), "VALID"),
         ((3, 3), (1, 1), "SAME"), ((2, 2), (2, 2), "SAME")]


def _pool_run(ksize, strides, padding, dtype, special):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 9, 8, 5)).astype(dtype)
    if special:   # NaN first maximum, -inf windows (against -inf padding), ties, signed zeros
        x[0, 0, 0, :3] = np.nan
        x[1, :4, :4, 1] = -np.inf
        x[2, :3, :3, 2] = 0.5
        x[2, 4:6, 4:6, 3] = [[0.0, -0.0], [-0.0, 0.0]]
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, ksize, strides, padding)
        s = tf.reduce_sum(y * tf.constant(rng.standard_normal(y.shape).astype(dtype)))
    return y.numpy(), tape.gradient(s, xt).numpy()


@needs_numba
@pytest.mark.parametrize("special", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ksize,strides,padding", POOLS)
def test_compiled_max_pooling_gives_numpy_s_values_and_gradients(ksize, strides, padding, dtype,
                                                                special, monkeypatch):
    # (the gradient compares with ==: where NumPy tiles g * mask it has -0 for a negative g that
    # is not the maximum, the kernel +0 as TensorFlow's; == counts them equal)
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    with _jit.compiled_steps():
        compiled = _pool_run(ksize, strides, padding, dtype, special)
    assert {"maxpool", "maxpool_grad"} <= set(calls)
    plain = _pool_run(ksize, strides, padding, dtype, special)
    assert np.array_equal(compiled[0], plain[0], equal_nan=True)
    assert np.array_equal(compiled[0].view(f"u{compiled[0].itemsize}"),   # the same bits (NaN too)
                          plain[0].view(f"u{plain[0].itemsize}"))
    assert np.array_equal(compiled[1], plain[1], equal_nan=True)


def _conv(strides, padding, dilations, dtype):
    """A convolution's output and its gradients to the input and the filter."""
    rng = np.random.default_rng(2)
    x = tf.constant(rng.standard_normal((2, 10, 9, 4)).astype(dtype))
    w = tf.constant(rng.standard_normal((3, 2, 4, 6)).astype(dtype))
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        y = tf.nn.conv2d(x, w, strides, padding, dilations=dilations)
        s = tf.reduce_sum(y * tf.constant(rng.standard_normal(y.shape).astype(dtype)))
    dx, dw = tape.gradient(s, [x, w])
    return y.numpy(), dx.numpy(), dw.numpy()


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("strides,padding,dilations", [(1, "VALID", 1), (1, "SAME", 1), (2, "SAME", 1),
                                                       (1, "SAME", 2), ((2, 1), "VALID", 1)])
def test_compiled_conv_input_gradient_gives_numpy_s_bits(strides, padding, dilations, dtype, monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    with _jit.compiled_steps():
        compiled = _conv(strides, padding, dilations, dtype)[1]
    assert "col2im" in calls
    plain = _conv(strides, padding, dilations, dtype)[1]
    assert np.array_equal(compiled, plain)


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_compiled_row_sums_give_np_add_at_s_bits(dtype):
    rng = np.random.default_rng(5)
    values = (rng.standard_normal((300, 4, 8)) * 10.0 ** rng.integers(-6, 6, (300, 1, 1))).astype(dtype)
    index = rng.integers(0, 40, 300)
    expected = np.zeros((40, 4, 8), dtype)
    np.add.at(expected, index, values)
    got = _scatter.sum_rows(values, index, 40, _jit.kernel("sum_rows"))
    assert got.dtype == dtype and np.array_equal(got.view(np.uint8), expected.view(np.uint8))


@needs_numba
@pytest.mark.parametrize("key,counter,n", [(0, 0, 1), (5, 77, 1000), (2**64 - 1, 2**64 - 3, 9),
                                           (0x1234_5678_9ABC_DEF0, 2**128 - 2, 5)])
def test_compiled_philox_gives_the_numpy_blocks(key, counter, n):
    # integer arithmetic only, so equal by construction; the cases carry into the counter's high
    # half and wrap at 2**128
    assert np.array_equal(_jit.philox_blocks(key, counter, n), _philox.blocks(key, counter, n))


@needs_numba
def test_dropout_in_a_jit_compiled_fit_draws_tensorflow_s_mask(monkeypatch):
    # the stateless draw of Dropout inside a compiled step takes the compiled Philox: same weights
    def fit(jit):
        tf.keras.utils.set_random_seed(3)
        m = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(2)])
        m.compile("adam", "mse", jit_compile=jit)
        used = []
        real = _jit.philox_blocks
        monkeypatch.setattr(_jit, "philox_blocks", lambda *a: used.append(a) or real(*a))
        x = np.random.default_rng(0).standard_normal((40, 6)).astype(np.float32)
        m.fit(x, x[:, :2], batch_size=8, epochs=2, verbose=0)
        return [w.numpy() for w in m.weights], bool(used)
    (compiled, used), (plain, unused) = fit(True), fit(False)
    assert used and not unused
    assert all(np.array_equal(a, b) for a, b in zip(compiled, plain))


@needs_numba
def test_an_embedding_trained_with_jit_compile_gives_the_plain_weights(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    rng = np.random.default_rng(6)
    x, y = rng.integers(0, 50, (64, 12)), rng.integers(0, 3, 64)
    weights = []
    for jit in (True, False):
        tf.keras.utils.set_random_seed(7)
        m = tf.keras.Sequential([tf.keras.Input((12,), dtype="int32"), tf.keras.layers.Embedding(50, 8),
                                 tf.keras.layers.GlobalAveragePooling1D(), tf.keras.layers.Dense(3)])
        m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=jit)
        calls.clear()
        m.fit(x, y, batch_size=16, epochs=2, verbose=0)
        assert ("sum_rows" in calls) is jit
        weights.append(m.get_weights())
    for a, b in zip(*weights):
        assert np.array_equal(a, b)


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("strides,padding,dilations", [(1, "VALID", 1), (1, "SAME", 1), (2, "SAME", 1),
                                                       (1, "SAME", 2), ((2, 1), "VALID", 1)])
def test_compiled_im2col_gives_numpy_s_outputs_and_filter_gradients(strides, padding, dilations, dtype,
                                                                      monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    with _jit.compiled_steps():
        compiled = _conv(strides, padding, dilations, dtype)
    assert "im2col" in calls
    plain = _conv(strides, padding, dilations, dtype)
    for a, b in zip(compiled, plain):
        assert np.array_equal(a, b)


@needs_numba
def test_fit_takes_the_image_kernels_only_with_jit_compile(monkeypatch):
    calls = []
    kernel = _jit.kernel
    monkeypatch.setattr(_jit, "kernel", lambda name, *a: calls.append(name) or kernel(name, *a))
    L = tf.keras.layers
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((16, 8, 8, 2)).astype(np.float32), rng.integers(0, 3, 16)
    weights = []
    for jit in (True, False):
        tf.keras.utils.set_random_seed(4)
        m = tf.keras.Sequential([tf.keras.Input((8, 8, 2)), L.Conv2D(3, 3, activation="relu"),
                                 L.Conv2D(4, 3), L.MaxPooling2D(2), L.Flatten(), L.Dense(3)])
        m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=jit)
        calls.clear()
        m.fit(x, y, batch_size=8, epochs=2, verbose=0)
        assert ({"maxpool", "maxpool_grad", "col2im", "im2col"} <= set(calls)) is jit
        weights.append(m.get_weights())
    assert not _jit.ops_wanted()
    for a, b in zip(*weights):
        assert np.array_equal(a, b)


# -- fused elementwise chains in a traced replay (tapegrad/_trace.py _fusions, _jit.fused) ---------

def _chains(x, y, z, s):
    a = x * y + z * s                  # 3 ops, a scalar input
    b = -(a - y) / (z + 2.0)           # negation, division, a constant
    c = a * b * b                      # a member read twice is not fused into two chains
    d = x[:, ::2] * y[:, 1::2] + 1.0   # strided inputs, rows of 16
    e = tf.reshape(x, (4, 8, 4)) * tf.reshape(z, (4, 8, 4)) - 0.5    # short rows: one flat loop
    f = tf.transpose(x)[:, :3] * tf.transpose(y)[:, :3] + s          # short strided rows: NumPy
    return c, d, e, tf.reduce_sum(a), f, c + 1.0


def _replays(monkeypatch, fuse, dtype):
    monkeypatch.setattr("tapegrad._trace._FUSE_AFTER", 3)
    rng = np.random.default_rng(5)
    fn = tf.function(_chains)
    outs = []
    with (_jit.compiled_steps() if fuse else _nullcontext()):
        for k in range(6):
            args = [tf.constant(rng.standard_normal((4, 32)).astype(dtype)) for _ in range(3)]
            if k == 4:
                args[0] = tf.constant(np.where(np.arange(128).reshape(4, 32) % 7 == 0, np.nan,
                                               args[0].numpy()).astype(dtype))
            outs.append([o.numpy() for o in fn(*args, tf.constant(dtype(0.25)))])
    return outs


def _nullcontext():
    import contextlib
    return contextlib.nullcontext()


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_replay_gives_the_unfused_replay_s_bits(dtype, monkeypatch):
    # (each fused node is the ufunc's one IEEE operation, in the same order and precision: the
    # same bits, but for which NaN comes out where an operation sees NaNs: IEEE leaves a NaN's
    # sign and payload to the implementation, and LLVM may swap a commutative product's operands)
    before = len(_jit._fused)
    fused = _replays(monkeypatch, True, dtype)
    assert len(_jit._fused) > before or _jit._fused, "no chain was fused"
    plain = _replays(monkeypatch, False, dtype)
    for a, b in zip(fused, plain):
        for u, v in zip(a, b):
            assert u.dtype == v.dtype and u.shape == v.shape
            assert np.array_equal(np.isnan(u), np.isnan(v))
            ok = ~np.isnan(u)
            assert np.array_equal(u[ok].view(f"u{u.itemsize}"), v[ok].view(f"u{v.itemsize}"))


@needs_numba
def test_fusions_pick_chains_as_documented():
    from tapegrad import _trace
    progs = []
    compile_program = _trace.compile_program

    def spy(prog, buffers, fuse=False):
        progs.append(prog)
        return compile_program(prog, buffers, fuse)

    import unittest.mock
    with unittest.mock.patch.object(_trace, "compile_program", spy):
        fn = tf.function(_chains)
        rng = np.random.default_rng(6)
        fn(*[tf.constant(rng.standard_normal((4, 32)).astype(np.float32)) for _ in range(3)],
           tf.constant(np.float32(0.25)))
    roots, inner = _trace._fusions(progs[-1])
    trees = sorted(str(t) for t, _, _ in roots.values())
    # a = x*y + z*s and b = -(a - y) / (z + 2) are two chains (a is read by b, c and the sum);
    # c = a*b*b one; d and e one each; f's short strided rows stay NumPy passes; c + 1 reads c,
    # an output, so c is not inside it
    assert len(roots) == 5, trees
    flats = [flat for _, _, flat in roots.values()]
    assert flats.count(True) == 1


@needs_numba
def test_fit_with_fused_chains_gives_the_plain_fit_s_weights(monkeypatch):
    monkeypatch.setattr("tapegrad._trace._FUSE_AFTER", 2)
    L = tf.keras.layers
    rng = np.random.default_rng(7)
    x, y = rng.standard_normal((48, 6, 5)).astype(np.float32), rng.integers(0, 3, 48)
    weights = []
    for jit in (True, False):
        tf.keras.utils.set_random_seed(8)
        m = tf.keras.Sequential([tf.keras.Input((6, 5)), L.LSTM(16), L.Dense(3)])
        m.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  jit_compile=jit)
        before = len(_jit._fused)
        m.fit(x, y, batch_size=8, epochs=2, verbose=0)
        if jit:
            assert _jit._fused and len(_jit._fused) >= before
        weights.append(m.get_weights())
    for a, b in zip(*weights):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("src", [
    "def kernel(a0, out):\n    import os\n",
    "def kernel(a0, out):\n    ro = out\n    for j in range(ro.shape[0]):\n        ro[j] = r0[j].x\n",
    "def kernel(a0, out):\n    ro = out\n    for j in range(ro.shape[0]):\n        ro[j] = f(r0[j])\n",
    "def kernel(a0, out):\n    x0 = a0[()]\n    ro = out\n    for j in range(ro.shape[0]):\n        ro[j] = 1e9\n",
    "def kernel(a0, out=1):\n    ro = out\n",
    "@deco\ndef kernel(a0, out):\n    ro = out\n",
])
def test_the_fused_loop_checker_refuses_other_forms(src):
    with pytest.raises(RuntimeError, match="unexpected form"):
        _jit._check_kernel(src)


def test_the_fused_loop_checker_accepts_what_fused_generates():
    _jit._check_kernel("def kernel(a0, a1, a2, a3, out):\n    z = np.float32(0.0)\n    o = np.float32(1.0)\n"
                       "    x1 = a1[()]\n    r2 = a2\n    for i0 in range(out.shape[0]):\n"
                       "        r0 = a0[i0]\n        y3 = a3[i0]\n        ro = out[i0]\n"
                       "        for j in range(ro.shape[0]):\n            t0 = (-r0[j])\n"
                       "            t1 = (t0 * x1)\n            t2 = t1 if (t1 > z or t1 != t1) else z\n"
                       "            t3 = (r2[j] * (o if t2 > z else z))\n            t4 = (t3 - y3)\n"
                       "            ro[j] = t4\n")


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_generated_form_passes_the_checker_and_compiles(dtype):
    tree = ("relugrad", ("+", ("a", 0), ("a", 1)), ("relu", ("-", ("*", ("a", 2), ("a", 3)))))
    for kinds, ndim in (("fbcs", 3), ("fsfs", 1), ("ffff", 2)):
        assert callable(_jit.fused(tree, kinds, ndim, dtype))


def _nn_chains(x, b, s, w):
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.nn.relu(x + b)                                   # a bias add and ReLU: one loop
        m = tf.reduce_mean(h, -1, keepdims=True)
        c = (h - m) * s                                         # one value per row
        loss = tf.reduce_sum(c * w)
    return h, c, tape.gradient(loss, x)                         # ReLU's gradient


def _nn_replays(monkeypatch, fuse, dtype):
    monkeypatch.setattr("tapegrad._trace._FUSE_AFTER", 3)
    rng = np.random.default_rng(9)
    fn = tf.function(_nn_chains)
    outs = []
    with (_jit.compiled_steps() if fuse else _nullcontext()):
        for k in range(6):
            x = rng.standard_normal((3, 4, 32)).astype(dtype)
            x[0, 0, :4] = [0.0, -0.0, np.nan, -np.inf]
            args = [x, rng.standard_normal(32).astype(dtype), np.asarray(0.5, dtype),
                    rng.standard_normal((3, 4, 32)).astype(dtype)]
            outs.append([o.numpy() for o in fn(*[tf.constant(a) for a in args])])
    return outs


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_bias_and_row_statistics_fuse_with_the_unfused_bits(dtype, monkeypatch):
    from tapegrad import _trace
    seen = []
    fusions = _trace._fusions
    monkeypatch.setattr(_trace, "_fusions", lambda prog: seen.append(fusions(prog)) or seen[-1])
    fused = _nn_replays(monkeypatch, True, dtype)
    trees = " ".join(str(t) for roots, _ in seen for t, _, _ in roots.values())
    assert "relu'" in trees and "relugrad" in trees
    plain = _nn_replays(monkeypatch, False, dtype)
    for a, b in zip(fused, plain):
        for u, v in zip(a, b):
            assert u.dtype == v.dtype and u.shape == v.shape
            assert np.array_equal(np.isnan(u), np.isnan(v))
            ok = ~np.isnan(u)
            assert np.array_equal(u[ok].view(f"u{u.itemsize}"), v[ok].view(f"u{v.itemsize}"))


def _planned_run(cls, kw, planned, monkeypatch):
    from tapegrad.optimizers.optimizer import Optimizer
    rng = np.random.default_rng(11)
    with monkeypatch.context() as mp:
        if not planned:
            mp.setattr(Optimizer, "_apply_planned", lambda self, grads, variables: None)
        vs = [tf.Variable(rng.standard_normal(s).astype(np.float32)) for s in ((6, 3), (3,), (2, 4, 3))]
        opt = cls(**kw)
        opt._jit_compile = True
        for k in range(5):
            grads = [tf.constant(rng.standard_normal(v.shape).astype(np.float32)) for v in vs]
            # an embedding-like gradient: repeated rows as IndexedSlices
            grads[0] = tf.IndexedSlices(tf.constant(rng.standard_normal((4, 3)).astype(np.float32)),
                                        tf.constant([1, 4, 1, 0]), tf.constant([6, 3]))
            opt.apply_gradients(zip(grads, vs))
    return [v.numpy() for v in vs] + [s.numpy() for s in opt.variables]


@needs_numba
@pytest.mark.parametrize("cls,kw", [(tf.keras.optimizers.Adam, {}), (tf.keras.optimizers.SGD, {"momentum": 0.9}),
                                    (tf.keras.optimizers.RMSprop, {}), (tf.keras.optimizers.Nadam, {}),
                                    (tf.keras.optimizers.Adam, {"amsgrad": True})],
                         ids=lambda c: getattr(c, "__name__", str(c)))
def test_a_step_s_planned_update_gives_the_general_path_s_bits(cls, kw, monkeypatch):
    for a, b in zip(_planned_run(cls, kw, True, monkeypatch), _planned_run(cls, kw, False, monkeypatch)):
        assert a.dtype == b.dtype and np.array_equal(np.atleast_1d(a).view(np.uint8), np.atleast_1d(b).view(np.uint8))
