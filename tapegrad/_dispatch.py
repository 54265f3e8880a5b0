"""Op declaration and dispatch: :func:`defop` declares a primitive once, with its NumPy forward
and its differentiation rules; :func:`apply`, :func:`unary` and :func:`binary` run it and offer
the call to the active recorders (``_recorders``).
"""
from __future__ import annotations

import builtins
import functools
import sys
from typing import Any, Callable, Sequence

import numpy as np

from . import _backend as _bk, _recorders as _rec, _seam
from ._backend import ArrayTensor
from ._convert import (_SCALARS, _dtype_error, _operand, _scalar_for, binary_operands, composite_error,
                       convert_to_tensor)
from ._recorders import _NEEDS0, _NEEDS01, _NEEDS1, NEEDS0_SHAPED
from ._tensor import CompositeConversionError, CompositeTensor, Tensor, constant_maker, next_id, wrap
from .errors import InvalidArgumentError, ResourceExhaustedError

_EMPTY: dict = {}
# native dtypes by kind: a set lookup is cheaper than reading ``dtype.kind`` (other byte orders
# take the slower kind check)
_NATIVE = frozenset(np.dtype(c) for c in "?bhilqBHILQefdgFDG")
_FLOATING = frozenset(d for d in _NATIVE if d.kind == "f")
_FC = frozenset(d for d in _NATIVE if d.kind in "fc")


class Op:
    """A primitive, declared with :func:`defop`; read-only once declared.

    ``derivs``, ``vjps``, ``joint``: the reverse-mode rule, in one of the three forms of
    :func:`defop` (the others None); ``jvp``: the forward-mode rule, always ``jvp(ts, ans, *xs,
    **p)`` with ``ts`` one tangent or None per input (built by defop from the declared form);
    ``diff``: per input, whether it is differentiable (None: all are); ``module``: the module
    that declared it (its family).
    """

    __slots__ = ("name", "fwd", "nout", "kinds", "dtypes", "bcast", "batch_ok", "ufunc", "nondiff", "diff",
                 "derivs", "vjps", "joint", "jvp", "module", "slices")

    def __repr__(self) -> str:
        return f"<op {self.name}>"


class jointly:
    """A rule for all inputs at once, for ops whose inputs' rules share work (the escape hatch).

    As ``vjp=``: ``rule(g, ans, needs, *xs, **params)`` returns one cotangent per index in
    ``needs`` (the inputs on the tape). As ``jvp=``: ``rule(ts, ans, *xs, **params)`` returns the
    output's tangent, ``ts`` holding one tangent or ``None`` (absent) per input.
    """

    __slots__ = ("rule",)

    def __init__(self, rule: Callable) -> None:
        self.rule = rule


REGISTRY: dict[str, Op] = {}


