"""``keras.applications.imagenet_utils``: the ImageNet input preprocessing of Keras's pretrained
networks (``mode`` ``"caffe"``, ``"tf"`` or ``"torch"``). ``decode_predictions`` needs the class
index file Keras downloads, so tapegrad raises instead.

>>> import numpy as np
>>> from tapegrad import keras
>>> x = np.full((1, 2, 2, 3), 255.0, np.float32)
>>> keras.applications.imagenet_utils.preprocess_input(x, mode="tf")[0, 0, 0]
array([1., 1., 1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..._convert import convert_to_tensor
from ..._tensor import Tensor
from ...ops.array import reshape, stack
from ...ops.math import cast

__all__ = ["preprocess_input", "decode_predictions"]

_IMAGE_DATA_FORMAT = "channels_last"  # keras.backend.image_data_format()'s default
_CAFFE_MEAN = (103.939, 116.779, 123.68)  # BGR
_TORCH_MEAN, _TORCH_STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def _channel_shape(ndim: int, data_format: str) -> tuple:
    if data_format == "channels_last":
        return (1,) * (ndim - 1) + (3,)
    return (3, 1, 1) if ndim == 3 else (1, 3) + (1,) * (ndim - 2)


def _numpy(x: np.ndarray, data_format: str, mode: str) -> np.ndarray:
    x = x.astype(x.dtype if np.issubdtype(x.dtype, np.floating) else np.float32)  # (a copy)
    if mode == "tf":
        return x / x.dtype.type(127.5) - x.dtype.type(1.0)
    if mode == "torch":
        x = x / x.dtype.type(255.0)
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        axis = -1 if data_format == "channels_last" else (0 if x.ndim == 3 else 1)
        x = np.flip(x, axis)
        mean, std = _CAFFE_MEAN, None
    shape = _channel_shape(x.ndim, data_format)
    x = x - np.asarray(mean, x.dtype).reshape(shape)
    return x if std is None else x / np.asarray(std, x.dtype).reshape(shape)


def _tensor(x: Tensor, data_format: str, mode: str) -> Tensor:
    if not x.dtype.is_floating:
        x = cast(x, "float32")
    if mode == "tf":
        return x / 127.5 - 1.0
    ndim = x.shape.rank
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if data_format == "channels_last":
            x = stack([x[..., i] for i in (2, 1, 0)], axis=-1)
        elif ndim == 3:
            x = stack([x[i] for i in (2, 1, 0)], axis=0)
        else:
            x = stack([x[:, i] for i in (2, 1, 0)], axis=1)
        mean, std = _CAFFE_MEAN, None
    shape = _channel_shape(ndim, data_format)
    dt = x.dtype.as_numpy_dtype
    x = x + reshape(convert_to_tensor(-np.asarray(mean, dt)), shape)
    return x if std is None else x / reshape(convert_to_tensor(np.asarray(std, dt)), shape)


def preprocess_input(x: Any, data_format: str | None = None, mode: str = "caffe") -> Any:
    """Preprocess a batch of RGB images with values in [0, 255] (3-D or 4-D, channels last or
    first) as an ImageNet network expects them:

    * ``"caffe"``: RGB to BGR, then minus the ImageNet mean of each channel, no scaling;
    * ``"tf"``: scaled to [-1, 1];
    * ``"torch"``: scaled to [0, 1], then each channel standardised with ImageNet's mean and std.

    A NumPy array gives a new NumPy array (Keras changes a float array in place); a tensor gives a
    tensor, on the tape. Integer inputs are cast to float32.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.array([[[[255.0, 0.0, 10.0]]]], np.float32)
    >>> keras.applications.imagenet_utils.preprocess_input(x)[0, 0, 0].round(3)
    array([ -93.939, -116.779,  131.32 ], dtype=float32)
    >>> keras.applications.imagenet_utils.preprocess_input(x, mode="torch")[0, 0, 0].round(3)
    array([ 2.249, -2.036, -1.63 ], dtype=float32)
    """
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode!r}")
    if data_format is None:
        data_format = _IMAGE_DATA_FORMAT
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or `channels_last`. "
                         f"Received: data_format={data_format!r}")
    if isinstance(x, Tensor) or not isinstance(x, (np.ndarray, list, tuple)):
        return _tensor(convert_to_tensor(x), data_format, mode)
    return _numpy(np.asarray(x), data_format, mode)


def _preprocess_caffe(x: Any, data_format: str | None = None) -> Any:
    """``preprocess_input(x, data_format, mode="caffe")``: BGR, minus the ImageNet channel means.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.applications.vgg16.preprocess_input(np.zeros((1, 1, 1, 3), np.float32))[0, 0, 0]
    array([-103.939, -116.779, -123.68 ], dtype=float32)
    """
    return preprocess_input(x, data_format=data_format, mode="caffe")


def _preprocess_tf(x: Any, data_format: str | None = None) -> Any:
    """``preprocess_input(x, data_format, mode="tf")``: values scaled from [0, 255] to [-1, 1].

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.applications.mobilenet_v2.preprocess_input(np.array([0.0, 127.5, 255.0], np.float32))
    array([-1.,  0.,  1.], dtype=float32)
    """
    return preprocess_input(x, data_format=data_format, mode="tf")


def _preprocess_torch(x: Any, data_format: str | None = None) -> Any:
    """``preprocess_input(x, data_format, mode="torch")``: scaled to [0, 1], then standardised
    with ImageNet's channel means and standard deviations.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.applications.densenet.preprocess_input(np.zeros((1, 1, 1, 3), np.float32))[0, 0, 0].round(4)
    array([-2.1179, -2.0357, -1.8044], dtype=float32)
    """
    return preprocess_input(x, data_format=data_format, mode="torch")


def _preprocess_identity(x: Any, data_format: str | None = None) -> Any:
    """Returns ``x`` unchanged: these networks preprocess inside the model (Keras keeps the function
    for compatibility).

    >>> from tapegrad import keras
    >>> keras.applications.efficientnet.preprocess_input([1.0, 2.0])
    [1.0, 2.0]
    """
    return x


def decode_predictions(preds: Any, top: int = 5) -> Any:
    """Keras maps class scores to ImageNet labels with a class index file it downloads; tapegrad
    downloads nothing, so this raises NotImplementedError saying what to do instead.

    >>> from tapegrad import keras
    >>> keras.applications.vgg16.decode_predictions([[0.1] * 1000])
    Traceback (most recent call last):
    ...
    NotImplementedError: decode_predictions needs ImageNet's class index file ...
    """
    raise NotImplementedError(
        "decode_predictions needs ImageNet's class index file (imagenet_class_index.json), which "
        "Keras downloads and tapegrad does not: load that JSON yourself and map "
        "np.argsort(preds, axis=-1)[:, ::-1][:, :top] through it.")
