"""The op table: every registered op, with inputs on which its derivatives are checked.

Each module here defines ``CASES``, a list of :class:`OpCase`: one module per op family, named as
the family's module in ``tapegrad/ops``. ``tests/test_op_gradients.py``
runs ``tapegrad.test.check_grads`` (reverse and forward mode against central differences, first
and second order, float64) on every case and every argument-shape variant, and fails when a
registered op is named by no case.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence


@dataclass
class OpCase:
    """``fn(*tensors)`` exercises the ops in ``ops`` (default: ``(name,)``).

    ``shapes`` lists argument-shape variants: each entry is one tuple of shapes, one per argument.
    Random float64 arguments are drawn uniformly from ``domain`` (per argument when a list), or
    from ``make(rng, shapes) -> list of arrays`` when given (for structured inputs such as SPD
    matrices). ``nondiff`` cases only check that the op runs and has no gradient.
    """

    name: str
    fn: Callable
    shapes: Sequence[Sequence[tuple]] = ((),)
    ops: Sequence[str] | None = None
    domain: Any = (-2.0, 2.0)
    make: Callable | None = None
    order: int = 2
    modes: Sequence[str] = ("rev", "fwd")
    nondiff: bool = False
    rtol: float | None = None
    atol: float | None = None
    eps: float | None = None
    complex: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def covers(self) -> tuple:
        return tuple(self.ops) if self.ops is not None else (self.name,)


def all_cases() -> list[OpCase]:
    cases: list[OpCase] = []
    for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"{__name__}.{m.name}")
        cases.extend(getattr(mod, "CASES", []))
    return cases
