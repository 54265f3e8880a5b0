"""``keras.utils``'s data and file helpers: ``PyDataset`` (``Sequence``), ``Progbar``,
``split_dataset``, ``get_file`` and ``plot_model``. Exported by :mod:`tapegrad.keras.utils`."""
from __future__ import annotations

import hashlib
import itertools
import math
import os
import random
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
import zipfile
from collections.abc import Iterator
from typing import Any

import numpy as np

__all__ = ["Progbar", "PyDataset", "Sequence", "disable_interactive_logging",
           "enable_interactive_logging", "get_file", "is_interactive_logging_enabled", "plot_model",
           "split_dataset"]

_interactive = {"enabled": True}


def enable_interactive_logging() -> None:
    """Progress bars and callback messages go to stdout (the default)."""
    _interactive["enabled"] = True


def disable_interactive_logging() -> None:
    """Progress bars and callback messages go to the ``keras`` logger (level INFO) instead of
    stdout, as Keras sends them to absl's log."""
    _interactive["enabled"] = False


def is_interactive_logging_enabled() -> bool:
    """Whether messages go to stdout (:func:`enable_interactive_logging`)."""
    return _interactive["enabled"]


def print_msg(message: str, line_break: bool = True) -> None:
    """Keras's ``io_utils.print_msg``: to stdout, or to the ``keras`` logger when interactive
    logging is off."""
    if _interactive["enabled"]:
        sys.stdout.write(message + "\n" if line_break else message)
        sys.stdout.flush()
    else:
        import logging

        logging.getLogger("keras").info(message)


