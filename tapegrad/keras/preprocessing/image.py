"""``tf.keras.preprocessing.image``: the legacy ``ImageDataGenerator`` (real-time augmentation of
image batches from arrays or from a directory of image files), its iterators and transform
functions, and the image file helpers ``load_img``, ``img_to_array``, ``array_to_img`` and
``save_img``, as Keras 3.15 defines them.

The random draws are Keras's: NumPy's global generator, reseeded with ``seed +`` the number of
batches drawn so far when an iterator has a ``seed``, so a seeded iterator gives Keras's
batches. Reading and writing image files and ``brightness_range`` need Pillow, as in Keras
(``pip install pillow``); everything else needs only NumPy and SciPy.

>>> import numpy as np
>>> from tapegrad import keras
>>> gen = keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255.0, horizontal_flip=True)
>>> x = np.arange(2 * 4 * 4 * 3, dtype="float32").reshape(2, 4, 4, 3)
>>> batch_x, batch_y = next(gen.flow(x, np.array([0, 1]), batch_size=2, shuffle=False, seed=1))
>>> batch_x.shape, batch_y.tolist(), float(batch_x.max())
((2, 4, 4, 3), [0, 1], 0.3725490...)
"""
from __future__ import annotations

import io
import math
import os
import pathlib
import threading
import warnings
from typing import Any, Callable

import numpy as np
import scipy.ndimage

from .._engine import convert_to_tensor
from ...image import resize
from ...ops.array import transpose
from .._data_utils import PyDataset, print_msg
from ..backend import floatx, image_data_format

