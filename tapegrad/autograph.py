"""``tapegrad.autograph`` (TensorFlow's ``tf.autograph``): tapegrad's ``tf.function`` runs Python
control flow as Python (see docs/function.md), so there is nothing to convert. These names accept
TensorFlow's arguments and leave functions as they are.

>>> import tapegrad as tf
>>> @tf.autograph.experimental.do_not_convert
... def f(x):
...     return x + 1
>>> f(1)
2
"""
from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["experimental", "set_verbosity", "to_code", "trace"]


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """Nothing to log: tapegrad converts no code."""


def to_code(entity: Callable, recursive: bool = True, experimental_optional_features: Any = None) -> str:
    """The source of ``entity``, unchanged (tapegrad converts no code)."""
    return inspect.getsource(entity)


def trace(*args: Any) -> None:
    """Print the arguments (TensorFlow prints them while converting; tapegrad prints them when called)."""
    print(*args)


class experimental:  # noqa: N801  (TensorFlow's namespace tf.autograph.experimental)
    """``tf.autograph.experimental``: ``do_not_convert``, ``set_loop_options``, ``Feature``."""

    class Feature(enum.Enum):
        """The conversion features TensorFlow can enable (accepted and ignored)."""

        ALL = "ALL"
        AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
        ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
        BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
        EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
        LISTS = "LISTS"
        NAME_SCOPES = "NAME_SCOPES"

    @staticmethod
    def do_not_convert(func: Callable | None = None) -> Any:
        """``func`` itself (usable as ``@do_not_convert`` and ``@do_not_convert()``)."""
        return (lambda f: f) if func is None else func

    @staticmethod
    def set_loop_options(parallel_iterations: Any = None, swap_memory: Any = None,
                         maximum_iterations: Any = None, shape_invariants: Any = None) -> None:
        """Nothing: loops run as Python."""
