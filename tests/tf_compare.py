"""One rule for comparing a tapegrad float result with the one TensorFlow recorded (docs/reliability.md).

TensorFlow's float32 result is not one number: with oneDNN on or off, or another thread count, TF
adds in another order and gives other last bits, and a training run amplifies them step after step.
tools/record_tf_spread.py reruns every recorded program and fixture recorder under those
configurations and stores, per recorded array, TensorFlow's *spread*: the largest absolute
difference between a configuration and the committed recording (tests/fixtures/tf_spread.json).

A tapegrad value ``h`` matches TensorFlow's ``w`` when, element by element,

    |h - w| <= K * spread + rtol * |w| + atol * scale,      scale = max(1, largest |w| of the array)

``K * spread``: tapegrad (NumPy/OpenBLAS, whatever kernels the CPU picks) adds in yet another order,
so it may land as far from the recording as TensorFlow's own configurations do, times ``K``
(the four configurations sample TensorFlow's orders, they do not bound them).
``rtol``/``atol``: the floor, for results TensorFlow happens to give bit for bit in every
configuration (elementwise chains, float64) while tapegrad's order differs: ``FLOOR_ULPS`` units
in the last place of the dtype (``floor(dtype)``) unless a test argues its own.
NaN must match NaN and an infinity the same infinity. Integers, strings and bools are exact.

Set ``TF_COMPARE_LOG=<file>`` to have every comparison append one JSON line: where, the largest
difference, ``used`` (the largest fraction of the allowed difference an element takes), TensorFlow's
spread and the floor; docs/reliability.md's figures come from such logs.
"""
from __future__ import annotations

import gzip
import json
import os

import numpy as np

K = 4
FLOOR_ULPS = 512  # units in the last place of the dtype (see docs/reliability.md)
ATOL_FRACTION = 1 / 8  # the absolute floor, times the array's scale: 64 units in the last place
EPS = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23, "float64": 2.0 ** -52,
       "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")
with open(os.path.join(FIXTURES, "tf_spread.json"), encoding="utf-8") as _fh:
    SPREAD = json.load(_fh)
with open(os.path.join(FIXTURES, "blas_spread.json"), encoding="utf-8") as _fh:
    KERNEL_SPREAD = json.load(_fh)["spread"]


def floor(dtype) -> float:
    """The relative floor for a dtype's results: ``FLOOR_ULPS`` units in its last place."""
    return FLOOR_ULPS * EPS[np.dtype(dtype).name]


def computed_in(w: np.ndarray) -> np.dtype:
    """The precision a recorded result was computed in: float32 for a float64 array whose every
    value is a float32 (a float32 loss that a program turned into a Python float), or a float32
    times a power of ten within float64's rounding (a float32 metric a program scaled in Python,
    ``valid_mae * 1e6``: its last float32 bit is all it carries; a float64 computation has such
    values by chance with odds about 2**-29 each), else its dtype."""
    if w.dtype == np.float64:
        finite = w[np.isfinite(w)]
        if np.array_equal(finite.astype(np.float32).astype(np.float64), finite):
            return np.dtype(np.float32)
        for k in range(1, 10):
            for scale in (10.0 ** k, 10.0 ** -k):
                x = finite / scale
                f = x.astype(np.float32)
                if (np.all(np.abs(x - f.astype(np.float64)) <= 4 * np.spacing(np.abs(x)))
                        and _full_float32s(f)):
                    return np.dtype(np.float32)
    return w.dtype


def _full_float32s(f: np.ndarray) -> bool:
    """Whether every nonzero value of ``f`` uses more than 16 of float32's 24 significand bits
    and is no integer (a float32 a computation rounded, not a short decimal's scale such as
    0.1 = 1.0 / 10 or 2.0 = 2e9 / 1e9)."""
    f = f[f != 0]
    if f.size == 0 or np.any(f == np.round(f)):
        return False
    m = (np.frexp(f.astype(np.float64))[0] * 2.0 ** 24).astype(np.int64)   # (24 bits, exact)
    low = m & -m   # (the lowest set bit)
    return bool(np.all(low < 2 ** 8))


