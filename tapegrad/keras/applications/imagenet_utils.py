"""``keras.applications.imagenet_utils``: the ImageNet input preprocessing of Keras's pretrained
networks (``mode`` ``"caffe"``, ``"tf"`` or ``"torch"``), ``decode_predictions`` (which reads the
class index file from Keras's download cache: tapegrad downloads nothing), and the input-shape
checks the networks' constructors share.

>>> import numpy as np
>>> from tapegrad import keras
>>> x = np.full((1, 2, 2, 3), 255.0, np.float32)
>>> keras.applications.imagenet_utils.preprocess_input(x, mode="tf")[0, 0, 0]
array([1., 1., 1.], dtype=float32)
"""
from __future__ import annotations

import json
import os
import warnings
from typing import Any

import numpy as np

from .._engine import convert_to_tensor, host_value
from .._engine import Tensor
from .. import activations
from .._data_utils import _keras_home, _valid
from .._keras_tensor import KerasTensor
from .._tree import flatten
from .. import ops
from ..backend import image_data_format, standardize_dtype
from ..layers.input_layer import Input, InputLayer
from ..utils import is_keras_tensor

__all__ = ["preprocess_input", "decode_predictions", "obtain_input_shape", "correct_pad",
           "validate_activation"]

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


def _tensor(x: Any, data_format: str, mode: str) -> Any:
    # written with keras.ops and operators, as Keras writes it, so that a KerasTensor traces into
    # the functional graph (ops nodes the model replays on data) and a tensor stays on the tape
    # an integer tensor stays one, as in Keras on TensorFlow: "tf" and "torch" modes divide it by
    # a Python float (TypeError), "caffe" adds the means converted to its dtype (they wrap around
    # for uint8); a KerasTensor's division promotes to float32 (Keras's symbolic ops)
    if isinstance(x, KerasTensor) and not np.issubdtype(np.dtype(standardize_dtype(x.dtype)), np.floating):
        x = ops.cast(x, "float32")
    if mode == "tf":
        return x / 127.5 - 1.0
    ndim = len(x.shape)
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        if data_format == "channels_last":
            x = ops.stack([x[..., i] for i in (2, 1, 0)], axis=-1)
        elif ndim == 3:
            x = ops.stack([x[i] for i in (2, 1, 0)], axis=0)
        else:
            x = ops.stack([x[:, i] for i in (2, 1, 0)], axis=1)
        mean, std = _CAFFE_MEAN, None
    shape = _channel_shape(ndim, data_format)
    dt = np.dtype(standardize_dtype(x.dtype))
    means = -np.asarray(mean)
    x = x + convert_to_tensor((means if dt.kind == "f" else means.astype(np.int64)).astype(dt).reshape(shape))
    return x if std is None else x / convert_to_tensor(np.asarray(std, dt).reshape(shape))


def preprocess_input(x: Any, data_format: str | None = None, mode: str = "caffe") -> Any:
    """Preprocess a batch of RGB images with values in [0, 255] (3-D or 4-D, channels last or
    first) as an ImageNet network expects them:

    * ``"caffe"``: RGB to BGR, then minus the ImageNet mean of each channel, no scaling;
    * ``"tf"``: scaled to [-1, 1];
    * ``"torch"``: scaled to [0, 1], then each channel standardised with ImageNet's mean and std.

    A NumPy array gives a new NumPy array (Keras changes a float array in place); a tensor gives a
    tensor, on the tape; a KerasTensor (``keras.Input``) gives a KerasTensor, the preprocessing
    becoming ops nodes of the functional model. An integer KerasTensor is cast to float32; an
    integer tensor is not (as in Keras on TensorFlow: ``"tf"`` and ``"torch"`` raise TypeError).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.array([[[[255.0, 0.0, 10.0]]]], np.float32)
    >>> keras.applications.imagenet_utils.preprocess_input(x)[0, 0, 0].round(3)
    array([ -93.939, -116.779,  131.32 ], dtype=float32)
    >>> keras.applications.imagenet_utils.preprocess_input(x, mode="torch")[0, 0, 0].round(3)
    array([ 2.249, -2.036, -1.63 ], dtype=float32)
    >>> inp = keras.Input((1, 1, 3))
    >>> model = keras.Model(inp, keras.applications.imagenet_utils.preprocess_input(inp))
    >>> model.predict(x, verbose=0)[0, 0, 0].round(3)
    array([ -93.939, -116.779,  131.32 ], dtype=float32)
    """
    if mode not in ("caffe", "tf", "torch"):
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode!r}")
    if data_format is None:
        data_format = image_data_format()
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or `channels_last`. "
                         f"Received: data_format={data_format!r}")
    if isinstance(x, KerasTensor):
        return _tensor(x, data_format, mode)
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


def decode_predictions(preds: Any, top: int = 5) -> list:
    """The ``top`` ImageNet classes of each row of ``preds`` (shape ``(samples, 1000)``), as lists
    of ``(class_name, class_description, score)``, best first.

    Keras downloads the class index file ``imagenet_class_index.json`` into ``~/.keras/models``
    (``$KERAS_HOME/models``) once; tapegrad downloads nothing, so it reads that file when it is
    there and otherwise raises an error that says where to put it.

    >>> from tapegrad import keras
    >>> keras.applications.vgg16.decode_predictions([[0.1] * 10])
    Traceback (most recent call last):
    ...
    ValueError: `decode_predictions` expects a batch of predictions (i.e. a 2D array of shape (samples, 1000)). Received array with shape: (1, 10)
    """
    preds = np.asarray(host_value(preds, "the predictions to decode"))
    if preds.ndim != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         f"(samples, 1000)). Received array with shape: {preds.shape}")
    path = cached_file("imagenet_class_index.json", "c2c37ea517e94d9795004a39431a14cb")
    if path is None:
        raise FileNotFoundError(
            "decode_predictions needs ImageNet's class index file imagenet_class_index.json, which "
            "Keras downloads and tapegrad does not. Put a copy (from https://storage.googleapis.com/"
            "download.tensorflow.org/data/imagenet_class_index.json) at "
            f"{os.path.join(_models_dir(), 'imagenet_class_index.json')}.")
    with open(path) as f:
        index = json.load(f)
    out = []
    for pred in preds:
        best = pred.argsort()[-top:][::-1]
        row = [tuple(index[str(i)]) + (pred[i],) for i in best]
        row.sort(key=lambda r: r[2], reverse=True)
        out.append(row)
    return out


