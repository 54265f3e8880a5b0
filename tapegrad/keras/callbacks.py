"""``tapegrad.keras.callbacks``: hooks into ``fit``/``evaluate``/``predict`` (Keras 3's).

>>> import numpy as np
>>> from tapegrad import keras
>>> model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
>>> model.compile(keras.optimizers.SGD(0.01), loss=lambda y, p: (y - p) ** 2)
>>> seen = []
>>> cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
>>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, callbacks=[cb], verbose=0)
>>> seen
[0, 1, 2]
"""
from __future__ import annotations

import csv
import json
import math
import os
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from typing import Any, Callable

import numpy as np

from ._data_utils import Progbar, print_msg
from ._tree import flatten

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping", "ModelCheckpoint",
           "LearningRateScheduler", "LambdaCallback", "TerminateOnNaN", "ReduceLROnPlateau",
           "CSVLogger", "BackupAndRestore", "TensorBoard", "RemoteMonitor", "SwapEMAWeights"]


class Callback:
    """Base class: override the ``on_*`` hooks you need; ``self.model`` is the model being run and
    ``self.params`` holds ``verbose``, ``epochs`` and ``steps``.

    Pass instances in ``callbacks=[...]`` to ``fit``, ``evaluate`` or ``predict``. The hooks and
    when they run:

    - ``on_train_begin(logs)`` / ``on_train_end(logs)``: around ``fit`` (``on_train_end`` gets the
      last epoch's logs).
    - ``on_epoch_begin(epoch, logs)`` / ``on_epoch_end(epoch, logs)``: around each epoch, ``epoch``
      counting from 0; ``on_epoch_end``'s ``logs`` hold the epoch's training results and, when
      ``fit`` validated in that epoch, the ``val_`` results. A callback may add entries to them
      (``ReduceLROnPlateau`` adds ``learning_rate``), and later callbacks and ``History`` see them.
    - ``on_train_batch_begin(batch, logs)`` / ``on_train_batch_end(batch, logs)``: around each
      training step; ``logs`` hold the running loss and metrics of the epoch so far
      (the default ``on_train_batch_*`` call ``on_batch_begin``/``on_batch_end``, the older
      names, so overriding either works).
    - ``on_test_begin``/``on_test_end``/``on_test_batch_begin``/``on_test_batch_end``: in
      ``evaluate``, and in ``fit``'s validation.
    - ``on_predict_begin``/``on_predict_end``/``on_predict_batch_begin``/``on_predict_batch_end``:
      in ``predict`` (the batch-end ``logs`` hold ``{"outputs": ...}``).

    Set ``self.model.stop_training = True`` to end ``fit`` after the current batch.

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> class StopAtLoss(tf.keras.callbacks.Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         if logs["loss"] < 0.5:
    ...             self.model.stop_training = True
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
    >>> history = model.fit(np.ones((8, 1)), np.ones((8, 1)), epochs=100, verbose=0,
    ...                     callbacks=[StopAtLoss()])
    >>> len(history.epoch) < 100
    True
    """

    def __init__(self) -> None:
        self.params: dict = {}
        self._model: Any = None

    def set_params(self, params: dict) -> None:
        self.params = params

    def set_model(self, model: Any) -> None:
        self._model = model

    @property
    def model(self) -> Any:
        return self._model

    def on_batch_begin(self, batch: int, logs: dict | None = None) -> None: """A training batch starts."""
    def on_batch_end(self, batch: int, logs: dict | None = None) -> None: """A training batch ended."""
    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None: """An epoch starts."""
    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None: """An epoch ended (logs: the epoch's results)."""

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """A training batch starts (calls ``on_batch_begin``)."""
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """A training batch ended (calls ``on_batch_end``)."""
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None: """An evaluation batch starts."""
    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None: """An evaluation batch ended."""
    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None: """A prediction batch starts."""
    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None: """A prediction batch ended."""
    def on_train_begin(self, logs: dict | None = None) -> None: """``fit`` starts."""
    def on_train_end(self, logs: dict | None = None) -> None: """``fit`` ends."""
    def on_test_begin(self, logs: dict | None = None) -> None: """``evaluate`` starts."""
    def on_test_end(self, logs: dict | None = None) -> None: """``evaluate`` ends."""
    def on_predict_begin(self, logs: dict | None = None) -> None: """``predict`` starts."""
    def on_predict_end(self, logs: dict | None = None) -> None: """``predict`` ends."""


_HOOKS = ["on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
          "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin",
          "on_predict_batch_end", "on_train_begin", "on_train_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end"]