class PyDataset:
    """Base class of a dataset that gives whole batches by index: subclass it with
    ``__getitem__(index)`` (a batch: ``x``, ``(x, y)`` or ``(x, y, sample_weight)``) and
    ``__len__`` (the number of batches), or a ``num_batches`` property (``None``: endless), and
    optionally ``on_epoch_begin`` / ``on_epoch_end``. ``fit``, ``evaluate`` and ``predict`` take it
    as ``x``; ``fit(shuffle=True)`` visits the batches in a new random order each epoch.

    ``workers``, ``use_multiprocessing`` and ``max_queue_size`` are accepted as in Keras; tapegrad
    reads the batches in the training thread, one after another.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> class Squares(keras.utils.PyDataset):
    ...     def __len__(self):
    ...         return 3
    ...     def __getitem__(self, i):
    ...         x = np.full((4, 1), float(i), np.float32)
    ...         return x, x ** 2
    >>> model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", "mse")
    >>> len(model.predict(Squares(), verbose=0))
    12
    """

    def __init__(self, workers: int = 1, use_multiprocessing: bool = False,
                 max_queue_size: int = 10) -> None:
        self._workers, self._use_multiprocessing = workers, use_multiprocessing
        self._max_queue_size = max_queue_size

    def _warn_if_super_not_called(self) -> None:
        if not all(hasattr(self, a) for a in ("_workers", "_use_multiprocessing", "_max_queue_size")):
            self._workers = getattr(self, "_workers", 1)
            self._use_multiprocessing = getattr(self, "_use_multiprocessing", False)
            self._max_queue_size = getattr(self, "_max_queue_size", 10)
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in its "
                          "constructor. `**kwargs` can include `workers`, `use_multiprocessing`, "
                          "`max_queue_size`. Do not pass these arguments to `fit()`, as they will "
                          "be ignored.", stacklevel=3)

    @property
    def workers(self) -> int:
        self._warn_if_super_not_called()
        return self._workers

    @workers.setter
    def workers(self, value: int) -> None:
        self._workers = value

    @property
    def use_multiprocessing(self) -> bool:
        self._warn_if_super_not_called()
        return self._use_multiprocessing

    @use_multiprocessing.setter
    def use_multiprocessing(self, value: bool) -> None:
        self._use_multiprocessing = value

    @property
    def max_queue_size(self) -> int:
        self._warn_if_super_not_called()
        return self._max_queue_size

    @max_queue_size.setter
    def max_queue_size(self, value: int) -> None:
        self._max_queue_size = value

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    @property
    def num_batches(self) -> int | None:
        """The number of batches (``len(self)``), or ``None`` for an endless dataset."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def __iter__(self) -> Iterator:
        try:
            n = self.num_batches
        except NotImplementedError:
            n = None
        for index in itertools.count() if n is None else range(n):
            yield self[index]

    def on_epoch_begin(self) -> None:
        """Called at the start of each pass over the data."""

    def on_epoch_end(self) -> None:
        """Called at the end of each pass over the data."""


Sequence = PyDataset


_PEEK_BATCHES = 2


class _PyDatasetPass:
    """One pass of ``fit``/``evaluate``/``predict`` over a PyDataset per iteration, as Keras's
    adapter makes it: ``on_epoch_begin``, the batches (shuffled with Python's ``random`` when
    asked), ``on_epoch_end``."""

    def __init__(self, dataset: PyDataset, shuffle: bool) -> None:
        self.dataset, self.shuffle = dataset, shuffle
        # Keras's TensorFlow adapter reads the first batches (two, or fewer if there are fewer) for
        # the tf.data signature when it is made: a PyDataset drawing Python random numbers in
        # __getitem__ has drawn those first (_PEEK_BATCHES, Keras's NUM_BATCHES_FOR_TENSOR_SPEC)
        n = dataset.num_batches
        batches = [dataset[i] for i in range(_PEEK_BATCHES if n is None else min(_PEEK_BATCHES, n))]
        if not batches:
            raise ValueError("The PyDataset has length 0")

    def __len__(self) -> int:
        n = self.dataset.num_batches
        if n is None:
            raise TypeError("an endless PyDataset has no length")
        return n

    def __iter__(self) -> Iterator:
        ds = self.dataset
        ds.on_epoch_begin()
        n = ds.num_batches
        order: Any = itertools.count() if n is None else list(range(n))
        if self.shuffle and n is not None:
            random.shuffle(order)
        for i in order:
            batch = ds[i]
            yield tuple(batch) if isinstance(batch, list) else batch
        ds.on_epoch_end()


class Progbar:
    """A progress bar as Keras draws it: ``update(current, values)`` or ``add(n, values)`` with
    ``values`` a list of ``(name, value)``; values are averaged over the steps since the start
    unless named in ``stateful_metrics`` (or, with ``stateless_metrics``, only those are
    averaged). ``verbose=1`` redraws the bar, ``verbose=2`` prints one line at the end, 0 nothing.

    >>> from tapegrad import keras
    >>> bar = keras.utils.Progbar(4, verbose=2)
    >>> for _ in range(4):
    ...     bar.add(1, values=[("loss", 0.5)])  # doctest: +ELLIPSIS
    4/4 - 0s - ...step - loss: 0.5000
    """

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1, interval: float = 0.05,
                 stateful_metrics: Any = None, stateless_metrics: Any = None,
                 unit_name: str = "step") -> None:
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Only one of `stateful_metrics` or `stateless_metrics` can be provided. "
                             "`stateful_metrics` is used to make metrics stateless by default (with "
                             "an exclusion list), while `stateless_metrics` is used to make metrics "
                             "stateful by default (with an exclusion list).")
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = None if stateless_metrics is not None else set(stateful_metrics or ())
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        # (Keras redraws in place on a terminal, in a notebook and on any POSIX system)
        self._dynamic_display = (getattr(sys.stdout, "isatty", lambda: False)() or os.name == "posix"
                                 or "ipykernel" in sys.modules or "PYCHARM_HOSTED" in os.environ)
        self._seen_so_far, self._values, self._values_order = 0, {}, []
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step: float | None = None
        self._prev_total_width = 0

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        """Show progress ``current`` (of ``target``) with these ``(name, value)`` pairs."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            stateless = (k not in self.stateful_metrics if self.stateful_metrics is not None
                         else k in self.stateless_metrics)
            if not stateless or finalize:
                self._values[k] = [v, 1]
            else:
                base = max(current - self._seen_so_far, 1)
                total, count = self._values.get(k, [0, 0])
                self._values[k] = [total + v * base, count + base]
        self._seen_so_far = current
        now = time.time()
        per_unit = self._step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, now, per_unit, finalize)
        elif self.verbose == 2 and finalize and self.target:
            digits = int(math.log10(self.target)) + 1
            line = f"{current:{digits}d}/{self.target} - {now - self._start:.0f}s -"
            line += self._format_time(per_unit) + self._format_values(abs_threshold=False)
            print_msg(line)
        self._last_update = now

    def _draw(self, current: int, now: float, per_unit: float, finalize: bool) -> None:
        message = ("\b" * self._prev_total_width + "\r") if self._dynamic_display else "\n"
        hidden = 0  # (characters of colour codes)
        if self.target:
            digits = int(math.log10(self.target)) + 1
            bar = f"\x1b[1m{current:{digits}d}/{self.target}\x1b[0m "
            done = int(self.width * current / self.target)
            hidden += 8
            if done > 0:
                bar += f"\x1b[32m{'━' * done}\x1b[0m"
                hidden += 9
            bar += f"\x1b[37m{'━' * (self.width - done)}\x1b[0m"
            hidden += 9
        else:
            bar = f"{current:7d}/Unknown"
        if self.target and not finalize:
            eta = per_unit * (self.target - current)
            if eta > 3600:
                shown = f"{eta // 3600:.0f}:{eta % 3600 // 60:02.0f}:{eta % 60:02.0f}"
            elif eta > 60:
                shown = f"{eta // 60:.0f}:{eta % 60:02.0f}"
            else:
                shown = f"{eta:.0f}s"
        else:
            shown = f"{now - self._start:.0f}s"
        info = f" \x1b[1m{shown}\x1b[0m" + self._format_time(per_unit) + self._format_values()
        hidden += 8
        width = len(bar) + len(info) - hidden
        message += bar + info + " " * max(self._prev_total_width - width, 0)
        if finalize:
            message += "\n"
        print_msg(message, line_break=False)
        self._prev_total_width = width

    def _format_values(self, abs_threshold: bool = True) -> str:
        out = ""
        for k in self._values_order:
            total, count = self._values[k]
            avg = float(np.mean(total)) / max(1, count)
            big = abs(avg) > 1e-3 if abs_threshold else avg > 1e-3
            out += f" - {k}: {avg:.4f}" if big else f" - {k}: {avg:.4e}"
        return out

    def add(self, n: int, values: Any = None) -> None:
        """``update(current + n, values)``."""
        self.update(self._seen_so_far + n, values)

    def _format_time(self, per_unit: float) -> str:
        if per_unit >= 1 or per_unit == 0:
            return f" {per_unit:.0f}s/{self.unit_name}"
        if per_unit >= 1e-3:
            return f" {per_unit * 1e3:.0f}ms/{self.unit_name}"
        return f" {per_unit * 1e6:.0f}us/{self.unit_name}"

    def _step_duration(self, current: int, now: float) -> float:
        if not current:
            return 0.0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit


# ---- split_dataset -------------------------------------------------------------------------------

def check_batch_size(batch_size: Any, name: str = "batch_size") -> int | None:
    """``batch_size`` as ``fit``, ``evaluate`` and ``predict`` take it: None (the default, 32) or
    a positive int. Keras trains on ``batch_size=0`` with its default and fails deep inside on a
    negative one; tapegrad says what is wrong before any step."""
    if batch_size is None:
        return None
    if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, (int, np.integer)):
        raise TypeError(f"`{name}` must be a positive int (the number of samples per step) or "
                        f"None; got {batch_size!r} of type {type(batch_size).__name__}.")
    if batch_size < 1:
        raise ValueError(f"`{name}` must be a positive int (the number of samples per step) or "
                         f"None for the default of 32; got {name}={batch_size}.")
    return int(batch_size)


def _split_sizes(left: Any, right: Any, total: int) -> tuple[int, int]:
    """Keras's ``_rescale_dataset_split_sizes``: counts from ints, fractions or None."""
    for name, v in (("left_size", left), ("right_size", right)):
        if v is not None and type(v) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, Received: "
                            f"type({name})={type(v)}.")
    if left == 0 and right == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the split "
                         "sizes must be non-zero.")
    for name, v in (("left_size", left), ("right_size", right)):
        if (type(v) is int and (v <= 0 or v >= total)) or (type(v) is float and (v <= 0 or v >= 1)):
            raise ValueError(f"`{name}` should be either a positive integer smaller than {total}, "
                             f"or a float within the range `[0, 1]`. Received: {name}={v}")
    if type(left) is float and type(right) is float and left + right > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must be "
                         "less than or equal to 1.")
    n_left = None if left is None else round(left * total) if type(left) is float else left
    n_right = None if right is None else round(right * total) if type(right) is float else right
    if n_left is None:
        n_left = total - n_right
    elif n_right is None:
        n_right = total - n_left
    if n_left + n_right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {n_left + n_right}and "
                         f"total_length = {total}")
    for n, side in ((n_left, "left"), (n_right, "right")):
        if n == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={n_left} and "
                             f"`right_size`={n_right}.Resulting {side} side dataset split will be "
                             "empty. Adjust any of the aforementioned parameters")
    return int(n_left), int(n_right)


