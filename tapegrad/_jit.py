"""Optimizer updates and image kernels compiled into loops with numba (``pip install tapegrad[jit]``).

NumPy makes one pass over a variable per operation of the update formula (Adam: 12), each reading
and writing whole arrays; a compiled loop reads ``x``, ``g`` and the slots once and writes the
results once. Each kernel here does, element by element, the operations of its optimizer's
``_update_into`` in the same order and in the variable's precision (numba adds no fused
multiply-adds without ``fastmath``), so its results are the same bits (tests/test_jit.py compares
them on random arrays, NaNs and infinities included). Like the NumPy path
(``optimizer.flush_subnormal``), each stores a slot value below its floor as zero, as TensorFlow's
flush-to-zero CPU kernels do: ``tiny`` is the dtype's smallest normal number, Adam's floors
``mfl``/``vfl`` are :meth:`Adam._floors`, ``z`` is a zero of the dtype.

When it is used (:func:`wanted`): an optimizer's ``_jit_compile`` when set (``Model.compile``'s
``jit_compile`` sets it on the model's optimizer: ``"auto"``, the default, uses the kernels where
numba is installed), otherwise ``tf.config.optimizer.set_jit`` (off by default, as in TensorFlow).
numba is imported at the first update that asks for it, never with ``import tapegrad``; each
kernel is compiled at its first use for each dtype (about 0.5 s) and kept for the process (no
file cache: nothing compiled is read back from disk).

The image kernels (max pooling, its gradient, a convolution's im2col copy and the scatter of its
input gradient) replace strided NumPy passes with one loop each, in the order of the NumPy code's additions, so
their results are the same bits too (a gradient of max pooling that NumPy tiles as ``g * mask``
has ``+0`` where NumPy has ``-0``, as TensorFlow's kernel has). The Philox kernel computes the
blocks of TensorFlow's counter-based generator behind every fixed-size random draw (Dropout's
masks among them) in one loop instead of NumPy's ten passes per round; it is integer arithmetic,
so the same bits by construction. Ops take them when
:func:`ops_wanted`: ``tf.config.optimizer.set_jit(True)``, or inside a ``fit``/``evaluate``/
``predict`` step of a model whose ``jit_compile`` is True (:func:`compiled_steps`).
"""
from __future__ import annotations

import contextlib
import importlib
import re
import threading
import types
import warnings
from typing import Any, Callable

import numpy as np

__all__ = ["available", "kernel", "wanted", "set_enabled", "enabled", "ops_wanted", "compiled_steps",
           "fused", "philox_blocks"]

_numba: Any = None          # the module once imported; False when it cannot be
_kernels: dict = {}         # (name, in_place) -> compiled function
_global = False             # tf.config.optimizer.set_jit
_warned = False
_fused: dict = {}           # source -> compiled elementwise loop (fused)
_steps = 0                  # compiled_steps entered and not left (any thread)
_lock = threading.Lock()


def available() -> bool:
    """Whether numba can be imported (imported at the first call)."""
    global _numba
    if _numba is None:
        try:
            _numba = importlib.import_module("numba")
        except ImportError:
            _numba = False
    return _numba is not False


def set_enabled(on: bool) -> None:
    global _global
    _global = bool(on)
    if _global:
        warn_if_missing("tf.config.optimizer.set_jit(True)")


def enabled() -> bool:
    return _global


def warn_if_missing(what: str) -> None:
    """Say once that ``what`` asked for compiled updates and numba is not installed."""
    global _warned
    if not available() and not _warned:
        _warned = True
        warnings.warn(f"{what} asks for compiled optimizer updates, which need numba "
                      "(`pip install tapegrad[jit]`); numba is not installed, so the updates run "
                      "as NumPy passes (the same numbers, slower).", stacklevel=3)


def wanted(opt: Any) -> bool:
    """Whether ``opt``'s dense updates should take the compiled kernels now."""
    flag = opt._jit_compile
    return (_global if flag is None else flag) and available()


def ops_wanted() -> bool:
    """Whether ops should take the compiled image kernels now (see the module's docstring)."""
    return (_steps > 0 or _global) and available()


@contextlib.contextmanager
def compiled_steps() -> Any:
    """Ops take the compiled kernels inside (a model's steps with ``jit_compile``)."""
    global _steps
    with _lock:
        _steps += 1
    try:
        yield
    finally:
        with _lock:
            _steps -= 1