class CallbackList:
    """The callbacks of one ``fit``/``evaluate``/``predict`` call, called in order; it adds a
    ``History`` (for ``fit``) and a progress bar (``verbose`` > 0)."""

    def __init__(self, callbacks: Any = None, add_history: bool = False, add_progbar: bool = False,
                 model: Any = None, **params: Any) -> None:
        self.callbacks = list(callbacks.callbacks) if isinstance(callbacks, CallbackList) else \
            flatten(callbacks) if callbacks else []   # (a lone callback too, as Keras's tree.flatten)
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(f"Every callback must be a keras.callbacks.Callback; got {cb!r} "
                                f"(a {type(cb).__name__}).")
        if add_history:
            history = next((c for c in self.callbacks if isinstance(c, History)), None)
            if history is None:
                history = History()
                self.callbacks.append(history)
            model.history = history
        if add_progbar and not any(isinstance(c, ProgbarLogger) for c in self.callbacks):
            self.callbacks.append(ProgbarLogger())  # (last, as in Keras)
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(dict(params))

    def __getattr__(self, hook: str) -> Callable:
        if hook not in _HOOKS:
            raise AttributeError(hook)

        keyword = "batch" in hook  # (Keras passes logs by keyword to batch hooks, by position to the rest)

        def call(*args: Any) -> None:
            logs = _pythonify_logs(args[-1] if args and isinstance(args[-1], dict) else {})
            head = args[:-1] if args and isinstance(args[-1], dict) else args
            for cb in self.callbacks:
                if keyword:
                    getattr(cb, hook)(*head, logs=logs)
                else:
                    getattr(cb, hook)(*head, logs)
        return call


def _pythonify_logs(logs: dict) -> dict:
    """Keras's ``pythonify_logs``: a new dict in key order, nested dicts flattened into it, each
    value a Python float where ``float`` takes it. Every hook gets such a copy, so what a callback
    adds (``learning_rate``) reaches the later callbacks of that hook, not the caller's logs."""
    out: dict = {}
    for key, value in sorted(logs.items()):
        if isinstance(value, dict):
            out.update(_pythonify_logs(value))
            continue
        try:   # (only a 0-d value: a one-element array stays an array, as Keras's float() leaves
            # it under current NumPy, which refuses float() of an array with dimensions)
            a = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            if a.ndim == 0:
                value = float(a)
        except Exception:  # noqa: BLE001  (a traced or other value stays as it is)
            pass
        out[key] = value
    return out


