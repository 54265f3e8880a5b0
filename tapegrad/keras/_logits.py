"""Keras's logits cache: a softmax or sigmoid keeps its input, and the crossentropies use it.

``keras.activations.softmax``/``sigmoid`` and ``keras.ops.softmax``/``sigmoid`` hang their input
on their output as ``_keras_logits`` (Keras 3: activations.py, and the TensorFlow backend's nn.py,
on eager tensors as in graphs). ``binary_crossentropy``, ``categorical_crossentropy`` and
``sparse_categorical_crossentropy`` given such an output compute from the logits instead
(``_get_logits`` in the TensorFlow backend): exact where the probabilities saturate, instead of
clipped to ``[1e-7, 1 - 1e-7]``. So ``Dense(1, activation="sigmoid")`` with
``loss="binary_crossentropy"`` trains on the logits, as in Keras. An op on the output (a cast, a
``where``) gives a tensor without them.

tapegrad's tensors have slots, so the logits live in a table keyed by the tensor's id (unique in
the process), dropped with the tensor. Keras's further graph-only shortcut (an output whose graph
op is ``Softmax``/``Sigmoid``, made by ``tf.nn`` inside a ``tf.function``) is not taken.
"""
from __future__ import annotations

import warnings
import weakref
from typing import Any

from ._engine import Tensor

_table: dict[int, Any] = {}


def attach(out: Any, logits: Any) -> Any:
    """``out`` with ``logits`` hung on it (returned)."""
    if isinstance(out, Tensor):
        if out._id not in _table:
            weakref.finalize(out, _table.pop, out._id, None)
        _table[out._id] = logits
    else:
        try:   # (a KerasTensor: a plain attribute)
            out._keras_logits = logits
        except AttributeError:
            pass
    return out


def _get(t: Tensor) -> Any:
    try:
        return _table[t._id]
    except KeyError:
        raise AttributeError("'Tensor' object has no attribute '_keras_logits'") from None


Tensor._keras_logits = property(_get, attach)  # type: ignore[attr-defined]


def get_logits(output: Any, from_logits: bool, activation: str, fn_name: str) -> tuple[Any, bool]:
    """Keras's ``_get_logits``: ``(logits, True)`` for an output that carries them, with Keras's
    warning when ``from_logits=True`` was given too; ``(output, from_logits)`` otherwise."""
    logits = _table.get(output._id) if isinstance(output, Tensor) else getattr(output, "_keras_logits", None)
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument was '
                      f"produced by a {activation} activation and thus does not represent logits. "
                      "Was this intended?", stacklevel=3)
    return logits, True