def kernel(name: str, in_place: bool = False) -> Callable:
    """The compiled kernel ``name`` (one of the functions below, compiled at the first call).

    ``in_place``: an optimizer kernel called with each output the same array as its input (the
    variable's and its slots' values, Variable._sole_value). The loop is the same; it is inlined
    into a caller that passes the inputs as the outputs (_IN_PLACE), so the compiler knows they
    are the same and still vectorizes it (called with two names for one array, it checks at run
    time whether they overlap and falls back to a scalar loop, 3-4 times slower)."""
    k = _kernels.get((name, in_place))
    if k is None:
        jit = _numba.njit(nogil=True, boundscheck=False, error_model="numpy")
        if in_place:
            caller = _IN_PLACE[name]
            body = _numba.njit(nogil=True, boundscheck=False, error_model="numpy",
                               inline="always")(_SOURCES[name])
            k = jit(types.FunctionType(caller.__code__, {"body": body}, caller.__name__))
        else:
            k = jit(_SOURCES[name])
        _kernels[(name, in_place)] = k
    return k


def flat(*arrays: np.ndarray) -> tuple | None:
    """The arrays as 1-D views, or None when one of them is not C-contiguous."""
    out = []
    for a in arrays:
        if not a.flags.c_contiguous:
            return None
        out.append(a.reshape(-1))
    return tuple(out)


def fused(tree: tuple, kinds: str, ndim: int, dtype: Any) -> Callable:
    """``kernel(a0, a1, ..., out)``: ``out = tree`` element by element, one loop over ``out``.

    ``tree`` is ``("a", k)`` (input ``k``), ``("-", x)`` (negation), ``(op, x, y)`` with ``op``
    one of ``+ - * /``, ``("relu", x)`` (``np.maximum(x, 0)``: NaN kept, ``-0`` gives ``+0``) or
    ``("relugrad", g, x)`` (``g * (x > 0)``). ``kinds[k]`` says how input ``k`` is read: ``"f"``
    out's shape (any strides), ``"s"`` a 0-d array, ``"b"`` a 1-D array along out's last axis
    (a bias), ``"c"`` one value per row (out's shape without its last axis). ``dtype``: out's,
    float32 or float64. Each node is one IEEE operation in that precision, in the tree's order, as
    NumPy computes it op by op: the same bits. The source is generated from the tree's structure
    only (numbered internal names, the operators) and checked before numba compiles it;
    compiled loops are kept for the process by source."""
    n = len(kinds)
    outer = [f"i{d}" for d in range(ndim - 1)]
    idx = f"[{', '.join(outer)}]" if outer else ""
    body: list = []

    def node(t: tuple) -> str:
        if t[0] == "a":
            k = int(t[1])
            return {"s": f"x{k}", "c": f"y{k}"}.get(kinds[k], f"r{k}[j]")
        args = [node(c) for c in t[1:]]
        name = f"t{len(body)}"
        if t[0] == "relu":
            body.append(f"{name} = {args[0]} if ({args[0]} > z or {args[0]} != {args[0]}) else z")
        elif t[0] == "relugrad":
            body.append(f"{name} = ({args[0]} * (o if {args[1]} > z else z))")
        elif len(args) == 1:
            body.append(f"{name} = (-{args[0]})")
        else:
            body.append(f"{name} = ({args[0]} {_OPS[t[0]]} {args[1]})")
        return name

    last = node(tree)
    bits = 32 if np.dtype(dtype) == np.float32 else 64
    lines = [f"def kernel({', '.join(f'a{k}' for k in range(n))}, out):",
             f"    z = np.float{bits}(0.0)", f"    o = np.float{bits}(1.0)"]
    lines += [f"    x{k} = a{k}[()]" for k in range(n) if kinds[k] == "s"]
    lines += [f"    r{k} = a{k}" for k in range(n) if kinds[k] == "b"]
    pad = "    "
    for d, i in enumerate(outer):
        lines.append(f"{pad}for {i} in range(out.shape[{d}]):")
        pad += "    "
    lines += [f"{pad}r{k} = a{k}{idx}" for k in range(n) if kinds[k] == "f"]
    lines += [f"{pad}y{k} = a{k}{idx or '[()]'}" for k in range(n) if kinds[k] == "c"]
    lines += [f"{pad}ro = out{idx}", f"{pad}for j in range(ro.shape[0]):"]
    lines += [f"{pad}    {b}" for b in body] + [f"{pad}    ro[j] = {last}"]
    src = "\n".join(lines) + "\n"
    k = _fused.get(src)
    if k is None:
        _check_kernel(src)
        ns: dict = {"np": np}
        exec(compile(src, "<tapegrad fused loop>", "exec"), ns)  # noqa: S102 (see _check_kernel)
        k = _fused[src] = _numba.njit(nogil=True, boundscheck=False, error_model="numpy")(ns["kernel"])
    return k


