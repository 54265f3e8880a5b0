"""TensorFlow's auto dtype conversion: the "safe" and "all" modes of
``tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=...)`` (TF's ``flexible_dtypes``
and ``WeakTensor``).

A *weak* tensor's dtype was inferred (from a Python number or list, or an op on weak inputs)
and defers to the other operand's: ``tf.constant(1.2) + tf.constant(3.1, tf.float16)`` is
float16. The lattice below gives, for every pair of (dtype, weak) kinds, the result kind and
whether the promotion is allowed in "safe" mode or only in "all"; a chain of operands folds left
to right, as TensorFlow's ``result_type``. In these modes the functions TensorFlow wraps (the
tables below: elementwise math, reductions, reshapes, ``tnp``'s array makers, ``tf.constant``,
the binary arithmetic and ``matmul``) and the tensor operators promote their operands first; the
unary ones keep a weak (or Python) input's weakness. Off (the modes "off" and "legacy"), nothing
here is installed and nothing costs anything.
"""
from __future__ import annotations

import functools
import importlib
import inspect
from typing import Any, Callable

import numpy as np

from .. import _numpy_interop, dtypes as _dt, nest
from .._convert import convert_to_tensor
from .._tensor import Tensor, TensorShape, constant_maker
from .._variable import Variable
from ..ops import array as _a, math as _m

# the kinds, in the order of the table's rows and columns; a "w" marks a weak kind
_KINDS = ("bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "bfloat16",
          "float16", "float32", "float64", "complex64", "complex128",
          "int32w", "int64w", "float32w", "float64w", "complex128w")
_SHORT = {"b": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "i8": "int8",
          "i16": "int16", "i32": "int32", "i64": "int64", "bf16": "bfloat16", "f16": "float16",
          "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128"}
# Row k: the results of kind k with kinds k, k+1, ... (the table is symmetric); "!": allowed in
# "all" mode only (a TypeError in "safe" mode). TensorFlow 2.21's lattice, checked pair by pair
# against tests/fixtures/weak_promotion.json.
_HALF = """
b u8 u16 u32 u64 i8 i16 i32 i64 bf16 f16 f32 f64 c64 c128 i32w i64w f32w f64w c128w
u8 u16 u32 u64 i16! i16 i32 i64 bf16 f16 f32 f64 c64 c128 u8 u8 f64w! f64w c128w
u16 u32 u64 i32! i32! i32 i64 bf16! f16! f32 f64 c64 c128 u16 u16 f64w! f64w c128w
u32 u64 i64! i64! i64! i64 bf16! f16! f32! f64 c64! c128 u32 u32 f64w! f64w c128w
u64 f64w! f64w! f64w! f64w! bf16! f16! f32! f64! c64! c128! u64 u64 f64w! f64w! c128w!
i8 i16 i32 i64 bf16 f16 f32 f64 c64 c128 i8 i8 f64w! f64w c128w
i16 i32 i64 bf16! f16! f32 f64 c64 c128 i16 i16 f64w! f64w c128w
i32 i64 bf16! f16! f32! f64 c64! c128 i32 i32 f64w! f64w c128w
i64 bf16! f16! f32! f64! c64! c128! i64 i64 f64w! f64w! c128w!
bf16 f32! f32 f64 c64 c128 bf16 bf16 bf16 bf16 c64!
f16 f32 f64 c64 c128 f16 f16 f16 f16 c64!
f32 f64 c64 c128 f32 f32 f32 f32 c64!
f64 c128! c128 f64 f64 f64 f64 c128
c64 c128 c64 c64 c64 c64 c64
c128 c128 c128 c128 c128 c128
i32w i64w f32w f64w c128w
i64w f32w f64w c128w
f32w f64w c128w
f64w c128w
c128w
"""


def _kind(cell: str) -> tuple:
    weak = cell.endswith("w")
    return (_SHORT[cell[:-1] if weak else cell], weak)


def _lattice() -> dict:
    keys = [(k[:-1], True) if k.endswith("w") else (k, False) for k in _KINDS]
    table = {(("string", False), ("string", False)): (("string", False), False)}
    for i, row in enumerate(_HALF.split("\n")[1:-1]):
        for j, cell in enumerate(row.split(), i):
            res = (_kind(cell.rstrip("!")), cell.endswith("!"))
            table[keys[i], keys[j]] = table[keys[j], keys[i]] = res
    return table


_LATTICE = _lattice()
_INT32 = np.iinfo(np.int32)
_state = {"mode": "off"}