class History(Callback):
    """Records each epoch's logs: ``history.history["loss"]`` is the list of epoch losses.

    ``fit`` adds one to every run and returns it (it is also ``model.history``);
    ``history.epoch`` lists the epochs run.
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class ProgbarLogger(Callback):
    """Prints the progress bar of ``fit``, ``evaluate`` and ``predict`` as Keras does (a
    ``keras.utils.Progbar`` per epoch): ``Epoch 1/3`` (when there are several epochs), then
    ``32/32 ━━━━━━━━━━━━━━━━━━━━ 1s 3ms/step - loss: 0.3012 - val_loss: 0.2877``, redrawn in
    place as the steps go (at most every 0.05 s; Keras redraws so on any POSIX system, even into a
    file); ``verbose=2``: one line per epoch, ``32/32 - 1s - 3ms/step - loss: 0.3012``. ``fit``
    adds one after the other callbacks, unless one is given.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=1, verbose=2)  # doctest: +ELLIPSIS
    1/1 - 0s - ...step - loss: ...
    """

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0
        self.progbar: Progbar | None = None
        self.target: int | None = None
        self.verbose = 1
        self.epochs = 1
        self._called_in_fit = False

    def set_params(self, params: dict) -> None:
        super().set_params(params)
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)
        self.target = params.get("steps")

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._called_in_fit = True  # (fit's validation draws no bar)

    def on_test_begin(self, logs: dict | None = None) -> None:
        if not self._called_in_fit:
            self._reset_progbar()
            self._maybe_init_progbar()

    def on_predict_begin(self, logs: dict | None = None) -> None:
        self._reset_progbar()
        self._maybe_init_progbar()

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._reset_progbar()
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._update_progbar(batch, logs)

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if not self._called_in_fit:
            self._update_progbar(batch, logs)

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        self._update_progbar(batch, None)  # (the batch's outputs are not shown)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._finalize_progbar(logs)

    def on_test_end(self, logs: dict | None = None) -> None:
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs: dict | None = None) -> None:
        self._finalize_progbar(logs)

    def _reset_progbar(self) -> None:
        self.seen = 0
        self.progbar = None

    def _maybe_init_progbar(self) -> None:
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose, unit_name="step",
                                   stateless_metrics=set())

    def _update_progbar(self, batch: int, logs: dict | None = None) -> None:
        self._maybe_init_progbar()
        self.seen = batch + 1
        if self.verbose == 1:
            self.progbar.update(self.seen, list((logs or {}).items()), finalize=False)

    def _finalize_progbar(self, logs: dict | None) -> None:
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list((logs or {}).items()), finalize=True)


class _Monitor(Callback):
    def __init__(self, monitor: str, mode: str, min_delta: float = 0.0) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode {mode!r} is unknown, fallback to auto mode.")
            mode = "auto"
        self.monitor, self.mode = monitor, mode
        self.min_delta = abs(min_delta)

    def _set_op(self) -> None:
        mode = self.mode
        if mode == "auto":
            name = self.monitor.removeprefix("val_")
            mode = "max" if name in ("accuracy", "acc", "auc") or name.endswith(("accuracy", "auc",
                                                                                 "precision", "recall")) \
                else "min"
        self._sign = -1.0 if mode == "max" else 1.0

    def _better(self, current: float, reference: float) -> bool:
        if self._sign > 0:
            return current + self.min_delta < reference
        return current - self.min_delta > reference

    def _value(self, logs: dict | None) -> float | None:
        v = (logs or {}).get(self.monitor)
        if v is None:
            warnings.warn(f"{type(self).__name__}: the metric {self.monitor!r} is not in the logs; "
                          f"available metrics are: {','.join(logs or {})}", stacklevel=3)
        return v


class EarlyStopping(_Monitor):
    """Stop training when ``monitor`` has not improved by ``min_delta`` for ``patience`` epochs;
    ``restore_best_weights`` puts back the best epoch's weights.

    Checked at each epoch's end. Training stops at the end of the first epoch (after the first)
    at which ``patience`` epochs have passed without improvement.

    Args:
        monitor: the log to watch (``"val_loss"``, ``"loss"``, ``"val_accuracy"``, ...). A name
            missing from the logs warns and the epoch is not counted.
        min_delta: the least change that counts as an improvement.
        patience: epochs without improvement before stopping.
        verbose: 1 prints the epoch where training stopped and when weights are restored.
        mode: ``"min"`` (lower is better), ``"max"``, or ``"auto"``: ``"max"`` for a
            monitor named like an accuracy, AUC, precision or recall (``"val_accuracy"``),
            else ``"min"``. An unknown mode warns and falls back to ``"auto"``.
        baseline: a value to reach: until the monitor is better than ``baseline``, epochs count
            as without improvement.
        restore_best_weights: at the end of training, set the model's weights to those of the
            best epoch seen (also when training ran all its epochs).
        start_from_epoch: epochs to let pass before watching (a warm-up).

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile(tf.keras.optimizers.SGD(0.0), loss="mse")   # a loss that never improves
    >>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2)
    >>> len(model.fit(np.ones((4, 1)), np.zeros((4, 1)), epochs=10, verbose=0,
    ...               callbacks=[stop]).epoch)
    3
    """

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0, patience: int = 0,
                 verbose: int = 0, mode: str = "auto", baseline: float | None = None,
                 restore_best_weights: bool = False, start_from_epoch: int = 0) -> None:
        super().__init__(monitor, mode, min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best_weights: Any = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._set_op()
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best = math.inf * self._sign
        self.best_weights = None

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        current = self._value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._better(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._better(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: dict | None = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class ModelCheckpoint(_Monitor):
    """Save the weights after each epoch (``save_freq="epoch"``) or every ``save_freq`` batches
    (an int, counted across epochs as Keras does) to ``filepath``, which may hold ``{epoch}``,
    ``{batch}`` and log names (``{val_loss:.2f}``); ``save_best_only`` saves only improvements.
    Without ``save_weights_only`` the whole model is saved (``model.save``) to a ``.keras`` file (or a
    legacy ``.h5`` file); with it, the weights to a ``.weights.h5`` file (Keras's HDF5 layout, needs
    h5py) or a ``.npz`` file (tapegrad's checkpoint format). Other suffixes raise ``ValueError`` as in
    Keras.

    Args:
        filepath: the file to write; ``"ckpt/model-{epoch:02d}-{val_loss:.3f}.keras"`` makes one
            file per save (``epoch`` counts from 1); a fixed name is overwritten. Missing folders
            are made.
        monitor: the log compared for ``save_best_only``.
        verbose: 1 prints a line at each save (or each skipped save).
        save_best_only: save only when ``monitor`` improved on the best value so far.
        mode: ``"min"`` (lower is better), ``"max"``, or ``"auto"``: ``"max"`` for a
            monitor named like an accuracy, AUC, precision or recall (``"val_accuracy"``),
            else ``"min"``. An unknown mode warns and falls back to ``"auto"``.
        save_weights_only: save the weights only (``.weights.h5`` or ``.npz``), not the model.
        save_freq: ``"epoch"``, or an int: save every that many batches.
        initial_value_threshold: the value ``monitor`` must beat for the first save with
            ``save_best_only``.

    Raises:
        ValueError: a ``filepath`` suffix that does not fit ``save_weights_only``, or a
            ``save_freq`` that is neither ``"epoch"`` nor an int.

    >>> import os, tempfile, numpy as np
    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile("sgd", loss="mse")
    >>> folder = tempfile.mkdtemp()
    >>> ckpt = tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "w{epoch}.npz"),
    ...                                           save_weights_only=True)
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[ckpt])
    >>> sorted(os.listdir(folder))
    ['w1.npz', 'w2.npz']
    """

    def __init__(self, filepath: Any, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False, mode: str = "auto",
                 save_freq: Any = "epoch", initial_value_threshold: float | None = None) -> None:
        super().__init__(monitor, mode)
        self.filepath = os.fspath(filepath)
        self.verbose, self.save_best_only = verbose, save_best_only
        self.save_weights_only = save_weights_only
        if save_freq != "epoch" and (not isinstance(save_freq, int) or isinstance(save_freq, bool)):
            raise ValueError(f"Unrecognized save_freq: {save_freq!r}. Expected save_freq are "
                             "'epoch' or integer values (a number of batches)")
        self.save_freq = save_freq
        self.initial_value_threshold = initial_value_threshold
        if save_weights_only and not self.filepath.endswith((".weights.h5", ".npz")):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             "end in `.weights.h5` (Keras weights format; needs h5py: pip install 'tapegrad[h5]') "
                             f"or `.npz` (tapegrad's checkpoint format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError("The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")
        self._since_saving, self._last_batch, self._epoch = 0, None, 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._set_op()
        self.best = self.initial_value_threshold if self.initial_value_threshold is not None \
            else math.inf * self._sign

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._epoch = epoch

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if self.save_freq == "epoch":
            return
        new_epoch = self._last_batch is None or batch <= self._last_batch
        self._since_saving += batch + 1 if new_epoch else batch - self._last_batch
        self._last_batch = batch
        if self._since_saving >= self.save_freq:
            self._since_saving = 0
            self._save(self._epoch, batch, logs or {})

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _save(self, epoch: int, batch: int | None, logs: dict) -> None:
        if batch is None or "batch" in logs:
            path = self.filepath.format(epoch=epoch + 1, **logs)
        else:
            path = self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        if self.save_best_only:
            current = self._value(logs)
            if current is None or not self._better(current, self.best):
                if self.verbose > 0 and current is not None:
                    print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
                return
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to "
                      f"{current:.5f}, saving model to {path}")
            self.best = current
        elif self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: saving model to {path}")
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        if self.save_weights_only:
            self.model.save_weights(path, overwrite=True)
        else:
            self.model.save(path, overwrite=True)
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: finished saving model to {path}")


class LearningRateScheduler(Callback):
    """Set the optimizer's learning rate at each epoch start to ``schedule(epoch, lr)`` (or
    ``schedule(epoch)``, for a schedule of one argument, as Keras falls back to on TypeError).

    The learning rate in force is logged as ``learning_rate`` at each epoch's end.

    Args:
        schedule: ``schedule(epoch, lr) -> new lr``, ``epoch`` counting from 0 and ``lr`` the
            current learning rate as a float.
        verbose: 1 prints the new rate at each epoch.

    Raises:
        ValueError: the schedule returned something that is not a number (or NaN).

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
    >>> halve = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr if epoch == 0 else lr / 2)
    >>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, verbose=0, callbacks=[halve])
    >>> [round(lr, 3) for lr in history.history["learning_rate"]]
    [0.1, 0.05, 0.025]
    """

    def __init__(self, schedule: Callable, verbose: int = 0) -> None:
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        opt = self.model.optimizer
        lr = float(np.asarray(opt.learning_rate.numpy()))
        try:
            new = self.schedule(epoch, lr)
        except TypeError:  # (Keras's old one-argument schedules)
            new = self.schedule(epoch)
        new = float(np.asarray(new.numpy() if hasattr(new, "numpy") else new))
        if not isinstance(new, float) or math.isnan(new):
            raise ValueError(f'The output of the "schedule" function should be a float. Got: {new}')
        opt.learning_rate = new
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {new}.")

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if logs is not None:
            logs["learning_rate"] = float(np.asarray(self.model.optimizer.learning_rate.numpy()))


class LambdaCallback(Callback):
    """A callback from functions: ``on_epoch_begin(epoch, logs)``, ``on_epoch_end(epoch, logs)``,
    ``on_train_batch_begin(batch, logs)``, ``on_train_batch_end(batch, logs)``,
    ``on_train_begin(logs)``, ``on_train_end(logs)`` and the other hooks by their names.

    Args:
        **hooks: functions by hook name (see :class:`Callback`); ``on_batch_begin`` and
            ``on_batch_end`` are taken as ``on_train_batch_begin``/``on_train_batch_end``.

    Raises:
        TypeError: a name that is no hook.
    """

    def __init__(self, **hooks: Callable) -> None:
        super().__init__()
        aliases = {"on_batch_begin": "on_train_batch_begin", "on_batch_end": "on_train_batch_end"}
        for name, fn in hooks.items():
            name = aliases.get(name, name)
            if name not in _HOOKS:
                raise TypeError(f"LambdaCallback: unknown hook {name!r}; hooks are {_HOOKS}")
            setattr(self, name, (lambda f: lambda *a, **kw: f(*a, kw["logs"]) if "logs" in kw else f(*a))(fn))


class TerminateOnNaN(Callback):
    """Stop training when a batch's loss is NaN or infinite (after that batch, with a message)."""

    def on_batch_end(self, batch: int, logs: dict | None = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(loss):
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class ReduceLROnPlateau(_Monitor):
    """Multiply the learning rate by ``factor`` when ``monitor`` has not improved for
    ``patience`` epochs (not below ``min_lr``; ``cooldown`` epochs of rest after a reduction).

    Checked at each epoch's end; the learning rate in force is logged as ``learning_rate``.

    Args:
        monitor: the log to watch (a missing one warns).
        factor: the multiplier, below 1: ``new_lr = max(lr * factor, min_lr)``.
        patience: epochs without improvement before a reduction.
        verbose: 1 prints each reduction.
        mode: ``"min"`` (lower is better), ``"max"``, or ``"auto"``: ``"max"`` for a
            monitor named like an accuracy, AUC, precision or recall (``"val_accuracy"``),
            else ``"min"``. An unknown mode warns and falls back to ``"auto"``.
        min_delta: the least change that counts as an improvement.
        cooldown: epochs after a reduction during which no epoch counts as without improvement.
        min_lr: the lowest learning rate.

    Raises:
        ValueError: ``factor >= 1``.

    >>> import numpy as np
    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, use_bias=False)])
    >>> model.compile(tf.keras.optimizers.SGD(0.1), loss="mse")
    >>> plateau = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    >>> history = model.fit(np.zeros((4, 1)), np.zeros((4, 1)), epochs=4, verbose=0,
    ...                     callbacks=[plateau])      # a loss of 0 that cannot improve
    >>> [round(lr, 3) for lr in history.history["learning_rate"]]
    [0.1, 0.1, 0.05, 0.025]
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 0, mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0,
                 min_lr: float = 0.0, **kwargs: Any) -> None:
        super().__init__(monitor, mode, min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.patience, self.verbose = factor, patience, verbose
        self.cooldown, self.min_lr = cooldown, min_lr

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._set_op()
        self.best, self.wait, self.cooldown_counter = math.inf * self._sign, 0, 0

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        logs = logs if logs is not None else {}
        opt = self.model.optimizer
        logs["learning_rate"] = float(np.asarray(opt.learning_rate.numpy()))
        current = self._value(logs)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self._better(current, self.best):
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = logs["learning_rate"]
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    opt.learning_rate = new
                    if self.verbose > 0:
                        print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0


def _csv_value(v: Any) -> Any:
    """Keras's cell: a list or array of values (``F1Score()``'s) as ``"[a, b]"``."""
    if isinstance(v, str) or (isinstance(v, np.ndarray) and v.ndim == 0):
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        return f"\"[{', '.join(map(str, v))}]\""
    return v


class CSVLogger(Callback):
    """Write each epoch's logs as a row of a CSV file (``epoch`` first, then the sorted keys; as
    in Keras, ``val_`` columns are added, ``NA``, when the first epoch has no validation, and a
    per-class metric's values are written as ``"[a, b]"``).

    The file is flushed after each row, so it can be read while training runs.

    Args:
        filename: the CSV file.
        separator: the field separator.
        append: add rows to an existing file (without a second header) instead of replacing it.

    >>> import os, tempfile, numpy as np
    >>> import tapegrad as tf
    >>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    >>> model.compile("sgd", loss="mse")
    >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[tf.keras.callbacks.CSVLogger(path)])
    >>> open(path).readline().strip()
    'epoch,loss,val_loss'
    """

    def __init__(self, filename: str, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.filename, self.sep, self.append = os.fspath(filename), separator, append
        self._file: Any = None
        self._keys: list | None = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        exists = self.append and os.path.exists(self.filename)
        self._file = open(self.filename, "a" if self.append else "w", newline="")
        self._keys = None
        self._header = not exists

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        logs = logs or {}
        if self._keys is None:
            self._keys = sorted(logs)
            if self._keys and not any(k.startswith("val_") for k in self._keys):
                self._keys += [f"val_{k}" for k in self._keys]  # (columns for a later validation)
            self._writer = csv.DictWriter(self._file, fieldnames=["epoch"] + self._keys,
                                          delimiter=self.sep)
            if self._header:
                self._writer.writeheader()
        self._writer.writerow({"epoch": epoch, **{k: _csv_value(logs.get(k, "NA")) for k in self._keys}})
        self._file.flush()

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class BackupAndRestore(Callback):
    """Back up the training state to ``backup_dir`` at the end of each epoch (or every
    ``save_freq`` batches) so that a ``fit`` interrupted by a crash resumes from the last backup
    when run again with the same callback: the model's weights, the optimizer's state and the
    epoch to start from. The folder is deleted when training ends normally
    (``delete_checkpoint=True``); ``double_checkpoint`` keeps the previous backup as well, used
    when the latest one cannot be read.

    The model must be built before ``fit`` (an ``Input`` or a first call). The backup is
    tapegrad's ``.npz`` files, so it needs no h5py.

    Args:
        backup_dir: the folder of the backup (made if missing). Use a folder of its own per run.
        save_freq: ``"epoch"``, or an int: back up every that many batches.
        double_checkpoint: keep the backup before the latest as well.
        delete_checkpoint: delete ``backup_dir`` when ``fit`` ends normally.

    Raises:
        ValueError: an empty ``backup_dir``, a bad ``save_freq``, or a model not built at ``fit``.

    >>> import tempfile, numpy as np
    >>> from tapegrad import keras
    >>> model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    >>> model.compile(keras.optimizers.SGD(0.01), loss="mse")
    >>> cb = keras.callbacks.BackupAndRestore(tempfile.mkdtemp(), delete_checkpoint=False)
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, callbacks=[cb], verbose=0)
    >>> len(model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=3, callbacks=[cb], verbose=0).epoch)
    1
    """

    def __init__(self, backup_dir: Any, save_freq: Any = "epoch", double_checkpoint: bool = False,
                 delete_checkpoint: bool = True) -> None:
        super().__init__()
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. "
                             "Expected either 'epoch' or an integer value.")
        self.backup_dir = os.fspath(backup_dir)
        self.save_freq, self.double_checkpoint = save_freq, double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.npz")  # (no h5py needed)
        self._optimizer_path = os.path.join(self.backup_dir, "latest.optimizer.npz")
        self._training_metadata_path = os.path.join(self.backup_dir, "training_metadata.json")
        self._since_saving, self._last_batch_seen, self._current_epoch = 0, 0, 0

    def _paths(self) -> list:
        return [self._weights_path, self._optimizer_path, self._training_metadata_path]

    def on_train_begin(self, logs: dict | None = None) -> None:
        try:
            self._load_model()
        except (OSError, ValueError):
            if not os.path.exists(self._weights_path + ".bkp"):
                raise
            for path in self._paths():
                if os.path.exists(path + ".bkp"):
                    _copy_atomically(path + ".bkp", path)
                elif os.path.exists(path):
                    os.remove(path)
            self._load_model()

    def _optimizer_state(self) -> dict:
        opt = self.model.optimizer
        opt.build(self.model.trainable_variables)
        return {f"{i:04d}": v for i, v in enumerate(opt.variables)}

    def _load_model(self) -> None:
        from ..saving import load_variables

        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built before "
                             f"you call `fit()`. Model {self.model} is unbuilt. You can build it "
                             "beforehand by calling it on a batch of data.")
        if os.path.exists(self._weights_path):
            self.model.load_weights(self._weights_path)
            if os.path.exists(self._optimizer_path):
                load_variables(self._optimizer_path, self._optimizer_state())
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as fh:
                self.model._initial_epoch = json.load(fh)["epoch"]

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._current_epoch, self._last_batch_seen = epoch + 1, 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        if self.save_freq == "epoch":
            return
        self._since_saving += batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._last_batch_seen = batch
        if self._since_saving >= self.save_freq:
            self._since_saving = 0
            self._save_model()

    def _save_model(self) -> None:
        from ..saving import _write_atomically, save_variables

        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path in self._paths():
                if os.path.exists(path):
                    _copy_atomically(path, path + ".bkp")
        # (each file is written atomically: a kill leaves the last one whole)
        self.model.save_weights(self._weights_path, overwrite=True)
        save_variables(self._optimizer_path, self._optimizer_state())
        metadata = json.dumps({"epoch": self._current_epoch, "batch": self._last_batch_seen}).encode()
        _write_atomically(self._training_metadata_path, lambda f: f.write(metadata))

    def on_train_end(self, logs: dict | None = None) -> None:
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)


def _copy_atomically(src: str, dst: str) -> None:
    from ..saving import _write_atomically

    with open(src, "rb") as fh:
        _write_atomically(dst, lambda f: shutil.copyfileobj(fh, f))


class TensorBoard(Callback):
    """Write TensorBoard logs with :mod:`tapegrad.summary`, as Keras 3 does: under
    ``log_dir/train`` each epoch's logs as ``epoch_<name>`` (with ``epoch_learning_rate``, and
    ``epoch_steps_per_second`` when ``write_steps_per_second``), under ``log_dir/validation`` the
    ``val_`` logs and ``evaluation_<name>_vs_iterations`` at each validation; with
    ``update_freq="batch"`` or an int, the batch logs as ``batch_<name>`` every that many batches;
    with ``histogram_freq``, a histogram of each weight (and an image with ``write_images``) every
    that many epochs. The graph (``write_graph``), profiling (``profile_batch``) and embeddings
    are not written (a ``ValueError`` says so when they are asked for).

    Args:
        log_dir: the folder of the event files (``tensorboard --logdir <log_dir>`` reads them).
        histogram_freq: every how many epochs to write the weights' histograms (0: never).
        write_graph: accepted; no graph is written.
        write_images: with ``histogram_freq``, also write each weight as an image.
        write_steps_per_second: log the training speed.
        update_freq: ``"epoch"``, ``"batch"`` or an int (every that many batches) for the
            training logs.
        profile_batch: must be 0 (no profiler).
        embeddings_freq: must be 0 (no embedding projector).
        embeddings_metadata: accepted; unused.

    Raises:
        ValueError: ``profile_batch`` or ``embeddings_freq`` other than 0.

    >>> import os, tempfile, numpy as np
    >>> from tapegrad import keras
    >>> model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    >>> model.compile("sgd", loss="mse")
    >>> logdir = tempfile.mkdtemp()
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0,
    ...               callbacks=[keras.callbacks.TensorBoard(logdir)])
    >>> sorted(os.listdir(logdir))
    ['train']
    """

    def __init__(self, log_dir: Any = "logs", histogram_freq: int = 0, write_graph: bool = True,
                 write_images: bool = False, write_steps_per_second: bool = False,
                 update_freq: Any = "epoch", profile_batch: Any = 0, embeddings_freq: int = 0,
                 embeddings_metadata: Any = None) -> None:
        super().__init__()
        if profile_batch:
            raise ValueError("TensorBoard(profile_batch=...): tapegrad has no profiler; pass "
                             "profile_batch=0 (time steps with the `benchmarks/` scripts instead).")
        if embeddings_freq:
            raise ValueError("TensorBoard(embeddings_freq=...): the embedding projector is not "
                             "written by tapegrad; pass embeddings_freq=0.")
        self.log_dir = str(log_dir)
        self.histogram_freq, self.write_graph, self.write_images = histogram_freq, write_graph, write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.profile_batch, self.embeddings_freq = profile_batch, embeddings_freq
        self.embeddings_metadata = embeddings_metadata
        self._writers: dict = {}
        self._contexts: list = []
        self._global_train_batch = self._global_test_batch = 0
        self._previous_epoch_iterations, self._epoch_start_time, self._batch_start_time = 0, 0.0, 0.0

    def _writer(self, which: str) -> Any:
        from .. import summary

        if which not in self._writers:
            folder = "train" if which == "train" else "validation"
            self._writers[which] = summary.create_file_writer(os.path.join(self.log_dir, folder))
        return self._writers[which]

    def _push_writer(self, which: str, step: int) -> None:
        if self.update_freq == "epoch":
            return
        from .. import summary

        contexts = (self._writer(which).as_default(step),
                    summary.record_if(lambda: step % self.update_freq == 0))
        for c in contexts:
            c.__enter__()
        self._contexts.append(contexts)

    def _pop_writer(self) -> None:
        if self.update_freq == "epoch" or not self._contexts:
            return
        for c in reversed(self._contexts.pop()):
            c.__exit__(None, None, None)

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._global_train_batch, self._previous_epoch_iterations = 0, 0
        self._push_writer("train", 0)

    def on_train_end(self, logs: dict | None = None) -> None:
        self._pop_writer()
        for w in self._writers.values():
            w.close()
        self._writers = {}

    def on_test_begin(self, logs: dict | None = None) -> None:
        self._push_writer("val", self._global_test_batch)

    def on_test_end(self, logs: dict | None = None) -> None:
        from .. import summary

        opt = getattr(self.model, "optimizer", None)
        if opt is not None and hasattr(opt, "iterations"):
            with self._writer("val").as_default():
                for name, value in (logs or {}).items():
                    summary.scalar(f"evaluation_{name}_vs_iterations", value,
                                   step=int(np.asarray(opt.iterations.numpy())))
        self._pop_writer()

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._global_train_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer("train", self._global_train_batch)
        if self.write_steps_per_second:
            self._batch_start_time = time.time()

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        from .. import summary

        if self.write_steps_per_second:
            summary.scalar("batch_steps_per_second", 1.0 / max(time.time() - self._batch_start_time, 1e-9),
                           step=self._global_train_batch)
        for name, value in (logs or {}).items():
            summary.scalar(f"batch_{name}", value, step=self._global_train_batch)

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        self._global_test_batch += 1
        if self.update_freq != "epoch":
            self._pop_writer()
            self._push_writer("val", self._global_test_batch)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        if self.write_steps_per_second:
            self._previous_epoch_iterations = int(np.asarray(self.model.optimizer.iterations.numpy()))
            self._epoch_start_time = time.time()

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        from .. import summary

        if logs:
            train = {k: v for k, v in logs.items() if not k.startswith("val_")}
            val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
            opt = getattr(self.model, "optimizer", None)
            if opt is not None:
                train["learning_rate"] = float(np.asarray(opt.learning_rate.numpy()))
            if self.write_steps_per_second:
                steps = int(np.asarray(opt.iterations.numpy())) - self._previous_epoch_iterations
                train["steps_per_second"] = steps / max(time.time() - self._epoch_start_time, 1e-9)
            for which, values in (("train", train), ("val", val)):
                if values:
                    with self._writer(which).as_default():
                        for name, value in values.items():
                            summary.scalar(f"epoch_{name}", value, step=epoch)
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    def _log_weights(self, epoch: int) -> None:
        from .. import summary

        with self._writer("train").as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    name = weight.path.replace(":", "_")
                    summary.histogram(f"{name}/histogram", weight, step=epoch)
                    if self.write_images:
                        self._log_weight_as_image(np.asarray(weight.numpy()), f"{name}/image", epoch)
            self._writer("train").flush()

    def _log_weight_as_image(self, w: np.ndarray, name: str, epoch: int) -> None:
        from .. import summary
        from .backend import image_data_format

        w = np.squeeze(w)
        if w.ndim == 1:
            w = w.reshape(1, w.shape[0], 1, 1)
        elif w.ndim == 2:
            w = (w.T if w.shape[0] > w.shape[1] else w)[None, :, :, None]
        elif w.ndim == 3:
            if image_data_format() == "channels_last":
                w = np.transpose(w, (2, 0, 1))
            w = w[..., None]
        if w.ndim == 4 and w.shape[-1] in (1, 3, 4):
            summary.image(name, w, step=epoch)


class RemoteMonitor(Callback):
    """POST each epoch's logs (and ``epoch``) to ``root + path``: as a form field ``field``
    holding their JSON, or as a JSON body with ``send_as_json``. A server that cannot be reached
    gives a warning, as in Keras (with the reason: no network, connection refused, ...).

    Args:
        root: the server, ``"http://host:port"``.
        path: the path on the server.
        field: the form field holding the JSON (without ``send_as_json``).
        headers: extra HTTP headers.
        send_as_json: send the logs as the JSON body.
    """

    def __init__(self, root: str = "http://localhost:9000", path: str = "/publish/epoch/end/",
                 field: str = "data", headers: dict | None = None, send_as_json: bool = False) -> None:
        super().__init__()
        self.root, self.path, self.field = root, path, field
        self.headers, self.send_as_json = headers, send_as_json

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        send: dict = {"epoch": epoch}
        for k, v in (logs or {}).items():
            send[k] = v.item() if isinstance(v, (np.ndarray, np.generic)) and np.size(v) == 1 else (
                v.tolist() if isinstance(v, np.ndarray) else v)
        headers = dict(self.headers or {})
        if self.send_as_json:
            body = json.dumps(send).encode()
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode()
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        request = urllib.request.Request(self.root + self.path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except (urllib.error.URLError, OSError, ValueError) as e:
            warnings.warn(f"Could not reach RemoteMonitor root server at {self.root} ({e}).",
                          stacklevel=2)


class SwapEMAWeights(Callback):
    """With an optimizer made with ``use_ema=True``: evaluate and predict with the moving averages
    of the weights (swapped in for ``evaluate``/``predict`` and back after), and with
    ``swap_on_epoch=True`` also hold the averages in the model between epochs (so that e.g.
    ``ModelCheckpoint`` saves them); at the last epoch's end the averages are kept.

    Args:
        swap_on_epoch: hold the averaged weights in the model between epochs, not only during
            ``evaluate`` and ``predict``.

    Raises:
        ValueError: the model's optimizer was not made with ``use_ema=True``.
    """

    def __init__(self, swap_on_epoch: bool = False) -> None:
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _optimizer(self) -> Any:
        opt = self.model.optimizer
        if not getattr(opt, "use_ema", False):
            raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on the "
                             f"optimizer. Received: use_ema={getattr(opt, 'use_ema', None)}")
        return opt

    def _swap(self, into_model: bool) -> None:
        if into_model == self._ema_weights_in_model:
            return
        opt = self._optimizer()
        for var, avg in zip(opt._vars, opt._ema_vars):
            old = np.array(var.numpy(), copy=True)
            var.assign(avg)
            avg.assign(old)
        self._ema_weights_in_model = into_model

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        if self.swap_on_epoch:
            self._swap(False)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap(True)
            if epoch == self.params.get("epochs", 0) - 1:
                opt = self._optimizer()
                for var, avg in zip(opt._vars, opt._ema_vars):
                    avg.assign(var)

    def on_test_begin(self, logs: dict | None = None) -> None:
        self._swap(True)

    def on_test_end(self, logs: dict | None = None) -> None:
        self._swap(False)

    on_predict_begin = on_test_begin
    on_predict_end = on_test_end