_OPS = {"+": "+", "-": "-", "*": "*", "/": "/"}
_IDX = r"(?:\[i[0-9]+(?:, i[0-9]+)*\])?"
_LEAF = r"(?:x[0-9]+|y[0-9]+|r[0-9]+\[j\]|t[0-9]+)"
_KERNEL_LINE = re.compile(
    r"def kernel\((?:a[0-9]+, )*out\):"
    r"|    z = np\.float(?:32|64)\(0\.0\)|    o = np\.float(?:32|64)\(1\.0\)"
    r"|    x[0-9]+ = a[0-9]+\[\(\)\]"
    r"|(?:    )+for i[0-9]+ in range\(out\.shape\[[0-9]+\]\):"
    rf"|(?:    )+(?:r[0-9]+ = a[0-9]+|ro = out){_IDX}"
    rf"|(?:    )+y[0-9]+ = a[0-9]+(?:\[\(\)\]|\[i[0-9]+(?:, i[0-9]+)*\])"
    r"|(?:    )+for j in range\(ro\.shape\[0\]\):"
    rf"|(?:    )+t[0-9]+ = (?:\({_LEAF} [-+*/] {_LEAF}\)|\(-{_LEAF}\)"
    rf"|({_LEAF}) if \(\1 > z or \1 != \1\) else z|\({_LEAF} \* \(o if {_LEAF} > z else z\)\))"
    rf"|(?:    )+ro\[j\] = {_LEAF}")


def _check_kernel(src: str) -> None:
    """The generated loop is one function ``kernel(a0, ..., out)`` whose lines each match a fixed
    grammar: the dtype's zero ``z`` and one ``o``, scalar reads ``x<k> = a<k>[()]``, loops over
    ``out``'s axes, row views ``r<k> = a<k>[i0, ...]``, per-row values ``y<k> = a<k>[i0, ...]``,
    one line per node ``t<n> = `` of one operation of the four, negation, the ReLU select or the
    ReLU-gradient product on leaves (``x<k>``, ``y<k>``, ``r<k>[j]``, ``t<n>``), and ``ro[j] =``
    a leaf. Anything else is a bug of :func:`fused`, and nothing is compiled (the
    same argument as tapegrad._trace._check_source: docs/contributing.md, "Generated code")."""
    lines = src.split("\n")
    if not (lines[-1] == "" and lines[0].startswith("def kernel(")
            and all(_KERNEL_LINE.fullmatch(ln) for ln in lines[:-1])):
        raise RuntimeError("tapegrad._jit.fused: the generated loop has an unexpected form (a bug in "
                           "tapegrad._jit; please report it)")


# -- the kernels: plain loops over flat arrays, each the formula of its optimizer's _update_into ----

def _sgd(x, g, ox, lr):  # pragma: no cover (compiled)
    for i in range(x.size):
        ox[i] = x[i] - g[i] * lr


def _sgd_momentum(x, g, m, ox, om, lr, mu, nesterov, tiny):  # pragma: no cover
    z = tiny - tiny
    for i in range(x.size):
        gl = g[i] * lr
        mi = m[i] * mu - gl
        om[i] = mi * z if -tiny < mi < tiny else mi
        if nesterov:
            ox[i] = x[i] + (mi * mu - gl)
        else:
            ox[i] = x[i] + mi


def _adam(x, g, m, v, ox, om, ov, p):  # pragma: no cover
    # (the step's scalars in one array p: numba checks each argument's type at each call)
    c1, c2, alpha, eps, mfl, vfl, z = p[0], p[1], p[2], p[3], p[4], p[5], p[6]
    for i in range(x.size):
        gi = g[i]
        mi = m[i] + (gi - m[i]) * c1
        vi = v[i] + (gi * gi - v[i]) * c2
        if -mfl < mi < mfl:
            mi = mi * z
        if -vfl < vi < vfl:
            vi = vi * z
        om[i] = mi
        ov[i] = vi
        ox[i] = x[i] - mi * alpha / (np.sqrt(vi) + eps)