__all__ = ["ImageDataGenerator", "Iterator", "DirectoryIterator", "NumpyArrayIterator",
           "apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear",
           "random_shift", "random_zoom", "array_to_img", "img_to_array", "load_img", "save_img",
           "smart_resize"]

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(what: str) -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{what}` requires PIL: "
                          "pip install pillow (Keras needs it for this too).") from None
    return Image


def _data_format(data_format: str | None) -> str:
    data_format = data_format or image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format


# ---- image files ---------------------------------------------------------------------------------

def array_to_img(x: Any, data_format: str | None = None, scale: bool = True,
                 dtype: Any = None) -> Any:
    """A 3-D array (height, width, 1, 3 or 4 channels) as a PIL image (needs Pillow); with
    ``scale`` its values are first stretched to [0, 255].

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.preprocessing.image.array_to_img(np.zeros((2, 3, 3))).size
    (3, 2)
    """
    data_format = _data_format(data_format)
    image = _pil("array_to_img")
    x = np.asarray(x, dtype=dtype or floatx())
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    if x.shape[2] == 4:
        return image.fromarray(x.astype("uint8"), "RGBA")
    if x.shape[2] == 3:
        return image.fromarray(x.astype("uint8"), "RGB")
    if x.shape[2] == 1:
        if np.max(x) > 255:
            return image.fromarray(x[:, :, 0].astype("int32"), "I")
        return image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {x.shape[2]}")


def img_to_array(img: Any, data_format: str | None = None, dtype: Any = None) -> np.ndarray:
    """A PIL image (or anything array-like of rank 2 or 3) as a 3-D float array.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.preprocessing.image.img_to_array(np.zeros((2, 3))).shape
    (2, 3, 1)
    """
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or floatx())
    if x.ndim == 3:
        if data_format == "channels_first":
            x = x.transpose(2, 0, 1)
    elif x.ndim == 2:
        x = x.reshape((1,) + x.shape if data_format == "channels_first" else x.shape + (1,))
    else:
        raise ValueError(f"Unsupported image shape: {x.shape}")
    return x


def save_img(path: Any, x: Any, data_format: str | None = None, file_format: str | None = None,
             scale: bool = True, **kwargs: Any) -> None:
    """Write the 3-D array ``x`` as an image file (the format from ``path``'s suffix unless
    ``file_format`` is given; needs Pillow).

    >>> import os, tempfile, numpy as np
    >>> from tapegrad import keras
    >>> path = os.path.join(tempfile.mkdtemp(), "x.png")
    >>> keras.preprocessing.image.save_img(path, np.ones((4, 4, 3)))
    >>> keras.preprocessing.image.load_img(path).size
    (4, 4)
    """
    data_format = _data_format(data_format)
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path: Any, color_mode: str = "rgb", target_size: Any = None,
             interpolation: str = "nearest", keep_aspect_ratio: bool = False) -> Any:
    """Read an image file into a PIL image (needs Pillow), converted to ``color_mode``
    (``"rgb"``, ``"rgba"`` or ``"grayscale"``) and resized to ``target_size`` (height, width)
    with ``interpolation``; ``keep_aspect_ratio`` crops the centre to the target's aspect first.

    >>> from tapegrad import keras
    >>> keras.preprocessing.image.load_img(42)
    Traceback (most recent call last):
    ...
    TypeError: path should be path-like or io.BytesIO, not <class 'int'>
    """
    if not isinstance(path, (io.BytesIO, pathlib.Path, bytes, str)):
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    image = _pil("load_img")
    if isinstance(path, io.BytesIO):
        img = image.open(path)
    else:
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = image.open(io.BytesIO(f.read()))
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode == "rgba":
        if img.mode != "RGBA":
            img = img.convert("RGBA")
    elif color_mode == "rgb":
        if img.mode != "RGB":
            img = img.convert("RGB")
    else:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if target_size is not None:
        size = (target_size[1], target_size[0])
        if img.size != size:
            if interpolation not in _INTERPOLATIONS:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported "
                                 f"methods are {', '.join(_INTERPOLATIONS)}")
            resample = getattr(getattr(image, "Resampling", image), interpolation.upper())
            if keep_aspect_ratio:
                width, height = img.size
                crop_height = min(height, width * size[1] // size[0])
                crop_width = min(width, height * size[0] // size[1])
                top, left = (height - crop_height) // 2, (width - crop_width) // 2
                img = img.resize(size, resample, box=[left, top, left + crop_width, top + crop_height])
            else:
                img = img.resize(size, resample)
    return img


def smart_resize(x: Any, size: Any, interpolation: str = "bilinear", data_format: str = "channels_last",
                 **kwargs: Any) -> Any:
    """Resize an image (3-D) or a batch (4-D) to ``size`` (height, width) without distorting it:
    the largest centred crop with the target's aspect ratio, then ``tf.image.resize`` with
    ``interpolation``. A NumPy input gives a NumPy array, a tensor a tensor.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.arange(24.0, dtype="float32").reshape(2, 4, 3)
    >>> keras.preprocessing.image.smart_resize(x, (2, 2))[..., 0]
    array([[ 3.,  6.],
           [15., 18.]], dtype=float32)
    """
    if kwargs:
        raise TypeError(f"smart_resize() got unexpected keyword arguments: {list(kwargs.keys())}")
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    img = convert_to_tensor(x)
    rank = img.shape.rank
    if rank < 3 or rank > 4:
        raise ValueError("Expected an image array with shape `(height, width, channels)`, or `(batch_size, "
                         "height, width, channels)`, but got input with incorrect rank, of shape "
                         f"{tuple(img.shape)}.")
    last = data_format == "channels_last"
    height, width = (img.shape[-3], img.shape[-2]) if last else (img.shape[-2], img.shape[-1])
    target_height, target_width = size
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    top, left = int(float(height - crop_height) / 2), int(float(width - crop_width) / 2)
    rows, cols = slice(top, top + crop_height), slice(left, left + crop_width)
    img = img[..., rows, cols, :] if last else img[..., rows, cols]
    if not last:  # (tf.image.resize takes channels last)
        img = transpose(img, (1, 2, 0) if rank == 3 else (0, 2, 3, 1))
    img = resize(img, size, method=interpolation)
    if not last:
        img = transpose(img, (2, 0, 1) if rank == 3 else (0, 3, 1, 2))
    return np.array(img) if isinstance(x, np.ndarray) else img


# ---- iterators -----------------------------------------------------------------------------------