def defop(name: str, fwd: Callable, *, kinds: str | None = None, deriv: Any = None, vjp: Any = None,
          jvp: Any = None, nout: int = 1, broadcast: builtins.bool = False,
          nondiff: builtins.bool = False, batch_ok: builtins.bool = True,
          slices: builtins.bool = False, register: builtins.bool = True) -> Op:
    """Declare a primitive (see docs/contributing.md, "The op vocabulary").

    name: unique op name (TensorFlow's op name where there is one).
    fwd(*arrays, **params): the NumPy forward, returning an array or a tuple of ``nout`` arrays.
    kinds: the NumPy dtype kinds the first input may have (``"f"`` floating, ``"c"`` complex,
        ``"i"``/``"u"`` integers, ``"b"`` bool), checked by :func:`unary` and :func:`binary`;
        None: any (the forward checks what it needs).
    Reverse mode, one of:
      deriv: for elementwise ops, per input ``d(ans, *xs, **params) -> ∂y/∂x_i`` (None: not
        differentiable). Gives the VJP ``g * conj(d)`` and the JVP ``Σ t_i * d_i``.
      vjp: per input ``rule(g, ans, *xs, **params) -> cotangent`` (None: not differentiable), or
        ``jointly(rule)``.
      nondiff: no derivative (outputs are constants; forward mode gives zero tangents).
    Forward mode (with ``vjp``): ``"linear"`` for ops linear in their differentiable inputs; per
      input ``rule(t, ans, *xs, **params) -> tangent`` (called only for present tangents; the
      engine sums the results); or ``jointly(rule)``. None: forward mode raises for this op.
    broadcast: the engine sums cotangents back to each input's shape (NumPy broadcasting).
    batch_ok: the VJP rules accept cotangents with leading (batch) axes (Jacobian walks); the
      engine loops over rows for ops that set this False.
    slices: the VJP rule takes an ``IndexedSlices`` cotangent as it is (Cast, Identity: as in
      TensorFlow, a gather's sparse gradient passes through them); otherwise the engine makes it
      dense first.
    register: False for ops built per call (``custom_gradient``), kept out of :data:`REGISTRY`.
    Rules are written with tapegrad ops, so tapes record them and higher derivatives work.
    """
    if register and name in REGISTRY:
        raise ValueError(f"op {name!r} is declared twice")
    if nondiff + (deriv is not None) + (vjp is not None) != 1:
        raise TypeError(f"defop({name!r}): declare exactly one of deriv=, vjp= or nondiff=True")
    if jvp is not None and vjp is None:
        raise TypeError(f"defop({name!r}): jvp= goes with vjp= (deriv= gives both; nondiff has none)")
    op = Op()
    op.name, op.fwd, op.nout, op.kinds, op.bcast, op.batch_ok = name, fwd, nout, kinds, broadcast, batch_ok
    op.slices = builtins.bool(slices)
    op.dtypes = None if kinds is None else frozenset(d for d in _NATIVE if d.kind in kinds)
    op.ufunc = isinstance(fwd, np.ufunc)  # takes Python scalars as NumPy's weak scalars
    op.nondiff = builtins.bool(nondiff)
    op.module = sys._getframe(1).f_globals.get("__name__", "")
    op.derivs = op.vjps = op.joint = op.jvp = op.diff = None
    if deriv is not None:
        op.derivs = tuple(deriv)
        op.diff = _diff(op.derivs)
        op.jvp = _deriv_jvp(op.derivs)
    elif isinstance(vjp, jointly):
        op.joint = vjp.rule
    elif vjp is not None:
        op.vjps = _per_input(name, "vjp", vjp)
        op.diff = _diff(op.vjps)
    if jvp == "linear":
        op.jvp = _linear_jvp(op)
    elif isinstance(jvp, jointly):
        op.jvp = jvp.rule
    elif jvp is not None:
        op.jvp = _sum_jvp(_per_input(name, "jvp", jvp))
    if register:
        REGISTRY[name] = op
    return op


def _per_input(name: str, what: str, rules: Any) -> tuple:
    if callable(rules) or isinstance(rules, str):
        raise TypeError(f"defop({name!r}): {what}= takes one rule per input (a tuple), "
                        f"\"linear\" (jvp only) or jointly(rule); got {rules!r}")
    return tuple(rules)


def _diff(rules: tuple) -> tuple | None:
    flags = tuple(r is not None for r in rules)
    return None if all(flags) else flags