def program_spread(name: str, result: str) -> float:
    """The spread of a real program's result: TensorFlow's (0 when it was never measured), or
    tapegrad's own across OpenBLAS kernel sets where that is larger (tests/fixtures/blas_spread.json:
    a result that training amplifies, a GAN's losses, is not defined more closely than that by any
    order of the sums; docs/reliability.md)."""
    key = f"{name}/{result}"
    return max(float(SPREAD.get("real_programs", {}).get(key, 0.0)), float(KERNEL_SPREAD.get(key, 0.0)))


def fixture_spread(fixture: str, path: str) -> float:
    """TensorFlow's spread for the array at ``path`` of a fixture file (0: equal in every configuration)."""
    return float(SPREAD.get("fixtures", {}).get(fixture, {}).get("spread", {}).get(path, 0.0))


class RecordedList(list):
    """A float array of a loaded fixture (a JSON list) that knows TensorFlow's spread for it."""
    spread = 0.0


class RecordedFloat(float):
    """A single float of a loaded fixture that knows TensorFlow's spread for it."""
    spread = 0.0


class RecordedArray(np.ndarray):
    """A float array of a loaded ``.npz`` fixture that knows TensorFlow's spread for it."""
    spread = 0.0

    def __array_finalize__(self, obj) -> None:
        self.spread = getattr(obj, "spread", 0.0)


def recorded(array: np.ndarray, fixture: str, key: str) -> RecordedArray:
    """``array`` (member ``key`` of the ``.npz`` fixture ``fixture``) carrying TensorFlow's spread."""
    out = np.asarray(array).view(RecordedArray)
    out.spread = fixture_spread(fixture, key)
    return out


def _annotate(node, fixture: str, path: str, inherited=None):
    """The loaded JSON with each float list and float that TensorFlow's configurations changed
    wrapped to carry its spread; everything else (inputs, settings, exact results) left as loaded,
    so a test can pass it on to tapegrad unchanged."""
    if isinstance(node, dict):
        return {k: _annotate(v, fixture, f"{path}/{k}" if path else str(k)) for k, v in node.items()}
    if isinstance(node, list):
        spread = fixture_spread(fixture, path) if inherited is None else inherited
        if inherited is None and spread == 0.0:  # a list of arrays (a ragged list): each its own
            items = [_annotate(v, fixture, f"{path}/{i}") for i, v in enumerate(node)]
        else:
            items = [_annotate(v, fixture, path, spread) for v in node]
        spread = max([spread] + [getattr(v, "spread", 0.0) for v in items])
        if spread == 0.0:
            return items
        out = RecordedList(items)
        out.spread = spread
        return out
    if isinstance(node, float):
        spread = fixture_spread(fixture, path) if inherited is None else inherited
        if spread == 0.0:
            return node
        out = RecordedFloat(node)
        out.spread = spread
        return out
    return node


def load_fixture(fixture: str):
    """Load ``tests/fixtures/<fixture>`` (JSON, or gzipped JSON) with every float list and float
    carrying TensorFlow's spread, for ``assert_close``/``difference``."""
    opener = gzip.open if fixture.endswith(".gz") else open
    with opener(os.path.join(FIXTURES, fixture), "rt", encoding="utf-8") as fh:
        return _annotate(json.load(fh), fixture, "")


def spread_of(want) -> float:
    return float(getattr(want, "spread", 0.0))


def _log(where: str, dev: float, used: float, spread: float, rtol: float, ok: bool) -> None:
    path = os.environ.get("TF_COMPARE_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"where": where, "dev": dev, "used": used, "spread": spread, "rtol": rtol,
                                 "ok": bool(ok), "coretype": os.environ.get("OPENBLAS_CORETYPE", "")})
                     + "\n")


def allowed(want, *, spread: float, rtol: float, atol: float, scale=None) -> np.ndarray:
    """The largest difference the rule accepts, elementwise: ``K * spread + rtol * |want| + atol *
    scale``, ``scale`` being max(1, largest finite |want|) unless given."""
    w = np.asarray(want, np.complex128)
    if scale is None:
        finite = np.isfinite(w)
        scale = max(1.0, float(np.max(np.abs(w[finite]), initial=0.0)))
    return K * spread + rtol * np.abs(w) + atol * scale


