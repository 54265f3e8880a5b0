"""``keras.utils.text_dataset_from_directory`` (and the image variant's clear refusal): a
``tf.data.Dataset`` of the ``.txt`` files under a folder, labelled by class subfolder, in Keras
3's order (file order, NumPy ``RandomState(seed)`` shuffle of the paths, then the dataset's
seeded shuffle buffer)."""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._convert import convert_to_tensor
from ..data import Dataset
from ..ops.array import expand_dims, one_hot
from ..ops.math import cast

__all__ = ["image_dataset_from_directory", "text_dataset_from_directory"]


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


def _index(directory: str, labels: Any, formats: tuple, class_names: Any, shuffle: bool, seed: int,
           follow_links: bool, verbose: bool) -> tuple:
    """The files' paths, their labels and the class names, in Keras's order."""
    if not os.path.isdir(directory):
        raise ValueError(f"text_dataset_from_directory: {directory!r} is not a directory. Pass the folder "
                         "that holds one subfolder per class.")
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


def _dataset(paths: list, labels: Any, label_mode: Any, num_classes: int, max_length: Any, shuffle: bool,
             buffer: int, seed: Any) -> Dataset:
    ds = Dataset.from_tensor_slices(paths)
    read = _read(max_length)
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
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("`labels` argument should be a list/tuple of integer labels, of the same size as "
                             "the number of text files in the target directory. If you wish to infer the "
                             "labels from the subdirectory names in the target directory, pass "
                             '`labels="inferred"`. If you wish to get a dataset that only contains text '
                             f"samples (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. Received: labels={labels}, '
                             f"and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError('`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")
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
        ds = _dataset(p, y, label_mode, n, max_length, shuffle and not (subset == "both" and which == "validation"),
                      buffer, seed)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(-1)
        ds.class_names = classes
        out.append(ds)
    return out if subset == "both" else out[0]


def image_dataset_from_directory(directory: str, *args: Any, **kwargs: Any) -> Any:
    """Not available: decoding PNG, JPEG, GIF and BMP files needs an image codec, and tapegrad's
    only dependencies are NumPy and SciPy. Raises ``NotImplementedError`` saying so."""
    raise NotImplementedError(
        "keras.utils.image_dataset_from_directory is not available in tapegrad: decoding PNG/JPEG/GIF/BMP "
        "files needs an image codec (Pillow or TensorFlow's), and tapegrad depends on NumPy and SciPy only. "
        "Decode the images yourself (e.g. with Pillow) into a NumPy array and use "
        "tf.data.Dataset.from_tensor_slices((images, labels)).")
