"""Exception types with TensorFlow's names (``tapegrad.errors.InvalidArgumentError`` ...).

``OpError`` and its subclasses are raised by ops, as in TensorFlow. Python-level misuse raises
the built-in ``ValueError``, ``TypeError`` or ``RuntimeError``.
"""
from __future__ import annotations

from typing import Any

__all__ = [
    "OpError", "InvalidArgumentError", "NotFoundError", "UnimplementedError", "InternalError",
    "FailedPreconditionError", "OutOfRangeError", "ResourceExhaustedError", "UnknownError",
    "AbortedError", "AlreadyExistsError", "CancelledError", "DataLossError",
    "DeadlineExceededError", "PermissionDeniedError", "UnauthenticatedError", "UnavailableError",
    "UnconnectedGradientError", "TargetStructureError", "OperatorNotAllowedInGraphError",
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
]

# TensorFlow's error codes (absl's canonical codes), as ``tf.errors`` exports them
OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND = 0, 1, 2, 3, 4, 5
ALREADY_EXISTS, PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED = 6, 7, 8, 9, 10
OUT_OF_RANGE, UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED = 11, 12, 13, 14, 15, 16


class OpError(Exception):
    """An op failed. ``message`` says why; ``op`` names the op when known.

    Constructed as in TensorFlow, ``OpError(node_def, op, message)``, or simply
    ``OpError(message)``.
    """

    error_code: int = UNKNOWN

    def __init__(self, node_def: Any = None, op: Any = None, message: Any = None, *args: Any) -> None:
        if message is None and op is None and isinstance(node_def, str):
            message, node_def = node_def, None
        self.node_def = node_def
        self.op = op
        self.message = message if message is not None else ""
        if args and type(self) is OpError:  # (TF's OpError(node_def, op, message, error_code))
            self.error_code = int(args[0])
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(OpError):
    """An op received an invalid argument (wrong dtype, shape, or value)."""

    error_code = INVALID_ARGUMENT


class NotFoundError(OpError):
    error_code = NOT_FOUND


class UnimplementedError(OpError):
    error_code = UNIMPLEMENTED


class InternalError(OpError):
    error_code = INTERNAL


class FailedPreconditionError(OpError):
    error_code = FAILED_PRECONDITION


class OutOfRangeError(OpError):
    error_code = OUT_OF_RANGE


class ResourceExhaustedError(OpError):
    error_code = RESOURCE_EXHAUSTED


class UnknownError(OpError):
    error_code = UNKNOWN


class AbortedError(OpError):
    error_code = ABORTED


class AlreadyExistsError(OpError):
    error_code = ALREADY_EXISTS


class CancelledError(OpError):
    error_code = CANCELLED


class DataLossError(OpError):
    error_code = DATA_LOSS


class DeadlineExceededError(OpError):
    error_code = DEADLINE_EXCEEDED


class PermissionDeniedError(OpError):
    error_code = PERMISSION_DENIED


class UnauthenticatedError(OpError):
    error_code = UNAUTHENTICATED


class UnavailableError(OpError):
    error_code = UNAVAILABLE


class UnconnectedGradientError(ValueError):
    """``unconnected_gradients="raise"`` found sources without a gradient (a tapegrad extension).

    The message names, for each such source, the cause and the line of your code where it
    happened; ``diagnoses`` holds the same as a :class:`tapegrad.diagnosis.Diagnosis`.
    """

    diagnoses: list = []


class OperatorNotAllowedInGraphError(TypeError):
    """An operation a graph cannot run: TensorFlow's error for a symbolic tensor used as a Python
    bool or iterated inside ``tf.function``. tapegrad traces by running the function, so it rarely
    raises it; it is here for code that catches it."""


class TargetStructureError(TypeError, AttributeError):
    """``jacobian``/``batch_jacobian`` were given a nest where one tensor is expected.

    TensorFlow raises ``AttributeError`` there; this error is both a TypeError and an
    AttributeError, so code catching either keeps working."""


_TRACEBACK_FILTERING = [True]


def enable_traceback_filtering() -> None:
    """Turn TensorFlow's traceback filtering on (the default). tapegrad's tracebacks are not
    filtered: this only sets what ``is_traceback_filtering_enabled`` answers (TF's flag, apart
    from ``keras.config``'s, as in TensorFlow).

    >>> import tapegrad as tf
    >>> tf.debugging.enable_traceback_filtering(); tf.debugging.is_traceback_filtering_enabled()
    True
    """
    _TRACEBACK_FILTERING[0] = True


def disable_traceback_filtering() -> None:
    """See ``enable_traceback_filtering``.

    >>> import tapegrad as tf
    >>> tf.debugging.disable_traceback_filtering(); tf.debugging.is_traceback_filtering_enabled()
    False
    >>> tf.debugging.enable_traceback_filtering()
    """
    _TRACEBACK_FILTERING[0] = False


def is_traceback_filtering_enabled() -> bool:
    """Whether traceback filtering is on (``enable_traceback_filtering``).

    >>> import tapegrad as tf
    >>> tf.debugging.is_traceback_filtering_enabled()
    True
    """
    return _TRACEBACK_FILTERING[0]