def within(got, want, *, spread: float, rtol: float, atol: float, scale=None) -> np.ndarray:
    """Elementwise: does ``got`` lie within ``allowed`` of ``want`` (finite entries; the caller
    checks NaN/inf patterns)."""
    g = np.asarray(got, np.complex128)
    w = np.asarray(want, np.complex128)
    return np.abs(g - w) <= allowed(w, spread=spread, rtol=rtol, atol=atol, scale=scale)


def difference(got, want, *, spread=None, rtol=None, atol=None, where: str = "", broadcast: bool = False):
    """None when ``got`` matches TensorFlow's ``want`` by the rule above; else what differs.

    ``spread``: TensorFlow's spread for this result (default: ``want``'s own, from
    ``load_fixture``, else 0). ``rtol``/``atol``: the floor (default ``floor(want's dtype)``, and
    ``ATOL_FRACTION`` of it; a JSON list takes ``got``'s dtype). ``broadcast``: ``want`` may
    broadcast to ``got``'s shape (a test's own expectation; a recorded result's shape is exact).
    """
    spread = spread_of(want) if spread is None else float(spread)
    w = np.asarray(want).view(np.ndarray)
    h = np.asarray(got)
    if h.dtype == object:  # a list of tensors
        h = np.asarray(got, np.float64)
    if w.dtype.kind not in "fc":
        if h.shape != w.shape or not np.array_equal(h, w):
            return f"{where}: {h.ravel()[:5]} vs TensorFlow {w.ravel()[:5]}"
        return None
    if broadcast and h.shape != w.shape and np.broadcast_shapes(h.shape, w.shape) == h.shape:
        w = np.broadcast_to(w, h.shape)  # (a test's own expectation, as np.testing.assert_allclose)
    if h.shape != w.shape:
        return f"{where}: shape {h.shape}, TensorFlow {w.shape}"
    if h.dtype.kind not in "fciub":
        return f"{where}: dtype {h.dtype}, TensorFlow {w.dtype}"
    ref_dtype = computed_in(w) if isinstance(want, np.ndarray) else (h.dtype if h.dtype.kind in "fc" else np.float32)
    rtol = floor(ref_dtype) if rtol is None else rtol
    atol = rtol * ATOL_FRACTION if atol is None else atol
    wc, hc = w.astype(np.complex128), h.astype(np.complex128)
    same_special = (np.array_equal(np.isnan(wc), np.isnan(hc))
                    and np.array_equal(np.where(np.isinf(wc), wc, 0), np.where(np.isinf(hc), hc, 0)))
    finite = np.isfinite(wc) & np.isfinite(hc)
    scale = max(1.0, float(np.max(np.abs(wc[np.isfinite(wc)]), initial=0.0)))
    diff = np.abs(hc[finite] - wc[finite])
    limit = allowed(wc[finite], spread=spread, rtol=rtol, atol=atol, scale=scale)
    close = diff <= limit
    dev = float(np.max(diff, initial=0.0))
    ok = same_special and bool(close.all())
    _log(where, dev, float(np.max(diff / np.maximum(limit, 1e-300), initial=0.0)), spread, rtol, ok)
    if ok:
        return None
    if not same_special:
        return f"{where}: NaN or infinity where TensorFlow has {wc.ravel()[:5]} (got {hc.ravel()[:5]})"
    bad = np.zeros(wc.shape, bool)
    bad[finite] = ~close
    i = np.unravel_index(np.argmax(bad), bad.shape) if bad.ndim else ()
    rel = np.max(np.abs(hc - wc)[bad] / np.maximum(np.abs(wc)[bad], atol * scale))
    return (f"{where}: {int(bad.sum())} of {bad.size} values differ (first at "
            f"{tuple(int(j) for j in i)}: {hc[i].real:.7g} vs TensorFlow {wc[i].real:.7g}; largest "
            f"difference {dev:.3g}, relative {rel:.2g}; TensorFlow's own spread {spread:.3g} "
            f"x K={K}, floor rtol {rtol:.3g} atol {atol:.3g} x {scale:.3g})")


def assert_close(got, want, *, spread=None, rtol=None, atol=None, err_msg: str = "",
                 broadcast: bool = False) -> None:
    """``difference`` as an assertion (the test's ``err_msg`` names the result)."""
    message = difference(got, want, spread=spread, rtol=rtol, atol=atol, where=err_msg or "result",
                         broadcast=broadcast)
    assert message is None, message
