"""Op declaration and dispatch: :func:`defop` declares a primitive once, with its NumPy forward
and its differentiation rules; :func:`apply`, :func:`unary` and :func:`binary` run it and offer
the call to the active recorders (``_recorders``).
"""
from __future__ import annotations

import builtins
from typing import Any, Callable, Sequence

import numpy as np

from . import _recorders as _rec, _seam
from ._convert import _SCALARS, _dtype_error, _operand, _scalar_for, binary_operands, convert_to_tensor
from ._tensor import Tensor, next_id, wrap
from .errors import InvalidArgumentError, ResourceExhaustedError

_EMPTY: dict = {}

class Op:
    """A primitive: NumPy forward plus differentiation rules. Built by :func:`defop`."""

    __slots__ = ("name", "fwd", "bwd", "jvp", "nout", "bcast", "diff", "batch_ok", "ufunc", "__dict__")

    def __repr__(self) -> str:
        return f"<op {self.name}>"


REGISTRY: dict[str, Op] = {}


def _conj_if_complex(d: Any, ref: Tensor) -> Any:
    if ref._value.dtype.kind == "c":
        return _seam.conj(d)
    return d


def defop(name: str, fwd: Callable, *, deriv: Any = None, vjp: Any = None, jvp: Any = None,
          nout: int = 1, broadcast: builtins.bool = False, nondiff: builtins.bool = False,
          batch_ok: builtins.bool = True) -> Op:
    """Declare a primitive.

    name: unique op name (TensorFlow's op name where there is one).
    fwd(*arrays, **params): the NumPy forward, returning an array or a tuple of ``nout`` arrays.
    deriv: for elementwise ops, one function per input ``d(ans, *xs, **params) -> ∂y/∂x_i``
        (``None`` for a non-differentiable input). Gives the VJP ``g * conj(d)`` and the JVP
        ``Σ t_i * d_i``.
    vjp: either one rule per input, ``rule(g, ans, *xs, **params) -> cotangent`` (``None`` for a
        non-differentiable input), or one function ``rule(g, ans, needs, *xs, **params)``
        returning a cotangent for each index in ``needs``.
    jvp: ``jvp(ts, ans, *xs, **params)`` with ``ts`` one tangent or ``None`` per input, or
        ``"linear"`` for ops linear in their differentiable inputs.
    broadcast: the engine sums cotangents back to each input's shape (NumPy broadcasting).
    nondiff: the op has no derivative (its outputs are constants for every tape); forward mode
        gives zero tangents for its floating outputs.
    batch_ok: the VJP rules accept cotangents with one extra leading (batch) axis; Jacobians
        loop over rows for ops that set this False.
    Rules are written with tapegrad ops, so tapes record them and higher derivatives work.
    """
    if name in REGISTRY:
        raise ValueError(f"op {name!r} is declared twice")
    op = Op()
    op.name, op.nout, op.bcast, op.batch_ok = name, nout, broadcast, batch_ok
    op.fwd = fwd
    op.ufunc = isinstance(fwd, np.ufunc)  # takes Python scalars as NumPy's weak scalars
    if nondiff:
        op.bwd = op.jvp = op.diff = None
    elif deriv is not None:
        ds = tuple(deriv)
        op.diff = tuple(d is not None for d in ds)

        if len(ds) == 1:
            d0 = ds[0]

            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> tuple:
                x = xs[0]
                d = d0(ans, x, **p) if p else d0(ans, x)
                if x._value.dtype.kind == "c":
                    d = _conj_if_complex(d, x)
                return (binary(_seam.MUL, g, d),)
        elif len(ds) == 2:
            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
                x, y = xs  # named, so the calls below build no argument tuple
                out = []
                for i in needs:
                    d = ds[i](ans, x, y, **p) if p else ds[i](ans, x, y)
                    if xs[i]._value.dtype.kind == "c":
                        d = _conj_if_complex(d, xs[i])
                    out.append(binary(_seam.MUL, g, d))
                return out
        else:
            def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
                out = []
                for i in needs:
                    d = ds[i](ans, *xs, **p) if p else ds[i](ans, *xs)
                    if xs[i]._value.dtype.kind == "c":
                        d = _conj_if_complex(d, xs[i])
                    out.append(binary(_seam.MUL, g, d))
                return out

        def jvp_el(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
            out = None
            for i, t in enumerate(ts):
                if t is not None and ds[i] is not None:
                    term = t * ds[i](ans, *xs, **p)
                    out = term if out is None else out + term
            return out

        op.bwd, op.jvp = bwd, (jvp if jvp is not None else jvp_el)
    elif callable(vjp):
        op.diff = None  # every input, the rule decides
        rule = vjp

        def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
            return list(rule(g, ans, needs, *xs, **p))

        op.bwd, op.jvp = bwd, jvp
    else:
        rules = tuple(vjp)
        op.diff = tuple(r is not None for r in rules)

        def bwd(g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> Any:
            if p:
                return [rules[i](g, ans, *xs, **p) for i in needs]
            if len(xs) == 2:  # the common case, calling without building an argument tuple
                x, y = xs
                if len(needs) == 1:
                    return (rules[needs[0]](g, ans, x, y),)
                return (rules[0](g, ans, x, y), rules[1](g, ans, x, y))  # needs is (0, 1)
            if len(needs) == 1:
                return (rules[needs[0]](g, ans, *xs),)
            return [rules[i](g, ans, *xs) for i in needs]

        op.bwd, op.jvp = bwd, jvp
    if op.jvp == "linear":
        op.jvp = _linear_jvp(op)
    REGISTRY[name] = op
    return op


def _linear_jvp(op: Op) -> Callable:
    diff = op.diff

    def jvp(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
        args = []
        for i, x in enumerate(xs):
            if diff is None or diff[i]:
                t = ts[i]
                args.append(t if t is not None else wrap(np.zeros_like(x._value)))
            else:
                args.append(x)
        return apply(op, args, p)

    return jvp


def apply(op: Op, xs: Sequence[Tensor], p: dict = _EMPTY) -> Any:
    """Run ``op`` on tensors ``xs`` with static params ``p``; record it where a recorder wants it."""
    try:
        out = op.fwd(*[x._value for x in xs], **p)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        raise _op_error(op, xs, e) from None
    if _rec.active and (stack := _rec.tls.stack):
        return _record(op, xs, p, out, stack)
    if op.nout == 1:
        t = Tensor.__new__(Tensor)
        t._value = out
        t._id = next_id()
        return t
    return tuple([wrap(o) for o in out])


def unary(op: Op, x: Any, kinds: str = "fc") -> Tensor:
    """Apply a one-input, one-output op without params: the hot path, kept flat.

    ``kinds`` are the accepted NumPy dtype kinds (``"fc"``: floating and complex)."""
    if type(x) is not Tensor:
        x = convert_to_tensor(x)
    v = x._value
    if v.dtype.kind not in kinds:
        _kind_error(op, x, kinds)
    try:
        out = op.fwd(v)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        raise _op_error(op, (x,), e) from None
    t = Tensor.__new__(Tensor)
    t._value = out
    t._id = next_id()
    if _rec.active and (stack := _rec.tls.stack):
        if len(stack) == 1 and op.bwd is not None:  # the common case, without _offer's frame
            stack[0].record(op, (x,), _EMPTY, t, 0)
        else:
            _offer(op, (x,), _EMPTY, t, stack)
    return t


def binary(op: Op, x: Any, y: Any, kinds: str = "fciu") -> Tensor:
    """Apply a two-input op with TF's operand rules; the common cases stay on a short path.

    Tensor-Tensor of one dtype, and Tensor with a Python float/int for an op whose forward is a
    NumPy ufunc, run the forward directly (NumPy's weak Python scalars keep the tensor's dtype);
    a recorder needs the scalar as a tensor, so it is wrapped only then.
    """
    stack = _rec.active and _rec.tls.stack  # the recorders (falsy when none is active)
    if type(x) is Tensor:
        xv = x._value
        dx = xv.dtype
        kd = dx.kind
        ty = type(y)
        if ty is Tensor:
            yv = y._value
            if dx is not yv.dtype and dx != yv.dtype:
                raise _dtype_error(op.name, xv, yv)
        elif (ty is float or ty is int) and (kd == "f" or kd == "c"):
            if op.ufunc and not stack:
                if kd not in kinds:
                    _kind_error(op, x, kinds)
                try:
                    out = op.fwd(xv, y)
                except (ValueError, TypeError, ArithmeticError, MemoryError) as e:
                    raise _op_error(op, (x,), e) from None
                t = Tensor.__new__(Tensor)
                t._value = out
                t._id = next_id()
                return t
            c = _SCALARS.get((y, ty, dx))  # the cached constant (_scalar_for), without a call
            y = c if c is not None else _scalar_for(y, dx, op.name)
            yv = y._value
        else:
            y = _operand(y, dx, op.name)
            yv = y._value
    else:
        x, y = binary_operands(x, y, op.name)
        xv, yv = x._value, y._value
        kd = xv.dtype.kind
    if kd not in kinds:
        _kind_error(op, x, kinds)
    try:
        out = op.fwd(xv, yv)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError) as e:
        raise _op_error(op, (x, y), e) from None
    t = Tensor.__new__(Tensor)
    t._value = out
    t._id = next_id()
    if stack:
        if len(stack) == 1 and op.bwd is not None:  # as in unary
            stack[0].record(op, (x, y), _EMPTY, t, 0)
        else:
            _offer(op, (x, y), _EMPTY, t, stack)
    return t


_KIND_NAMES = {"f": "floating", "c": "complex", "i": "signed integer", "u": "unsigned integer",
               "b": "bool"}


def _kind_error(op: Op, x: Tensor, kinds: str) -> None:
    raise InvalidArgumentError(
        None, None, f"{op.name} does not accept a {x.dtype.name} tensor (allowed: "
        f"{', '.join(_KIND_NAMES[k] for k in kinds)}). Cast it first, e.g. tf.cast(x, tf.float32).")


def _op_error(op: Op, xs: Sequence[Tensor], e: Exception) -> Exception:
    if isinstance(e, InvalidArgumentError):
        return e
    shapes = " vs. ".join(str(list(x._value.shape)) for x in xs)
    if isinstance(e, MemoryError):   # NumPy could not allocate the output: TF's OOM error type
        return ResourceExhaustedError(None, None, f"OOM: {e} (inputs of shapes {shapes}) [Op:{op.name}]")
    if "broadcast" in str(e):
        return InvalidArgumentError(None, None, f"Incompatible shapes: {shapes} [Op:{op.name}]")
    return InvalidArgumentError(None, None, f"{e} (inputs of shapes {shapes}) [Op:{op.name}]")


def _record(op: Op, xs: Sequence[Tensor], p: dict, out: Any, stack: list) -> Any:
    if op.nout == 1:
        ans = Tensor.__new__(Tensor)
        ans._value = out
        ans._id = next_id()
    else:
        ans = tuple([wrap(o) for o in out])
    if len(stack) == 1 and op.bwd is not None:  # one tape: no _offer frame (as in unary, binary)
        stack[0].record(op, xs, p, ans, 0)
    else:
        _offer(op, xs, p, ans, stack)
    return ans


def _offer(op: Op, xs: Sequence[Tensor], p: dict, ans: Any, stack: list) -> None:
    """Offer an op's call to each recorder (a nondiff op only tells them it ran).

    Recorders get ``ans``, the output tensor, or the tuple of outputs of a multi-output op."""
    if op.bwd is None:
        outs = ans if type(ans) is tuple else (ans,)
        for rec in stack:
            rec.on_nondiff(op, xs, outs)
    else:
        for k in range(len(stack)):
            stack[k].record(op, xs, p, ans, k)