def split_dataset(dataset: Any, left_size: Any = None, right_size: Any = None, shuffle: bool = False,
                  seed: int | None = None, preferred_backend: str | None = None) -> tuple:
    """Split a dataset (a ``tf.data.Dataset``, an array, or a list/tuple of arrays of the same
    length) into two ``tf.data.Dataset`` of samples: ``left_size`` / ``right_size`` are counts
    (ints) or fractions (floats); a missing one is the rest. ``shuffle`` shuffles the samples
    first (Python's ``random``, seeded with ``seed``). A batched dataset gives batched splits.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> left, right = keras.utils.split_dataset(np.arange(10), left_size=0.8)
    >>> [int(x) for x in right]
    [8, 9]
    """
    from ..data import Dataset
    from ..data._dataset import _Batch
    from ..nest import map_structure

    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    batch_size = None
    if isinstance(dataset, Dataset):
        if isinstance(dataset, _Batch):
            batch_size = dataset._n
            dataset = dataset.unbatch()
        samples = [map_structure(lambda t: np.asarray(t.numpy()), s) for s in dataset]
        structure = "dataset"
    elif isinstance(dataset, np.ndarray):
        samples, structure = list(dataset), "array"
    elif isinstance(dataset, (list, tuple)) and dataset and all(
            hasattr(a, "__len__") for a in dataset):
        arrays = [np.asarray(a) for a in dataset]
        if len({len(a) for a in arrays}) != 1:
            raise ValueError("Received a list of arrays with different lengths: "
                             f"{[len(a) for a in arrays]}; every array must hold one entry per "
                             "sample.")
        samples, structure = list(zip(*arrays)), type(dataset)
    else:
        raise TypeError("The `dataset` argument must be either a `tf.data.Dataset` object, or a "
                        f"list/tuple of arrays. Received: dataset={dataset!r} of type {type(dataset)}")
    if shuffle:
        random.seed(random.randint(0, int(1e6)) if seed is None else seed)
        random.shuffle(samples)
    n_left, n_right = _split_sizes(left_size, right_size, len(samples))

    def restore(part: list) -> Any:
        if structure == "array":
            return np.stack(part)
        if structure == "dataset":
            return map_structure(lambda *xs: np.stack(xs), *part)
        return structure(np.stack(col) for col in zip(*part))

    out = []
    for part in (samples[:n_left], samples[-n_right:]):
        ds = Dataset.from_tensor_slices(restore(part))
        out.append(ds.batch(batch_size) if batch_size else ds)
    return tuple(out)


# ---- get_file ------------------------------------------------------------------------------------

def _keras_home() -> str:
    return os.path.expanduser(os.environ.get("KERAS_HOME", os.path.join("~", ".keras")))


def _hash_file(path: str, algorithm: str) -> str:
    h = hashlib.sha256() if algorithm == "sha256" else hashlib.md5()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(65535), b""):
            h.update(chunk)
    return h.hexdigest()


def _valid(path: str, file_hash: str, algorithm: str) -> bool:
    if algorithm == "auto":
        algorithm = "sha256" if len(file_hash) == 64 else "md5"
    return _hash_file(path, algorithm) == str(file_hash)


def _extract(path: str, target: str, archive_format: Any) -> bool:
    formats = {"auto": ["tar", "zip"], None: []}.get(archive_format, archive_format)
    if isinstance(formats, str):
        formats = [formats]
    for fmt in formats:
        is_archive, opener = ((tarfile.is_tarfile, tarfile.open) if fmt == "tar"
                              else (zipfile.is_zipfile, zipfile.ZipFile))
        if is_archive(path):
            try:
                with opener(path) as archive:
                    if fmt == "tar":
                        archive.extractall(target, filter="data")
                    else:
                        archive.extractall(target)
            except (tarfile.TarError, zipfile.BadZipFile, OSError):
                if os.path.exists(target):
                    shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)
                raise
            return True
    return False