def kind_of(x: Any) -> tuple:
    """The (dtype name, weak) kind of an operand, as TensorFlow's ``_get_dtype_and_weakness``."""
    if type(x) is WeakTensor:
        return (x.dtype.name, True)
    if isinstance(x, _dt.DType):
        return (x.name, False)
    if isinstance(x, (Tensor, Variable)):
        return (x.dtype.name, False)
    if isinstance(x, (np.ndarray, np.generic, np.dtype)):
        dt = x if isinstance(x, np.dtype) else x.dtype
        return ("string", False) if dt.kind in "OSU" else (_dt.as_dtype(dt).name, False)
    if isinstance(x, (bytes, str)):
        return ("string", False)
    if isinstance(x, bool) or x is bool:
        return ("bool", False)
    if isinstance(x, int):
        if not _INT32.min <= x <= _INT32.max:
            raise OverflowError(f"Python int {x} too large to convert to np.int32")
        return ("int32", True)
    if x is int:
        return ("int32", True)
    if isinstance(x, float) or x is float:
        return ("float32", True)
    if isinstance(x, complex) or x is complex:
        return ("complex128", True)
    if isinstance(x, TensorShape):
        return ("int32", False)
    if isinstance(x, type) and issubclass(x, np.generic):
        return (_dt.as_dtype(x).name, False)
    raise NotImplementedError(f"Auto dtype conversion semantics does not support {type(x)} type.")


def result_type(*operands: Any) -> tuple:
    """``(DType, weak)``: the promoted kind of ``operands`` (nests flattened; ``None`` skipped)
    under the current mode. TypeError for a promotion that "safe" mode disallows;
    NotImplementedError where the lattice has no entry (the wrapped ops then run unpromoted).

    >>> import tapegrad as tf
    >>> from tapegrad.experimental._promotion import result_type
    >>> result_type(tf.constant(1, tf.int64), 1.5)
    (tf.float64, True)
    """
    kinds = [kind_of(x) for x in nest.flatten([x for x in operands if x is not None])]
    res = kinds[0] if kinds else ("float32", True)
    for arg in kinds[1:]:
        try:
            nxt, all_only = _LATTICE[res, arg]
        except KeyError:
            raise NotImplementedError(f"Implicit Conversion between {res[0]} and {arg[0]} is not allowed. "
                                      "Please convert the input manually if you need to.") from None
        if all_only and _state["mode"] == "safe":
            raise TypeError(f"In promotion mode PromoMode.SAFE, implicit dtype promotion between "
                            f"({res[0]}, weak={res[1]}) and ({arg[0]}, weak={arg[1]}) is disallowed. "
                            "You need to explicitly specify the dtype in your op, or relax your dtype "
                            "promotion rules (such as from SAFE mode to ALL mode).")
        res = nxt
    return _dt.as_dtype(res[0]), res[1]


class WeakTensor(Tensor):
    """A tensor whose dtype was inferred and defers to the other operand's in the "safe" and
    "all" modes (TensorFlow's ``WeakTensor``; a Tensor here, so every op takes it). Ops outside
    the wrapped set treat it as a plain tensor and give plain ones."""

    __slots__ = ()
    _weak = True

    def __repr__(self) -> str:
        return Tensor.__repr__(self)[:-1] + ", weak=True>"

    def __str__(self) -> str:
        return Tensor.__str__(self)[:-1] + ", weak=True)"


def weak(t: Any) -> Any:
    """``t`` as a WeakTensor: an identity op's output (so tapes and traces follow it); a weak
    tensor, a tensor on another backend, or a structure is returned as it is."""
    if type(t) is not Tensor:
        return t
    w = _a.identity(t)
    w.__class__ = WeakTensor  # (the same layout: a fresh output changes class in place)
    return w


def strong(t: Tensor) -> Tensor:
    """A WeakTensor as a plain Tensor (an identity op's output)."""
    return _a.identity(t)


@constant_maker  # (Python numbers and the caller's NumPy arrays: constants, as TF captures them)
def _as(x: Any, dtype: _dt.DType) -> Any:
    """``x`` converted (a Python or NumPy value: wrapping around, as TensorFlow's conversion) or
    cast (a tensor, a list) to ``dtype``."""
    if type(x) is WeakTensor:
        x = strong(x)
    if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
        return convert_to_tensor(np.asarray(x).astype(dtype._np))
    t = convert_to_tensor(x)
    return t if t.dtype == dtype else _m.cast(t, dtype)


def _bound(fn: Callable) -> Callable:
    """``bind(args, kwargs)``: the call's arguments by name, or None when they do not bind."""
    sig = inspect.signature(fn)

    def bind(args: tuple, kwargs: dict) -> Any:
        try:
            b = sig.bind(*args, **kwargs)
        except TypeError:
            return None
        b.apply_defaults()
        return b
    return bind


