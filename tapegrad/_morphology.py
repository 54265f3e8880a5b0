"""``tf.nn.dilation2d`` and ``erosion2d``: greyscale morphology as strided slices plus a max, so
the gradient (to the input and the filters) comes from the tape."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._convert import as_tensor
from ._tensor import Tensor
from .errors import InvalidArgumentError
from .ops.array import pad, reverse, stack
from .ops.math import negative
from .ops.reduction import reduce_max

__all__ = ["dilation2d", "erosion2d"]


def _pair(v: Any, what: str) -> tuple[int, int]:
    v = [int(a) for a in (v if isinstance(v, (list, tuple)) else [v])]
    if len(v) == 4 and v[0] == 1 and v[3] == 1:
        return v[1], v[2]
    raise InvalidArgumentError(f"{what} must be [1, rows, cols, 1] (4 entries, 1 for the batch and the depth); "
                               f"got {v}.")


def dilation2d(input: Any, filters: Any, strides: Any, padding: str, data_format: str = "NHWC",  # noqa: A002
               dilations: Any = None, name: Any = None) -> Tensor:
    """Greyscale dilation of ``input`` ``[batch, h, w, depth]`` by ``filters`` ``[fh, fw, depth]``:
    ``out[b, y, x, c] = max over (dy, dx) of input[b, y*sy + dy*ry, x*sx + dx*rx, c] + filters[dy,
    dx, c]``, positions outside the image ignored (``"SAME"`` padding), as TensorFlow's.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.constant([0.0, 1.0, 0.0, 2.0]), [1, 2, 2, 1])
    >>> tf.nn.dilation2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])[0, ..., 0].numpy()
    array([[2., 2.],
           [2., 2.]], dtype=float32)
    """
    if data_format != "NHWC":
        raise ValueError(f'Data formats other than "NHWC" are not yet supported; got {data_format!r}.')
    x, f = as_tensor(input), as_tensor(filters)
    if x.shape.rank != 4:
        raise InvalidArgumentError(f"input must be 4-dimensional{list(x.shape)} [Op:Dilation2D]")
    if f.shape.rank != 3:
        raise InvalidArgumentError(f"filter must be 3-dimensional: {list(f.shape)} [Op:Dilation2D]")
    if f.dtype != x.dtype:
        raise InvalidArgumentError(f"filters must have the input's dtype {x.dtype.name}; got {f.dtype.name}.")
    sy, sx = _pair(strides, "strides")
    ry, rx = _pair([1, 1, 1, 1] if dilations is None else dilations, "dilations")
    _, h, w, depth = (int(d) for d in x.shape)
    fh, fw, fd = (int(d) for d in f.shape)
    if fd != depth:
        raise InvalidArgumentError(f"input and filter must have the same depth: {depth} vs {fd} [Op:Dilation2D]")
    eh, ew = (fh - 1) * ry + 1, (fw - 1) * rx + 1
    if padding == "SAME":
        oh, ow = math.ceil(h / sy), math.ceil(w / sx)
        ph, pw = max((oh - 1) * sy + eh - h, 0), max((ow - 1) * sx + ew - w, 0)
        x = pad(x, [[0, 0], [ph // 2, ph - ph // 2], [pw // 2, pw - pw // 2], [0, 0]],
                constant_values=-np.inf if x.dtype.is_floating else np.iinfo(x.dtype.as_numpy_dtype).min)
    elif padding == "VALID":
        oh, ow = (h - eh) // sy + 1, (w - ew) // sx + 1
        if oh <= 0 or ow <= 0:
            raise InvalidArgumentError(f"The filter ({eh}x{ew} dilated) is larger than the input ({h}x{w}) "
                                       "[Op:Dilation2D]")
    else:
        raise ValueError(f"padding must be 'SAME' or 'VALID'; got {padding!r}.")
    taps = [x[:, dy * ry: dy * ry + (oh - 1) * sy + 1: sy, dx * rx: dx * rx + (ow - 1) * sx + 1: sx, :] + f[dy, dx]
            for dy in range(fh) for dx in range(fw)]
    return reduce_max(stack(taps, 0), 0)


def erosion2d(value: Any, filters: Any, strides: Any, padding: str, data_format: str = "NHWC",
              dilations: Any = None, name: Any = None) -> Tensor:
    """Greyscale erosion: ``-dilation2d(-value, filters reversed in both spatial axes)``, as
    TensorFlow defines it.

    >>> import tapegrad as tf
    >>> x = tf.reshape(tf.constant([3.0, 1.0, 4.0, 2.0]), [1, 2, 2, 1])
    >>> tf.nn.erosion2d(x, tf.zeros([2, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC", [1, 1, 1, 1]).numpy().ravel()
    array([1.], dtype=float32)
    """
    return negative(dilation2d(negative(value), reverse(as_tensor(filters), [0, 1]), strides, padding,
                               data_format, dilations))
