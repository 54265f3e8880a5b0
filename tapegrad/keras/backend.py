"""``tapegrad.keras.backend``: Keras 3's global settings (float type, fuzz factor, image layout)
and ``clear_session``, which restarts the layer-name counters.

>>> from tapegrad import keras
>>> keras.backend.floatx(), keras.backend.epsilon(), keras.backend.image_data_format()
('float32', 1e-07, 'channels_last')
"""
from __future__ import annotations

import re
from typing import Any

__all__ = ["floatx", "set_floatx", "epsilon", "set_epsilon", "image_data_format",
           "set_image_data_format", "clear_session", "backend", "standardize_dtype"]

_FLOATS = ("bfloat16", "float16", "float32", "float64")
_state: dict[str, Any] = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}
_name_uids: dict[str, int] = {}


def floatx() -> str:
    """The default float type of new layers' weights and computations (``"float32"``)."""
    return _state["floatx"]


def set_floatx(value: str) -> None:
    """Set the default float type: layers created afterwards compute in it.

    >>> from tapegrad import keras
    >>> keras.backend.set_floatx("float64")
    >>> keras.layers.Dense(2).dtype
    'float64'
    >>> keras.backend.set_floatx("float32")
    """
    value = str(value)
    if value not in _FLOATS:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_FLOATS)}")
    _state["floatx"] = value


def epsilon() -> float:
    """The fuzz factor Keras adds to denominators (``1e-7``)."""
    return _state["epsilon"]


def set_epsilon(value: float) -> None:
    """Set the fuzz factor returned by :func:`epsilon`."""
    _state["epsilon"] = float(value)


def image_data_format() -> str:
    """``"channels_last"`` (the default) or ``"channels_first"``."""
    return _state["image_data_format"]


def set_image_data_format(data_format: str) -> None:
    """Set the default ``data_format`` of image layers."""
    data_format = str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _state["image_data_format"] = data_format


def backend() -> str:
    """The name of the backend: ``"tensorflow"`` (tapegrad stands in for it)."""
    return "tensorflow"


def clear_session(free_memory: bool = True) -> None:
    """Forget the global Keras state: layer names start again at ``"dense"``, ``"dense_1"``, ...

    >>> from tapegrad import keras
    >>> keras.backend.clear_session()
    >>> keras.layers.Dense(1).name, keras.layers.Dense(1).name
    ('dense', 'dense_1')
    """
    _name_uids.clear()
    from . import random
    random._global_generator[0] = None


def standardize_dtype(dtype: Any) -> str:
    """A dtype's name as Keras writes it (``"float32"``); ``None`` gives :func:`floatx`."""
    if dtype is None:
        return floatx()
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        import numpy as np
        name = "string" if dtype is str else np.dtype(dtype).name
    return name


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=.)(?=[A-Z][a-z])")


def snake_case(name: str) -> str:
    """``"BatchNormalization"`` -> ``"batch_normalization"``, ``"Conv2D"`` -> ``"conv2d"``."""
    return _CAMEL.sub("_", re.sub(r"\W+", "", name)).lower()


def unique_name(base: str) -> str:
    """``base`` the first time, then ``base_1``, ``base_2``, ... until :func:`clear_session`."""
    n = _name_uids.get(base, 0)
    _name_uids[base] = n + 1
    return base if n == 0 else f"{base}_{n}"
