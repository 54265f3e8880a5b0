"""Array ops: shapes, broadcasting, reshape/transpose/squeeze, concat/stack/split/unstack,
tile, pad, reverse, roll, repeat, one_hot, sequence_mask, meshgrid, creation (zeros, fill, range,
linspace, eye), unique, and the ``StridedSlice`` primitive that the rules here cut cotangents with.

Rules take a cotangent ``g`` that may carry extra leading (batch) axes in a Jacobian walk;
``_lead(g, ans)`` is their number, and rules keep those axes in front.
"""
from __future__ import annotations

import builtins
import collections
import math
import operator
from typing import Any, Sequence

import numpy as np

from .. import _backend as _bk, _blas, _memory, _recorders as _rec, _strings, _trace, _vmap, dtypes as _dt
from .._convert import as_tensor, check_values, convert_to_tensor, host_value
from .._dispatch import apply, composite_api, composite_call, defop, jointly
from .._tensor import CompositeConversionError, IndexedSlices, Tensor, TensorShape, constant_maker, wrap as _wrap
from .._variable import Variable
from ..errors import InvalidArgumentError

__all__ = ["broadcast_to", "reshape", "expand_dims", "squeeze", "transpose", "identity",
    "stop_gradient", "concat", "stack", "unstack", "split", "tile", "pad", "zeros", "ones", "fill",
    "range", "linspace", "eye", "shape", "size", "rank", "unique", "reverse", "roll", "repeat",
    "one_hot", "sequence_mask", "meshgrid", "invert_permutation", "bitcast", "shape_n",
    "unique_with_counts", "broadcast_static_shape", "broadcast_dynamic_shape", "space_to_batch_nd",
    "space_to_batch", "batch_to_space", "guarantee_const", "required_space_to_batch_paddings"]


def _lead(g: Tensor, ans: Tensor) -> int:
    return g._value.ndim - ans._value.ndim


def _err(op: str, msg: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{msg} [Op:{op}]")


def norm_axis(axis: Any, ndim: int, op: str) -> int:
    """A non-negative axis, or InvalidArgumentError naming the op, axis and rank."""
    if isinstance(axis, Tensor):
        axis = host_value(axis, op)
    try:
        a = operator.index(axis)   # not int(): a float axis is an error, never truncated
    except TypeError:
        raise TypeError(f"{op}: axis must be an integer, got {axis!r}.") from None
    if not -ndim <= a < ndim:
        raise _err(op, f"axis {a} is out of range for a tensor of rank {ndim} (expected "
                       f"{-ndim} <= axis < {ndim})" if ndim else
                       f"axis {a} is out of range for a scalar (rank 0) tensor")
    return a % ndim if ndim else 0


def norm_axes(axis: Any, ndim: int, op: str) -> tuple[int, ...]:
    """Reduction axes: None means all; duplicates are an error."""
    if axis is None:
        return tuple(builtins.range(ndim))
    if isinstance(axis, Tensor):
        axis = host_value(axis, op).tolist()
    if isinstance(axis, np.ndarray):
        axis = axis.tolist()
    if isinstance(axis, (list, tuple)):
        out = tuple(norm_axis(a, ndim, op) if ndim else _scalar_axis(a, op) for a in axis)
    else:
        out = (norm_axis(axis, ndim, op) if ndim else _scalar_axis(axis, op),)
    if len(set(out)) != len(out):
        raise _err(op, f"axis {axis!r} names an axis twice")
    return tuple(a for a in out if a < ndim)


def _scalar_axis(a: Any, op: str) -> int:
    try:
        a = operator.index(host_value(a, op) if isinstance(a, Tensor) else a)
    except TypeError:
        raise TypeError(f"{op}: axis must be an integer, got {a!r}.") from None
    if a not in (0, -1):
        raise _err(op, f"Invalid reduction dimension {a} for input with 0 dimensions")
    return 0


def _int_list(v: Any, what: str, vector_for: str | None = None) -> list[int]:
    """``v`` as a list of ints; with ``vector_for`` (an op name), ``v`` must be at most 1-D."""
    if isinstance(v, (Tensor, Variable)):
        v = host_value(convert_to_tensor(v), what)
    arr = np.asarray(v)
    if vector_for is not None and arr.ndim > 1:
        raise _err(vector_for, f"{what} must be a 1-D list of sizes, got a value of shape {list(arr.shape)}")
    if arr.dtype.kind not in "iu" and not (arr.size == 0):
        if arr.dtype.kind == "f" and np.all(arr == np.round(arr)):
            raise TypeError(f"{what} must hold integers, got floats {arr.tolist()}.")
        raise TypeError(f"{what} must hold integers, got {v!r}.")
    return [int(i) for i in arr.reshape(-1)]


# --------------------------------------------------------------------------- broadcasting
def _unbroadcast_fwd(g: np.ndarray, shape: tuple, lead: int) -> np.ndarray:
    nd = g.ndim - lead - len(shape)
    axes = list(builtins.range(lead, lead + nd))
    for i, s in enumerate(shape):
        if s == 1 and g.shape[lead + nd + i] != 1:
            axes.append(lead + nd + i)
    if not axes:
        return np.reshape(g, g.shape[:lead] + tuple(shape))
    if not lead and len(axes) == nd and g.size and g.dtype.kind == "f" and g.dtype.itemsize >= 4 \
            and (g.flags.c_contiguous or g.ndim > 2):
        # a sum over leading axes (a bias's gradient) as ones @ rows: BLAS, many times faster than
        # NumPy's column-wise reduction for short rows, and its blocked sums round no worse (a
        # strided g of 3 axes or more, e.g. an einsum's transposed cotangent, is copied first:
        # still faster; a strided matrix is a transposed one, which NumPy sums along its rows)
        rows = np.ascontiguousarray(g).reshape(-1, int(np.prod(shape, dtype=np.int64)))
        return np.reshape(_blas.matmul(np.ones(rows.shape[0], g.dtype), rows), shape)
    r = np.sum(g, axis=tuple(axes), keepdims=True)
    return np.reshape(r, g.shape[:lead] + tuple(shape))


def _unbroadcast_vjp(g: Tensor, ans: Tensor, x: Tensor, shape: tuple, lead: int) -> Tensor:
    extra = _lead(g, ans)
    nd = x._value.ndim - lead - len(shape)
    if nd and (lead or extra):  # summed axes sit after the kept ones: put them back as size 1
        gs = g._value.shape
        g = reshape(g, gs[:extra + lead] + (1,) * nd + gs[extra + lead:])
    return broadcast_view(g, g._value.shape[:extra] + x._value.shape)


_unbroadcast = defop("UnbroadcastSum", _unbroadcast_fwd, vjp=(_unbroadcast_vjp,), jvp="linear")
_vmap.register(_unbroadcast, lambda op, n, xs, bat, p: apply(op, xs, {**p, "lead": p["lead"] + 1}))


def _unbroadcast_form(be: Any, g: Any, shape: tuple, lead: int) -> Any:
    nd = g.ndim - lead - len(shape)
    axes = list(builtins.range(lead, lead + nd))
    axes += [lead + nd + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + nd + i] != 1]
    r = be.xp.sum(g, axis=tuple(axes), keepdims=True, dtype=g.dtype) if axes else g
    return be.xp.reshape(r, tuple(g.shape[:lead]) + tuple(shape))


_bk.register(_unbroadcast, _unbroadcast_form)


def unbroadcast(g: Tensor, shape: Sequence[int], lead: int = 0) -> Tensor:
    """Sum ``g`` down to ``shape`` (undoing NumPy broadcasting). The first ``lead`` axes of ``g``
    (a Jacobian walk's batch axis) are kept as they are: ``shape`` includes them, and the rest
    of ``shape`` is what ``g``'s other axes are summed down to."""
    shape = tuple(shape)
    if g._value.shape == shape:
        return g
    return apply(_unbroadcast, (g,), {"shape": shape[lead:] if lead else shape, "lead": lead})


def _bt_fwd(x: np.ndarray, shape: tuple) -> np.ndarray:
    return np.broadcast_to(x, shape)


_broadcast_to = defop("BroadcastTo", _bt_fwd, vjp=(lambda g, ans, x, shape: g,), jvp="linear",
                      broadcast=True)
def _broadcast_to_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    shape = tuple(p["shape"])
    return apply(op, _vmap.align(xs, bat, len(shape)), {"shape": (n,) + shape})


_vmap.register(_broadcast_to, _broadcast_to_rule)
_bk.register(_broadcast_to, lambda be, x, shape: be.xp.broadcast_to(x, shape))


def broadcast_view(x: Tensor, shape: tuple) -> Tensor:
    """``broadcast_to`` for gradient rules: ``shape`` is that of a tensor that already exists,
    so the memory check of :func:`broadcast_to` does not apply."""
    return x if x._value.shape == shape else apply(_broadcast_to, (x,), {"shape": shape})


