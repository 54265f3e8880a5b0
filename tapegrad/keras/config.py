"""``keras.config``: Keras 3's global settings in one namespace, as Keras 3.15 exports it.

The backend is TensorFlow's (tapegrad stands in for it); ``floatx``, ``epsilon`` and the image
data format are :mod:`tapegrad.keras.backend`'s, the dtype policy
:mod:`tapegrad.keras.mixed_precision`'s, interactive logging :mod:`tapegrad.keras.utils`'s.
``set_max_epochs`` and ``set_max_steps_per_epoch`` cap ``fit`` (and the steps of ``evaluate``
and ``predict``) as Keras's debugging caps do, warning when they cut a run; the environment
variables ``KERAS_MAX_EPOCHS`` and ``KERAS_MAX_STEPS_PER_EPOCH`` set them at import, as in Keras.

>>> from tapegrad import keras
>>> keras.config.backend(), keras.config.floatx(), keras.config.image_data_format()
('tensorflow', 'float32', 'channels_last')
"""
from __future__ import annotations

from . import saving as _saving
from ._data_utils import (disable_interactive_logging, enable_interactive_logging,
                          is_interactive_logging_enabled)
from . import backend as _backend
from .backend import (backend, epsilon, floatx, image_data_format, set_epsilon, set_floatx,
                      set_image_data_format)
from .mixed_precision import global_policy as dtype_policy, set_global_policy as set_dtype_policy

__all__ = ["backend", "disable_flash_attention", "disable_interactive_logging",
           "disable_traceback_filtering", "dtype_policy", "enable_flash_attention",
           "enable_interactive_logging", "enable_traceback_filtering",
           "enable_unsafe_deserialization", "epsilon", "floatx", "image_data_format",
           "is_flash_attention_enabled", "is_interactive_logging_enabled", "is_nnx_enabled",
           "is_traceback_filtering_enabled", "max_epochs", "max_steps_per_epoch", "set_backend",
           "set_dtype_policy", "set_epsilon", "set_floatx", "set_image_data_format",
           "set_max_epochs", "set_max_steps_per_epoch"]

_state: dict = {"flash_attention": None, "traceback_filtering": True}


def set_backend(backend: str) -> None:
    """Keras's backend switch: tapegrad is the TensorFlow backend, so ``"tensorflow"`` is
    accepted (nothing changes) and any other raises ``ValueError``."""
    if backend != "tensorflow":
        raise ValueError(f"tapegrad's Keras runs on its TensorFlow stand-in only: set_backend({backend!r}) "
                         "cannot switch it (use Keras itself for the JAX or torch backends).")


def enable_flash_attention() -> None:
    """Let attention layers use flash attention where they can (Keras's default: ``None``, on).
    tapegrad's attention computes the same numbers either way."""
    _state["flash_attention"] = None


def disable_flash_attention() -> None:
    """Keep attention layers from flash attention."""
    _state["flash_attention"] = False


def is_flash_attention_enabled() -> bool | None:
    """``False`` once disabled, otherwise ``None`` (Keras's "auto"), as Keras answers."""
    return _state["flash_attention"]


def enable_traceback_filtering() -> None:
    """Keras's setting for shortening tracebacks; tapegrad's tracebacks are not filtered, so this
    only sets what :func:`is_traceback_filtering_enabled` answers."""
    _state["traceback_filtering"] = True


def disable_traceback_filtering() -> None:
    """See :func:`enable_traceback_filtering`."""
    _state["traceback_filtering"] = False


def is_traceback_filtering_enabled() -> bool:
    """What :func:`enable_traceback_filtering` and :func:`disable_traceback_filtering` set (True
    by default, as in Keras)."""
    return _state["traceback_filtering"]


def is_nnx_enabled() -> bool:
    """Flax NNX is a JAX-backend feature: False."""
    return False


def enable_unsafe_deserialization() -> None:
    """Deserialize without safe mode where no load decides otherwise (``load_model`` keeps its
    own ``safe_mode``, as in Keras): configs may then name files outside an archive."""
    _saving._set_global_safe_mode(False)


def set_max_epochs(max_epochs: int | None) -> None:
    """Cap the epochs of every ``fit`` (None: no cap), for debugging, as Keras does."""
    _backend._caps["max_epochs"] = max_epochs


def max_epochs() -> int | None:
    """The cap :func:`set_max_epochs` set (or ``KERAS_MAX_EPOCHS``), else None."""
    return _backend._caps["max_epochs"]


def set_max_steps_per_epoch(max_steps_per_epoch: int | None) -> None:
    """Cap the steps of each epoch of ``fit``, ``evaluate`` and ``predict`` (None: no cap)."""
    _backend._caps["max_steps_per_epoch"] = max_steps_per_epoch


def max_steps_per_epoch() -> int | None:
    """The cap :func:`set_max_steps_per_epoch` set (or ``KERAS_MAX_STEPS_PER_EPOCH``), else None."""
    return _backend._caps["max_steps_per_epoch"]