def _adam_ams(x, g, m, v, vh, ox, om, ov, ovh, p):  # pragma: no cover
    c1, c2, alpha, eps, mfl, vfl, z = p[0], p[1], p[2], p[3], p[4], p[5], p[6]
    for i in range(x.size):
        gi = g[i]
        mi = m[i] + (gi - m[i]) * c1
        vi = v[i] + (gi * gi - v[i]) * c2
        if -mfl < mi < mfl:
            mi = mi * z
        if -vfl < vi < vfl:
            vi = vi * z
        hi = np.maximum(vh[i], vi)
        om[i] = mi
        ov[i] = vi
        ovh[i] = hi
        ox[i] = x[i] - mi * alpha / (np.sqrt(hi) + eps)


def _rmsprop(x, g, v, a, m, ox, ov, oa, om, lr, rho, keep, eps, mom, centered,
             momentum, tiny):  # pragma: no cover
    z = tiny - tiny
    for i in range(x.size):
        gi = g[i]
        vi = v[i] * rho + gi * gi * keep
        ov[i] = vi * z if -tiny < vi < tiny else vi
        if centered:
            ai = a[i] * rho + gi * keep
            oa[i] = ai * z if -tiny < ai < tiny else ai
            d = np.sqrt(vi - ai * ai + eps)
        else:
            d = np.sqrt(vi + eps)
        step = gi * lr / d
        if momentum:
            step = m[i] * mom + step
            om[i] = step * z if -tiny < step < tiny else step
        ox[i] = x[i] - step


def _adagrad(x, g, acc, ox, oacc, lr, eps, tiny):  # pragma: no cover
    z = tiny - tiny
    for i in range(x.size):
        gi = g[i]
        ai = acc[i] + gi * gi
        oacc[i] = ai * z if -tiny < ai < tiny else ai
        ox[i] = x[i] - gi * lr / np.sqrt(ai + eps)


# -- the optimizer kernels in place: each passes its inputs as its outputs to ``body``, the kernel
# inlined (bound when compiled: kernel(name, True))
body: Any = None


def _sgd_in_place(x, g, ox, lr):  # pragma: no cover (compiled)
    body(x, g, x, lr)


def _sgd_momentum_in_place(x, g, m, ox, om, lr, mu, nesterov, tiny):  # pragma: no cover
    body(x, g, m, x, m, lr, mu, nesterov, tiny)


def _adam_in_place(x, g, m, v, ox, om, ov, p):  # pragma: no cover
    body(x, g, m, v, x, m, v, p)


def _adam_ams_in_place(x, g, m, v, vh, ox, om, ov, ovh, p):  # pragma: no cover
    body(x, g, m, v, vh, x, m, v, vh, p)


def _rmsprop_in_place(x, g, v, a, m, ox, ov, oa, om, lr, rho, keep, eps, mom, centered,
                      momentum, tiny):  # pragma: no cover
    body(x, g, v, a, m, x, v, a, m, lr, rho, keep, eps, mom, centered, momentum, tiny)


def _adagrad_in_place(x, g, acc, ox, oacc, lr, eps, tiny):  # pragma: no cover
    body(x, g, acc, x, acc, lr, eps, tiny)


_IN_PLACE = {"sgd": _sgd_in_place, "sgd_momentum": _sgd_momentum_in_place,
             "adam": _adam_in_place, "adam_ams": _adam_ams_in_place,
             "rmsprop": _rmsprop_in_place, "adagrad": _adagrad_in_place}


# -- image kernels: NHWC arrays; each adds in the order of its NumPy counterpart in ops/conv.py ------

def _maxpool(x, kh, kw, sh, sw, pt, pl, low, out, loc):  # pragma: no cover (compiled)
    # each window's first maximum (row-major) and its index; a NaN is the maximum (the first);
    # padded positions are skipped (a window with none real: ``low`` at 0, as _argmax_core)
    n, h, w, c = x.shape
    oh, ow = out.shape[1], out.shape[2]
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                first = True
                for a in range(kh):
                    r = i * sh + a - pt
                    if r < 0 or r >= h:
                        continue
                    for d in range(kw):
                        q = j * sw + d - pl
                        if q < 0 or q >= w:
                            continue
                        k = a * kw + d
                        if first:
                            for ch in range(c):
                                out[b, i, j, ch] = x[b, r, q, ch]
                                loc[b, i, j, ch] = k
                            first = False
                        else:
                            for ch in range(c):
                                v = x[b, r, q, ch]
                                m = out[b, i, j, ch]
                                if m == m and (v > m or v != v):
                                    out[b, i, j, ch] = v
                                    loc[b, i, j, ch] = k
                if first:
                    for ch in range(c):
                        out[b, i, j, ch] = low
                        loc[b, i, j, ch] = 0