def _deriv_jvp(ds: tuple) -> Callable:
    def jvp(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
        out = None
        for t, d in zip(ts, ds):
            if t is not None and d is not None:
                term = t * d(ans, *xs, **p)
                out = term if out is None else out + term
        return out
    return jvp


def _sum_jvp(rules: tuple) -> Callable:
    def jvp(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
        out = None
        for t, rule in zip(ts, rules):
            if t is not None and rule is not None:
                term = rule(t, ans, *xs, **p)
                if term is not None:
                    out = term if out is None else _add_tangents(out, term)
        return out
    return jvp


def _add_tangents(a: Any, b: Any) -> Any:
    if type(a) is tuple:  # a multi-output op: per output, None where absent
        return tuple(y if x is None else x if y is None else x + y for x, y in zip(a, b))
    return a + b


def _linear_jvp(op: Op) -> Callable:
    def jvp(ts: Sequence[Any], ans: Any, *xs: Tensor, **p: Any) -> Any:
        diff = op.diff
        args = []
        for i, x in enumerate(xs):
            if diff is None or diff[i]:
                t = ts[i]
                args.append(t if t is not None else zeros_like(x))
            else:
                args.append(x)
        return apply(op, args, p)
    return jvp


@constant_maker
def zeros_like(x: Tensor, lead: tuple = ()) -> Tensor:
    """A constant tensor of zeros of ``x``'s dtype and shape (after ``lead`` axes)."""
    v = x._value
    if type(x) is ArrayTensor:
        return _bk.filled(v, 0, lead)
    return wrap(np.zeros(lead + v.shape, v.dtype))


def vjp(op: Op, g: Any, ans: Any, needs: Sequence[int], xs: Sequence[Tensor], p: dict) -> list:
    """The cotangents of the inputs ``needs`` of a recorded call, from the output's ``g``."""
    out = []
    ds = op.derivs
    if ds is not None:  # elementwise: g * conj(∂y/∂x_i)
        for i in needs:
            out.append(times_deriv(g, ds[i](ans, *xs, **p)))
        return out
    rules = op.vjps
    if rules is not None:
        if len(xs) == 2 and not p:
            x, y = xs
            for i in needs:
                out.append(rules[i](g, ans, x, y))
        else:
            for i in needs:
                out.append(rules[i](g, ans, *xs, **p))
        return out
    return op.joint(g, ans, needs, *xs, **p)


def times_deriv(g: Any, d: Any) -> Any:
    """An elementwise op's cotangent ``g * conj(d)``, ``d`` its derivative, as a recorded op."""
    if (type(d) is Tensor or type(d) is ArrayTensor) and d._value.dtype.kind == "c":
        d = _seam.conj(d)
    return binary(_seam.MUL, g, d)


def apply(op: Op, xs: Sequence[Tensor], p: dict = _EMPTY) -> Any:
    """Run ``op`` on tensors ``xs`` with static params ``p``; record it where a recorder wants it."""
    if _bk.seen and any(type(x) is ArrayTensor for x in xs):
        return on_backend(op, xs, p)
    try:
        out = op.fwd(*[x._value for x in xs], **p)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        if op.bcast and _rec.standing_in():
            return _broadcast_stand_in(op, xs, p, e)
        raise _op_error(op, xs, e) from None
    if _rec.active and (stack := _rec.tls.stack):
        return _record(op, xs, p, out, stack)
    if op.nout == 1:
        t = Tensor()
        t._value = out
        t._id = next_id()
        return t
    return tuple([wrap(o) for o in out])


def unary(op: Op, x: Any) -> Tensor:
    """Apply a one-input, one-output op without params (checking the op's ``kinds``): the hot
    path, kept flat."""
    if type(x) is not Tensor:
        if isinstance(x, CompositeTensor):  # (elementwise: on its flat values, if the type maps this op)
            if x._UNARY is not None and op.name not in x._UNARY:
                raise composite_error(x)
            return x._with_flat(unary(op, x._flat()))
        x = convert_to_tensor(x)
        if type(x) is ArrayTensor:
            return on_backend(op, (x,))
    v = x._value
    dts = op.dtypes
    if dts is not None and v.dtype not in dts:
        _check_kind(op, x)
    try:
        out = op.fwd(v)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, np.linalg.LinAlgError) as e:
        raise _op_error(op, (x,), e) from None
    t = Tensor()
    t._value = out
    t._id = next_id()
    if _rec.active and (stack := _rec.tls.stack):
        rec = stack[0]
        if rec.solo and rec.explain is None and not op.nondiff:
            # one plain tape (the common case): Tape.record, inlined
            if x._id in rec.ids and op.diff is None:
                if out.dtype in _FC or out.dtype.kind in "fc":
                    rec.ids.add(t._id)
                    rec.entries.append((op, (x,), _EMPTY, t, _NEEDS0))
        else:
            _offer(op, (x,), _EMPTY, t, stack)
    return t


def binary(op: Op, x: Any, y: Any) -> Tensor:
    """Apply a two-input op with TF's operand rules; the common cases stay on a short path.

    Tensor-Tensor of one dtype; Tensor with a Python float/int: with no recorder and a ufunc
    forward, NumPy takes the scalar directly (its weak scalars keep the tensor's dtype); under a
    recorder the scalar becomes a cached 0-d constant of the tensor's dtype (recorders need it
    as a tensor, and NumPy takes a 0-d operand faster than a Python scalar).
    """
    stack = _rec.active and _rec.tls.stack  # the recorders (falsy when none is active)
    shaped = False
    if type(x) is Tensor:
        xv = x._value
        dx = xv.dtype
        ty = type(y)
        if ty is Tensor:
            yv = y._value
            if dx is not yv.dtype and dx != yv.dtype:
                raise _dtype_error(op.name, xv, yv)
        elif (ty is float or ty is int) and (dx in _FC or dx.kind in "fc"):
            if not stack and op.ufunc:  # no recorder: NumPy takes the Python scalar (weakly typed)
                dts = op.dtypes
                if dts is not None and dx not in dts:
                    _check_kind(op, x)
                try:
                    out = op.fwd(xv, y)
                except (ValueError, TypeError, ArithmeticError, MemoryError) as e:
                    raise _op_error(op, (x,), e) from None
                t = Tensor()
                t._value = out
                t._id = next_id()
                return t
            c = _SCALARS[dx].get(y)  # the cached constant (_scalar_for), without a call
            y = c if c is not None else _scalar_for(y, dx, op.name)
            yv = y._value
            shaped = True  # (a 0-d operand: x has the output's shape)
        else:
            if isinstance(y, CompositeTensor):
                return composite_binary(op, x, y)
            y = _operand(y, dx, op.name)
            if type(y) is ArrayTensor:
                return on_backend(op, (x, y))
            yv = y._value
    else:
        if isinstance(x, CompositeTensor) or isinstance(y, CompositeTensor):
            return composite_binary(op, x, y)
        x, y = binary_operands(x, y, op.name)
        if type(x) is ArrayTensor or type(y) is ArrayTensor:
            return on_backend(op, (x, y))
        xv, yv = x._value, y._value
        dx = xv.dtype
    dts = op.dtypes
    if dts is not None and dx not in dts:
        _check_kind(op, x)
    try:
        out = op.fwd(xv, yv)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError) as e:
        if op.bcast and _rec.standing_in():
            return _broadcast_stand_in(op, (x, y), _EMPTY, e)
        raise _op_error(op, (x, y), e) from None
    t = Tensor()
    t._value = out
    t._id = next_id()
    if stack:
        rec = stack[0]
        if rec.solo and rec.explain is None and not op.nondiff:
            ids = rec.ids  # (as in unary)
            diff = op.diff
            a = x._id in ids and (diff is None or diff[0])
            b = y._id in ids and (diff is None or diff[1])
            if a or b:
                if out.dtype in _FC or out.dtype.kind in "fc":
                    ids.add(t._id)
                    needs = (_NEEDS01 if b else NEEDS0_SHAPED if shaped else _NEEDS0) if a else _NEEDS1
                    rec.entries.append((op, (x, y), _EMPTY, t, needs))
        else:
            _offer(op, (x, y), _EMPTY, t, stack)
    return t