def broadcast_to(input: Any, shape: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Broadcast ``input`` to ``shape`` (NumPy rules); the gradient sums back.

    The result is a view that costs no memory, but TensorFlow materialises it; a result larger
    than the available memory raises ``ResourceExhaustedError`` at once, as in TensorFlow,
    rather than letting an op such as ``matmul`` compute over every element for hours.
    """
    x = as_tensor(input)
    shape = tuple(_int_list(shape, "broadcast_to: shape"))
    if x._value.shape == shape:
        return x
    try:
        np.broadcast_shapes(x._value.shape, shape)
    except ValueError:
        if _rec.standing_in():  # (see _clash_stand_ins)
            return zeros(shape, x.dtype)
        raise _err("BroadcastTo", f"Unable to broadcast tensor of shape {list(x._value.shape)} "
                                  f"to tensor of shape {list(shape)}") from None
    _memory.check(math.prod(shape) * x._value.itemsize, "BroadcastTo",
                  f"a {x.dtype.name} tensor of shape {list(shape)}",
                  "TensorFlow materialises broadcast_to's result; keep the small tensor and let "
                  "the op that uses it broadcast, or compute in slices.")
    return apply(_broadcast_to, (x,), {"shape": shape})


# --------------------------------------------------------------------------- reshape family
def _reshape_vjp(g: Tensor, ans: Tensor, x: Tensor, shape: tuple) -> Tensor:
    return reshape(g, g._value.shape[:_lead(g, ans)] + x._value.shape)


_reshape = defop("Reshape", lambda x, shape: np.reshape(x, shape), vjp=(_reshape_vjp,), jvp="linear")
_vmap.register(_reshape, _vmap.shape_first("shape"))
_bk.register(_reshape, lambda be, x, shape: be.xp.reshape(x, shape))


def reshape(tensor: Any, shape: Any, name: Any = None) -> Tensor:
    """Give ``tensor`` a new shape with the same number of elements (one entry may be -1).

    >>> import tapegrad as tf
    >>> tf.reshape(tf.range(6), [-1, 2]).shape
    TensorShape([3, 2])
    """
    try:
        x = as_tensor(tensor)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(reshape, tensor, shape)
    sizes = tuple(_int_list(shape, "reshape: shape", "Reshape"))
    if x._value.shape == sizes:
        return x
    try:
        out = _reshape_sizes(x._value.shape, x._value.size, sizes)
    except InvalidArgumentError:
        known = math.prod(s for s in sizes if s != -1)
        if not _rec.standing_in() or not known or builtins.min(sizes) < -1:
            raise
        # (a stand-in for a tensor with unknown dims: TF's symbolic reshape has the static shape
        # asked for, its -1 unknown: a size here that differs between the stand-ins' runs)
        return zeros([-(-x._value.size // known) if s == -1 else s for s in sizes], x.dtype)
    return apply(_reshape, (x,), {"shape": out})


def _reshape_sizes(have: tuple, n: int, sizes: tuple) -> tuple:
    """``sizes`` with its -1 resolved as TensorFlow's Reshape kernel does: when ``sizes`` has a
    0, zero dimensions are left out of both products, so ``[0, 3] -> [-1, 0]`` gives ``[3, 0]``."""
    unknown = -1
    product = 1
    for i, s in enumerate(sizes):
        if s == -1:
            if unknown >= 0:
                raise _err("Reshape", f"only one input size may be -1, not both {unknown} and {i} "
                                      f"(shape {list(sizes)})")
            unknown = i
        elif s < 0:
            raise _err("Reshape", f"Size {i} must be non-negative, not {s}: only -1 stands for a "
                                  f"size to infer (shape {list(sizes)})")
        elif s:
            product *= s
    if unknown >= 0:
        zero_out = 0 in sizes
        m = math.prod(d for d in have if d or not zero_out)
        missing = m // product
        if missing * product != m and not (zero_out and 0 in have):
            raise _err("Reshape", f"Input to reshape is a tensor with {n} values, but the requested "
                                  f"shape requires a multiple of {product} (shape {list(sizes)}); the "
                                  f"input has shape {list(have)}")
        out = sizes[:unknown] + (missing,) + sizes[unknown + 1:]
    else:
        out = sizes
    total = math.prod(out)
    if total != n:
        raise _err("Reshape", f"Input to reshape is a tensor with {n} values, but the requested "
                              f"shape has {total} (shape {list(sizes)}); the input has shape {list(have)}")
    return out


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def expand_dims(input: Any, axis: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Insert a length-1 axis at ``axis`` (``-1`` appends)."""
    x = as_tensor(input)
    nd = x._value.ndim
    a = norm_axis(axis, nd + 1, "ExpandDims")
    s = list(x._value.shape)
    s.insert(a, 1)
    return apply(_reshape, (x,), {"shape": tuple(s)})


def squeeze(input: Any, axis: Any = None, name: Any = None) -> Tensor:  # noqa: A002
    """Remove length-1 axes (all of them, or those in ``axis``)."""
    x = as_tensor(input)
    s = x._value.shape
    if axis is None:
        new = tuple(d for d in s if d != 1)
    else:
        axes = norm_axes(axis, len(s), "Squeeze")
        for a in axes:
            if s[a] != 1:
                raise _err("Squeeze", f"Can not squeeze dim[{a}], expected a dimension of 1, got {s[a]}")
        new = tuple(d for i, d in enumerate(s) if i not in axes)
    if new == s:
        return x
    return apply(_reshape, (x,), {"shape": new})


def _transpose_vjp(g: Tensor, ans: Tensor, x: Tensor, perm: tuple) -> Tensor:
    lead = _lead(g, ans)
    inv = tuple(np.argsort(perm))
    return transpose(g, tuple(builtins.range(lead)) + tuple(lead + i for i in inv))


_transpose = defop("Transpose", lambda x, perm: np.transpose(x, perm), vjp=(_transpose_vjp,),
                   jvp="linear")
_vmap.register(_transpose, lambda op, n, xs, bat, p: apply(op, xs, {"perm": (0,) + tuple(i + 1 for i in p["perm"])}))
_bk.register(_transpose, lambda be, x, perm: be.xp.permute_dims(x, perm))


def transpose(a: Any, perm: Any = None, conjugate: bool = False, name: Any = None) -> Tensor:
    """Permute the axes (reverse them when ``perm`` is None); ``conjugate`` also conjugates."""
    x = as_tensor(a)
    nd = x._value.ndim
    perm = tuple(builtins.range(nd - 1, -1, -1)) if perm is None else tuple(_int_list(perm, "transpose: perm"))
    if sorted(p % nd if nd else p for p in perm) != list(builtins.range(nd)) or len(perm) != nd:
        raise _err("Transpose", f"perm {list(perm)} is not a permutation of the {nd} axes of the input")
    perm = tuple(p % nd for p in perm)
    out = x if perm == tuple(builtins.range(nd)) else apply(_transpose, (x,), {"perm": perm})
    if conjugate:
        from .math import conj
        out = conj(out)
    return out


def _identity_vjp(g: Tensor, ans: Tensor, x: Tensor) -> Tensor:
    return g


_identity = defop("Identity", lambda x: x, vjp=(_identity_vjp,), jvp="linear", slices=True)
_vmap.register(_identity, _vmap.broadcasting)
_bk.register(_identity, lambda be, x: x)


def identity(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """A new tensor with the same value (recorded, so it can be a separate target or source)."""
    try:
        x = as_tensor(input)
    except CompositeConversionError:  # (a RaggedTensor: tapegrad/ragged/ handles it)
        return composite_call(identity, input)
    return apply(_identity, (x,))


def _relayout_vjp(g: Tensor, ans: Tensor, x: Tensor, layout: Any, src: Any) -> Tensor:
    return apply(RELAYOUT, (g,), {"layout": src, "src": layout})  # (TF's: back to the input's layout)


# DTensor's Relayout (tapegrad/experimental/dtensor.py): the value as it is; ``layout`` is the
# output's layout (None: the input's), ``src`` the input's, which its recorder reads
RELAYOUT = defop("Relayout", lambda x, layout, src: x, vjp=(_relayout_vjp,), jvp="linear")
_vmap.register(RELAYOUT, _vmap.broadcasting)
_bk.register(RELAYOUT, lambda be, x, layout, src: x)

_stop = defop("StopGradient", lambda x: x, nondiff=True)
_vmap.register(_stop, _vmap.broadcasting)
_bk.register(_stop, lambda be, x: x)


def stop_gradient(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Identity in the forward pass; a constant for every tape and accumulator.

    >>> import tapegrad as tf
    >>> x = tf.constant(3.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.stop_gradient(x * x) + x
    >>> float(tape.gradient(y, x))
    1.0
    """
    x = as_tensor(input)
    return apply(_stop, (x,))


# --------------------------------------------------------------------------- concat / stack / split
def _concat_vjp(g: Tensor, ans: Tensor, needs: Any, *xs: Tensor, axis: int) -> list:
    lead = _lead(g, ans)
    sizes = [x._value.shape[axis] for x in xs]
    offs = np.cumsum([0] + sizes)
    out = []
    for i in needs:
        idx = (builtins.slice(None),) * (lead + axis) + (builtins.slice(int(offs[i]), int(offs[i + 1])),)
        out.append(_slice_raw(g, idx))
    return out


# variadic (*xs): one rule for all inputs, which share the offsets along the axis
_concat = defop("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis), vjp=jointly(_concat_vjp),
                jvp="linear")
def _join_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:  # concat, stack
    extra = op is _stack
    return apply(op, _vmap.lift_all(n, xs, bat), {**p, "axis": _vmap.axis(xs[bat.index(True)], p["axis"], extra)})


_vmap.register(_concat, _join_rule)
_bk.register(_concat, lambda be, *xs, axis: be.xp.concat(xs, axis=axis))


def _same_dtype(ts: list, op: str) -> None:
    d = ts[0]._value.dtype
    for i, t in enumerate(ts[1:], 1):
        if t._value.dtype != d:
            raise _err(op, f"inputs must all have one dtype: values[0] is {_dt._from_np(d).name} "
                           f"but values[{i}] is {t.dtype.name}")


def _clash_stand_ins(ts: list, keep: int | None = None) -> list | None:
    """Tensors of one rank whose dims clash, in Keras's functional construction
    (``_rec.standing_in()``): TF's symbolic shapes give an unknown dim the other tensors' known
    one, so zeros with each clashing dim the largest (a constant's, not the small stand-in's;
    axis ``keep`` left as it is). None outside construction or for other ranks."""
    if not _rec.standing_in() or len({t._value.ndim for t in ts}) != 1:
        return None
    big = [builtins.max(col) for col in zip(*[t._value.shape for t in ts])]
    return [zeros([d if j == keep else m for j, (d, m) in enumerate(zip(t._value.shape, big))], t.dtype)
            for t in ts]


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def concat(values: Any, axis: Any, name: Any = None) -> Tensor:
    """Join tensors along an existing axis. ``values`` other than a list or tuple (a tensor, an
    array) is one value, as in TensorFlow: ``tf.concat(model.predict(ds), axis=0)`` is that array."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    ts = [as_tensor(v) for v in values]
    if not ts:
        raise ValueError("concat: values is empty.")
    if len(ts) == 1:
        return identity(ts[0])
    _same_dtype(ts, "ConcatV2")
    nd = ts[0]._value.ndim
    if nd == 0:
        raise _err("ConcatV2", "Can't concatenate scalars (use tf.stack instead)")
    a = norm_axis(axis, nd, "ConcatV2")
    for i, t in enumerate(ts):
        s0, s = ts[0]._value.shape, t._value.shape
        if len(s) != nd or any(p != q for j, (p, q) in enumerate(zip(s0, s)) if j != a):
            fixed = _clash_stand_ins(ts, a)
            if fixed is not None:
                return apply(_concat, fixed, {"axis": a})
            raise _err("ConcatV2", f"ConcatOp : Dimension mismatch: values[0] has shape {list(s0)} "
                                   f"but values[{i}] has shape {list(s)} (they must match except "
                                   f"on axis {a})")
    return apply(_concat, ts, {"axis": a})


def _stack_vjp(g: Tensor, ans: Tensor, needs: Any, *xs: Tensor, axis: int) -> list:
    lead = _lead(g, ans)
    return [_slice_raw(g, (builtins.slice(None),) * (lead + axis) + (i,)) for i in needs]


# variadic (*xs): one rule for all inputs
_stack = defop("Pack", lambda *xs, axis: np.stack(xs, axis), vjp=jointly(_stack_vjp), jvp="linear")
_vmap.register(_stack, _join_rule)
_bk.register(_stack, lambda be, *xs, axis: be.xp.stack(xs, axis=axis))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def stack(values: Any, axis: int = 0, name: Any = None) -> Tensor:
    """Join equal-shaped tensors along a new axis."""
    ts = [as_tensor(v) for v in values]
    if not ts:
        raise ValueError("stack: values is empty.")
    _same_dtype(ts, "Pack")
    s0 = ts[0]._value.shape
    for i, t in enumerate(ts):
        if t._value.shape != s0:
            fixed = _clash_stand_ins(ts)
            if fixed is not None:
                return stack(fixed, axis)
            raise _err("Pack", f"Shapes of all inputs must match: values[0].shape = {list(s0)} != "
                               f"values[{i}].shape = {list(t._value.shape)}")
    a = norm_axis(axis, len(s0) + 1, "Pack")
    return apply(_stack, ts, {"axis": a})




def _unstack_fwd(x: np.ndarray, axis: int) -> tuple:
    lead = (builtins.slice(None),) * axis   # (views, as the other backends' rule gives)
    return tuple(_strings.held(x[lead + (i, ...)]) for i in builtins.range(x.shape[axis]))


def _unstack_vjp(g: tuple, ans: tuple, x: Tensor, axis: int) -> Tensor:
    lead = _lead(g[0], ans[0])
    return stack(list(g), axis=axis + lead)


def unstack(value: Any, num: Any = None, axis: int = 0, name: Any = None) -> list:
    """Split along ``axis`` into a list of tensors with that axis removed."""
    x = as_tensor(value)
    nd = x._value.ndim
    if nd == 0:
        raise ValueError("unstack: the input is a scalar; it needs at least one axis.")
    a = norm_axis(axis, nd, "Unpack")
    n = x._value.shape[a]
    if num is not None and int(num) != n:
        raise ValueError(f"unstack: num={num} but axis {a} has length {n}.")
    return list(apply(_unstack, (x,), {"axis": a}))


_unstack = defop("Unpack", _unstack_fwd, vjp=(_unstack_vjp,), nout=-1,  # nout=-1: a tuple of any length
                 jvp=(lambda t, ans, x, axis: tuple(unstack(t, axis=axis)),))
_vmap.register(_unstack, _vmap.one_axis("axis"))
_bk.register(_unstack, lambda be, x, axis: tuple(x[(builtins.slice(None),) * axis + (i, ...)]
                                                 for i in builtins.range(x.shape[axis])))


def _split_fwd(x: np.ndarray, offsets: tuple, axis: int) -> tuple:
    lead, bounds = (builtins.slice(None),) * axis, (0,) + tuple(offsets) + (None,)
    return tuple(x[lead + (builtins.slice(a, b),)] for a, b in zip(bounds[:-1], bounds[1:]))


def _split_vjp(g: tuple, ans: tuple, x: Tensor, offsets: tuple, axis: int) -> Tensor:
    lead = _lead(g[0], ans[0])
    return concat(list(g), axis + lead)


_split_ops: dict[int, Any] = {}


def split(value: Any, num_or_size_splits: Any, axis: int = 0, num: Any = None, name: Any = None) -> list:
    """Split ``value`` along ``axis`` into equal parts (an int) or parts of given sizes (a list;
    one size may be -1)."""
    x = as_tensor(value)
    a = norm_axis(axis, x._value.ndim, "Split")
    n = x._value.shape[a]
    if isinstance(num_or_size_splits, (int, np.integer)) or (
            isinstance(num_or_size_splits, Tensor) and num_or_size_splits._value.ndim == 0):
        k = int(num_or_size_splits)
        if k <= 0 or n % k:
            raise _err("Split", f"Number of ways to split should evenly divide the split dimension, "
                                f"but got split_dim {a} (size = {n}) and num_split {k}")
        sizes = [n // k] * k
    else:
        sizes = _int_list(num_or_size_splits, "split: num_or_size_splits")
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = n - (builtins.sum(sizes) + 1)
        if builtins.sum(sizes) != n or builtins.min(sizes) < 0:
            raise _err("SplitV", f"Determined shape must either match input shape along split_dim "
                                 f"exactly if fully specified, or be less than the size of the input "
                                 f"along split_dim if not fully specified.  Got: {builtins.sum(sizes)} "
                                 f"vs {n}")
    offs = tuple(int(o) for o in np.cumsum(sizes)[:-1])
    return list(apply(_split, (x,), {"offsets": offs, "axis": a}))


_split = defop("Split", _split_fwd, vjp=(_split_vjp,), nout=-1,
               jvp=(lambda t, ans, x, offsets, axis: apply(_split, (t,), {"offsets": offsets, "axis": axis}),))
_vmap.register(_split, _vmap.one_axis("axis"))
_bk.register(_split, lambda be, x, offsets, axis: tuple(
    x[(builtins.slice(None),) * axis + (builtins.slice(a, b), ...)]
    for a, b in zip((0,) + offsets, offsets + (x.shape[axis],))))


# --------------------------------------------------------------------------- tile / pad
def _tile_vjp(g: Tensor, ans: Tensor, x: Tensor, multiples: tuple) -> Tensor:
    lead = _lead(g, ans)
    ls = g._value.shape[:lead]
    s = x._value.shape
    inter: list[int] = []
    for m, d in zip(multiples, s):
        inter += [m, d]
    r = reshape(g, ls + tuple(inter))
    from .reduction import reduce_sum
    return reduce_sum(r, axis=[lead + 2 * i for i in builtins.range(len(s))])


_tile = defop("Tile", lambda x, multiples: np.tile(x, multiples), vjp=(_tile_vjp,), jvp="linear")
_vmap.register(_tile, lambda op, n, xs, bat, p: apply(op, xs, {"multiples": (1,) + tuple(p["multiples"])}))
_bk.register(_tile, lambda be, x, multiples: be.xp.tile(x, tuple(multiples)))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def tile(input: Any, multiples: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Repeat ``input`` ``multiples[i]`` times along axis ``i``."""
    x = as_tensor(input)
    m = tuple(_int_list(multiples, "tile: multiples"))
    if len(m) != x._value.ndim:
        raise _err("Tile", f"Expected multiples argument to be a vector of length {x._value.ndim} "
                           f"but got length {len(m)}")
    if builtins.min(m, default=1) < 0:
        raise _err("Tile", f"Expected multiples to be non-negative, got {list(m)}")
    return apply(_tile, (x,), {"multiples": m})


def _pad_fwd(x: np.ndarray, pads: tuple, mode: str, value: Any) -> np.ndarray:
    if mode == "constant":
        return np.pad(x, pads, mode="constant", constant_values=value)
    return np.pad(x, pads, mode=mode)


@constant_maker
def _pad_vjp(g: Tensor, ans: Tensor, x: Tensor, pads: tuple, mode: str, value: Any) -> Tensor:
    from .segment import unsorted_segment_sum
    lead = _lead(g, ans)
    if mode == "constant":
        idx = (builtins.slice(None),) * lead + tuple(builtins.slice(b, b + d) for (b, _), d in zip(pads, x._value.shape))
        return _slice_raw(g, idx)
    # reflect/symmetric: each output element copies one input element; sum back by index map
    src = np.pad(np.arange(x._value.size).reshape(x._value.shape), pads, mode=mode)
    gl = reshape(g, g._value.shape[:lead] + (-1,))
    perm = tuple(builtins.range(lead, lead + 1)) + tuple(builtins.range(lead))
    summed = unsorted_segment_sum(transpose(gl, perm) if lead else gl, src.reshape(-1), x._value.size)
    if lead:
        summed = transpose(summed, tuple(builtins.range(1, lead + 1)) + (0,))
    return reshape(summed, g._value.shape[:lead] + x._value.shape)


_pad = defop("PadV2", _pad_fwd, vjp=(_pad_vjp,),  # affine in x: the tangent is padded with 0
             jvp=(lambda t, ans, x, pads, mode, value: apply(_pad, (t,), {"pads": pads, "mode": mode, "value": 0}),))
_vmap.register(_pad, lambda op, n, xs, bat, p: apply(op, xs, {**p, "pads": ((0, 0),) + tuple(p["pads"])}))


def _pad_form(be: Any, x: Any, pads: tuple, mode: str, value: Any) -> Any:
    xp = be.xp
    for ax, (b, a) in enumerate(pads):
        if not (b or a):
            continue
        if mode == "constant":
            side = tuple(x.shape[:ax]), tuple(x.shape[ax + 1:])
            parts = [xp.full(side[0] + (n,) + side[1], value, dtype=x.dtype) for n in (b, a)]
            x = xp.concat([parts[0], x, parts[1]], axis=ax)
        else:  # each output position copies one input position (NumPy's pad of the positions)
            src = np.pad(np.arange(x.shape[ax]), (b, a), mode=mode)
            x = xp.take(x, xp.asarray(src), axis=ax)
    return x


_bk.register(_pad, _pad_form)


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", constant_values: Any = 0, name: Any = None) -> Tensor:
    """Pad with ``paddings[i] = [before, after]`` along each axis; ``mode`` is ``"CONSTANT"``,
    ``"REFLECT"`` or ``"SYMMETRIC"`` (case-insensitive)."""
    x = as_tensor(tensor)
    pads = np.asarray(host_value(paddings, "pad: paddings"))
    nd = x._value.ndim
    if pads.shape != (nd, 2):
        raise _err("PadV2", f"paddings must be a matrix of shape [{nd}, 2], got shape {list(pads.shape)}")
    if pads.dtype.kind not in "iu" or (pads < 0).any():
        raise _err("PadV2", f"paddings must be non-negative integers, got {pads.tolist()}")
    m = str(mode).lower()
    if m not in ("constant", "reflect", "symmetric"):
        raise ValueError(f"pad: mode must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC', got {mode!r}.")
    pt = tuple((int(a), int(b)) for a, b in pads)
    if m != "constant":
        lim = 0 if m == "reflect" else 1
        for (a, b), d in zip(pt, x._value.shape):
            if builtins.max(a, b) > d - 1 + lim:
                raise _err("MirrorPad", f"paddings {list(pt)} too large for shape {list(x._value.shape)} in {mode} mode")
    val = host_value(constant_values, "pad: constant_values")
    if x._value.dtype.kind == "O":  # strings pad with b"" (the default 0) or the given text
        val = _strings.empty(()) if isinstance(val, int) and val == 0 else _strings.to_bytes(val)
    else:
        val = x._value.dtype.type(val)
    return apply(_pad, (x,), {"pads": pt, "mode": m, "value": val})


# --------------------------------------------------------------------------- slicing
def _slice_grad_fwd(g: np.ndarray, shape: tuple, key: tuple) -> np.ndarray:
    extra = g.ndim - np.empty(shape, dtype=np.bool_)[key].ndim
    out = np.zeros(g.shape[:extra] + shape, g.dtype)
    out[(builtins.slice(None),) * extra + key] = g
    return out


def _slice_grad_vjp(g: Tensor, ans: Tensor, x: Tensor, shape: tuple, key: tuple) -> Tensor:
    return _slice_raw(g, (builtins.slice(None),) * (g._value.ndim - len(shape)) + key)


_slice_grad = defop("StridedSliceGrad", _slice_grad_fwd, vjp=(_slice_grad_vjp,), jvp="linear")
_slice = defop("StridedSlice", lambda x, key: _strings.held(x[key]),
               vjp=(lambda g, ans, x, key: apply(_slice_grad, (g,), {"shape": x._value.shape, "key": key}),),
               jvp="linear")
_vmap.register(_slice, lambda op, n, xs, bat, p: apply(op, xs, {"key": (builtins.slice(None),) + tuple(p["key"])}))
_vmap.register(_slice_grad, lambda op, n, xs, bat, p: apply(
    op, xs, {"shape": (n,) + tuple(p["shape"]), "key": (builtins.slice(None),) + tuple(p["key"])}))


def _keys(shape: tuple, key: tuple) -> tuple:
    """A basic index as the standard takes it (Ellipsis ending a partial one; newaxis dropped),
    and the shape its result has with the new axes (NumPy on the shape only)."""
    full = key if Ellipsis in key else key + (Ellipsis,)
    return tuple(k for k in full if k is not None), np.broadcast_to(False, shape)[key].shape


def _slice_form(be: Any, x: Any, key: tuple) -> Any:
    k, shape = _keys(tuple(x.shape), key)
    return be.xp.reshape(x[k], shape)


def _slice_pads(shape: tuple, k: tuple) -> tuple | None:
    """The zeros before and after a slice of ``shape`` by ``k`` along each axis, and the shape of
    the slice with its indexed axes kept (length 1); None if a step is not 1."""
    i = k.index(Ellipsis)
    k = k[:i] + (builtins.slice(None),) * (len(shape) - len(k) + 1) + k[i + 1:]
    pads, kept = [], []
    for n, e in zip(shape, k):
        if type(e) is builtins.slice:
            start, stop, step = e.indices(n)
            if step != 1:
                return None
            m = max(stop - start, 0)
        else:
            start, m = e % n, 1
        pads.append((start, n - start - m))
        kept.append(m)
    return tuple(pads), tuple(kept)


def _slice_grad_form(be: Any, g: Any, shape: tuple, key: tuple) -> Any:
    k, sliced = _keys(shape, key)
    extra = g.ndim - len(sliced)
    padded = _slice_pads(shape, k) if be.name == "dask" else None  # (Dask's setitem copies the graph)
    if padded is not None:
        g = be.xp.reshape(g, tuple(g.shape[:extra]) + padded[1])
        return _pad_form(be, g, ((0, 0),) * extra + padded[0], "constant", 0)
    out = be.xp.zeros(tuple(g.shape[:extra]) + shape, dtype=g.dtype)
    out[(builtins.slice(None),) * extra + k] = be.xp.reshape(
        g, tuple(g.shape[:extra]) + np.broadcast_to(False, shape)[k].shape)
    return out


_bk.register(_slice, _slice_form)
_bk.register(_slice_grad, _slice_grad_form)


def _slice_raw(x: Tensor, key: tuple) -> Tensor:
    """Slice with an already normalized key (rules put ``slice(None)`` first for batch axes)."""
    return apply(_slice, (x,), {"key": key})


# --------------------------------------------------------------------------- creation
def _dtype_or(dtype: Any, default: Any) -> np.dtype:
    return (_dt.as_dtype(dtype) if dtype is not None else default)._np


def _shape_arg(shape: Any, op: str) -> tuple:
    if isinstance(shape, (int, np.integer)):
        shape = [shape]
    s = tuple(_int_list(shape, f"{op}: shape"))
    if any(d < 0 for d in s):
        raise _err(op, f"Dimension -1 must be >= 0 (shape {list(s)})" if -1 in s else
                       f"shape {list(s)} has a negative dimension")
    return s


@constant_maker
def zeros(shape: Any, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """A tensor of zeros (float32 by default; empty strings for ``tf.string``)."""
    dt = _dtype_or(dtype, _dt.float32)
    if dt.kind == "O":
        return _wrap(_strings.empty(_shape_arg(shape, "Zeros")))
    return _bk.place(_wrap(np.zeros(_shape_arg(shape, "Zeros"), dt)))


@constant_maker
def ones(shape: Any, dtype: Any = _dt.float32, name: Any = None) -> Tensor:
    """A tensor of ones (float32 by default)."""
    dt = _dtype_or(dtype, _dt.float32)
    if dt.kind == "O":
        raise TypeError("Cannot convert 1 to EagerTensor of dtype string: tf.ones has no string "
                        "form; use tf.fill(shape, text).")
    return _bk.place(_wrap(np.ones(_shape_arg(shape, "Ones"), dt)))


def fill(dims: Any, value: Any, name: Any = None) -> Tensor:
    """A tensor of shape ``dims`` filled with ``value`` (its dtype follows ``value``); the
    gradient with respect to ``value`` is the sum of the output's, as in TF."""
    v = as_tensor(value)
    if v._value.ndim:
        raise _err("Fill", f"value must be a scalar, got shape {list(v._value.shape)}")
    return _bk.place(apply(_broadcast_to, (v,), {"shape": _shape_arg(dims, "Fill")}))


@constant_maker
def range(start: Any, limit: Any = None, delta: Any = 1, dtype: Any = None, name: Any = "range") -> Tensor:  # noqa: A001
    """``[start, start + delta, ...)`` up to ``limit``; int32 for ints, float32 for floats (as TF).

    Without ``dtype`` the widest of the arguments' dtypes wins (int32 < int64 < float16 <
    float32 < float64); with it, Python numbers convert to it (``1.5`` to an integer type is an
    error, as in TF).

    >>> import tapegrad as tf
    >>> tf.range(3).dtype, tf.range(0, 2, 0.5).numpy()
    (tf.int32, array([0. , 0.5, 1. , 1.5], dtype=float32))
    """
    if limit is None:
        start, limit = 0, start
    want = None if dtype is None else _dt.as_dtype(dtype)
    vals = [v if isinstance(v, (Tensor, Variable)) else convert_to_tensor(v, dtype=want)
            for v in (start, limit, delta)]
    vals = [as_tensor(v) for v in vals]
    if want is not None:
        dt = want._np
    else:
        order = [np.int32, np.int64, np.float16, np.float32, np.float64]
        dt = np.dtype(builtins.max((np.dtype(v._value.dtype) for v in vals), key=lambda d: order.index(d.type) if d.type in order else 0))
    s, l, d = (np.asarray(host_value(v, "range")).item() for v in vals)  # (a trace guards them)
    if d == 0:
        raise _err("Range", "Requires delta != 0")
    if (d > 0 and s > l) or (d < 0 and s < l):
        raise _err("Range", f"Requires start <= limit when delta > 0: {s}/{l}" if d > 0 else
                            f"Requires start >= limit when delta < 0: {s}/{l}")
    return _bk.place(_wrap(np.arange(s, l, d).astype(dt)))


@constant_maker  # (from Python values, shapes and guarded reads)
def linspace(start: Any, stop: Any, num: Any, name: Any = None, axis: int = 0) -> Tensor:
    """``num`` evenly spaced values from ``start`` to ``stop`` inclusive, differentiable in both.

    ``stop`` converts to ``start``'s dtype. Integer endpoints give float64 (float32 for 8- and
    16-bit integers), as TensorFlow's division does; ``num`` must be an integer.

    >>> import tapegrad as tf
    >>> r = tf.linspace(-2, 2, 5)
    >>> r.dtype, r.numpy()
    (tf.float64, array([-2., -1.,  0.,  1.,  2.]))
    """
    s = as_tensor(start)
    try:
        e = convert_to_tensor(stop, dtype=s.dtype)
    except (TypeError, ValueError) as err:
        raise type(err)(f"linspace: stop must convert to start's dtype {s.dtype.name} ({err}). Give "
                        "both endpoints as floats, e.g. tf.linspace(-2.0, 2.0, 5).") from None
    k = s._value.dtype.kind
    if k == "b":
        raise _err("LinSpace", "start and stop must be numbers, not bool")
    from .math import _int_to_float
    if k in "iu":
        s, e = _int_to_float(s), _int_to_float(e)
    nv = np.asarray(host_value(num, "linspace: num"))
    if nv.dtype.kind not in "iu" or nv.ndim:
        raise TypeError(f"linspace: num must be an integer scalar, got {num!r}.")
    n = int(nv)
    if n < 0:
        raise _err("LinSpace", f"Requires num >= 0: {n}")
    t = _wrap(np.linspace(0.0, 1.0, n).astype(s._value.dtype) if n > 1 else np.zeros(n, s._value.dtype))
    shape = np.broadcast_shapes(s._value.shape, e._value.shape)
    frac = reshape(t, (n,) + (1,) * len(shape))
    out = s + (e - s) * frac
    if n == 1:
        out = broadcast_to(s, (1,) + shape) + (e - e) * 0
    a = norm_axis(axis, len(shape) + 1, "LinSpace")
    if a:
        out = transpose(out, tuple(builtins.range(1, a + 1)) + (0,) + tuple(builtins.range(a + 1, len(shape) + 1)))
    return _bk.place(out)


@constant_maker
def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = _dt.float32,
        name: Any = None) -> Tensor:
    """An identity matrix ``[num_rows, num_columns]``, optionally repeated over ``batch_shape``."""
    n = int(host_value(num_rows, "eye") if isinstance(num_rows, Tensor) else num_rows)
    m = n if num_columns is None else int(host_value(num_columns, "eye") if isinstance(num_columns, Tensor)
                                          else num_columns)
    if n < 0 or m < 0:
        raise _err("Eye", f"num_rows and num_columns must be non-negative, got {n} and {m}")
    e = np.eye(n, m, dtype=_dtype_or(dtype, _dt.float32))
    if batch_shape is not None:
        b = tuple(_int_list(batch_shape, "eye: batch_shape"))
        e = np.broadcast_to(e, b + (n, m)).copy()
    return _bk.place(_wrap(e))


# Shape, Size and Rank are ops (no derivative), so that a tf.function's trace computes them from
# its input at each call rather than holding the traced call's values as constants.
_shape_op = defop("Shape", lambda x, dtype: np.asarray(x.shape, dtype), nondiff=True)
_size_op = defop("Size", lambda x, dtype: np.asarray(x.size, dtype), nondiff=True)
_rank_op = defop("Rank", lambda x: np.asarray(x.ndim, np.int32), nondiff=True)
def _of_rows(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    """Shape, Size, Rank: the op on one row (every row has the same), repeated over the batch."""
    x = xs[0]
    if bat[0]:
        x = apply(_slice, (x,), {"key": (0,)})
    return _vmap.lift(apply(op, (x,), p), n)


for _op in (_shape_op, _size_op, _rank_op):
    _vmap.register(_op, _of_rows)


def _host(x: Tensor) -> bool:
    return type(x) is Tensor or isinstance(x, Variable)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def shape(input: Any, out_type: Any = _dt.int32, name: Any = None) -> Tensor:  # noqa: A002
    """The shape as an int32 (or ``out_type``) tensor."""
    x = input if isinstance(input, (IndexedSlices,)) else as_tensor(input)
    dtype = _dtype_or(out_type, _dt.int32)
    if isinstance(x, IndexedSlices) or not _host(x):  # (a backend's shape is a host tensor)
        return _wrap(np.asarray(tuple(x.shape), dtype))
    return apply(_shape_op, (x,), {"dtype": np.dtype(dtype)})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def size(input: Any, out_type: Any = _dt.int32, name: Any = None) -> Tensor:  # noqa: A002
    """The number of elements as a scalar tensor."""
    x = as_tensor(input)
    dtype = _dtype_or(out_type, _dt.int32)
    if not _host(x):
        return _wrap(np.asarray(x._value.size, dtype))
    return apply(_size_op, (x,), {"dtype": np.dtype(dtype)})


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def rank(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The number of axes as a scalar int32 tensor."""
    x = as_tensor(input)
    if not _host(x):
        return _wrap(np.int32(x._value.ndim))
    return apply(_rank_op, (x,))


# --------------------------------------------------------------------------- unique
def _unique_fwd(x: np.ndarray, out_idx: np.dtype) -> tuple:
    vals, first, inv = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")          # TF keeps first-occurrence order
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return vals[order], rank[inv.reshape(-1)].astype(out_idx)


def _unique_share_fwd(idx: np.ndarray, n: int, dtype: Any) -> np.ndarray:
    return (1.0 / np.bincount(idx, minlength=n)[idx]).astype(dtype)


# 1/count of each element's value: duplicates share their value's derivative equally
_unique_share_op = defop("UniqueShare", _unique_share_fwd, nondiff=True)


def _unique_share(ans: tuple, x: Tensor) -> Tensor:
    return apply(_unique_share_op, (ans[1],), {"n": ans[0]._value.shape[0], "dtype": x._value.dtype})


def _unique_vjp(g: tuple, ans: tuple, x: Tensor, out_idx: np.dtype) -> Tensor:
    from .indexing import _gather
    lead = _lead(g[0], ans[0])
    return apply(_gather, (g[0], ans[1]), {"axis": lead, "batch_dims": 0}) * _unique_share(ans, x)


def _unique_jvp(t: Any, ans: tuple, x: Tensor, out_idx: np.dtype) -> tuple:
    from .segment import unsorted_segment_sum
    return (unsorted_segment_sum(t, ans[1], ans[0]._value.shape[0]) /
            unsorted_segment_sum(_wrap(np.ones(x._value.shape, x._value.dtype)), ans[1], ans[0]._value.shape[0]),
            None)


_unique = defop("Unique", _unique_fwd, vjp=(_unique_vjp,), nout=-1, jvp=(_unique_jvp,))
_trace.value_shaped(_unique)


def unique(x: Any, out_idx: Any = _dt.int32, name: Any = None) -> tuple:
    """The distinct values of a 1-D ``x`` in order of first occurrence, and for each element of
    ``x`` the index of its value: ``(y, idx)`` with ``x == gather(y, idx)``.

    Unlike TensorFlow (which registers no gradient for it), ``y`` is differentiable: a value
    shared by ``k`` equal elements is their common value, so each receives ``1/k`` of its
    gradient (and the tangent of the value is the mean of their tangents).
    """
    t = as_tensor(x)
    if t._value.ndim != 1:
        raise _err("Unique", f"unique expects a 1-D tensor, got shape {list(t._value.shape)}")
    y, idx = apply(_unique, (t,), {"out_idx": _dt.as_dtype(out_idx)._np})
    return y, idx


def _reverse_vjp(g: Tensor, ans: Tensor, x: Tensor, axes: tuple) -> Tensor:
    L = _lead(g, ans)
    return apply(_reverse, (g,), {"axes": tuple(a + L for a in axes)})


_reverse = defop("ReverseV2", lambda x, axes: np.flip(x, axes), vjp=(_reverse_vjp,), jvp="linear")
_vmap.register(_reverse, _vmap.axes("axes"))
_bk.register(_reverse, lambda be, x, axes: be.xp.flip(x, axis=axes))


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def reverse(tensor: Any, axis: Any, name: Any = None) -> Tensor:
    """Reverse ``tensor`` along each axis in ``axis`` (a list of ints; negative counts from the end).

    >>> import tapegrad as tf
    >>> tf.reverse(tf.constant([[1, 2, 3]]), [-1]).numpy()
    array([[3, 2, 1]], dtype=int32)
    """
    x = as_tensor(tensor)
    av = np.asarray(host_value(axis, "reverse: axis"))
    if av.ndim != 1:
        raise _err("ReverseV2", f"'axis' must be a list of axes (1-D), got {axis!r}; write "
                                f"tf.reverse(x, [{axis!r}])")
    nd = x._value.ndim
    axes = []
    for i, a in enumerate(_int_list(av, "reverse: axis")):
        if not -nd <= a < nd:
            raise _err("ReverseV2", f"'axis'[{i}] = {a} is out of valid range [{-nd}, {nd}) for a "
                                    f"tensor of rank {nd}")
        if a % nd in axes:
            raise _err("ReverseV2", f"axis {a % nd} specified more than once.")
        axes.append(a % nd)
    return apply(_reverse, (x,), {"axes": tuple(axes)})


def _roll_vjp(g: Tensor, ans: Tensor, x: Tensor, shifts: tuple, axes: tuple) -> Tensor:
    L = _lead(g, ans)
    return apply(_roll, (g,), {"shifts": tuple(-s for s in shifts), "axes": tuple(a + L for a in axes)})


_roll = defop("Roll", lambda x, shifts, axes: np.roll(x, shifts, axes) if axes else x,
              vjp=(_roll_vjp,), jvp="linear")
_vmap.register(_roll, _vmap.axes("axes"))
_bk.register(_roll, lambda be, x, shifts, axes: be.xp.roll(x, shift=tuple(shifts), axis=tuple(axes)) if axes else x)


def roll(input: Any, shift: Any, axis: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Shift elements cyclically by ``shift`` along ``axis`` (ints or equal-length lists; shifts
    on a repeated axis add up).

    >>> import tapegrad as tf
    >>> tf.roll(tf.constant([1, 2, 3, 4]), shift=1, axis=0).numpy()
    array([4, 1, 2, 3], dtype=int32)
    """
    x = as_tensor(input)
    sh = _int_list(shift, "roll: shift")
    ax = _int_list(axis, "roll: axis")
    if len(sh) != len(ax) or (shift._value.ndim if isinstance(shift, Tensor) else np.ndim(shift)) > 1:
        raise _err("Roll", f"shift and axis must have the same size (got shift {sh} and axis {ax})")
    nd = x._value.ndim
    total: dict[int, int] = {}
    for s, a in zip(sh, ax):
        if not -nd <= a < nd:
            raise _err("Roll", f"axis {a} is out of range for a tensor of rank {nd}")
        total[a % nd] = total.get(a % nd, 0) + s
    axes = tuple(sorted(total))
    return apply(_roll, (x,), {"shifts": tuple(total[a] for a in axes), "axes": axes})


def _repeat_vjp(g: Tensor, ans: Tensor, x: Tensor, idx: Tensor, axis: int) -> Tensor:
    from .indexing import _gather_grad
    return apply(_gather_grad, (g, idx), {"shape": x._value.shape, "axis": axis, "batch_dims": 0})


_repeat = defop("Repeat", lambda x, idx, axis: np.take(x, idx, axis=axis),
                vjp=(_repeat_vjp, None), jvp="linear")
_vmap.register(_repeat, _vmap.one_axis("axis"))
_bk.register(_repeat, lambda be, x, idx, axis: _bk.take(be, x, idx, axis))


@constant_maker
def repeat(input: Any, repeats: Any, axis: Any = None, name: Any = None) -> Tensor:  # noqa: A002
    """Repeat each element (``axis=None``: of the flattened input) or each slice along ``axis``
    ``repeats`` times (an int, or one count per slice). The gradient sums the copies.

    >>> import tapegrad as tf
    >>> tf.repeat(tf.constant([1, 2]), [2, 3], axis=0).numpy()
    array([1, 1, 2, 2, 2], dtype=int32)
    """
    x = as_tensor(input)
    if axis is None:
        x = reshape(x, [-1])
        a = 0
    else:
        if x._value.ndim == 0:
            raise _err("Repeat", "a scalar input has no axis to repeat along; use axis=None")
        a = norm_axis(axis, x._value.ndim, "Repeat")
    r = np.asarray(_int_list(repeats, "repeat: repeats"))
    if (repeats._value.ndim if isinstance(repeats, Tensor) else np.ndim(repeats)) > 1:
        raise ValueError(f"repeat: repeats must be an int or a 1-D list, got {repeats!r}.")
    n = x._value.shape[a]
    if r.size not in (1, n):
        raise _err("Repeat", f"repeats has {r.size} entries but axis {a} has length {n}; give one "
                             "count per slice or a single count")
    if (r < 0).any():
        raise _err("Repeat", f"repeats must be non-negative, got {r.tolist()}")
    idx = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(r, (n,)))
    return apply(_repeat, (x, _wrap(idx)), {"axis": a})


# --------------------------------------------------------------------------- masks and grids (no gradient)
def _one_hot_fwd(idx: np.ndarray, on: np.ndarray, off: np.ndarray, depth: int, axis: int) -> np.ndarray:
    hit = idx[..., None] == np.arange(depth)
    out = np.where(hit, on, off).astype(np.result_type(on, off))
    return np.moveaxis(out, -1, axis) if axis != -1 else out


_one_hot = defop("OneHot", _one_hot_fwd, nondiff=True)
def _one_hot_rule(op: Any, n: int, xs: list, bat: tuple, p: dict) -> Any:
    idx, on, off = xs
    r = idx._value.ndim - bat[0] + 1  # the output's row rank
    on, off = [_vmap.reshape(v, (n,) + (1,) * r) if b else v for v, b in zip((on, off), bat[1:])]
    a = p["axis"]
    return apply(op, (idx if bat[0] else _vmap.lift(idx, n), on, off), {**p, "axis": -1 if a == -1 else a + 1})


def _one_hot_form(be: Any, idx: Any, on: Any, off: Any, depth: int, axis: int) -> Any:
    xp = be.xp
    out = xp.where(_bk.hits(be, idx, depth), on, off)
    return out if axis == -1 else xp.moveaxis(out, -1, axis)


_vmap.register(_one_hot, _one_hot_rule)
_bk.register(_one_hot, _one_hot_form)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
@constant_maker  # (from Python values, shapes and guarded reads)
def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: Any = None) -> Tensor:
    """One-hot vectors of length ``depth`` along a new axis (last by default).

    Indices outside ``[0, depth)`` give all-``off_value`` vectors. The dtype is ``dtype``, or that
    of ``on_value``/``off_value``, or float32. No gradient flows to ``on_value``/``off_value``
    (as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.one_hot([0, 2, -1], 3).numpy()
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float32)
    """
    idx = as_tensor(indices)
    if idx._value.dtype.type not in (np.uint8, np.int8, np.int32, np.int64):
        raise _err("OneHot", f"indices must be uint8, int8, int32 or int64, got {idx.dtype.name}; "
                             "cast them with tf.cast(indices, tf.int32)")
    want = None if dtype is None else _dt.as_dtype(dtype)
    on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=want)
    off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=want)
    for what, v in (("on_value", on), ("off_value", off)):
        if v is not None and want is not None and v.dtype != want:
            raise TypeError(f"one_hot: dtype {v.dtype.name} of {what} does not match the dtype "
                            f"parameter {want.name}.")
    if on is not None and off is not None and on.dtype != off.dtype:
        raise TypeError(f"one_hot: dtype {on.dtype.name} of on_value does not match dtype "
                        f"{off.dtype.name} of off_value.")
    npdt = (want or (on.dtype if on is not None else off.dtype if off is not None else _dt.float32))._np
    on = _wrap(npdt.type(1)) if on is None else on
    off = _wrap(npdt.type(0)) if off is None else off
    if on._value.ndim or off._value.ndim:
        raise _err("OneHot", "on_value and off_value must be scalars")
    dv = np.asarray(host_value(depth, "one_hot: depth"))
    if dv.ndim or dv.dtype.kind not in "iu":   # int() would truncate 2.5 to 2 silently
        raise TypeError(f"one_hot: depth must be a scalar integer, got {depth!r}.")
    d = int(dv)
    if d < 0:
        raise _err("OneHot", f"depth must be non-negative, got: {d}")
    nd = idx._value.ndim
    a = -1 if axis is None else int(axis)
    if a != -1 and not 0 <= a <= nd:
        raise _err("OneHot", f"Expected axis to be -1 or between [0, {nd + 1}). But received: {a}")
    return _bk.place(apply(_one_hot, (idx, on, off), {"depth": d, "axis": a}))


@constant_maker
def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = _dt.bool, name: Any = None) -> Tensor:
    """``mask[i..., j] = j < lengths[i...]`` for ``j`` in ``[0, maxlen)`` (``maxlen`` defaults to
    ``max(lengths)``); cast to ``dtype``. No gradient.

    >>> import tapegrad as tf
    >>> tf.sequence_mask([1, 3], 4).numpy()
    array([[ True, False, False, False],
           [ True,  True,  True, False]])
    """
    lv = np.asarray(host_value(as_tensor(lengths), "lengths"))
    if lv.dtype.kind not in "iuf":
        raise TypeError(f"sequence_mask: lengths must be numbers, got {lv.dtype}.")
    if maxlen is None:
        mx = lv.max() if lv.size else lv.dtype.type(0)
    else:
        mv = np.asarray(host_value(as_tensor(maxlen), "maxlen"))
        if mv.ndim:
            raise ValueError(f"sequence_mask: maxlen must be a scalar, got shape {list(mv.shape)}.")
        mx = mv[()]
    if mx < 0:
        raise _err("Range", f"Requires start <= limit when delta > 0: 0/{mx} (maxlen must be >= 0)")
    row = np.arange(mx, dtype=np.asarray(mx).dtype)
    hit = row < lv[..., None].astype(row.dtype)
    return _wrap(hit.astype(_dt.as_dtype(dtype)._np))


def meshgrid(*args: Any, **kwargs: Any) -> list:
    """N-D coordinate grids from 1-D coordinate vectors (higher-rank inputs are flattened).

    ``indexing='xy'`` (default, Cartesian) swaps the first two output axes; ``'ij'`` (matrix
    indexing) does not. Gradients sum over the broadcast axes.

    >>> import tapegrad as tf
    >>> X, Y = tf.meshgrid([1, 2, 3], [4, 5])
    >>> X.numpy()
    array([[1, 2, 3],
           [1, 2, 3]], dtype=int32)
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid: unexpected keyword arguments {sorted(kwargs)}; only indexing "
                        "and name are accepted.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be either 'xy' or 'ij', got {indexing!r}.")
    if not args:
        return []
    xs = [reshape(as_tensor(a), [-1]) for a in args]
    for i, t in enumerate(xs[1:], 1):
        if t._value.dtype != xs[0]._value.dtype:
            raise _err("Meshgrid", f"all inputs must have one dtype: args[0] is "
                                   f"{xs[0].dtype.name} but args[{i}] is {t.dtype.name}")
    n = len(xs)
    sizes = [t._value.shape[0] for t in xs]
    if indexing == "xy" and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(xs):
        pos = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        s = [1] * n
        s[pos] = -1
        out.append(broadcast_to(reshape(t, s), sizes))
    return out


def _invert_fwd(p: np.ndarray) -> np.ndarray:
    if not (np.sort(p, axis=-1) == np.arange(p.shape[-1])).all():
        raise ValueError(f"x is not a permutation of 0..{p.shape[-1] - 1}: {p.tolist()}")
    return np.argsort(p, axis=-1).astype(p.dtype)


# the inverses of permutations along the last axis (an op: a tf.function trace replays it)
_invert = defop("InvertPermutation", _invert_fwd, nondiff=True)
_vmap.register(_invert, _vmap.leading)
_bk.register(_invert, lambda be, p: be.xp.astype(be.xp.argsort(p, axis=-1), p.dtype))


def invert_permutation(x: Any, name: Any = None) -> Tensor:
    """The inverse permutation: ``y[x[i]] = i``.

    >>> import tapegrad as tf
    >>> tf.math.invert_permutation([3, 4, 0, 2, 1]).numpy()
    array([2, 4, 3, 0, 1], dtype=int32)
    """
    t = as_tensor(x)
    if t._value.ndim != 1 or t._value.dtype not in (np.int32, np.int64):
        raise _err("InvertPermutation", f"x must be a 1-D int32 or int64 tensor, got {t.dtype.name} of shape "
                                        f"{list(t._value.shape)}")
    check_values(_check_permutation, t)
    return apply(_invert, (t,))


def _check_permutation(v: np.ndarray) -> None:
    if not np.array_equal(np.sort(v), np.arange(v.size)):
        raise _err("InvertPermutation", f"x is not a permutation of 0..{v.size - 1}: {v.tolist()}")


# --------------------------------------------------------------------------- bits and shapes
def _bitcast_fwd(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    a, b = x.dtype.itemsize, dtype.itemsize
    if a > b:
        return np.ascontiguousarray(x).view(dtype).reshape(x.shape + (a // b,))
    return np.ascontiguousarray(x).view(dtype).reshape(x.shape[:-1] if a < b else x.shape)


_bitcast = defop("Bitcast", _bitcast_fwd, nondiff=True)
_vmap.register(_bitcast, _vmap.leading)


@composite_api  # (a RaggedTensor argument: tapegrad/ragged/ handles it)
def bitcast(input: Any, type: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The bytes of ``input`` read as ``type``, without copying values: a wider type eats the last
    axis (whose length must be the size ratio), a narrower one adds an axis of that length.

    >>> import tapegrad as tf
    >>> tf.bitcast(tf.constant(1.0), tf.int32).numpy()
    np.int32(1065353216)
    """
    x = as_tensor(input)
    dt = _dt.as_dtype(type)._np
    a, b = x._value.dtype.itemsize, dt.itemsize
    if a < b and (b % a or not x._value.ndim or x._value.shape[-1] != b // a):
        raise _err("Bitcast", f"Cannot bitcast from {x.dtype.name} to {_dt.as_dtype(type).name}: the "
                              f"last axis of the input (shape {list(x._value.shape)}) must have length "
                              f"{b // a if not b % a else 'a whole ratio'}")
    return apply(_bitcast, (x,), {"dtype": dt})


def shape_n(input: Any, out_type: Any = _dt.int32, name: Any = None) -> list:  # noqa: A002
    """The shapes of the tensors in ``input``, one int32 (or ``out_type``) tensor each.

    >>> import tapegrad as tf
    >>> [s.numpy() for s in tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])])]
    [array([2, 3], dtype=int32), array([4], dtype=int32)]
    """
    return [shape(x, out_type) for x in input]


UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


@constant_maker  # (ones of a shape)
def unique_with_counts(x: Any, out_idx: Any = _dt.int32, name: Any = None) -> UniqueWithCounts:
    """:func:`unique` and how many times each distinct value occurs: ``(y, idx, count)``.

    >>> import tapegrad as tf
    >>> tf.unique_with_counts(tf.constant([1, 1, 2, 4, 4, 4])).count.numpy()
    array([2, 1, 3], dtype=int32)
    """
    from .segment import unsorted_segment_sum
    y, idx = unique(x, out_idx)
    ones = _wrap(np.ones(idx._value.shape, idx._value.dtype))
    return UniqueWithCounts(y, idx, unsorted_segment_sum(ones, idx, y._value.shape[0]))  # (ops: replayed)


def broadcast_static_shape(shape_x: Any, shape_y: Any) -> Any:
    """The broadcast of two :class:`TensorShape` objects (ValueError when they do not broadcast).

    >>> import tapegrad as tf
    >>> tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3]))
    TensorShape([2, 3])
    """
    a, b = tuple(shape_x), tuple(shape_y)
    try:
        out = np.broadcast_shapes(a, b)
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: {list(a)} and {list(b)}") from None
    return TensorShape(list(out))


def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Tensor:
    """The broadcast of two shapes given as 1-D integer tensors.

    >>> import tapegrad as tf
    >>> tf.broadcast_dynamic_shape([2, 1], [3]).numpy()
    array([2, 3], dtype=int32)
    """
    a, b = as_tensor(shape_x), as_tensor(shape_y)
    av, bv = (tuple(int(d) for d in host_value(t, "broadcast_dynamic_shape")) for t in (a, b))
    try:
        out = np.broadcast_shapes(av, bv)
    except ValueError:
        raise _err("BroadcastArgs", f"Incompatible shapes: {list(av)} vs. {list(bv)}") from None
    return _wrap(np.asarray(out, a._value.dtype))


# --------------------------------------------------------------------------- space and batch
def _blocks(x: Tensor, block_shape: Any, pairs: Any, what: str, op: str) -> tuple:
    bs = [int(b) for b in np.asarray(host_value(as_tensor(block_shape), op)).reshape(-1)]
    pp = np.asarray(host_value(as_tensor(pairs), op)).reshape(-1, 2).astype(np.int64)
    m = len(bs)
    if m < 1 or pp.shape[0] != m or x._value.ndim < m + 1:
        raise _err(op, f"block_shape must have M >= 1 entries, {what} shape [M, 2] and the input rank "
                       f"at least M + 1, got block_shape {bs}, {what} {pp.tolist()}, input shape "
                       f"{list(x._value.shape)}")
    if min(bs) < 1 or (pp < 0).any():
        raise _err(op, f"block_shape must be positive and {what} non-negative, got {bs} and {pp.tolist()}")
    return bs, pp.tolist()


def space_to_batch_nd(input: Any, block_shape: Any, paddings: Any, name: Any = None) -> Tensor:  # noqa: A002
    """Zero-pad the ``M`` spatial axes after the batch axis, then move ``block_shape`` blocks of
    them into the batch: ``[B, s1, ..., sM, ...]`` becomes ``[B * prod(block), s1' / b1, ...]``.

    >>> import tapegrad as tf
    >>> tf.space_to_batch_nd(tf.reshape(tf.range(4), [1, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]]).numpy().ravel()
    array([0, 1, 2, 3], dtype=int32)
    """
    x = as_tensor(input)
    bs, pp = _blocks(x, block_shape, paddings, "paddings", "SpaceToBatchND")
    m, shape = len(bs), x._value.shape
    if any(pp):
        x = pad(x, [[0, 0]] + pp + [[0, 0]] * (len(shape) - m - 1))
    padded = x._value.shape
    if any(padded[1 + i] % b for i, b in enumerate(bs)):
        raise _err("SpaceToBatchND", f"padded spatial shape {list(padded[1:m + 1])} must be divisible "
                                     f"by block_shape {bs}")
    split = [padded[0]] + [v for i, b in enumerate(bs) for v in (padded[1 + i] // b, b)] + list(padded[m + 1:])
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(2 * m + 1, len(split)))
    out = [padded[0] * math.prod(bs)] + [padded[1 + i] // b for i, b in enumerate(bs)] + list(padded[m + 1:])
    return reshape(transpose(reshape(x, split), perm), out)


@constant_maker  # (from shapes and Python values, read through host_value)
def required_space_to_batch_paddings(input_shape: Any, block_shape: Any, base_paddings: Any = None,
                                     name: Any = None) -> tuple[Tensor, Tensor]:
    """The paddings (``base_paddings`` plus the least extra at the end) that make each of
    ``input_shape`` divisible by ``block_shape``, and the crops that undo the extra: int32
    ``[M, 2]`` tensors for :func:`space_to_batch_nd` and :func:`batch_to_space`.

    >>> import tapegrad as tf
    >>> p, c = tf.required_space_to_batch_paddings([5, 4], [2, 3], [[1, 0], [0, 0]])
    >>> p.numpy().tolist(), c.numpy().tolist()
    ([[1, 0], [0, 2]], [[0, 0], [0, 2]])
    """
    shp = np.asarray(_int_list(input_shape, "input_shape", "RequiredSpaceToBatchPaddings"), np.int64)
    bs = np.asarray(_int_list(block_shape, "block_shape", "RequiredSpaceToBatchPaddings"), np.int64)
    if shp.shape != bs.shape:
        raise ValueError(f"input_shape {shp.tolist()} and block_shape {bs.tolist()} must have the same length.")
    base = np.zeros((len(bs), 2), np.int64) if base_paddings is None else \
        np.asarray(_int_list(base_paddings, "base_paddings"), np.int64).reshape(-1, 2)
    if base.shape != (len(bs), 2):
        raise ValueError(f"base_paddings must have shape [{len(bs)}, 2], got {base.tolist()}.")
    full = shp + base[:, 0] + base[:, 1]
    extra = (bs - full % bs) % bs
    pads = np.stack([base[:, 0], base[:, 1] + extra], 1).astype(np.int32)
    crops = np.stack([np.zeros_like(extra), extra], 1).astype(np.int32)
    return _wrap(pads), _wrap(crops)


def guarantee_const(input: Any, name: Any = None) -> Tensor:  # noqa: A002
    """``input`` itself (TensorFlow's deprecated promise to Grappler that it is constant; no
    gradient flows through it, as TensorFlow's).

    >>> import tapegrad as tf
    >>> tf.guarantee_const(tf.constant([1.0])).numpy()
    array([1.], dtype=float32)
    """
    return stop_gradient(input)


def space_to_batch(input: Any, block_shape: Any, paddings: Any, name: Any = None) -> Tensor:  # noqa: A002
    """:func:`space_to_batch_nd` (TensorFlow 2's ``tf.space_to_batch`` and ``tf.nn.space_to_batch``).

    >>> import tapegrad as tf
    >>> tf.space_to_batch(tf.ones([1, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]]).shape
    TensorShape([4, 2, 2, 1])
    """
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input: Any, block_shape: Any, crops: Any, name: Any = None) -> Tensor:  # noqa: A002
    """The inverse of :func:`space_to_batch_nd`: move batch blocks back into the ``M`` spatial
    axes, then crop ``crops`` (``[M, 2]``) from them.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    >>> y = tf.space_to_batch_nd(x, [2, 2], [[1, 1], [0, 2]])
    >>> bool(tf.reduce_all(tf.batch_to_space(y, [2, 2], [[1, 1], [0, 2]]) == x))
    True
    """
    x = as_tensor(input)
    bs, cc = _blocks(x, block_shape, crops, "crops", "BatchToSpaceND")
    m, shape = len(bs), x._value.shape
    n = math.prod(bs)
    if shape[0] % n:
        raise _err("BatchToSpaceND", f"the batch {shape[0]} must be divisible by prod(block_shape) = {n}")
    b = shape[0] // n
    split = bs + [b] + list(shape[1:])
    perm = [m] + [v for i in range(m) for v in (m + 1 + i, i)] + list(range(2 * m + 1, len(split)))
    full = [b] + [shape[1 + i] * k for i, k in enumerate(bs)] + list(shape[m + 1:])
    y = reshape(transpose(reshape(x, split), perm), full)
    if any(v for pair in cc for v in pair):
        if any(c0 + c1 > full[1 + i] for i, (c0, c1) in enumerate(cc)):
            raise _err("BatchToSpaceND", f"crops {cc} are larger than the spatial shape {full[1:m + 1]}")
        y = y[(builtins.slice(None),) + tuple(builtins.slice(c0, full[1 + i] - c1) for i, (c0, c1) in enumerate(cc))]
    return y