def unary(fn: Callable, arg: str | None = None) -> Callable:
    """``fn`` with its input ``arg`` (the first) promoted alone: weak in, weak out."""
    bind = _bound(fn)
    arg = arg or next(iter(inspect.signature(fn).parameters))

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        b = bind(args, kwargs)
        if b is None:
            return fn(*args, **kwargs)
        x = b.arguments[arg]
        if (isinstance(x, (Tensor, Variable)) and type(x) is not WeakTensor) or b.arguments.get("dtype") is not None:
            return fn(*args, **kwargs)
        try:
            dtype, is_weak = result_type(x)
        except NotImplementedError:
            return fn(*args, **kwargs)
        b.arguments[arg] = _as(x, dtype)
        out = fn(*b.args, **b.kwargs)
        return weak(out) if is_weak else out
    wrapper.__wrapped_for_promotion__ = fn  # type: ignore[attr-defined]
    return wrapper


def binary(fn: Callable, comparison: bool = False) -> Callable:
    """``fn`` with its first two inputs promoted to their result kind (weak if it is, but for
    comparisons)."""
    bind = _bound(fn)
    x_name, y_name = list(inspect.signature(fn).parameters)[:2]

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        b = bind(args, kwargs)
        if b is None:
            return fn(*args, **kwargs)
        x, y = b.arguments[x_name], b.arguments[y_name]
        try:
            dtype, is_weak = result_type(x, y)
        except NotImplementedError:
            return fn(*args, **kwargs)
        b.arguments[x_name], b.arguments[y_name] = _as(x, dtype), _as(y, dtype)
        out = fn(*b.args, **b.kwargs)
        return weak(out) if is_weak and not comparison else out
    wrapper.__wrapped_for_promotion__ = fn  # type: ignore[attr-defined]
    return wrapper


def _constant(fn: Callable) -> Callable:
    """``tf.constant``: weak for a Python value without ``dtype``; a tensor of another dtype is
    cast when the lattice allows it."""
    bind = _bound(fn)

    @functools.wraps(fn)
    def constant(*args: Any, **kwargs: Any) -> Any:
        b = bind(args, kwargs)
        if b is None:
            return fn(*args, **kwargs)
        value, dtype = b.arguments["value"], b.arguments["dtype"]
        try:
            target, is_weak = result_type(value, None if dtype is None else _dt.as_dtype(dtype))
        except NotImplementedError:
            return fn(*args, **kwargs)
        if type(value) is WeakTensor:
            b.arguments["value"] = value = strong(value)
        if dtype is not None:
            is_weak = False
            if target != _dt.as_dtype(dtype):
                return fn(*b.args, **b.kwargs)
            if isinstance(value, (Tensor, Variable)):
                b.arguments["value"] = _as(value, target)
        else:
            b.arguments["dtype"] = target
        out = fn(*b.args, **b.kwargs)
        return weak(out) if is_weak else out
    constant.__wrapped_for_promotion__ = fn  # type: ignore[attr-defined]
    return constant