# ---- what the networks' constructors share ------------------------------------------------------

def _models_dir() -> str:
    return os.path.join(_keras_home(), "models")


def cached_file(name: str, file_hash: str | None) -> str | None:
    """The path of ``name`` in Keras's download cache (``$KERAS_HOME/models``, ``~/.keras/models``)
    when it is there and matches ``file_hash`` (MD5 or SHA-256); None otherwise."""
    for base in (_keras_home(), os.path.join("/tmp", ".keras")):
        path = os.path.join(base, "models", name)
        if os.path.isfile(path) and (file_hash is None or _valid(path, file_hash, "auto")):
            return path
    return None


def check_weights(weights: Any, include_top: bool, classes: int) -> None:
    if not (weights in ("imagenet", None) or (isinstance(weights, (str, os.PathLike))
                                               and os.path.exists(weights))):
        raise ValueError("The `weights` argument should be either `None` (random initialization), "
                         "'imagenet' (pre-training on ImageNet), or the path to the weights file to be "
                         f"loaded.  Received: weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` should be "
                         f"1000.  Received classes={classes}")


def load_weights(model: Any, weights: Any, file_name: str, file_hash: str | None = None) -> None:
    """``weights="imagenet"``: Keras's pretrained file ``file_name``, read from Keras's download
    cache when it is there (tapegrad downloads nothing); a path: ``model.load_weights(path)``."""
    if weights is None:
        return
    if weights == "imagenet":
        path = cached_file(file_name, file_hash)
        if path is None:
            raise FileNotFoundError(
                f"weights='imagenet' needs Keras's pretrained weights file {file_name}, which Keras "
                "downloads and tapegrad does not. Build the model with weights=None and call "
                "model.load_weights(path) on a .h5 or .weights.h5 file you have (one Keras saved, or "
                f"{file_name} downloaded elsewhere), or put that file at "
                f"{os.path.join(_models_dir(), file_name)}, where it is used without downloading.")
        weights = path
    model.load_weights(weights)


def obtain_input_shape(input_shape: Any, default_size: int, min_size: int, data_format: str,
                       require_flatten: bool, weights: Any = None) -> tuple:
    """The input shape (no batch axis) a network is built for, checked as Keras checks it."""
    if input_shape is not None:
        input_shape = tuple(input_shape)
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if data_format == "channels_first" else input_shape[-1]
        if channels not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed "
                          f"an input_shape with {channels} input channels.", stacklevel=3)
        default_shape = ((channels, default_size, default_size) if data_format == "channels_first"
                         else (default_size, default_size, channels))
    else:
        default_shape = ((3, default_size, default_size) if data_format == "channels_first"
                         else (default_size, default_size, 3))
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, "
                             f"`input_shape` should be {default_shape}.  Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        channels, rows, cols = ((input_shape[0],) + input_shape[1:] if data_format == "channels_first"
                                else (input_shape[2],) + input_shape[:2])
        if channels != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
        if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                             f"input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if data_format == "channels_first" else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return input_shape


def correct_pad(inputs: Any, kernel_size: Any) -> tuple:
    """The zero padding before a strided "valid" convolution that makes it act like "same"."""
    axis = 2 if image_data_format() == "channels_first" else 1
    size = inputs.shape[axis:axis + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    correct = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((correct[0] - adjust[0], correct[0]), (correct[1] - adjust[1], correct[1]))


def validate_activation(classifier_activation: Any, weights: Any) -> None:
    """Pretrained weights allow only ``None`` or ``"softmax"`` on the top layer."""
    if weights is None:
        return
    fn = activations.get(classifier_activation)
    if fn not in (activations.get("softmax"), activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, with "
                         f"`include_top=True`; Received: classifier_activation={classifier_activation}")


def image_input(input_tensor: Any, input_shape: tuple) -> Any:
    """The network's input: ``keras.Input(input_shape)``, or ``input_tensor`` (a Keras tensor)."""
    if input_tensor is None:
        return Input(shape=input_shape)
    if not is_keras_tensor(input_tensor):
        raise ValueError("Argument `input_tensor` must be a KerasTensor (keras.Input or a layer's output "
                         f"on one). Received invalid type: input_tensor={input_tensor!r} (of type "
                         f"{type(input_tensor)}). Give the shape as input_shape instead.")
    return input_tensor


def source_inputs(t: Any) -> list:
    """The ``keras.Input`` tensors that ``t`` is computed from."""
    out, seen, stack = [], set(), [t]
    while stack:
        x = stack.pop()
        node = x._node
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node.layer, InputLayer):
            out.append(x)
            continue
        stack.extend(p for p in flatten((node.args, node.kwargs)) if isinstance(p, KerasTensor))
    return out[0] if len(out) == 1 else out


def model_inputs(input_tensor: Any, img_input: Any) -> Any:
    return img_input if input_tensor is None else source_inputs(input_tensor)
