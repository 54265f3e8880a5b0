"""NumPy and SciPy calls never drop a gradient term silently (issue 27): SciPy's special ufuncs
and more NumPy functions stay on the tape; every other call that turns a recorded tensor into a
floating-point NumPy value warns at the user's line, or raises in strict mode; the tables in
docs/numpy.md are the code's."""
import functools
import importlib.util
import pathlib
import sys
import warnings

import numpy as np
import scipy
import pytest
from scipy import special, stats

import tapegrad as tf
from tapegrad import _numpy_interop as interop

ROOT = pathlib.Path(__file__).resolve().parent.parent
RNG = np.random.default_rng(27)


def here() -> int:
    return sys._getframe(1).f_lineno


def grad(f, *xs):
    xs = [tf.constant(np.asarray(x, np.float64)) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    assert isinstance(y, tf.Tensor), f"{f} gave a {type(y).__name__}, not a Tensor on the tape"
    g = tape.gradient(y, xs)
    return [None if t is None else t.numpy() for t in g]


@pytest.fixture(autouse=True)
def _no_silent_pass():
    """A test here that gets an unexpected interop warning fails."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*was given a tensor that a GradientTape")
        yield


# ---------------------------------------------------------------------------- the examples
def test_gamma_log_likelihood_gradient():
    # issue 27: 178.26 (gammaln dropped) where the right value is Σ log x - n ψ(k)
    x = RNG.gamma(3.0, size=30) + 0.1
    (g,) = grad(lambda k: np.sum((k - 1) * np.log(x) - x - special.gammaln(k)), 2.5)
    assert g == pytest.approx(np.sum(np.log(x)) - 30 * special.digamma(2.5), rel=1e-12)


@pytest.mark.parametrize("f,df", [
    (special.expit, lambda x: special.expit(x) * (1 - special.expit(x))),
    (special.gammaln, special.digamma),
    (lambda x: special.xlogy(x, x), lambda x: np.log(x) + 1),
    (lambda x: np.logaddexp(x, 1.0), lambda x: special.expit(x - 1.0)),
    (lambda x: np.logaddexp2(x, 1.0), lambda x: special.expit((x - 1.0) * np.log(2))),
    (special.log_ndtr, lambda x: np.exp(stats.norm.logpdf(x) - special.log_ndtr(x))),
    (special.ndtr, stats.norm.pdf),
    (special.logit, lambda x: 1 / (x * (1 - x))),
    (special.erf, lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x)),
], ids=["expit", "gammaln", "xlogy", "logaddexp", "logaddexp2", "log_ndtr", "ndtr", "logit", "erf"])
def test_listed_functions_have_their_analytic_gradient(f, df):
    x = np.array([0.15, 0.5, 0.85])
    (g,) = grad(lambda t: np.sum(f(t)), x)
    np.testing.assert_allclose(g, df(x), rtol=1e-10)


def test_logaddexp_splits_the_gradient_at_ties_and_keeps_minus_infinity():
    ga, gb = grad(lambda a, b: np.logaddexp(a, b), 0.5, 0.5)
    assert (ga, gb) == (0.5, 0.5)
    assert np.logaddexp(tf.constant(-np.inf), tf.constant(-np.inf)).numpy() == -np.inf


def test_np_sort_gradient_follows_the_permutation():
    (g,) = grad(lambda x: np.sum(np.sort(x) * np.array([1.0, 2.0, 3.0])), [3.0, 1.0, 2.0])
    np.testing.assert_array_equal(g, [3.0, 1.0, 2.0])
    (g,) = grad(lambda x: np.sum(np.sort(x, axis=None) * np.arange(4.0)), [[3.0, 1.0], [0.0, 2.0]])
    np.testing.assert_array_equal(g, [[3.0, 1.0], [0.0, 2.0]])


@pytest.mark.parametrize("f,name,instead", [
    (special.logsumexp, "scipy.special.logsumexp", "tf.math.reduce_logsumexp"),
    (special.softmax, "scipy.special.softmax", "tf.nn.softmax"),
    (special.log_softmax, "scipy.special.log_softmax", "tf.nn.log_softmax"),
    (stats.norm.logpdf, "scipy.stats.norm.logpdf", "np.log(scale)"),
    (np.median, "np.median", "tf.sort"),
    (special.gamma, "scipy.special.gamma", "gammaln"),
    (functools.partial(special.polygamma, 1), "scipy.special.polygamma", "tf.math.polygamma"),
], ids=["logsumexp", "softmax", "log_softmax", "norm.logpdf", "median", "gamma", "polygamma"])
def test_functions_off_the_tape_warn_at_the_users_line(f, name, instead):
    x = tf.constant([0.5, 1.0, 2.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning) as caught:
            f(x); line = here()  # noqa: E702
    msgs = [w for w in caught if "was given a tensor" in str(w.message)]
    assert len(msgs) == 1
    w = msgs[0]
    assert str(w.message).startswith(f"{name} was given a tensor that a GradientTape")
    assert "constant for the tape" in str(w.message) and instead in str(w.message)
    assert (w.filename, w.lineno) == (__file__, line)


def test_the_warning_comes_whether_or_not_the_gradient_ends_up_none():
    x = tf.constant([0.5, 1.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="scipy.special.logsumexp"):
            y = tf.constant(special.logsumexp(x))   # the only term: the gradient is None
    assert tape.gradient(y, x) is None


def test_the_warning_for_variables_and_forward_mode():
    v = tf.Variable([0.5, 1.0], dtype=tf.float64)
    with tf.GradientTape():
        with pytest.warns(UserWarning, match="np.median"):
            np.median(v)          # a trainable Variable: the tape watches it when read
    x = tf.constant([0.5, 1.0], tf.float64)
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 0.0], tf.float64)):
        with pytest.warns(UserWarning, match="scipy.special.softmax"):
            special.softmax(x)


def test_a_partially_differentiable_op_warns_for_its_other_inputs():
    # TF differentiates betainc in x only: a recorded a runs SciPy and warns, not a silent 0
    a, x = tf.constant(2.0, tf.float64), tf.constant(0.3, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([a, x])
        with pytest.warns(UserWarning, match="scipy.special.betainc"):
            special.betainc(a, 3.0, x)
        y = special.betainc(2.0, 3.0, x)        # x alone: on the tape
    assert isinstance(y, tf.Tensor) and tape.gradient(y, x) is not None


def test_no_warning_without_a_tape_or_for_what_carries_no_gradient():
    x = tf.constant([0.5, 1.0, 2.0], tf.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        special.logsumexp(x)                     # no tape
        np.median(x)
        with tf.GradientTape() as tape:
            special.logsumexp(x)                 # a tape, but not following x
            tape.watch(x)
            np.argmax(x), np.shape(x), np.argsort(x)   # no floating-point result
            np.asarray(x), x.numpy()             # the user's own conversions
            special.logsumexp(tf.stop_gradient(x))
            special.logsumexp(x.numpy())


def test_strict_mode_raises_and_is_undone():
    x = tf.constant([0.5, 1.0, 2.0], tf.float64)
    tf.config.experimental.enable_strict_numpy_interop()
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            for f in (np.median, special.logsumexp, special.gamma):
                with pytest.raises(TypeError, match="was given a tensor .*Strict NumPy interop is on"):
                    f(x)
            y = np.sum(special.gammaln(x))       # on the tape: no error
        assert tape.gradient(y, x) is not None
        np.median(x)                              # no tape: no error
    finally:
        tf.config.experimental.disable_strict_numpy_interop()
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match="np.median"):
            np.median(x)


# ---------------------------------------------------------------------------- the whole mapping table
NONDIFF = {np.trunc, np.divmod, np.nextafter, np.floor_divide, np.fmod, np.remainder, np.rint, np.floor,
           np.ceil, np.sign}
DOMAIN = {np.arccosh: (1.2, 3.0)}


def _floats(lo=0.2, hi=0.9, shape=(3,)):
    return RNG.uniform(lo, hi, shape)


def _ufunc_cases():
    for u, target in interop.UFUNCS.items():
        if u.signature is not None or u.types[0][0] in "?":
            continue
        yield pytest.param(u, target, [_floats(*DOMAIN.get(u, (0.2, 0.9))) for _ in range(u.nin)],
                           id=f"np.{u.__name__}")
    for name, target in interop.SCIPY_UFUNCS.items():
        u = getattr(special._ufuncs, name)
        yield pytest.param(u, target, [_floats() for _ in range(u.nin)], id=f"scipy.{name}")


def _check_against_op(u, target, args, wrap=None):
    """``u`` on tensors: Tensors with SciPy's/NumPy's values, derivatives right by central
    differences (``check_grads``), and equal to those of the tapegrad op the table names."""
    got = u(*[tf.constant(a) for a in args])
    want = u(*args)
    outs, wants = (got, want) if isinstance(got, tuple) else ((got,), (want,))
    for g, w in zip(outs, wants):
        assert isinstance(g, tf.Tensor)
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-10, atol=1e-14)
    if u in NONDIFF or outs[0].dtype.name == "bool":
        return
    tf.test.check_grads(lambda *ts: u(*ts), [tf.constant(a) for a in args], order=1)
    if isinstance(target, str):
        np.testing.assert_allclose(grad(lambda *ts: u(*ts), *args), grad(interop._tf(target), *args), rtol=1e-12)


@pytest.mark.parametrize("u,target,args", list(_ufunc_cases()))
def test_every_mapped_ufunc_matches_and_differentiates(u, target, args):
    if target is interop.SCIPY_UFUNCS["betainc"]:         # differentiable in x only
        a, b = args[0], args[1]
        _check_against_op(lambda x: u(a, b, x), None, args[2:])
    elif target is interop.SCIPY_UFUNCS["_zeta"]:         # in q only
        _check_against_op(lambda q: u(args[0] + 1.5, q), None, args[1:])
    else:
        _check_against_op(u, target, args)


FUNCTION_CASES = {
    "sort": (lambda a: np.sort(a, axis=0), [(3, 2)]), "flip": (np.flip, [(2, 3)]),
    "roll": (lambda a: np.roll(a, 1), [(2, 3)]), "tile": (lambda a: np.tile(a, (2, 1, 2)), [(2, 3)]),
    "repeat": (lambda a: np.repeat(a, 2, axis=1), [(2, 3)]), "diff": (lambda a: np.diff(a, n=2), [(2, 4)]),
    "cross": (np.cross, [(2, 3), (2, 3)]), "diag": (np.diag, [(3,)]), "diag_part": (np.diag, [(3, 3)]),
    "diagonal": (np.diagonal, [(3, 3)]), "tril": (np.tril, [(3, 3)]), "triu": (np.triu, [(3, 3)]),
    "swapaxes": (lambda a: np.swapaxes(a, 0, 2), [(2, 3, 1)]),
    "moveaxis": (lambda a: np.moveaxis(a, 0, -1), [(2, 3, 1)]), "ravel": (np.ravel, [(2, 3)]),
    "vstack": (lambda a, b: np.vstack([a, b]), [(3,), (2, 3)]),
    "hstack": (lambda a, b: np.hstack([a, b]), [(3,), (2,)]),
    "take": (lambda a: np.take(a, [2, 0], axis=1), [(2, 3)]),
    "pad": (lambda a: np.pad(a, 1, constant_values=0.5), [(2, 3)]),
    "average": (lambda a, w: np.average(a, axis=1, weights=w), [(2, 3), (2, 3)]),
    "ptp": (lambda a: np.ptp(a, axis=0), [(3, 2)]), "inner": (np.inner, [(2, 3), (3,)]),
    "vdot": (np.vdot, [(2, 3), (2, 3)]), "meshgrid": (lambda a, b: np.meshgrid(a, b), [(3,), (2,)]),
    "matrix_power": (lambda a: np.linalg.matrix_power(a, 3), [(2, 2)]),
}


@pytest.mark.parametrize("name", sorted(FUNCTION_CASES))
def test_new_numpy_functions_match_and_differentiate(name):
    f, shapes = FUNCTION_CASES[name]
    args = [RNG.uniform(0.2, 2.0, s) for s in shapes]
    got, want = f(*[tf.constant(a) for a in args]), f(*args)
    for g, w in zip(*((got, want) if isinstance(got, tuple) else ((got,), (want,)))):
        assert isinstance(g, tf.Tensor)
        np.testing.assert_allclose(g.numpy(), w, rtol=1e-12)
    tf.test.check_grads(f, [tf.constant(a) for a in args], order=1)


def test_every_numpy_ufunc_is_decided():
    """Each NumPy ufunc is on the tape or listed, with a reason, as off it."""
    ufuncs = {getattr(np, n) for n in dir(np) if isinstance(getattr(np, n), np.ufunc)}
    off = {getattr(np, n) for n in interop.UFUNCS_OFF_TAPE if hasattr(np, n)}
    assert not set(interop.UFUNCS) & off
    assert sorted(u.__name__ for u in ufuncs - set(interop.UFUNCS) - off) == []


# tapegrad ops whose forward wraps a SciPy ufunc under another name (the others are named after it)
SCIPY_UFUNC_OF_OP = {"Lgamma": "gammaln", "Digamma": "psi", "Zeta": "_zeta", "Igamma": "gammainc",
                     "Igammac": "gammaincc", "Betainc": "betainc", "FresnelSin": "fresnel",
                     "FresnelCos": "fresnel", "Expint": "expi", "Sigmoid": "expit", "Xlogy": "xlogy",
                     "Xlog1py": "xlog1py", "Expm1": "expm1", "Log1p": "log1p"}
# ... and those with no SciPy ufunc to map (a Python function in SciPy, or none)
NO_SCIPY_UFUNC = {"Polygamma", "Softplus", "Xdivy"}


def test_every_special_op_with_a_scipy_ufunc_is_mapped():
    """Each op of tapegrad/ops/special.py (and the math ops SciPy has too) is reached from its
    SciPy ufunc, or is listed as having none."""
    from tapegrad._dispatch import REGISTRY
    from tapegrad.ops import special as ops_special
    mapped = {getattr(special._ufuncs, n) for n in interop.SCIPY_UFUNCS}
    unmapped = []
    for name, op in REGISTRY.items():
        scipy_name = SCIPY_UFUNC_OF_OP.get(name)
        if scipy_name is None and getattr(op.fwd, "__module__", None) == ops_special.__name__:
            scipy_name = getattr(op.fwd, "__name__", "")
        if scipy_name is None or name in NO_SCIPY_UFUNC:
            continue
        u = getattr(special._ufuncs, scipy_name, None)
        if isinstance(u, np.ufunc) and u not in mapped:
            unmapped.append((name, scipy_name))
    assert unmapped == []
    assert all(isinstance(getattr(special._ufuncs, n), np.ufunc) for n in SCIPY_UFUNC_OF_OP.values())


def test_the_docs_tables_are_the_codes():
    # the tables list what the NumPy and SciPy they were written with have (docs/numpy.md); an older
    # NumPy or SciPy (CI's oldest-versions pass) lacks some of their ufuncs
    if tuple(int(p) for p in np.__version__.split(".")[:2]) < (2, 4) or \
            tuple(int(p) for p in scipy.__version__.split(".")[:2]) < (1, 17):
        pytest.skip("docs/numpy.md's tables were written with NumPy 2.4 and SciPy 1.17")
    spec = importlib.util.spec_from_file_location("numpy_interop_table", ROOT / "tools" / "numpy_interop_table.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    page = (ROOT / "docs" / "numpy.md").read_text(encoding="utf-8")
    section = page.split(tool.START, 1)[1].split(tool.END, 1)[0]
    assert section.strip() == tool.render().strip(), "run python tools/numpy_interop_table.py"