class Iterator(PyDataset):
    """Base class of the image iterators: batches of ``batch_size`` samples out of ``n``,
    shuffled each epoch when ``shuffle``; with a ``seed``, NumPy's global generator is reseeded
    with ``seed +`` the batches seen so far before each batch, as Keras does. Usable with ``next``
    (endless) and as a ``PyDataset`` (``len`` batches an epoch) in ``fit``. Subclasses define
    ``_get_batches_of_transformed_samples(index_array)``."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n: int, batch_size: int, shuffle: bool, seed: int | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.n, self.batch_size, self.seed, self.shuffle = n, batch_size, seed, shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array: np.ndarray | None = None
        self.index_generator = self._flow_index()

    def _set_index_array(self) -> None:
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx: int) -> Any:
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def __len__(self) -> int:
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self) -> None:
        self._set_index_array()

    def reset(self) -> None:
        self.batch_index = 0

    def _flow_index(self) -> Any:
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            current = 0 if self.n == 0 else self.batch_index * self.batch_size % self.n
            self.batch_index = self.batch_index + 1 if self.n > current + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[current:current + self.batch_size]

    def __iter__(self) -> "Iterator":
        return self

    def __next__(self) -> Any:
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define "
                                  "_get_batches_of_transformed_samples(index_array).")


def _save_batch(batch_x: np.ndarray, index_array: np.ndarray, data_format: str, save_to_dir: str,
                prefix: str, file_format: str, hash_range: float) -> None:
    for i, j in enumerate(index_array):
        img = array_to_img(batch_x[i], data_format, scale=True)
        name = f"{prefix}_{j}_{np.random.randint(hash_range)}.{file_format}"
        img.save(os.path.join(save_to_dir, name))


class NumpyArrayIterator(Iterator):
    """Batches of a rank-4 image array ``x`` (with labels ``y`` and ``sample_weight`` if given),
    each image transformed by ``image_data_generator``: what ``ImageDataGenerator.flow`` returns.
    ``x`` may be ``(images, other_arrays)``: the other arrays come along unchanged."""

    def __init__(self, x: Any, y: Any, image_data_generator: "ImageDataGenerator", batch_size: int = 32,
                 shuffle: bool = False, sample_weight: Any = None, seed: int | None = None,
                 data_format: str | None = None, save_to_dir: str | None = None,
                 save_prefix: str = "", save_format: str = "png", subset: str | None = None,
                 ignore_class_split: bool = False, dtype: Any = None) -> None:
        data_format = _data_format(data_format)
        self.dtype = dtype or floatx()
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(x[1])] if not isinstance(x[1], list) else [np.asarray(a) for a in x[1]]
            x = x[0]
            for other in x_misc:
                if len(x) != len(other):
                    raise ValueError("All of the arrays in `x` should have the same length. Found a "
                                     f"pair with: len(x[0]) = {len(x)}, len(x[?]) = {len(other)}")
        else:
            x_misc = []
        if y is not None and len(x) != len(y):
            raise ValueError("`x` (images tensor) and `y` (labels) should have the same length. Found: "
                             f"x.shape = {np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError("`x` (images tensor) and `sample_weight` should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, sample_weight.shape = "
                             f"{np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in ("training", "validation"):
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or "validation".')
            split = int(len(x) * image_data_generator._validation_split)
            if y is not None and not ignore_class_split and \
                    not np.array_equal(np.unique(y[:split]), np.unique(y[split:])):
                raise ValueError("Training and validation subsets have different number of classes "
                                 "after the split. If your numpy arrays are sorted by the label, you "
                                 "might want to shuffle them.")
            part = slice(None, split) if subset == "validation" else slice(split, None)
            x, x_misc = x[part], [np.asarray(a[part]) for a in x_misc]
            y = y[part] if y is not None else None
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You passed an "
                             f"array with shape {self.x.shape}")
        axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[axis] not in (1, 3, 4):
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention "{data_format}" '
                          f"(channels on axis {axis}), i.e. expected either 1, 3, or 4 channels on axis "
                          f"{axis}. However, it was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[axis]} channels).")
        self.y = np.asarray(y) if y is not None else None
        self.sample_weight = np.asarray(sample_weight) if sample_weight is not None else None
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        gen = self.image_data_generator
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = gen.get_random_transform(x.shape)
            batch_x[i] = gen.standardize(gen.apply_transform(x.astype(self.dtype), params))
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 1e4)
        misc = [a[index_array] for a in self.x_misc]
        out = batch_x if not misc else [batch_x] + misc
        if self.y is None:
            return out
        if self.sample_weight is not None:
            return out, self.y[index_array], self.sample_weight[index_array]
        return out, self.y[index_array]


def _valid_files(directory: str, formats: tuple, follow_links: bool) -> Any:
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links), key=lambda w: w[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause distortion. Please '
                              "verify your output.")
            if name.lower().endswith(formats):
                yield root, name


def _files_of_class(directory: str, formats: tuple, split: tuple | None, class_indices: dict,
                    follow_links: bool) -> tuple[list, list]:
    dirname = os.path.basename(directory)
    files = list(_valid_files(directory, formats, follow_links))
    if split:
        files = files[int(split[0] * len(files)):int(split[1] * len(files))]
    classes = [class_indices[dirname]] * len(files)
    names = [os.path.join(dirname, os.path.relpath(os.path.join(root, name), directory))
             for root, name in files]
    return classes, names


class DirectoryIterator(Iterator):
    """Batches of the image files under ``directory`` (one subdirectory per class, in
    alphanumeric order unless ``classes`` is given), each read with :func:`load_img` (needs
    Pillow), transformed by ``image_data_generator`` and labelled by ``class_mode``
    (``"categorical"``, ``"binary"``, ``"sparse"``, ``"input"`` or None): what
    ``ImageDataGenerator.flow_from_directory`` returns. ``subset`` takes the generator's
    ``validation_split`` of each class's files (validation first)."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory: Any, image_data_generator: "ImageDataGenerator | None",
                 target_size: Any = (256, 256), color_mode: str = "rgb", classes: Any = None,
                 class_mode: str | None = "categorical", batch_size: int = 32, shuffle: bool = True,
                 seed: int | None = None, data_format: str | None = None, save_to_dir: str | None = None,
                 save_prefix: str = "", save_format: str = "png", follow_links: bool = False,
                 subset: str | None = None, interpolation: str = "nearest",
                 keep_aspect_ratio: bool = False, dtype: Any = None) -> None:
        data_format = _data_format(data_format)
        self.dtype = dtype or floatx()
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        if color_mode not in ("rgb", "rgba", "grayscale"):
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode, self.data_format = color_mode, data_format
        channels = {"rgba": 4, "rgb": 3, "grayscale": 1}[color_mode]
        self.image_shape = (self.target_size + (channels,) if data_format == "channels_last"
                            else (channels,) + self.target_size)
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        self.interpolation = interpolation
        if subset is None:
            split = None
        elif subset == "validation":
            split = (0, image_data_generator._validation_split)
        elif subset == "training":
            split = (image_data_generator._validation_split, 1)
        else:
            raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
        self.split, self.subset = split, subset
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self.allowed_class_modes}")
        self.class_mode = class_mode
        self.directory = directory
        if not os.path.isdir(directory):
            raise FileNotFoundError(f"flow_from_directory: {directory!r} is not a directory.")
        if not classes:
            classes = [d for d in sorted(os.listdir(directory)) if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        labels, self.filenames = [], []
        for sub in classes:
            got, names = _files_of_class(os.path.join(directory, sub), self.white_list_formats,
                                         split, self.class_indices, follow_links)
            labels += got
            self.filenames += names
        self.samples = len(self.filenames)
        self.classes = np.asarray(labels, dtype="int32").reshape(self.samples)
        print_msg(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, name) for name in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self) -> list:
        """The paths of the image files, in sample order."""
        return self._filepaths

    @property
    def labels(self) -> np.ndarray:
        """Each sample's class index."""
        return self.classes

    @property
    def sample_weight(self) -> None:
        return None

    def _get_batches_of_transformed_samples(self, index_array: np.ndarray) -> Any:
        gen = self.image_data_generator
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        for i, j in enumerate(index_array):
            img = load_img(self._filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                           interpolation=self.interpolation, keep_aspect_ratio=self.keep_aspect_ratio)
            x = img_to_array(img, data_format=self.data_format)
            img.close()
            if gen:
                x = gen.standardize(gen.apply_transform(x, gen.get_random_transform(x.shape)))
            batch_x[i] = x
        if self.save_to_dir:
            _save_batch(batch_x, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                        self.save_format, 1e7)
        if self.class_mode == "input":
            return batch_x, batch_x.copy()
        if self.class_mode in ("binary", "sparse"):
            return batch_x, self.classes[index_array].astype(self.dtype)
        if self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            batch_y[np.arange(len(batch_x)), self.classes[index_array]] = 1.0
            return batch_x, batch_y
        return batch_x