def get_file(fname: Any = None, origin: str | None = None, untar: bool = False,
             md5_hash: str | None = None, file_hash: str | None = None, cache_subdir: str = "datasets",
             hash_algorithm: str = "auto", extract: bool = False, archive_format: Any = "auto",
             cache_dir: Any = None, force_download: bool = False) -> str:
    """The local path of ``origin``, downloaded to ``cache_dir/cache_subdir/fname``
    (``~/.keras/datasets`` by default; ``$KERAS_HOME`` if set) unless a file is already there
    (and matches ``file_hash``, a SHA-256 or MD5 hex digest); with ``extract`` (or ``untar``) the
    archive is unpacked and the folder's path is returned, as in Keras.

    ``file://`` URLs are copied; other URLs need network access. When a download fails, the
    error names the URL and the path where a copy of the file can be put instead.

    >>> import os, tempfile
    >>> from tapegrad import keras
    >>> src = os.path.join(tempfile.mkdtemp(), "data.txt")
    >>> _ = open(src, "w").write("hello")
    >>> path = keras.utils.get_file(origin="file://" + src, cache_dir=tempfile.mkdtemp())
    Downloading data from file://...data.txt
    >>> os.path.basename(path), open(path).read()
    ('data.txt', 'hello')
    """
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(os.fspath(cache_dir)) if cache_dir is not None else _keras_home()
    os.makedirs(base, exist_ok=True)
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    given = fname
    fname = os.fspath(fname) if fname is not None else None
    if not fname:
        fname = os.path.basename(urllib.parse.urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                             "Please specify the `fname` argument.")
    elif os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the "
                         f"file's parent directory, use the `cache_dir` argument. Received: fname={fname}")
    if extract or untar:
        if given and "." in fname:
            target = os.path.join(datadir, fname)
            folder = os.path.join(datadir, f"{fname[:fname.find('.')]}_extracted")
        else:
            folder, target = os.path.join(datadir, fname), os.path.join(datadir, f"{fname}_archive")
    else:
        target = os.path.join(datadir, fname)
    download = force_download or not os.path.exists(target)
    if not download and file_hash is not None and not _valid(target, file_hash, hash_algorithm):
        print_msg(f"A local file was found, but it seems to be incomplete or outdated because the "
              f"{hash_algorithm} file hash does not match the original value of {file_hash} so we "
              "will re-download the data.")
        download = True
    if download:
        print_msg(f"Downloading data from {origin}")
        try:
            urllib.request.urlretrieve(origin, target)
        except (urllib.error.URLError, OSError, ValueError) as e:
            if os.path.exists(target):
                os.remove(target)
            reason = getattr(e, "reason", e)
            raise OSError(f"URL fetch failure on {origin}: {reason}. If this machine has no network "
                          f"access, download the file elsewhere and put it at {target}; it is then "
                          "used without downloading.") from None
        if file_hash is not None and not _valid(target, file_hash, hash_algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} file "
                             f"hash does not match the provided value of {file_hash}.")
    if extract or untar:
        if not _extract(target, folder, "tar" if untar else archive_format):
            warnings.warn("Could not extract archive.", stacklevel=2)
        return folder
    return target


def plot_model(model: Any, to_file: str = "model.png", show_shapes: bool = False,
               show_dtype: bool = False, show_layer_names: bool = False, rankdir: str = "TB",
               expand_nested: bool = False, dpi: int = 200, show_layer_activations: bool = False,
               show_trainable: bool = False, **kwargs: Any) -> Any:
    """Keras's ``plot_model`` needs pydot and Graphviz; tapegrad does not draw models. Raises
    ``ImportError`` saying so (Keras raises it too when pydot is missing); ``model.summary()``
    prints the layers, their output shapes and parameter counts."""
    raise ImportError("You must install pydot (`pip install pydot`) for `plot_model` to work; "
                      "tapegrad.keras does not draw models even then. Use model.summary() for a "
                      "table of the layers, their output shapes and parameter counts.")