def _variable_method(fn: Callable) -> Callable:
    """``Variable.assign``/``assign_add``/``assign_sub``: the value promotes to the variable's
    dtype or the call fails (a variable's dtype never changes)."""

    @functools.wraps(fn)
    def method(self: Any, value: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            target, _ = result_type(self, value)
        except NotImplementedError:
            return fn(self, value, *args, **kwargs)
        if target != self.dtype:
            raise TypeError(f"Variable dtype is immutable. Calling {fn.__name__} of Variable (with dtype "
                            f"{self.dtype.name}) on {value!r} requires converting it to {target.name}, "
                            "which the current promotion semantics disallow: cast the value to the "
                            f"variable's dtype first (tf.cast(value, {self.dtype.name!r})).")
        return fn(self, _as(value, target), *args, **kwargs)
    method.__wrapped_for_promotion__ = fn  # type: ignore[attr-defined]
    return method


# The public functions TensorFlow 2.21 wraps (by module, relative to tapegrad): those that take
# their first input alone, and those that promote two inputs ("=": a comparison, whose result
# is never weak). tests/test_weak_promotion.py checks them against TensorFlow's list.
UNARY = {
    "": "abs acos acosh asin asinh atan atanh clip_by_value cos cosh exp expand_dims floor identity "
        "negative ones_like reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum "
        "reshape round sigmoid sign sin sinh sqrt square squeeze stop_gradient tan tanh transpose zeros_like",
    "math": "abs acos acosh angle asin asinh atan atanh bessel_i0 bessel_i0e bessel_i1 bessel_i1e ceil "
            "conj cos cosh digamma erf erfc erfcinv erfinv exp expm1 floor imag lgamma log log1p "
            "log_sigmoid log_softmax ndtri negative real reciprocal reciprocal_no_nan "
            "reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod "
            "reduce_std reduce_sum reduce_variance rint round rsqrt sigmoid sign sin sinh softplus "
            "sqrt square tan tanh",
    "nn": "depth_to_space gelu leaky_relu log_softmax relu6 sigmoid silu softplus space_to_depth swish tanh",
    "linalg": "diag diag_part matrix_transpose tensor_diag_part trace",
    "image": "extract_patches",
    "debugging": "check_numerics",
    "experimental.numpy": "abs absolute amax amin angle arange arccos arcsin arcsinh arctan arctanh "
                          "around array asanyarray asarray ascontiguousarray average bitwise_not cbrt "
                          "ceil conj conjugate copy cos cosh cumprod cumsum deg2rad diag diagflat "
                          "diagonal diff empty_like exp exp2 expand_dims expm1 fabs fix flatten flip "
                          "fliplr flipud floor full_like imag log log10 log1p log2 max mean min "
                          "moveaxis nanmean negative ones_like positive prod rad2deg ravel real "
                          "reciprocal repeat reshape rot90 round sin sinc sinh sort sqrt square "
                          "squeeze std sum swapaxes tan tanh trace transpose triu vander var zeros_like",
}
BINARY = {
    # (TF wraps the ops that subtract, pow, floordiv and truediv call inside: so do they)
    "": "add divide matmul =maximum =minimum multiply realdiv truncatediv truncatemod subtract pow =equal",
    "math": "add divide divide_no_nan floormod =maximum =minimum mod multiply multiply_no_nan "
            "subtract pow floordiv truediv =equal",
    "linalg": "matmul",
    "experimental.numpy": "matmul",
}
_SAVED: dict = {}  # (module, name) -> the function the mode replaced
_OPERATOR_NAMES = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul")


def _patch(module: Any, name: str, wrap: Callable) -> None:
    fn = getattr(module, name, None)
    if fn is not None and (module, name) not in _SAVED:
        _SAVED[module, name] = fn
        setattr(module, name, wrap(fn))


def _operators(operators: dict) -> dict:
    """The tensor operators of the modes: TF's ``x + y`` calls the wrapped ``add``."""
    table = {}
    for n in _OPERATOR_NAMES:
        op = binary(operators[f"__{n}__"])
        table[f"__{n}__"] = op
        table[f"__r{n}__"] = lambda self, other, op=op: op(other, self)
    for n, none in (("eq", False), ("ne", True)):
        cmp = binary(operators[f"__{n}__"], comparison=True)
        table[f"__{n}__"] = lambda self, other, cmp=cmp, none=none: none if other is None else cmp(self, other)
    return table


def enable(mode: str, operators: dict) -> dict:
    """Install mode ``mode`` ("safe" or "all"): wrap the functions, Variable's assignments and
    NumPy's operators on tensors; returns the tensor operators to install."""
    _state["mode"] = mode
    if not _SAVED:
        tf = importlib.import_module("tapegrad")
        for table, wrap in ((UNARY, unary), (BINARY, None)):
            for path, names in table.items():
                module = importlib.import_module(f"tapegrad.{path}") if path else tf
                for name in names.split():
                    cmp = name.startswith("=")
                    _patch(module, name.lstrip("="), wrap or functools.partial(binary, comparison=cmp))
        _patch(tf, "constant", _constant)
        _patch(tf.math, "scalar_mul", lambda fn: unary(fn, "x"))
        for name in ("assign", "assign_add", "assign_sub"):
            _patch(Variable, name, _variable_method)
    _numpy_interop.promote = promote
    return _operators(operators)


def disable() -> None:
    """Back to TensorFlow's strict functions (modes "off" and "legacy")."""
    _state["mode"] = "off"
    for (module, name), fn in _SAVED.items():
        setattr(module, name, fn)
    _SAVED.clear()


def promote(*operands: Any) -> list:
    """The operands of a NumPy ufunc on tensors, converted to their result kind."""
    dtype, is_weak = result_type(*operands)
    return [weak(_as(x, dtype)) if is_weak else _as(x, dtype) for x in operands]


def _keeps_weak(fn: Callable) -> Callable:
    return lambda self: weak(fn(strong(self)))


for _n in ("__neg__", "__abs__", "__invert__", "__pos__"):
    setattr(WeakTensor, _n, _keeps_weak(getattr(Tensor, _n)))