# ---- the generator ----------------------------------------------------------------------------------

def flip_axis(x: np.ndarray, axis: int) -> np.ndarray:
    """``x`` reversed along ``axis``."""
    return np.flip(np.asarray(x), axis)


class ImageDataGenerator:
    """Generate batches of images with real-time augmentation (tf.keras's legacy class).

    Each image is, in order: moved by a random affine transform (``rotation_range`` degrees,
    ``width_shift_range``/``height_shift_range`` as fractions of the size when below 1, pixels
    otherwise, or a list of choices; ``shear_range`` degrees; ``zoom_range``), shifted in
    channel values (``channel_shift_range``), flipped (``horizontal_flip``, ``vertical_flip``),
    brightened (``brightness_range``, needs Pillow); then standardised: ``preprocessing_function``,
    ``rescale``, sample-wise and feature-wise centring and scaling, ZCA whitening (the last
    two after :meth:`fit`). Points from outside the image are filled by ``fill_mode``
    (``"constant"`` with ``cval``, ``"nearest"``, ``"reflect"``, ``"wrap"``).
    ``validation_split`` reserves that fraction for ``subset="validation"``.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> gen = keras.preprocessing.image.ImageDataGenerator(rotation_range=30, zoom_range=0.1,
    ...                                                    validation_split=0.25)
    >>> x, y = np.random.rand(8, 6, 6, 1).astype("float32"), np.arange(8) % 2
    >>> train = gen.flow(x, y, batch_size=3, subset="training", seed=0)
    >>> len(train), next(train)[0].shape
    (2, (3, 6, 6, 1))
    """

    def __init__(self, featurewise_center: bool = False, samplewise_center: bool = False,
                 featurewise_std_normalization: bool = False, samplewise_std_normalization: bool = False,
                 zca_whitening: bool = False, zca_epsilon: float = 1e-6, rotation_range: float = 0,
                 width_shift_range: Any = 0.0, height_shift_range: Any = 0.0, brightness_range: Any = None,
                 shear_range: float = 0.0, zoom_range: Any = 0.0, channel_shift_range: float = 0.0,
                 fill_mode: str = "nearest", cval: float = 0.0, horizontal_flip: bool = False,
                 vertical_flip: bool = False, rescale: float | None = None,
                 preprocessing_function: Callable | None = None, data_format: str | None = None,
                 validation_split: float = 0.0, interpolation_order: int = 1, dtype: Any = None) -> None:
        data_format = data_format or image_data_format()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening, self.zca_epsilon = zca_whitening, zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range, self.height_shift_range = width_shift_range, height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode, self.cval = fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.dtype = dtype or floatx()
        self.interpolation_order = interpolation_order
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) '
                             'or `"channels_first"` (channel before row and column). Received: '
                             f"{data_format}")
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = (1, 2, 3) if data_format == "channels_first" \
            else (3, 1, 2)
        if validation_split and not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be strictly between 0 and 1.  Received: {validation_split}")
        self._validation_split = validation_split
        self.mean: np.ndarray | None = None
        self.std: np.ndarray | None = None
        self.zca_whitening_matrix: np.ndarray | None = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError(f"`zoom_range` should be a float or a tuple or list of two floats. Received: {zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides "
                              "setting of `featurewise_center`.")
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides "
                              "setting of`featurewise_std_normalization`.")
        if featurewise_std_normalization and not featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which "
                          "overrides setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which "
                          "overrides setting of `samplewise_center`.")
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x: Any, y: Any = None, batch_size: int = 32, shuffle: bool = True,
             sample_weight: Any = None, seed: int | None = None, save_to_dir: str | None = None,
             save_prefix: str = "", save_format: str = "png", ignore_class_split: bool = False,
             subset: str | None = None) -> NumpyArrayIterator:
        """An iterator of augmented batches of the rank-4 array ``x`` (and ``y``,
        ``sample_weight``); ``subset`` is ``"training"`` or ``"validation"`` with
        ``validation_split``.

        >>> import numpy as np
        >>> from tapegrad import keras
        >>> gen = keras.preprocessing.image.ImageDataGenerator(rescale=0.5)
        >>> next(gen.flow(np.ones((1, 2, 2, 1)), shuffle=False))[0, 0, 0]
        array([0.5], dtype=float32)
        """
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed, data_format=self.data_format,
                                  save_to_dir=save_to_dir, save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset, dtype=self.dtype)

    def flow_from_directory(self, directory: Any, target_size: Any = (256, 256), color_mode: str = "rgb",
                            classes: Any = None, class_mode: str | None = "categorical",
                            batch_size: int = 32, shuffle: bool = True, seed: int | None = None,
                            save_to_dir: str | None = None, save_prefix: str = "",
                            save_format: str = "png", follow_links: bool = False,
                            subset: str | None = None, interpolation: str = "nearest",
                            keep_aspect_ratio: bool = False) -> DirectoryIterator:
        """An iterator of augmented batches of the image files in ``directory``'s class
        subdirectories (see :class:`DirectoryIterator`; reading the files needs Pillow)."""
        return DirectoryIterator(directory, self, target_size=target_size, color_mode=color_mode,
                                 keep_aspect_ratio=keep_aspect_ratio, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format,
                                 batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def flow_from_dataframe(self, dataframe: Any, *args: Any, **kwargs: Any) -> Any:
        """Not provided: tapegrad does not read pandas DataFrames. Raises NotImplementedError."""
        raise NotImplementedError(
            "ImageDataGenerator.flow_from_dataframe is not provided by tapegrad (it does not read "
            "pandas DataFrames). Put the files in one subdirectory per class and use "
            "flow_from_directory, or load the images into an array (keras.preprocessing.image."
            "load_img and img_to_array) and use flow(x, y).")

    def standardize(self, x: np.ndarray) -> np.ndarray:
        """Apply the normalisation of the configuration to one image or a batch (in place when
        it can, as Keras)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_center`, but it hasn't "
                              "been fit on any training data. Fit it first by calling `.fit(numpy_data)`.")
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, but "
                              "it hasn't been fit on any training data. Fit it first by calling "
                              "`.fit(numpy_data)`.")
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat = x.reshape(-1, math.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
            else:
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, but it hasn't been "
                              "fit on any training data. Fit it first by calling `.fit(numpy_data)`.")
        return x

    def get_random_transform(self, img_shape: tuple, seed: int | None = None) -> dict:
        """Draw the parameters of one random transformation for an image of ``img_shape`` (from
        NumPy's global generator, reseeded with ``seed`` if given), in Keras's order."""
        row_axis, col_axis = self.row_axis - 1, self.col_axis - 1
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx = self._shift(self.height_shift_range, img_shape[row_axis])
        ty = self._shift(self.width_shift_range, img_shape[col_axis])
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = None
        if self.channel_shift_range != 0:
            channel_shift = np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    @staticmethod
    def _shift(shift_range: Any, size: int) -> Any:
        if not shift_range:
            return 0
        try:
            t = np.random.choice(shift_range)
            t *= np.random.choice([-1, 1])
        except ValueError:  # (a number, not a list of choices)
            t = np.random.uniform(-shift_range, shift_range)
        if np.max(shift_range) < 1:
            t *= size
        return t

    def apply_transform(self, x: np.ndarray, transform_parameters: dict) -> np.ndarray:
        """Apply the transformation ``transform_parameters`` (as :meth:`get_random_transform`
        draws them) to one 3-D image."""
        p = transform_parameters
        row_axis, col_axis, channel_axis = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0), p.get("shear", 0),
                                   p.get("zx", 1), p.get("zy", 1), row_axis=row_axis, col_axis=col_axis,
                                   channel_axis=channel_axis, fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channel_axis)
        if p.get("flip_horizontal", False):
            x = flip_axis(x, col_axis)
        if p.get("flip_vertical", False):
            x = flip_axis(x, row_axis)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x: np.ndarray, seed: int | None = None) -> np.ndarray:
        """One image, randomly transformed.

        >>> import numpy as np
        >>> from tapegrad import keras
        >>> gen = keras.preprocessing.image.ImageDataGenerator(vertical_flip=True)
        >>> gen.random_transform(np.arange(3.0).reshape(3, 1, 1), seed=2)[:, 0, 0]
        array([2., 1., 0.])
        """
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x: Any, augment: bool = False, rounds: int = 1, seed: int | None = None) -> None:
        """Compute the feature-wise mean, standard deviation and ZCA matrix of the sample images
        ``x`` (rank 4) that ``featurewise_center``, ``featurewise_std_normalization`` and
        ``zca_whitening`` use; ``augment`` first adds ``rounds`` randomly transformed copies.

        >>> import numpy as np
        >>> from tapegrad import keras
        >>> gen = keras.preprocessing.image.ImageDataGenerator(featurewise_center=True)
        >>> gen.fit(np.stack([np.zeros((2, 2, 1)), np.ones((2, 2, 1))]))
        >>> gen.mean.ravel()
        array([0.5], dtype=float32)
        """
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: " + str(x.shape))
        if x.shape[self.channel_axis] not in (1, 3, 4):
            warnings.warn("Expected input to be images (as Numpy array) following the data format "
                          f'convention "{self.data_format}" (channels on axis {self.channel_axis}), i.e. '
                          f"expected either 1, 3 or 4 channels on axis {self.channel_axis}. However, it "
                          f"was passed an array with shape {x.shape} ({x.shape[self.channel_axis]} channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            ax = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    ax[i + r * x.shape[0]] = self.random_transform(x[i])
            x = ax
        shape = [1, 1, 1]
        shape[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=(0, self.row_axis, self.col_axis)), shape)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=(0, self.row_axis, self.col_axis)), shape)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            s_inv = np.sqrt(n) / (s + self.zca_epsilon)
            self.zca_whitening_matrix = (u * s_inv).dot(u.T)


# ---- transforms -------------------------------------------------------------------------------------

def random_rotation(x: np.ndarray, rg: float, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                    fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """Rotate the 3-D image ``x`` by a random angle in [-rg, rg] degrees."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shift(x: np.ndarray, wrg: float, hrg: float, row_axis: int = 1, col_axis: int = 2,
                 channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                 interpolation_order: int = 1) -> np.ndarray:
    """Shift the 3-D image ``x`` by random fractions of its width (``wrg``) and height (``hrg``)."""
    h, w = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * h
    ty = np.random.uniform(-wrg, wrg) * w
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shear(x: np.ndarray, intensity: float, row_axis: int = 1, col_axis: int = 2,
                 channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                 interpolation_order: int = 1) -> np.ndarray:
    """Shear the 3-D image ``x`` by a random angle in [-intensity, intensity] degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_zoom(x: np.ndarray, zoom_range: Any, row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                fill_mode: str = "nearest", cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """Zoom the 3-D image ``x`` by random factors in ``zoom_range`` (two floats), one per axis."""
    if len(zoom_range) != 2:
        raise ValueError(f"`zoom_range` should be a tuple or list of two floats. Received: {zoom_range}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def apply_channel_shift(x: np.ndarray, intensity: float, channel_axis: int = 0) -> np.ndarray:
    """Add ``intensity`` to every channel of ``x``, clipped to ``x``'s range.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> keras.preprocessing.image.apply_channel_shift(np.array([[[0.0, 1.0]]]), 0.5, 2)
    array([[[0.5, 1. ]]])
    """
    x = np.rollaxis(x, channel_axis, 0)
    lo, hi = np.min(x), np.max(x)
    x = np.stack([np.clip(c + intensity, lo, hi) for c in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def random_channel_shift(x: np.ndarray, intensity_range: float, channel_axis: int = 0) -> np.ndarray:
    """:func:`apply_channel_shift` by a random intensity in [-intensity_range, intensity_range]."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x: np.ndarray, brightness: float, scale: bool = True) -> np.ndarray:
    """Scale the brightness of the 3-D image ``x`` (channels last) by ``brightness`` as Keras does,
    through a PIL image (needs Pillow): the values become 8-bit on the way."""
    from PIL import ImageEnhance  # (Pillow: checked by array_to_img first)

    lo, hi = np.min(x), np.max(x)
    local_scale = lo < 0 or hi > 255
    img = ImageEnhance.Brightness(array_to_img(x, scale=local_scale or scale)).enhance(brightness)
    x = img_to_array(img)
    if not scale and local_scale:
        x = x / 255 * (hi - lo) + lo
    return x


def random_brightness(x: np.ndarray, brightness_range: Any, scale: bool = True) -> np.ndarray:
    """:func:`apply_brightness_shift` by a random factor in ``brightness_range`` (two floats)."""
    if len(brightness_range) != 2:
        raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: {brightness_range}")
    u = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, u, scale)