# --------------------------------------------------------------------------- composite tensors
# Handlers that a composite tensor's package (tapegrad/ragged/) registers when it loads: a
# composite can only exist once its package has loaded, so its handlers are always in place.
COMPOSITE_BINARY: dict[type, Callable] = {}  # type -> handler(fn, x, y), fn(a, b) the op on tensors
COMPOSITE_APIS: dict[tuple, Callable] = {}  # (public function, composite type) -> handler taking its arguments


def _composite_in(args: tuple, kwargs: dict) -> Any:
    """The first composite tensor among a call's arguments and the items of its list arguments
    (``tf.concat([r, s], 0)``); None if there is none."""
    for a in (*args, *kwargs.values()):
        if isinstance(a, CompositeTensor):
            return a
        if isinstance(a, (list, tuple)):
            c = next((x for x in a if isinstance(x, CompositeTensor)), None)
            if c is not None:
                return c
    return None


def composite_binary(op: Any, x: Any, y: Any) -> Any:
    """A binary elementwise op (an :class:`Op`, or a function of two tensors) with a composite
    operand: the composite's handler, given the op on tensors."""
    c = x if isinstance(x, CompositeTensor) else y
    handler = COMPOSITE_BINARY.get(type(c))
    if handler is None:
        raise TypeError(f"{getattr(op, 'name', op)} does not take a {type(c).__name__}.")
    return handler((lambda a, b: binary(op, a, b)) if type(op) is Op else op, x, y)


