"""``tapegrad.keras.utils``: ``set_random_seed``, ``to_categorical``, ``normalize``,
``pad_sequences``, ``timeseries_dataset_from_array``, the train-step helpers
``unpack_x_y_sample_weight`` / ``pack_x_y_sample_weight``, and ``PyDataset`` (``Sequence``),
``Progbar``, ``split_dataset``, ``get_file``, ``plot_model``, ``FeatureSpace``, with Keras 3's arguments
and results.

>>> from tapegrad import keras
>>> keras.utils.to_categorical([0, 2, 1])
array([[1., 0., 0.],
       [0., 0., 1.],
       [0., 1., 0.]])
"""
from __future__ import annotations

import copy as _copy
import difflib as _difflib
import importlib
import json as _json
import random as _pyrandom
from collections.abc import Sequence as _Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._engine import convert_to_tensor
from ._engine import Tensor, TensorSpec
from ..data import Dataset
from ..data._dataset import _Respecified
from ..ops.array import one_hot, range as _range, reshape
from ..ops.indexing import gather
from ..ops.math import maximum
from ..ops.reduction import reduce_sum
from ..random import set_seed as _set_tf_seed
from ._directory import audio_dataset_from_directory, image_dataset_from_directory, text_dataset_from_directory
from ._data_utils import (PyDataset, Progbar, Sequence, disable_interactive_logging,
                          enable_interactive_logging, get_file, is_interactive_logging_enabled,
                          plot_model, split_dataset)
from ._keras_tensor import KerasTensor
from ._tree import flatten as _flatten
from .backend import _global_state, clear_session, standardize_dtype
from .losses import _EPSILON, _l2_normalize, _missing_name

__all__ = ["set_random_seed", "to_categorical", "normalize", "pad_sequences",
           "timeseries_dataset_from_array", "unpack_x_y_sample_weight", "pack_x_y_sample_weight",
           "text_dataset_from_directory", "image_dataset_from_directory", "audio_dataset_from_directory",
           "PyDataset", "Sequence", "Progbar", "split_dataset", "get_file", "plot_model",
           "clear_session", "standardize_dtype", "is_keras_tensor", "enable_interactive_logging",
           "disable_interactive_logging", "is_interactive_logging_enabled", "get_source_inputs",
           "Config", "FeatureSpace"]

# Keras 3 also has the custom-object registry here (keras.utils.custom_object_scope, ...)
from .saving import (CustomObjectScope, custom_object_scope, deserialize_keras_object,  # noqa: E402
                     get_custom_objects, get_registered_object, register_keras_serializable,
                     serialize_keras_object)
__all__ += ["CustomObjectScope", "custom_object_scope", "get_custom_objects", "get_registered_object",
            "register_keras_serializable", "serialize_keras_object", "deserialize_keras_object"]