def _offset_center(matrix: np.ndarray, x: float, y: float) -> np.ndarray:
    o_x, o_y = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    offset = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return offset @ matrix @ reset


def apply_affine_transform(x: np.ndarray, theta: float = 0, tx: float = 0, ty: float = 0,
                           shear: float = 0, zx: float = 1, zy: float = 1, row_axis: int = 1,
                           col_axis: int = 2, channel_axis: int = 0, fill_mode: str = "nearest",
                           cval: float = 0.0, order: int = 1) -> np.ndarray:
    """Rotate (``theta`` degrees), shift (``tx`` rows, ``ty`` columns), shear (degrees) and zoom
    the 3-D image ``x`` about its centre, with ``scipy.ndimage.affine_transform`` per channel
    (spline ``order``; ``fill_mode`` and ``cval`` for points from outside).

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> x = np.arange(9.0).reshape(3, 3, 1)
    >>> keras.preprocessing.image.apply_affine_transform(x, theta=90, row_axis=0, col_axis=1,
    ...                                                  channel_axis=2)[..., 0].round(6)
    array([[2., 5., 8.],
           [1., 4., 7.],
           [0., 3., 6.]])
    """
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    given = {row_axis, col_axis, channel_axis}
    if given != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {given - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in (0, 2):
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = None
    if theta != 0:
        t = np.deg2rad(theta)
        matrix = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    if tx != 0 or ty != 0:
        shift = np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]])
        matrix = shift if matrix is None else matrix @ shift
    if shear != 0:
        s = np.deg2rad(shear)
        shear_m = np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]])
        matrix = shear_m if matrix is None else matrix @ shear_m
    if zx != 1 or zy != 1:
        zoom = np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
        matrix = zoom if matrix is None else matrix @ zoom
    if matrix is None:
        return x
    matrix = _offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    x = np.rollaxis(x, channel_axis, 0)
    if col_axis > row_axis:
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    channels = [scipy.ndimage.affine_transform(c, matrix[:2, :2], matrix[:2, 2], order=order,
                                               mode=fill_mode, cval=cval) for c in x]
    return np.rollaxis(np.stack(channels, axis=0), 0, channel_axis + 1)
