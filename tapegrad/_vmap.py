"""``tf.vectorized_map`` by batching rules (JAX's ``vmap``, TensorFlow's ``pfor``).

``fn`` runs once, on the first row of ``elems``, with a :class:`Batcher` as the only active
recorder. Each op that runs on a value depending on the row is told to the batcher, which applies
the op's *batching rule* to the batched values: every batched value carries its batch axis first;
values that do not depend on the row (constants, captured tensors, Variable reads) stay
unbatched. The rules run with the caller's recorders visible, so outer tapes, accumulators and
tracers see the batched computation (and never the row's): gradients with respect to ``elems``
and to captured tensors and Variables, and higher derivatives, are those of the batch.

A rule is ``rule(op, n, xs, bat, p) -> output or tuple of outputs``: ``n`` the batch size,
``xs`` the inputs (batched ones with the leading axis), ``bat`` per input whether it is batched,
``p`` the op's params. :func:`rule_of` finds it: an entry of :data:`RULES` by op name, else the
broadcasting rule for ops declared ``deriv=`` (elementwise) or ``broadcast=True``.

The row run cannot decide what other rows need: a row value read into Python (``bool``,
``float``, ``.numpy()``), a Variable update, or an op without a rule raises :class:`Unbatchable`,
and ``vectorized_map`` runs ``fn`` once per row instead.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import _nest, _recorders as _rec
from ._backend import Boxed, wrap_array
from ._convert import convert_to_tensor
from ._dispatch import REGISTRY, Op, _offer, apply
from ._tensor import IndexedSlices, Tensor, wrap

__all__ = ["Unbatchable", "vmap", "rule_of", "RULES"]


class Unbatchable(Exception):
    """``fn`` did something the batcher cannot batch; ``args[0]`` says what."""


class Batcher(_rec.Recorder):
    """The recorder of the row run: the batched value of every row tensor, by tensor id."""

    __slots__ = ("n", "outer", "batched", "before")

    def __init__(self, n: int, outer: list) -> None:
        self.n = n
        self.outer = outer           # the caller's recorders: they see the batched ops
        self.batched: dict[int, Tensor] = {}
        self.before: dict[int, tuple] = {}  # Variable id -> (Variable, its value when first read)

    def record(self, op: Op, xs: Any, p: dict, ans: Any, k: int) -> None:
        self._op(op, xs, p, ans if type(ans) is tuple else (ans,))

    def on_nondiff(self, op: Op, xs: Any, outs: tuple, p: Any = None) -> None:
        self._op(op, xs, p or {}, outs)

    def _op(self, op: Op, xs: Any, p: dict, outs: tuple) -> None:
        got = self.batched
        bat = tuple([x._id in got for x in xs])
        if True not in bat:  # the same for every row: the caller's recorders see it as it ran
            if self.outer:
                self.outer_run(_offer, op, xs, p, outs if op.nout != 1 else outs[0], self.outer)
            return
        rule = rule_of(op)
        if rule is None:
            raise Unbatchable(f"op {op.name} has no batching rule")
        args = [got[x._id] if b else x for x, b in zip(xs, bat)]
        res = self.outer_run(rule, op, self.n, args, bat, p)
        if type(res) is not tuple:
            res = (res,)
        for o, r in zip(outs, res):
            ov, rv = o._value, r._value
            if rv.shape[1:] != ov.shape or rv.shape[0] != self.n or rv.dtype != ov.dtype:
                raise Unbatchable(f"the batching rule of {op.name} gave {rv.dtype}{list(rv.shape)} for "
                                  f"rows of {ov.dtype}{list(ov.shape)} (a bug: please report it)")
            got[o._id] = r

    def outer_run(self, fn: Callable, *args: Any) -> Any:
        """``fn(*args)`` with the caller's recorders active instead of the row run's."""
        with _rec.swapped(self.outer):
            return fn(*args)

    def on_variable_read(self, v: Any) -> None:
        self.before.setdefault(v._id, (v, v._snap._value))
        for rec in self.outer:  # (an outer tape watches a trainable Variable on read)
            rec.on_variable_read(v)

    def on_variable_assign(self, v: Any, how: str = "", value: Any = None) -> None:
        # undone before the per-row fallback runs fn again: the value of the first read, else
        # (an update fn never read) the inverse of assign_add/assign_sub; an assign that nothing
        # read before is overwritten by the fallback's first row
        old = self.before.get(v._id)
        if old is not None:
            v._set(old[1])
        elif how in ("assign_add", "assign_sub"):
            d = np.asarray(convert_to_tensor(value)._value, v._snap._value.dtype)
            v._set((np.subtract if how == "assign_add" else np.add)(v._snap._value, d))
        raise Unbatchable(f"fn updates the Variable {v.name!r}")

    def on_escape(self, t: Any, how: str) -> None:
        if t._id in self.batched:
            raise Unbatchable(f"fn reads a value that depends on the row into Python ({how})")

    def on_random(self, xs: Any, stateful: bool) -> None:
        if stateful or any(x._id in self.batched for x in xs):
            raise Unbatchable("fn draws random numbers (each row needs a draw of its own)")

    def output(self, v: Any) -> Tensor:
        """The batched value of an output leaf of the row run (repeated when it is invariant)."""
        if isinstance(v, IndexedSlices):
            raise Unbatchable("fn returns IndexedSlices")
        t = convert_to_tensor(v)
        b = self.batched.get(t._id)
        if b is None:
            b = self.outer_run(_lift, t, self.n)
        return b


def vmap(fn: Callable, elems: Any, flat: list, n: int) -> Any:
    """``fn`` mapped over the ``n`` rows of ``elems`` (flat leaves ``flat``), batched; raises
    :class:`Unbatchable` when ``fn`` does something without a batching rule."""
    b = Batcher(n, _rec.tls.stack)
    rows = []
    for t in flat:
        v = t._value
        r = wrap(v[0]) if type(v) is not Boxed else wrap_array(v.a[0], v.backend)
        b.batched[r._id] = t
        rows.append(r)
    with _rec.swapped([]):
        _rec.push(b)
        try:
            out = fn(_nest.pack_sequence_as(elems, rows))
            res = [None if v is None else b.output(v) for v in _nest.flatten(out)]
        finally:
            _rec.pop(b)
    return _nest.pack_sequence_as(out, res)


# ---------------------------------------------------------------------------- the rules
_R = REGISTRY


def rule_of(op: Op) -> Callable | None:
    """The batching rule of ``op`` (None: it has none)."""
    if _R.get(op.name) is not op:
        return None  # an op made per call (custom_gradient)
    rule = RULES.get(op.name)
    if rule is None and (op.derivs is not None or op.bcast):
        return _broadcasting
    return rule


def _rank(x: Tensor, b: bool) -> int:
    return x._value.ndim - b


def _reshape(x: Tensor, shape: tuple) -> Tensor:
    return apply(_R["Reshape"], (x,), {"shape": shape})


def _lift(x: Tensor, n: int) -> Tensor:
    """An unbatched value repeated over the batch."""
    s = x._value.shape
    return apply(_R["BroadcastTo"], (_reshape(x, (1,) + s),), {"shape": (n,) + s})


def _lift_all(n: int, xs: list, bat: tuple) -> list:
    return [x if b else _lift(x, n) for x, b in zip(xs, bat)]


def _align(xs: list, bat: tuple, core: int = 0) -> list:
    """Batched inputs with ones after the batch axis up to the largest row rank, so NumPy's
    broadcasting (from the right) pairs the rows' axes as it did for one row."""
    r = max(max(_rank(x, b) for x, b in zip(xs, bat)), core)
    out = []
    for x, b in zip(xs, bat):
        s = x._value.shape
        if b and len(s) - 1 < r:
            x = _reshape(x, s[:1] + (1,) * (r + 1 - len(s)) + s[1:])
        out.append(x)
    return out


