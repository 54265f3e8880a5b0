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
    "UnconnectedGradientError", "TargetStructureError",
]


class OpError(Exception):
    """An op failed. ``message`` says why; ``op`` names the op when known.

    Constructed as in TensorFlow, ``OpError(node_def, op, message)``, or simply
    ``OpError(message)``.
    """

    def __init__(self, node_def: Any = None, op: Any = None, message: Any = None, *args: Any) -> None:
        if message is None and op is None and isinstance(node_def, str):
            message, node_def = node_def, None
        self.node_def = node_def
        self.op = op
        self.message = message if message is not None else ""
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(OpError):
    """An op received an invalid argument (wrong dtype, shape, or value)."""


class NotFoundError(OpError):
    pass


class UnimplementedError(OpError):
    pass


class InternalError(OpError):
    pass


class FailedPreconditionError(OpError):
    pass


class OutOfRangeError(OpError):
    pass


class ResourceExhaustedError(OpError):
    pass


class UnknownError(OpError):
    pass


class AbortedError(OpError):
    pass


class AlreadyExistsError(OpError):
    pass


class CancelledError(OpError):
    pass


class DataLossError(OpError):
    pass


class DeadlineExceededError(OpError):
    pass


class PermissionDeniedError(OpError):
    pass


class UnauthenticatedError(OpError):
    pass


class UnavailableError(OpError):
    pass


class UnconnectedGradientError(ValueError):
    """``unconnected_gradients="raise"`` found sources without a gradient (a tapegrad extension).

    The message names, for each such source, the cause and the line of your code where it
    happened; ``diagnoses`` holds the same as a :class:`tapegrad.diagnosis.Diagnosis`.
    """

    diagnoses: list = []


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
