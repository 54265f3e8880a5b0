"""``keras.utils.text_dataset_from_directory``, ``image_dataset_from_directory`` and
``audio_dataset_from_directory``: a ``tf.data.Dataset`` of the files under a folder, labelled by
class subfolder, in Keras 3's order (file order, NumPy ``RandomState(seed)`` shuffle of the paths,
then the dataset's seeded shuffle buffer), each file read as Keras's ``tf`` format reads it."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._engine import convert_to_tensor
from ..data import Dataset
from ..ops.array import expand_dims, one_hot
from ..ops.math import cast

__all__ = ["audio_dataset_from_directory", "image_dataset_from_directory", "text_dataset_from_directory"]

_IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _check_split(validation_split: Any, subset: Any, shuffle: bool, seed: Any) -> None:
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` "
                         "argument, to make sure that there is no overlap between the training and "
                         "validation subset.")


def _index(directory: Any, labels: Any, formats: tuple, class_names: Any, shuffle: bool, seed: int,
           follow_links: bool, verbose: bool) -> tuple:
    """The files' paths, their labels and the class names, in Keras's order."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        raise ValueError(f"{directory!r} is not a directory. Pass the folder that holds one subfolder per "
                         "class (or the files themselves, with labels=None or a list).")
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(subdirs):
                raise ValueError("The `class_names` passed did not match the names of the subdirectories of "
                                 f"the target directory. Expected: {subdirs} (or a subset of it), but "
                                 f"received: class_names={class_names}")
            subdirs = list(class_names)
    else:
        subdirs = [""]
        if class_names is not None:
            raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified."
                             if labels is None else "When argument `labels` is specified, argument "
                             "`class_names` cannot be specified (the `class_names` will be the sorted list "
                             "of labels).")
    names, found = [], []
    for i, sub in enumerate(subdirs):
        top = os.path.join(directory, sub)
        for root, _, files in sorted(os.walk(top, followlinks=follow_links), key=lambda w: w[0]):
            for f in sorted(files):
                if f.lower().endswith(formats):
                    names.append(os.path.join(sub, os.path.relpath(os.path.join(root, f), top)))
                    found.append(i)
    if labels == "inferred":
        labels = np.array(found, np.int32)
        classes: Any = subdirs
    elif labels is None:
        classes = None
    else:
        if len(labels) != len(names):
            raise ValueError("Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(names)} files in "
                             f"directory {directory}.")
        classes = [str(v) for v in sorted(set(labels))]
    if verbose:
        print(f"Found {len(names)} files." if labels is None else
              f"Found {len(names)} files belonging to {len(classes)} classes.")
    paths = [os.path.join(directory, n) for n in names]
    if shuffle:
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, classes


def _split(paths: list, labels: Any, validation_split: Any, subset: str) -> tuple:
    if not validation_split:
        return paths, labels
    n = int(validation_split * len(paths))
    if subset == "training":
        print(f"Using {len(paths) - n} files for training.")
        return paths[:-n], None if labels is None else labels[:-n]
    print(f"Using {n} files for validation.")
    return paths[-n:], None if labels is None else labels[-n:]


def _read(max_length: Any) -> Any:
    def read(path: Any) -> Any:
        with open(path.numpy().decode("utf-8"), "rb") as f:
            text = f.read() if max_length is None else f.read(max_length)
        return convert_to_tensor(np.array(text, dtype=object))
    return read


def _check_labels(labels: Any, class_names: Any, label_mode: Any, what: str) -> None:
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("`labels` argument should be a list/tuple of integer labels, of the same size as "
                             f"the number of {what} files in the target directory. If you wish to infer the "
                             "labels from the subdirectory names in the target directory, pass "
                             f'`labels="inferred"`. If you wish to get a dataset that only contains {what} '
                             f"samples (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. Received: labels={labels}, '
                             f"and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")


def _dataset(paths: list, labels: Any, label_mode: Any, num_classes: int, read: Any, shuffle: bool,
             buffer: int, seed: Any) -> Dataset:
    ds = Dataset.from_tensor_slices(paths)
    if label_mode:
        ys = Dataset.from_tensor_slices(np.asarray(labels, np.int32))
        if label_mode == "binary":
            ys = ys.map(lambda y: expand_dims(cast(y, "float32"), -1))
        elif label_mode == "categorical":
            ys = ys.map(lambda y: one_hot(y, num_classes))
        ds = Dataset.zip((ds, ys))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer, seed=seed)
    return ds.map(lambda p, y: (read(p), y)) if label_mode else ds.map(read)