def set_random_seed(seed: int) -> None:
    """Seed every random generator a Keras program draws from: Python's ``random``, NumPy's global
    generator and ``tf.random`` (``tf.random.set_seed``), and forget the global
    ``keras.random.SeedGenerator`` behind ``seed=None`` (the next draw makes a new one, seeded from
    Python's ``random``), as Keras does, so that a program gives the same numbers on every run.

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> from tapegrad import keras
    >>> keras.utils.set_random_seed(7); a = np.random.rand(), tf.random.uniform([2]).numpy()
    >>> keras.utils.set_random_seed(7); b = np.random.rand(), tf.random.uniform([2]).numpy()
    >>> a[0] == b[0] and bool((a[1] == b[1]).all())
    True
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed!r} "
                         f"(of type {type(seed).__name__})")
    _global_state.pop("global_seed_generator", None)
    _pyrandom.seed(int(seed))
    np.random.seed(int(seed))
    _set_tf_seed(int(seed))


def to_categorical(x: Any, num_classes: int | None = None) -> Any:
    """One-hot rows for the integer class labels ``x`` (a trailing axis of length 1 is dropped):
    a float64 NumPy array for array-like input, a float32 tensor for a tensor.
    ``num_classes`` defaults to the largest label plus one.

    >>> from tapegrad import keras
    >>> keras.utils.to_categorical([[1], [3]], num_classes=4)
    array([[0., 1., 0., 0.],
           [0., 0., 0., 1.]])
    """
    if isinstance(x, Tensor):
        shape = x.shape.as_list()
        if len(shape) > 1 and shape[-1] == 1:
            x = reshape(x, shape[:-1])
        depth = num_classes if num_classes else int(np.max(x.numpy())) + 1
        return one_hot(x, depth)
    labels = np.array(x, dtype="int64")
    shape = labels.shape
    if len(shape) > 1 and shape[-1] == 1:
        shape = shape[:-1]
    labels = labels.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(labels)) + 1
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(f"to_categorical: labels must be in [0, {num_classes}) for "
                         f"num_classes={num_classes}; got labels from {labels.min()} to {labels.max()}.")
    out = np.zeros((labels.shape[0], num_classes))
    out[np.arange(labels.shape[0]), labels] = 1
    return out.reshape(shape + (num_classes,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> Any:
    """``x`` divided by its ``order``-norm along ``axis``: a NumPy array for array-like input (zero
    norms left as they are), a tensor for a tensor (on the tape; norms below ``epsilon`` floored).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]]))
    array([[0.6, 0.8],
           [0. , 0. ]])
    """
    if not isinstance(order, int) or order < 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order!r}")
    if isinstance(x, Tensor):
        if order == 2:
            return _l2_normalize(x, axis)
        norm = reduce_sum(abs(x) ** order, axis=axis, keepdims=True) ** (1.0 / order)
        return x / maximum(norm, _EPSILON)
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def pad_sequences(sequences: _Sequence, maxlen: int | None = None, dtype: Any = "int32",
                  padding: str = "pre", truncating: str = "pre", value: Any = 0.0) -> np.ndarray:
    """Pad (or cut) each sequence to ``maxlen`` (the longest by default) and stack them in a NumPy
    array of ``dtype``. ``padding``/``truncating``: ``"pre"`` (the default) pads or cuts at the
    start, ``"post"`` at the end; padding entries are ``value``.

    >>> from tapegrad import keras
    >>> keras.utils.pad_sequences([[1, 2, 3], [4, 5], [6]], maxlen=2, padding="post")
    array([[2, 3],
           [4, 5],
           [6, 0]], dtype=int32)
    """
    if not hasattr(sequences, "__len__"):
        raise ValueError(f"`sequences` must be iterable. Received: {type(sequences).__name__}")
    if padding not in ("pre", "post"):
        raise ValueError(f'Padding type "{padding}" not understood: use "pre" or "post".')
    if truncating not in ("pre", "post"):
        raise ValueError(f'Truncating type "{truncating}" not understood: use "pre" or "post".')
    lengths, sample_shape = [], None
    for s in sequences:
        if not hasattr(s, "__len__"):
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: {s!r}")
        lengths.append(len(s))
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    if isinstance(value, str) and dtype is not object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s) or not maxlen:
            continue
        kept = np.asarray(s[-maxlen:] if truncating == "pre" else s[:maxlen], dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} is "
                             f"different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        else:
            out[i, -len(kept):] = kept
    return out


def _count(value: Any, name: str) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"`{name}` must be an int. Received: {name}={value!r} "
                        f"(of type {type(value).__name__})")
    return int(value)


def timeseries_dataset_from_array(data: Any, targets: Any, sequence_length: int,
                                  sequence_stride: int = 1, sampling_rate: int = 1,
                                  batch_size: int | None = 128, shuffle: bool = False,
                                  seed: int | None = None, start_index: int | None = None,
                                  end_index: int | None = None, format: str = "tf") -> Dataset:
    """A ``tf.data.Dataset`` of sliding windows over the rows of ``data`` (Keras 3's).

    Window ``i`` starts at row ``start_index + p_i`` with ``p_i = i * sequence_stride`` and holds
    ``sequence_length`` rows ``sampling_rate`` apart; only ``data[start_index:end_index]`` is used.
    With ``targets``, the elements are ``(window, targets[start_index + p_i])`` and there are at
    most ``len(targets)`` windows. ``shuffle=True`` permutes the starts with
    ``np.random.RandomState(seed)`` (no seed: one from ``np.random.randint(10**6)``) and then
    shuffles the windows in a ``tf.data`` buffer of ``8 * batch_size`` (1024 without batching)
    seeded with ``seed``, as Keras does, so a seeded shuffle gives Keras's order. Windows come in
    batches of ``batch_size`` (``None``: one at a time).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> ds = keras.utils.timeseries_dataset_from_array(np.arange(10), np.arange(10) * 10,
    ...                                                sequence_length=3, sequence_stride=2,
    ...                                                batch_size=2)
    >>> for x, y in ds:
    ...     print(x.numpy().tolist(), y.numpy().tolist())
    [[0, 1, 2], [2, 3, 4]] [0, 20]
    [[4, 5, 6], [6, 7, 8]] [40, 60]
    """
    n = len(data)
    sequence_length = _count(sequence_length, "sequence_length")
    sequence_stride = _count(sequence_stride, "sequence_stride")
    sampling_rate = _count(sampling_rate, "sampling_rate")
    if start_index:
        start_index = _count(start_index, "start_index")
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: start_index={start_index}")
        if start_index >= n:
            raise ValueError("`start_index` must be lower than the length of the data. Received: "
                             f"start_index={start_index}, for data of length {n}")
    if end_index:
        end_index = _count(end_index, "end_index")
        if start_index and end_index <= start_index:
            raise ValueError("`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index}")
        if end_index >= n:
            raise ValueError("`end_index` must be lower than the length of the data. Received: "
                             f"end_index={end_index}, for data of length {n}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: end_index={end_index}")
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if value <= 0:
            raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
        if value >= n:
            raise ValueError(f"`{name}` must be lower than the length of the data. Received: "
                             f"{name}={value}, for data of length {n}")
    if format != "tf":
        raise ValueError(f'`format` must be "tf" (tapegrad has no grain datasets). Received: '
                         f"format={format!r}")
    start = start_index or 0
    end = n if end_index is None else end_index
    num_seqs = end - start - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    positions = np.arange(0, num_seqs, sequence_stride, dtype="int32" if num_seqs < 2 ** 31 - 1
                          else "int64")
    if shuffle:
        if seed is None:
            seed = np.random.randint(10 ** 6)
        np.random.RandomState(seed).shuffle(positions)
    steps = convert_to_tensor(data[start:end])
    span = sequence_length * sampling_rate
    starts = Dataset.from_tensor_slices(positions)
    window = TensorSpec((None,) + tuple(steps.shape[1:]), steps.dtype)  # (TF: a range of tensor bounds)
    if targets is None:
        dataset = _Respecified(starts.map(lambda p: gather(steps, _range(p, p + span, sampling_rate))), window)
    else:
        target_steps = convert_to_tensor(targets[start:end])
        dataset = _Respecified(starts.map(lambda p: (gather(steps, _range(p, p + span, sampling_rate)),
                                                     gather(target_steps, p))),
                               (window, TensorSpec(tuple(target_steps.shape[1:]), target_steps.dtype)))
    if batch_size is None:
        return dataset.shuffle(1024, seed=seed) if shuffle else dataset
    if shuffle:
        dataset = dataset.shuffle(batch_size * 8, seed=seed)
    return dataset.batch(batch_size)


def is_keras_tensor(x: Any) -> bool:
    """Whether ``x`` is a symbolic tensor of a functional model (``keras.Input``'s result).

    >>> from tapegrad import keras
    >>> keras.utils.is_keras_tensor(keras.Input((2,))), keras.utils.is_keras_tensor([1.0])
    (True, False)
    """
    return isinstance(x, KerasTensor)


if TYPE_CHECKING:
    from .layers.feature_space import FeatureSpace  # noqa: F401  (loads with the layers, on first use)

_IMAGE_FILES = ("load_img", "img_to_array", "array_to_img", "save_img")  # (in preprocessing.image)

if not TYPE_CHECKING:  # hidden from type checkers: they report a missing name
    def __getattr__(name: str) -> object:  # the image file helpers load on first use; a typo: "did you mean"
        if name in _IMAGE_FILES:
            return getattr(importlib.import_module("..preprocessing.image", __name__), name)
        if name == "FeatureSpace":  # (a layer: loads with the layers)
            return importlib.import_module("..layers.feature_space", __name__).FeatureSpace
        raise _missing_name(__name__, name, __all__ + list(_IMAGE_FILES))


def unpack_x_y_sample_weight(data: Any) -> tuple:
    """``(x, y, sample_weight)`` from a batch as ``fit`` hands it to ``train_step``: ``x``,
    ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``; the missing parts are None.

    >>> from tapegrad import keras
    >>> keras.utils.unpack_x_y_sample_weight(([1.0], [2.0]))
    ([1.0], [2.0], None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return data, None, None
    if 1 <= len(data) <= 3:
        return tuple(data) + (None,) * (3 - len(data))
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`; found a tuple of {len(data)} elements.")


def pack_x_y_sample_weight(x: Any, y: Any = None, sample_weight: Any = None) -> Any:
    """The batch ``fit`` hands to ``train_step``: ``x`` alone (``(x,)`` when ``x`` is a list or
    tuple), ``(x, y)``, or ``(x, y, sample_weight)``.

    >>> from tapegrad import keras
    >>> keras.utils.pack_x_y_sample_weight([1.0], [2.0])
    ([1.0], [2.0])
    """
    if y is None:
        return (x,) if isinstance(x, (list, tuple)) else x
    return (x, y) if sample_weight is None else (x, y, sample_weight)


def get_source_inputs(tensor: Any) -> Any:
    """The input tensors (``keras.Input``s) that ``tensor``, a symbolic output of the functional
    API, is computed from, as a list in the order a left-first walk of the graph meets them. A
    tensor with no graph history (an eager tensor, an array) is returned as it is.

    >>> from tapegrad import keras
    >>> a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    >>> y = keras.layers.Add()([keras.layers.Dense(3)(b), a])
    >>> [t.name for t in keras.utils.get_source_inputs(y)]
    ['b', 'a']
    """
    if not isinstance(tensor, KerasTensor):
        return tensor
    sources: list = []
    seen: set = set()
    stack = [tensor]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        node = t._node
        if node is None:
            found = [t]
        else:
            parents = [x for x in _flatten((node.args, node.kwargs)) if isinstance(x, KerasTensor)]
            if parents:
                stack.extend(reversed(parents))
                continue
            found = [x for x in _flatten(node.outputs) if isinstance(x, KerasTensor)]
        sources.extend(x for x in found if all(x is not y for y in sources))
    return sources


class Config:
    """A dict of named values that also reads and sets them as attributes, can be frozen against
    changes, and serialises to JSON (Keras's ``keras.utils.Config``). Iterating gives the keys in
    sorted order.

    >>> from tapegrad import keras
    >>> config = keras.utils.Config(learning_rate=0.1)
    >>> config.seed = 123
    >>> config["momentum"] = 0.9
    >>> config.seed, config["learning_rate"], list(config)
    (123, 0.1, ['learning_rate', 'momentum', 'seed'])
    >>> config.freeze()
    >>> config.seed = 1
    Traceback (most recent call last):
    ...
    ValueError: Cannot mutate attribute(s) because the config is frozen.
    """

    _OWN = frozenset({"_config", "_frozen"})

    def __init__(self, **kwargs: Any) -> None:
        object.__setattr__(self, "_config", kwargs)
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self) -> bool:
        """Whether :meth:`freeze` was called (and not :meth:`unfreeze` since)."""
        return self._frozen

    def freeze(self) -> None:
        """Refuse every change from now on."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self) -> None:
        """Allow changes again."""
        object.__setattr__(self, "_frozen", False)

    def _raise_if_frozen(self) -> None:
        if self._frozen:
            raise ValueError("Cannot mutate attribute(s) because the config is frozen.")

    def as_dict(self) -> dict:
        """A shallow copy of the values, as a dict."""
        return _copy.copy(self._config)

    def to_json(self) -> str:
        """The values as a JSON string."""
        return _json.dumps(self._config)

    def keys(self) -> Any:
        return self._config.keys()

    def values(self) -> Any:
        return self._config.values()

    def items(self) -> Any:
        return self._config.items()

    def get(self, keyname: str, value: Any = None) -> Any:
        return self._config.get(keyname, value)

    def pop(self, *args: Any) -> Any:
        self._raise_if_frozen()
        return self._config.pop(*args)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._raise_if_frozen()
        self._config.update(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._OWN or hasattr(type(self), name):
            object.__setattr__(self, name, value)
            return
        self._raise_if_frozen()
        self._config[name] = value

    def __getattr__(self, name: str) -> Any:  # (called only for names the class does not have)
        config = self.__dict__.get("_config", {})
        if name in config:
            return config[name]
        close = _difflib.get_close_matches(name, list(config), n=1, cutoff=0.7)
        raise AttributeError(f"Unknown attribute: '{name}'." + (f" Did you mean '{close[0]}'?" if close else ""))

    def __setitem__(self, key: str, item: Any) -> None:
        self._raise_if_frozen()
        self._config[key] = item

    def __getitem__(self, key: str) -> Any:
        return self._config[key]

    def __delitem__(self, key: str) -> None:
        self._raise_if_frozen()
        del self._config[key]

    def __contains__(self, item: Any) -> bool:
        return item in self._config

    def __iter__(self) -> Any:
        return iter(sorted(self._config))

    def __len__(self) -> int:
        return len(self._config)

    def __repr__(self) -> str:
        return f"<Config {self._config}>"