def _maxpool_grad(loc, g, kh, kw, sh, sw, pt, pl, out):  # pragma: no cover
    # ``out`` (zeros) += each window's cotangent at its maximum, kernel position by position
    n, oh, ow, c = g.shape
    h, w = out.shape[1], out.shape[2]
    for k in range(kh * kw):
        a = k // kw
        d = k - a * kw
        for b in range(n):
            for i in range(oh):
                r = i * sh + a - pt
                if r < 0 or r >= h:
                    continue
                for j in range(ow):
                    q = j * sw + d - pl
                    if q < 0 or q >= w:
                        continue
                    for ch in range(c):
                        if loc[b, i, j, ch] == k:
                            out[b, r, q, ch] += g[b, i, j, ch]


def _col2im(parts, kw, sh, sw, dh, dw, out):  # pragma: no cover
    # ``out`` (zeros, padded) += ``parts[k]`` at kernel position k's place in every window
    kk, n, oh, ow, c = parts.shape
    for k in range(kk):
        a = k // kw
        d = k - a * kw
        for b in range(n):
            for i in range(oh):
                r = i * sh + a * dh
                for j in range(ow):
                    q = j * sw + d * dw
                    for ch in range(c):
                        out[b, r, q, ch] += parts[k, b, i, j, ch]


def _im2col(x, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow, out):  # pragma: no cover
    # ``out[M, KH*KW*C]``: each window's pixels (zeros where padded), rows in output order
    n, h, w, c = x.shape
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                m = (b * oh + i) * ow + j
                for a in range(kh):
                    r = i * sh + a * dh - pt
                    for d in range(kw):
                        q = j * sw + d * dw - pl
                        base = (a * kw + d) * c
                        if r < 0 or r >= h or q < 0 or q >= w:
                            for ch in range(c):
                                out[m, base + ch] = 0
                        else:
                            for ch in range(c):
                                out[m, base + ch] = x[b, r, q, ch]


def _philox(k0, k1, lo0, hi0, out):  # pragma: no cover
    # ``out[i]`` = Philox-4x32-10 of the 128-bit counter ``(hi0, lo0) + i`` under key ``(k1, k0)``, as
    # _philox.blocks (integer arithmetic: the same bits by construction)
    m32, s32 = np.uint64(0xFFFFFFFF), np.uint64(32)
    mul0, mul1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    w0, w1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    for i in range(out.shape[0]):
        lo = lo0 + np.uint64(i)
        hi = hi0 + np.uint64(1) if lo < lo0 else hi0
        c0, c1, c2, c3 = lo & m32, lo >> s32, hi & m32, hi >> s32
        a, b = k0, k1
        for _ in range(10):
            p0, p1 = mul0 * c0, mul1 * c2
            c0, c1, c2, c3 = (p1 >> s32) ^ c1 ^ a, p1 & m32, (p0 >> s32) ^ c3 ^ b, p0 & m32
            a, b = (a + w0) & m32, (b + w1) & m32
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = c0, c1, c2, c3


def philox_blocks(key: int, counter: int, n: int) -> np.ndarray:
    """:func:`tapegrad._philox.blocks` in one compiled loop (the same bits): ``(n, 4)`` uint32."""
    out = np.empty((n, 4), np.uint32)
    counter &= (1 << 128) - 1
    kernel("philox")(np.uint64(key & 0xFFFFFFFF), np.uint64((key >> 32) & 0xFFFFFFFF),
                     np.uint64(counter & ((1 << 64) - 1)), np.uint64(counter >> 64), out)
    return out


def _sum_rows(values, index, out):  # pragma: no cover
    # ``out`` (zeros) += each row of ``values`` at its index, one after another: np.add.at's order
    for i in range(index.size):
        r = index[i]
        for j in range(values.shape[1]):
            out[r, j] += values[i, j]


_SOURCES = {"sgd": _sgd, "sgd_momentum": _sgd_momentum, "adam": _adam, "adam_ams": _adam_ams,
            "rmsprop": _rmsprop, "adagrad": _adagrad, "maxpool": _maxpool,
            "maxpool_grad": _maxpool_grad, "col2im": _col2im, "im2col": _im2col, "sum_rows": _sum_rows,
            "philox": _philox}