def text_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: str | None = "int",
                                class_names: Sequence[str] | None = None, batch_size: int | None = 32,
                                max_length: int | None = None, shuffle: bool = True, seed: int | None = None,
                                validation_split: float | None = None, subset: str | None = None,
                                follow_links: bool = False, format: str = "tf",  # noqa: A002
                                verbose: bool = True) -> Any:
    """A ``tf.data.Dataset`` of the ``.txt`` files under ``directory`` (Keras 3's function):
    with ``labels="inferred"`` each subfolder is a class (sorted names, or ``class_names``'s
    order) and elements are ``(texts, labels)`` batches; ``label_mode`` ``"int"`` (int32),
    ``"categorical"`` (one-hot float32), ``"binary"`` (float32, shape ``(batch, 1)``) or
    ``None`` (texts only). ``labels`` may instead be a list (one per file, in sorted path order)
    or ``None``.

    ``shuffle`` (default) uses ``seed`` (drawn when ``None``) as Keras does, so the same seed
    gives Keras's order; ``validation_split`` with ``subset`` ``"training"``,
    ``"validation"`` or ``"both"`` (a list of two datasets) splits the shuffled files.
    ``max_length`` cuts each text to that many bytes. The dataset has ``class_names``.

    >>> import os, tempfile
    >>> from tapegrad import keras
    >>> root = tempfile.mkdtemp()
    >>> for cls, text in [("neg", "bad"), ("pos", "good")]:
    ...     os.mkdir(os.path.join(root, cls))
    ...     with open(os.path.join(root, cls, "a.txt"), "w") as f:
    ...         _ = f.write(text)
    >>> ds = keras.utils.text_dataset_from_directory(root, shuffle=False, verbose=False)
    >>> ds.class_names
    ['neg', 'pos']
    >>> [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ds]
    [([b'bad', b'good'], [0, 1])]
    """
    _check_labels(labels, class_names, label_mode, "text")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" in tapegrad (Grain is not available). Received: format={format}')
    if labels is None or label_mode is None:
        labels = label_mode = None
    _check_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, classes = _index(directory, labels, (".txt",), class_names, shuffle, seed, follow_links, verbose)
    if label_mode == "binary" and len(classes) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={classes}")
    buffer = batch_size * 8 if batch_size is not None else 1024
    n = len(classes) if classes else 0
    subsets = ["training", "validation"] if subset == "both" else [subset]
    out = []
    for which in subsets:
        p, y = _split(paths, labels, validation_split, which)
        if not p:
            raise ValueError(f"No {'' if subset != 'both' else which + ' '}text files found in directory "
                             f"{directory}. Allowed format: .txt")
        ds = _dataset(p, y, label_mode, n, _read(max_length), shuffle and not (subset == "both" and which == "validation"),
                      buffer, seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(-1)
        ds.class_names = classes
        out.append(ds)
    return out if subset == "both" else out[0]


def _load_image(num_channels: int, size: tuple, interpolation: str, data_format: str, crop: bool, pad: bool) -> Any:
    from .. import image as _image
    from ..io import decode_image, read_file
    from ..ops.array import transpose

    def load(path: Any) -> Any:
        img = decode_image(read_file(path), channels=num_channels, expand_animations=False)
        if crop:  # keras.preprocessing.image.smart_resize: the largest centred crop of the target's aspect ratio
            h, w = img.shape[0], img.shape[1]
            ch = max(min(h, int(float(w * size[0]) / size[1])), 1)
            cw = max(min(w, int(float(h * size[1]) / size[0])), 1)
            y, x = int(float(h - ch) / 2), int(float(w - cw) / 2)
            img = _image.resize(img[y:y + ch, x:x + cw], size, method=interpolation)
        elif pad:
            img = _image.resize_with_pad(img, size[0], size[1], method=interpolation)
        else:
            img = _image.resize(img, size, method=interpolation)
        return transpose(img, (2, 0, 1)) if data_format == "channels_first" else img
    return load


def image_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: str | None = "int",
                                 class_names: Sequence[str] | None = None, color_mode: str = "rgb",
                                 batch_size: int | None = 32, image_size: Any = (256, 256), shuffle: bool = True,
                                 seed: int | None = None, validation_split: float | None = None,
                                 subset: str | None = None, interpolation: str = "bilinear",
                                 follow_links: bool = False, crop_to_aspect_ratio: bool = False,
                                 pad_to_aspect_ratio: bool = False, data_format: str | None = None,
                                 format: str = "tf", verbose: bool = True) -> Any:  # noqa: A002
    """A ``tf.data.Dataset`` of the ``.bmp``, ``.gif``, ``.jpeg``, ``.jpg`` and ``.png`` files under
    ``directory`` (Keras 3's function; decoding JPEG, PNG and GIF needs Pillow, ``tapegrad[image]``).

    Files, labels, ``class_names``, ``shuffle``/``seed`` and ``validation_split``/``subset`` work as in
    :func:`text_dataset_from_directory`. Each image is decoded with ``tf.io.decode_image`` to
    ``color_mode`` ``"grayscale"``, ``"rgb"`` or ``"rgba"`` (1, 3, 4 channels; a GIF's first frame),
    resized to ``image_size`` with ``tf.image.resize(method=interpolation)`` (float32; with
    ``crop_to_aspect_ratio`` from the largest centred crop of the target's aspect ratio, with
    ``pad_to_aspect_ratio`` through ``tf.image.resize_with_pad``) and laid out by ``data_format``
    (``keras.config.image_data_format()`` when ``None``). Batches of ``batch_size`` (``None``: single
    images). The dataset has ``class_names`` and ``file_paths``.

    >>> import os, tempfile, numpy as np, PIL.Image
    >>> from tapegrad import keras
    >>> root = tempfile.mkdtemp()
    >>> for cls in ("cat", "dog"):
    ...     os.mkdir(os.path.join(root, cls))
    ...     PIL.Image.fromarray(np.zeros((6, 4, 3), np.uint8)).save(os.path.join(root, cls, "a.png"))
    >>> ds = keras.utils.image_dataset_from_directory(root, image_size=(3, 2), batch_size=2, shuffle=False)
    Found 2 files belonging to 2 classes.
    >>> images, labels = next(iter(ds))
    >>> ds.class_names, images.shape, labels.numpy().tolist()
    (['cat', 'dog'], TensorShape([2, 3, 2, 3]), [0, 1])
    """
    _check_labels(labels, class_names, label_mode, "image")
    if labels is None or label_mode is None:
        labels = label_mode = None
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: color_mode={color_mode}')
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"Invalid `image_size` value. Expected a tuple of 2 integers. Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" in tapegrad (Grain is not available). Received: format={format}')
    _check_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    paths, labels, classes = _index(directory, labels, _IMAGE_FORMATS, class_names, shuffle, seed, follow_links,
                                    verbose)
    if label_mode == "binary" and len(classes) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={classes}")
    from .backend import image_data_format
    data_format = image_data_format() if data_format is None else str(data_format).lower()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError('The `data_format` argument must be one of {"channels_first", "channels_last"}. '
                         f"Received: data_format={data_format}")
    if pad_to_aspect_ratio and crop_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")
    load = _load_image(channels, tuple(int(v) for v in image_size), interpolation, data_format,
                       crop_to_aspect_ratio, pad_to_aspect_ratio)
    buffer = batch_size * 8 if batch_size is not None else 1024
    subsets = ["training", "validation"] if subset == "both" else [subset]
    out = []
    for which in subsets:
        p, y = _split(paths, labels, validation_split, which)
        if not p:
            raise ValueError(f"No {which + ' ' if subset == 'both' else ''}images found in directory {directory}. "
                             f"Allowed formats: {_IMAGE_FORMATS}")
        ds = _dataset(p, y, label_mode, len(classes) if classes else 0, load,
                      shuffle and not (subset == "both" and which == "validation"), buffer, seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(-1)
        ds.class_names = classes
        ds.file_paths = p
        out.append(ds)
    return out if subset == "both" else out[0]


def _load_audio(output_sequence_length: Any) -> Any:
    from ..audio import decode_wav
    from ..io import read_file

    def load(path: Any) -> Any:
        n = -1 if output_sequence_length is None else output_sequence_length
        return decode_wav(read_file(path), desired_samples=n)[0]
    return load


def audio_dataset_from_directory(directory: str, labels: Any = "inferred", label_mode: str | None = "int",
                                 class_names: Sequence[str] | None = None, batch_size: int | None = 32,
                                 sampling_rate: int | None = None, output_sequence_length: int | None = None,
                                 ragged: bool = False, shuffle: bool = True, seed: int | None = None,
                                 validation_split: float | None = None, subset: str | None = None,
                                 follow_links: bool = False, format: str = "tf",  # noqa: A002
                                 verbose: bool = True) -> Any:
    """A ``tf.data.Dataset`` of the ``.wav`` files under ``directory`` (Keras 3's function), each read with
    ``tf.audio.decode_wav`` as ``float32`` ``[samples, channels]``.

    Files, labels, ``class_names``, ``shuffle``/``seed`` and ``validation_split``/``subset`` work as in
    :func:`text_dataset_from_directory` (``subset="both"`` gives a tuple). ``output_sequence_length``
    cuts or zero-pads every clip to that many samples; without it batches are padded to their longest
    clip (``padded_batch``), or with ``ragged=True`` the clips are ``tf.RaggedTensor`` rows.
    ``sampling_rate`` (resampling through tensorflow-io in Keras) is not available and raises.

    >>> import os, tempfile
    >>> import tapegrad as tf
    >>> root = tempfile.mkdtemp()
    >>> for cls, n in [("no", 2), ("yes", 3)]:
    ...     os.mkdir(os.path.join(root, cls))
    ...     tf.io.write_file(os.path.join(root, cls, "a.wav"), tf.audio.encode_wav(tf.fill([n, 1], 0.5), 16000))
    >>> ds = tf.keras.utils.audio_dataset_from_directory(root, shuffle=False, verbose=False)
    >>> audio, labels = next(iter(ds))
    >>> audio.shape, labels.numpy().tolist()
    (TensorShape([2, 3, 1]), [0, 1])
    """
    _check_labels(labels, class_names, label_mode, "audio")
    if ragged and output_sequence_length is not None:
        raise ValueError("Cannot set both `ragged` and `output_sequence_length`")
    if sampling_rate is not None:
        if not isinstance(sampling_rate, int):
            raise ValueError(f"`sampling_rate` should have an integer value. Received: sampling_rate={sampling_rate}")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` should be higher than 0. Received: sampling_rate={sampling_rate}")
        raise NotImplementedError("audio_dataset_from_directory(sampling_rate=...) resamples with tensorflow-io's "
                                  "tfio.audio.resample in Keras, which tapegrad does not have. Leave sampling_rate "
                                  "as None (the files' own rate) and resample the files beforehand.")
    if format != "tf":
        raise ValueError(f'`format` should be "tf" in tapegrad (Grain is not available). Received: format={format}')
    if labels is None or label_mode is None:
        labels = label_mode = None
    _check_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1e6)
    buffer = batch_size * 8 if batch_size is not None else 1024
    paths, labels, classes = _index(directory, labels, (".wav",), class_names, shuffle, seed, follow_links, verbose)
    if label_mode == "binary" and len(classes) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={classes}")
    load = _load_audio(output_sequence_length)
    if ragged:
        from ..ragged import RaggedTensor
        base = load

        def load(path: Any) -> Any:
            return RaggedTensor.from_tensor(base(path))
    subsets = ["training", "validation"] if subset == "both" else [subset]
    out = []
    for which in subsets:
        p, y = _split(paths, labels, validation_split, which)
        if not p:
            raise ValueError(f"No {which + ' ' if subset == 'both' else ''}audio files found in directory "
                             f"{directory}. Allowed format(s): ('.wav',)")
        ds = _dataset(p, y, label_mode, len(classes) if classes else 0, load,
                      shuffle and not (subset == "both" and which == "validation"), buffer, seed)
        ds = ds.prefetch(-1)
        if batch_size is not None:
            ds = ds.padded_batch(batch_size) if output_sequence_length is None and not ragged else ds.batch(batch_size)
        ds.class_names = classes
        out.append(ds)
    return tuple(out) if subset == "both" else out[0]