def composite_call(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn``'s call with a composite argument, handed to the handler registered for ``fn``: what
    a function on a hot path does inline where :func:`composite_api` would cost a call."""
    c = _composite_in(args, kwargs)
    handler = COMPOSITE_APIS.get((fn, type(c)))
    if handler is None:
        raise composite_error(c)
    return handler(*args, **kwargs)


def composite_api(fn: Callable) -> Callable:
    """TensorFlow's dispatch for composite tensors: the decorated public function runs as usual;
    when a composite argument (a RaggedTensor) fails to convert to a Tensor, the handler
    registered for the function in :data:`COMPOSITE_APIS` runs instead (no cost on the dense path
    but one call)."""
    @functools.wraps(fn)
    def api(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except CompositeConversionError:
            handler = COMPOSITE_APIS.get((api, type(_composite_in(args, kwargs))))
            if handler is None:
                raise
        return handler(*args, **kwargs)
    return api


_KIND_NAMES = {"f": "floating", "c": "complex", "i": "signed integer", "u": "unsigned integer",
               "b": "bool", "O": "string"}


def _check_kind(op: Op, x: Tensor) -> None:
    """The slow path of the dtype check (a dtype of another byte order, or an error)."""
    if x._value.dtype.kind not in op.kinds:
        _kind_error(op, x, op.kinds)


def _kind_error(op: Op, x: Tensor, kinds: str) -> None:
    raise InvalidArgumentError(
        f"{op.name} does not accept a {x.dtype.name} tensor (allowed: "
        f"{', '.join(_KIND_NAMES[k] for k in kinds)}). Cast it first, e.g. tf.cast(x, tf.float32).")


def _broadcast_stand_in(op: Op, xs: Sequence[Tensor], p: dict, e: Exception) -> Any:
    """A broadcasting op on stand-ins for symbolic tensors (``_rec.standing_in()``: Keras's
    functional construction) whose operands do not broadcast: TF's symbolic shapes cannot clash
    on an unknown dim, and take the other operand's. The op's outputs on ones of that shape (a
    clashing dim the larger: a constant's, not the small stand-in's), recorded nowhere."""
    shapes = [x._value.shape for x in xs]
    n = builtins.max(len(s) for s in shapes)
    cols = zip(*[(1,) * (n - len(s)) + tuple(s) for s in shapes])
    dims = [{d for d in col if d != 1} or {1} for col in cols]
    if builtins.all(len(d) == 1 for d in dims):  # (they broadcast: the error is another)
        raise _op_error(op, xs, e) from None
    merged = tuple(builtins.max(d) for d in dims)
    try:
        out = op.fwd(*[np.ones(merged[n - len(s):], x._value.dtype) for x, s in zip(xs, shapes)], **p)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError):
        raise _op_error(op, xs, e) from None
    return wrap(out) if op.nout == 1 else tuple([wrap(o) for o in out])


def _op_error(op: Op, xs: Sequence[Tensor], e: Exception) -> Exception:
    if isinstance(e, InvalidArgumentError):
        return e
    shapes = " vs. ".join(str(list(x._value.shape)) for x in xs)
    if isinstance(e, MemoryError):   # NumPy could not allocate the output: TF's OOM error type
        return ResourceExhaustedError(f"OOM: {e} (inputs of shapes {shapes}) [Op:{op.name}]")
    if "broadcast" in str(e):
        return InvalidArgumentError(f"Incompatible shapes: {shapes} [Op:{op.name}]")
    return InvalidArgumentError(f"{e} (inputs of shapes {shapes}) [Op:{op.name}]")


def on_backend(op: Op, xs: Sequence[Tensor], p: dict = _EMPTY) -> Any:
    """Run ``op`` on the backend of its ArrayTensor inputs (see ``_backend``) and record it."""
    be, vals = _bk.operands(op, xs)
    if op.dtypes is not None and xs[0]._value.dtype not in op.dtypes:
        _check_kind(op, xs[0])
    try:
        out = _bk.forward(op, be, vals, p)
    except (ValueError, IndexError, TypeError, ArithmeticError, MemoryError, NotImplementedError) as e:
        raise _op_error(op, xs, e) from None
    ans = _bk.wrap_array(out, be) if op.nout == 1 else tuple([_bk.wrap_array(o, be) for o in out])
    if _rec.active and (stack := _rec.tls.stack):
        _offer(op, xs, p, ans, stack)
    return ans


def _record(op: Op, xs: Sequence[Tensor], p: dict, out: Any, stack: list) -> Any:
    if op.nout == 1:
        ans = Tensor()
        ans._value = out
        ans._id = next_id()
    else:
        ans = tuple([wrap(o) for o in out])
    if len(stack) == 1 and not op.nondiff:  # one tape: no _offer frame (as in unary, binary)
        stack[0].record(op, xs, p, ans, 0)
    else:
        _offer(op, xs, p, ans, stack)
    return ans


def _offer(op: Op, xs: Sequence[Tensor], p: dict, ans: Any, stack: list) -> None:
    """Offer an op's call to each recorder (a nondiff op only tells them it ran).

    Recorders get ``ans``, the output tensor, or the tuple of outputs of a multi-output op."""
    if op.nondiff:
        outs = ans if type(ans) is tuple else (ans,)
        for rec in stack:
            rec.on_nondiff(op, xs, outs, p)
    else:
        for k in range(len(stack)):
            stack[k].record(op, xs, p, ans, k)
