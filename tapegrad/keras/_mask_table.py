"""The masks Keras hangs on tensors (``_keras_mask``: Keras's ``backend.get_keras_mask`` and
``set_keras_mask``). tapegrad's tensors have slots, so an eager tensor's mask lives in a table keyed
by the tensor's id (unique in the process), dropped with the tensor; a symbolic ``KerasTensor``
keeps its own attribute. Below the layers and the losses, which both read and set masks."""
from __future__ import annotations

import weakref
from typing import Any

from ._engine import Tensor

_masks: dict[int, Any] = {}


def get_mask(t: Any) -> Any:
    """The mask a masking layer (Embedding with ``mask_zero``, Masking) or a loss function attached
    to ``t``, or None."""
    return _masks.get(t._id) if isinstance(t, Tensor) else getattr(t, "_keras_mask", None)


def set_mask(t: Any, mask: Any) -> None:
    """Attach ``mask`` to the tensor ``t`` (None detaches)."""
    if not isinstance(t, Tensor):
        t._keras_mask = mask
    elif mask is None:
        _masks.pop(t._id, None)
    elif t._id not in _masks:
        _masks[t._id] = mask
        weakref.finalize(t, _masks.pop, t._id, None)
    else:
        _masks[t._id] = mask


# Keras sets `_keras_mask` on the eager tensors a masking layer gives; every tapegrad tensor
# answers it (None without a mask), reading, writing and deleting in the table above.
def _del_mask(t: Any) -> None:
    """``del t._keras_mask``: detach the mask (AttributeError when there is none, as for TF's
    tensors, which hold it as a plain attribute)."""
    if _masks.pop(t._id, None) is None:
        raise AttributeError(f"'{type(t).__name__}' object has no attribute '_keras_mask'")


Tensor._keras_mask = property(get_mask, set_mask, _del_mask)  # type: ignore[attr-defined]