def _broadcasting(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Elementwise ops, and ops whose leading axes broadcast (matmul, solves, conv's images)."""
    return apply(op, _align(xs, bat), p)


def _leading(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Ops whose leading axes are batch axes shared by all inputs (matrix functions, ...), and
    elementwise ops of equal shapes not declared ``broadcast`` (their rules do not unbroadcast)."""
    return apply(op, _lift_all(n, xs, bat), p)


def _axis(x: Tensor, a: int, extra: int = 0) -> int:
    """Row axis ``a`` (of a row of rank ``ndim - 1 + extra``) as an axis of the batch."""
    return a % (x._value.ndim - 1 + extra) + 1


def _with(p: dict, **q: Any) -> dict:
    return {**p, **q}


def _one_axis(key: str) -> Callable:
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        if True in bat[1:]:
            raise Unbatchable(f"op {op.name} with indices that depend on the row")
        return apply(op, xs, _with(p, **{key: _axis(xs[0], p[key])}))
    return rule


def _axes(key: str) -> Callable:
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        x, = xs
        a = p[key]
        a = tuple(range(1, x._value.ndim)) if a is None else tuple(_axis(x, i) for i in a)
        return apply(op, xs, _with(p, **{key: a}))
    return rule


def _join(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:  # concat, stack
    extra = op.name == "Pack"
    return apply(op, _lift_all(n, xs, bat), _with(p, axis=_axis(xs[bat.index(True)], p["axis"], extra)))


def _transpose(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, {"perm": (0,) + tuple(i + 1 for i in p["perm"])})


def _shape_first(key: str) -> Callable:  # reshape, and the shape param of a cotangent op
    def rule(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
        return apply(op, xs, _with(p, **{key: (n,) + tuple(p[key])}))
    return rule


def _broadcast_to(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    shape = tuple(p["shape"])
    return apply(op, _align(xs, bat, len(shape)), {"shape": (n,) + shape})


def _tile(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, {"multiples": (1,) + tuple(p["multiples"])})


def _pad(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, _with(p, pads=((0, 0),) + tuple(p["pads"])))


def _slice(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, {"key": (slice(None),) + tuple(p["key"])})


def _slice_grad(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, {"shape": (n,) + tuple(p["shape"]), "key": (slice(None),) + tuple(p["key"])})


def _take_along(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    if not bat[1]:  # sort and top_k compute the order from the values in Python: row 0's order
        raise Unbatchable("tf.sort/tf.math.top_k order each row in Python")
    return _leading(op, n, xs, bat, p)


def _row_index(n: int, idx: Tensor) -> Tensor:
    """Batched nd-indices ``[n, ..., k]`` with each row's number put first: ``[n, ..., 1 + k]``."""
    iv = idx._value
    rows = np.broadcast_to(np.arange(n, dtype=iv.dtype).reshape((n,) + (1,) * (iv.ndim - 1)), iv.shape[:-1] + (1,))
    return apply(_R["ConcatV2"], (wrap(rows), idx), {"axis": iv.ndim - 1})


def _nd(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """GatherNd (params, idx), ScatterNd (idx, updates), TensorScatterUpdate (tensor, idx,
    updates); ``lead``: leading axes that the indices do not index."""
    i = 0 if op.name == "ScatterNd" else 1
    q = _with(p, shape=(n,) + tuple(p["shape"])) if "shape" in p else dict(p)
    xs = list(xs)
    if not bat[i]:  # the batch axis joins the axes that are not indexed
        q["lead"] = p["lead"] + 1
        return apply(op, [x if j == i or op.name == "GatherNd" else (x if bat[j] else _lift(x, n))
                          for j, x in enumerate(xs)], q)
    if p["lead"]:
        raise Unbatchable(f"op {op.name} with lead axes and indices that depend on the row")
    xs = _lift_all(n, xs, bat)
    xs[i] = _row_index(n, xs[i])
    return apply(op, xs, q)


def _unbroadcast(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    return apply(op, xs, _with(p, lead=p["lead"] + 1))


def _one_hot(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    idx, on, off = xs
    r = idx._value.ndim - bat[0] + 1  # the output's row rank
    on, off = [_reshape(v, (n,) + (1,) * r) if b else v for v, b in zip((on, off), bat[1:])]
    a = p["axis"]
    return apply(op, (idx if bat[0] else _lift(idx, n), on, off), _with(p, axis=-1 if a == -1 else a + 1))


def _move_to_front(x: Tensor, a: int) -> Tensor:
    if a == 0:
        return x
    nd = x._value.ndim
    perm = (a,) + tuple(i for i in range(nd) if i != a)
    return apply(_R["Transpose"], (x,), {"perm": perm})


def _gather(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    a, bd = p["axis"], p["batch_dims"]
    if bd == 0 and not bat[1]:
        return apply(op, xs, _with(p, axis=a + 1))
    if bd == 0 and not bat[0]:  # the batch axis of the indices lands at `axis`
        return _move_to_front(apply(op, xs, p), a)
    return apply(op, _lift_all(n, xs, bat), _with(p, axis=a + 1, batch_dims=bd + 1))


def _gather_grad(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    if not bat[1]:  # the cotangent's leading axes are kept (as in a Jacobian walk)
        return apply(op, xs, p)
    return apply(op, _lift_all(n, xs, bat), _with(p, shape=(n,) + tuple(p["shape"]), axis=p["axis"] + 1,
                                                  batch_dims=p["batch_dims"] + 1))


def _matmul(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """One batched matrix and one unbatched: one large product (NumPy would loop over the rows)."""
    a, b = xs
    if a._value.ndim + b._value.ndim - 1 != 4 or bat == (True, True):
        return _broadcasting(op, n, xs, bat, p)
    if bat[0] and not p["adj_a"]:  # [n, m, k] -> [n * m, k]
        _, m, k = a._value.shape
        y = apply(op, (_reshape(a, (n * m, k)), b), p)
        return _reshape(y, (n, m, y._value.shape[-1]))
    if bat[1] and not p["adj_b"]:
        _, k, q = b._value.shape
        if q == 1 and a._value.dtype.kind != "c":  # columns (matvec): y = [n, k] @ op(a)^T
            y = apply(op, (_reshape(b, (n, k)), a), {"adj_a": False, "adj_b": not p["adj_a"]})
            return _reshape(y, y._value.shape + (1,))
        # [n, k, q] -> [k, n * q]
        b2 = _reshape(apply(_R["Transpose"], (b,), {"perm": (1, 0, 2)}), (k, n * q))
        y = apply(op, (a, b2), p)
        return apply(_R["Transpose"], (_reshape(y, (y._value.shape[0], n, q)),), {"perm": (1, 0, 2)})
    return _broadcasting(op, n, xs, bat, p)


def _einsum(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    used = set("".join(p["ins"]) + p["out"])
    c = next(ch for ch in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA" if ch not in used)
    ins = tuple(c + s if b else s for s, b in zip(p["ins"], bat))
    return apply(op, xs, {"ins": ins, "out": c + p["out"]})


def _fold(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Image ops on ``[N, H, W, C]``: the batch merged into ``N`` and split out again."""
    xs = [_reshape(x, (-1,) + x._value.shape[2:]) for x in _lift_all(n, xs, bat)]
    res = apply(op, xs, p)
    one = type(res) is not tuple
    res = [_reshape(r, (n, -1) + r._value.shape[1:]) for r in ((res,) if one else res)]
    return res[0] if one else tuple(res)


def _segment(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Segment ``k`` of row ``i`` becomes segment ``i * num + k`` of one flat call."""
    data, ids = _lift_all(n, xs, bat)
    num = p["num_segments"]
    iv = ids._value
    k = iv.ndim - 1
    off = wrap((np.arange(n, dtype=iv.dtype) * iv.dtype.type(num)).reshape((n,) + (1,) * k))
    dropped = apply(_R["Less"], (ids, wrap(iv.dtype.type(0))))  # (id -1: the entry is dropped)
    ids = apply(_R["SelectV2"], (dropped, ids, apply(_R["AddV2"], (ids, off))))
    m = int(np.prod(iv.shape, dtype=np.int64))
    flat = apply(op, (_reshape(data, (m,) + data._value.shape[k + 1:]), _reshape(ids, (m,))),
                 _with(p, num_segments=n * num))
    return _reshape(flat, (n, num) + flat._value.shape[1:])


def _of_rows(op: Op, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Shape, Size, Rank: the op on one row (every row has the same), repeated over the batch."""
    x = xs[0]
    if bat[0]:
        x = apply(_R["GatherV2"], (x, wrap(np.asarray(0, np.int32))), {"axis": 0, "batch_dims": 0})
    return _lift(apply(op, (x,), p), n)


RULES: dict[str, Callable] = {
    **dict.fromkeys(
        ("Neg", "Abs", "Sign", "ComplexSign", "Sqrt", "Rsqrt", "Reciprocal", "Real", "Imag", "Conj",
         "Cast", "CastToNonFloat", "FloorDiv", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
         "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "Angle", "Floor",
         "Ceil", "Round", "Rint", "IsNan", "IsInf", "IsFinite", "Identity", "StopGradient", "Relu",
         "Relu6", "LeakyRelu", "StringAdd", "AsString", "StringLength", "StringCase", "StringStrip",
         "StringJoin", "StaticRegexReplace", "StaticRegexFullMatch", "Substr", "StringToNumber",
         "StringToHashBucket", "StringToHashBucketFast", "StringToHashBucketStrong",
         "TruncateDiv"), _broadcasting),
    **dict.fromkeys(
        ("Cholesky", "MatrixInverse", "MatrixDeterminant", "LogMatrixDeterminant", "SelfAdjointEigV2",
         "SelfAdjointEigVals", "Svd", "SvdValues", "Qr", "MatrixExponential", "MatrixBandPart",
         "MatrixDiagPartV3", "MatrixSetDiagV3", "MatrixDiagV3", "FillTriangular", "FillTriangularInverse",
         "PutAlongLastAxis", "SparseSoftmaxCrossEntropyWithLogits", "AvgPool",
         "AvgPoolGrad", "AddN", "ReluGrad", "Relu6Grad", "LeakyReluGrad", "Lu", "FFT", "FFT2D", "FFT3D",
         "IFFT", "IFFT2D", "IFFT3D", "RFFT", "RFFT2D", "RFFT3D", "IRFFT", "IRFFT2D", "IRFFT3D",
         "InvertPermutation", "MatrixSquareRoot", "MatrixLogarithm", "Eig", "Bitcast",
         "SearchSorted"), _leading),
    **dict.fromkeys(("Sum", "Mean", "Max", "Min", "Prod", "LogSumExp", "Any", "All", "EuclideanNorm",
                     "LogSumExpShift", "ReduceJoin"),
                    _axes("axes")),
    **dict.fromkeys(("ArgMax", "ArgMin", "Cumsum", "Cumprod", "Softmax", "LogSoftmax", "Unpack", "Split",
                     "Repeat", "CumulativeLogsumexp", "SortOrder"), _one_axis("axis")),
    "ReverseV2": _axes("axes"), "Roll": _axes("axes"),
    "ConcatV2": _join, "Pack": _join, "Transpose": _transpose, "Reshape": _shape_first("shape"),
    "BroadcastTo": _broadcast_to, "Tile": _tile, "PadV2": _pad, "StridedSlice": _slice,
    "StridedSliceGrad": _slice_grad, "UnbroadcastSum": _unbroadcast, "OneHot": _one_hot,
    "GatherV2": _gather, "GatherGrad": _gather_grad, "GatherNd": _nd, "ScatterNd": _nd,
    "TensorScatterUpdate": _nd, "BatchMatMulV2": _matmul, "TakeAlongLastAxis": _take_along, "Einsum": _einsum,
    **dict.fromkeys(("MaxPool", "MaxPoolGrad", "MaxPoolGradGrad"), _fold),
    **dict.fromkeys(("Shape", "Size", "Rank"), _of_rows),
    **dict.fromkeys(("UnsortedSegmentSum", "UnsortedSegmentMax", "UnsortedSegmentMin",
                     "UnsortedSegmentProd"), _segment),
}
