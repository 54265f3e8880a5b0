"""The one seam between the engine and the op library.

The engine (tensors, conversion, dispatch, the walks) sits below the ops and never imports them.
The few ops it needs are declared here and bound once by ``tapegrad/ops/__init__.py`` (with
:func:`bind`) when the package is imported; until then they raise. Reading them costs one module
attribute lookup.
"""
from __future__ import annotations

from typing import Any, Callable

NEEDED = {
    # ops (Op objects, for the dispatcher's fast paths)
    "MUL": "the op Mul: VJPs and JVPs of ops declared with deriv= multiply by the derivative",
    "conj": "conjugate a complex derivative (deriv= rules of complex inputs)",
    "stack": "pack a list holding tensors (autopacking); stack a Jacobian's rows",
    "concat": "join IndexedSlices cotangents; join a Jacobian's chunks",
    "cast": "cast a seed or tangent to its target's dtype; convert a list holding tensors of another dtype",
    "real": "the real part of a complex tangent of a real output",
    "broadcast_to": "broadcast a tangent to its output's shape",
    "unbroadcast": "sum a cotangent back to its input's shape",
    "reshape": "shape a Jacobian's rows",
    "transpose": "order a batch Jacobian's axes",
    "unstack": "iterate over a tensor",
    "unsorted_segment_sum": "densify IndexedSlices",
    "convert_to_tensor": "IndexedSlices(...) and unpickled tensors",
}


def _unbound(name: str) -> Callable:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"tapegrad's engine needs the op {name!r} before tapegrad.ops bound it: "
                           "import tapegrad (not only its private modules).")
    return missing


# the bound ops (declared for type checkers; each raises until ops/__init__.py binds it)
MUL: Any
conj: Callable
stack: Callable
concat: Callable
cast: Callable
real: Callable
broadcast_to: Callable
unbroadcast: Callable
reshape: Callable
transpose: Callable
unstack: Callable
unsorted_segment_sum: Callable
convert_to_tensor: Callable
globals().update({name: _unbound(name) for name in NEEDED})


def bind(**ops: Any) -> None:
    """Bind needed ops by name (``tapegrad/ops/__init__.py`` binds all but ``convert_to_tensor``,
    which ``_convert`` binds)."""
    unknown = set(ops) - set(NEEDED)
    if unknown:
        raise RuntimeError(f"_seam.bind: {sorted(unknown)} are not declared in NEEDED")
    globals().update(ops)
