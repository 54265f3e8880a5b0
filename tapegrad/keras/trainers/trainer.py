"""Keras 3's training loop, the ``Trainer`` that ``keras.Model`` inherits: ``compile``, ``fit``,
``evaluate``, ``predict``, ``train_step``/``test_step``/``predict_step`` and the ``*_on_batch``
methods.

The training step is a ``GradientTape`` around the forward pass and the loss; the logged loss is
the running mean over the epoch's batches, weighted by batch size, as Keras reports it.

How a step runs (``make_train_function`` and its siblings), as Keras runs it: with
``run_eagerly=False`` (the default) through ``tf.function``, traced once per batch signature and
replayed (the model's Python code, the tape and the per-step bookkeeping are skipped; the NumPy
work, the Variable updates and the random draws are replayed in order, so the numbers are the
eager run's). The first step of each function runs eagerly (it builds the losses, the metrics and
the optimizer's slots). For the built-in ``train_step`` and ``test_step`` the trace holds the
forward pass, the loss, the gradients and the optimizer update, and the metrics are updated after
it, eagerly, from its results (they keep Python state); an overridden step is traced whole. A step
that cannot be traced runs eagerly, with ``tf.function``'s one warning saying why.
``compile(run_eagerly=True)`` (or ``model.run_eagerly = True``) and
``tf.config.run_functions_eagerly(True)`` run the steps as written, every time. The functions are
made again after ``compile`` and when the model's trainable variables or its optimizer change
(checked once per epoch, not per step).
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ... import random as _random
from .._engine import _function, _jit, _memory
from .._engine import executing_eagerly
from .._engine import convert_to_tensor
from .._engine import GradientTape
from .._engine import Tensor
from .._engine import warn_outside
from ...distribute import _strategy as _distribute
from ...ops.math import add_n, cast
from ...ops.reduction import reduce_sum
from ...optimizers.loss_scale import LossScaleOptimizer
from .. import backend as _backend
from .. import callbacks as callbacks_module
from .. import optimizers as optimizers_module
from .._distributed import Replicas, uses_replicas
from .._mask_table import get_mask, set_mask
from .._tree import flatten, map_structure
from ..losses import _scale_for_replicas, _unscale_for_replicas
from ..utils import unpack_x_y_sample_weight
from .compile_utils import _CompileLoss, _CompileMetrics, _CompiledMetrics, _keras_module, _loss_fn
from .data_adapter import _Data, _class_weights, _is_arraylike, _num_rows, _split, _to_numpy

__all__ = ["Trainer"]


class Trainer:
    """The training methods of ``keras.Model`` (Keras 3's ``Trainer``)."""

    # -- compile ----------------------------------------------------------------------------------

    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, loss_weights: Any = None,
                metrics: Any = None, weighted_metrics: Any = None, run_eagerly: bool = False,
                steps_per_execution: int = 1, jit_compile: Any = "auto",
                auto_scale_loss: bool = True) -> None:
        """Configure the model for training: its optimizer, loss and metrics.

        Call it before :meth:`fit`, :meth:`evaluate`, :meth:`train_on_batch` or
        :meth:`test_on_batch` (:meth:`predict` needs no compile). Compiling again keeps the
        weights and replaces the optimizer, losses and metrics; the step functions are made again.

        Args:
            optimizer: an optimizer object (``keras.optimizers.Adam(1e-3)``) or a name
                (``"adam"``, ``"sgd"``, ``"rmsprop"``, ...: the optimizer with its default
                arguments). Under the ``"mixed_float16"`` policy it is wrapped in a
                ``LossScaleOptimizer`` unless ``auto_scale_loss=False``.
            loss: a name (``"mse"``, ``"sparse_categorical_crossentropy"``, ...), a
                ``keras.losses.Loss`` object or a function ``fn(y_true, y_pred)`` returning one
                loss per sample. For a model with several outputs: a list (one per output, in
                output order), a dict keyed by output name (every output of a model whose
                outputs are a list), or a nest with the outputs' structure; one loss is applied
                to every output. An entry ``None`` gives an output no loss, and its target may
                be left out (``loss=[fn, None]`` and ``fit(x, y)``), as in Keras's
                ``CompileLoss``. An unknown name fails here, not at the first batch. ``None``
                keeps the loss compiled before (a model that adds its own losses with
                ``add_loss`` may need none).
            loss_weights: a float, or a list, dict or nest with the structure of ``loss`` (or
                as many entries): the total loss is the weighted sum of the outputs' losses.
            metrics: metrics to report in the logs: names (``"accuracy"``, ``"mae"``, ...),
                ``keras.metrics.Metric`` objects or functions; a list, or a list/dict per
                output. ``"accuracy"`` becomes binary, sparse categorical or categorical
                accuracy from the shapes of the targets and outputs, as in Keras.
            weighted_metrics: as ``metrics``, but weighted by ``sample_weight`` (and
                ``class_weight``) when ``fit``/``evaluate`` are given them.
            run_eagerly: run ``train_step``/``test_step``/``predict_step`` as Python on every
                batch instead of tracing them with ``tf.function`` (slower; for debugging with
                ``print`` and a debugger).
            steps_per_execution: the steps of one execution: ``fit``, ``evaluate`` and
                ``predict`` give the callbacks' ``on_*_batch_begin`` the execution's first step
                and ``on_*_batch_end`` its last (with the last step's logs), as Keras does; each
                execution takes up to this many batches while the data lasts, even past
                ``steps_per_epoch``. The steps themselves run one by one, with the same numbers.
            jit_compile: ``True``, ``False`` or ``"auto"``: compile the optimizer's updates
                into one loop per variable with numba (``pip install tapegrad[jit]``; the same
                numbers). ``"auto"`` turns it on where numba is installed and the steps do not
                run eagerly (see :attr:`jit_compile`). There is no XLA: the step itself is
                traced by ``tf.function`` and replayed.
            auto_scale_loss: wrap the optimizer in a ``LossScaleOptimizer`` under the
                ``"mixed_float16"`` policy.

        Raises:
            ValueError: an unknown loss name, ``loss_weights`` of the wrong kind (an int
                other than 0 included, as in Keras), or a ``steps_per_execution`` that is not a
                positive int. Losses, weights and targets that do not
                fit the outputs fail on the first batch with Keras's errors.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
        ...               loss="sparse_categorical_crossentropy", metrics=["accuracy"])
        >>> model.metrics_names
        ['loss', 'compile_metrics']
        """
        if isinstance(steps_per_execution, (bool, np.bool_)) or \
                not isinstance(steps_per_execution, (int, np.integer)) or steps_per_execution < 1:
            raise ValueError("`steps_per_execution` must be a positive int (the steps each call of "
                             f"the step function runs); got {steps_per_execution!r}.")
        self.optimizer = optimizers_module.get(optimizer)
        if auto_scale_loss and self.dtype_policy.name == "mixed_float16" and self.optimizer is not None \
                and not isinstance(self.optimizer, LossScaleOptimizer):  # (as Keras 3)
            self.optimizer = LossScaleOptimizer(self.optimizer, name="loss_scale_optimizer")
        for ident in flatten(loss) if isinstance(loss, (list, tuple, dict)) else [loss]:
            if not (isinstance(ident, str) and ident.lower() in ("crossentropy", "ce")):
                _loss_fn(ident)  # an unknown name fails here, not on the first batch
        output_names = self.output_names
        if loss is not None:
            self._compile_loss = _CompileLoss(loss, loss_weights, output_names)
        elif not self.__dict__.get("compiled"):
            # (a compile without a loss keeps the loss and loss weights compiled before, as Keras 3's)
            self._compile_loss = None
        if loss is not None or not self.__dict__.get("compiled"):
            self.loss, self._loss_weights = loss, loss_weights
        self._metric_ids = metrics  # (this compile's arguments: its saved config)
        self._weighted_metric_ids = weighted_metrics
        if metrics is not None or weighted_metrics is not None:
            self._compile_metrics = _CompileMetrics(metrics, weighted_metrics, output_names)
        elif not self.__dict__.get("compiled"):  # (a compile without metrics keeps those compiled
            self._compile_metrics = None        # before, with their state, as Keras 3's)
        self._loss_tracker = _keras_module("metrics").Mean(name="loss")  # (float32 variables, as Keras's)
        self.run_eagerly = bool(run_eagerly)
        self.steps_per_execution = int(steps_per_execution)
        self.jit_compile = jit_compile
        self.__dict__.pop("_step_functions", None)   # (made again for this compilation)
        self.__dict__.pop("_metrics_memo", None)
        self.compiled = True
        ref = self.__dict__.get("_strategy_ref")
        if ref is not None:  # the replicas get the model as compiled now (and its trainable flags)
            ref.replicas = None
        self._replicas()  # a model compiled under a strategy it was not created under fails here

    @property
    def jit_compile(self) -> bool:
        """Whether the compiled steps' optimizer updates, max pooling and convolution input
        gradients run as compiled loops (numba, where it is installed: ``pip install
        tapegrad[jit]``; the same numbers as NumPy's passes). ``"auto"``
        (``compile``'s default) is True where numba is installed and the model does not run
        eagerly; True with ``run_eagerly=True`` is turned off with Keras's warning."""
        flag = self.__dict__.get("_jit_compile", "auto")
        if flag == "auto":
            flag = not getattr(self, "run_eagerly", False) and _jit.available()
        return bool(flag)

    @jit_compile.setter
    def jit_compile(self, value: Any) -> None:
        if not (type(value) is bool or value == "auto"):
            raise ValueError(f"`jit_compile` must be True, False or 'auto'; got {value!r}.")
        if value is True and getattr(self, "run_eagerly", False):
            warn_outside("If `run_eagerly` is True, then `jit_compile` cannot also be True. "
                         "Disabling `jit_compile`.")
            value = False
        if value is True:
            _jit.warn_if_missing("jit_compile=True")
        self.__dict__["_jit_compile"] = value
        self._set_optimizer_jit()

    def _set_optimizer_jit(self) -> None:
        opt = getattr(self, "optimizer", None)
        while opt is not None:   # (a LossScaleOptimizer's inner optimizer too)
            opt._jit_compile = self.jit_compile
            opt = getattr(opt, "inner_optimizer", None)

    @property
    def distribute_strategy(self) -> Any:
        """The strategy the model was created under (``strategy.scope()``), else the current one;
        ``fit``, ``evaluate`` and ``predict`` run their steps on its replicas."""
        ref = self.__dict__.get("_strategy_ref")
        return ref.strategy if ref is not None and ref.strategy is not None else _distribute.get_strategy()

    def _made_under_strategy(self) -> bool:
        """Whether the model was made in a ``tf.distribute`` strategy's scope (Keras's
        ``_distribute_strategy``, which makes fit and evaluate read a batch first: _Data.prime)."""
        ref = self.__dict__.get("_strategy_ref")
        return ref is not None and ref.strategy is not None

    def _replicas(self) -> Replicas | None:
        """The model's loops on the replicas of its strategy; None for a strategy that runs in
        this process (the default one, OneDeviceStrategy)."""
        strategy = self.distribute_strategy
        if not uses_replicas(strategy):
            return None
        ref = self.__dict__.get("_strategy_ref")
        if ref is None or ref.strategy is not strategy:
            raise ValueError(f"Model {self.name!r} was created outside the scope of {strategy!r}, "
                             "which is in effect now: Keras trains a model on the strategy it was "
                             "created under. Create the model (and compile it) inside "
                             "`with strategy.scope():`.")
        if ref.replicas is None:
            ref.replicas = Replicas(self, strategy)
        return ref.replicas

    @property
    def output_names(self) -> list | None:
        """The names of a functional model's outputs (the layers that made them)."""
        if not self.__dict__.get("_functional"):
            return None
        return [t._node.layer.name if t._node is not None else t.name for t in self.outputs]

    # what compile sets (its arguments, trackers and compiled metrics), which Keras's compile
    # leaves untracked: Trainer.metrics lists them apart
    _UNTRACKED_ATTRS = frozenset({"_inbound_nodes", "_metric_ids", "_weighted_metric_ids",
                                  "_loss_tracker", "_compile_metrics", "_compile_loss",
                                  "_metrics_memo"})

    @property
    def metrics(self) -> list:
        """As Keras 3 lists them: the loss tracker (named ``"loss"``), the compiled metrics as one
        metric named ``"compile_metrics"`` (its result is a dict), each output's loss tracker,
        the ``keras.metrics.Metric`` objects held by the model's attributes, then those of each
        of its layers (at any depth; a nested model's compiled ones are left out): a metric a
        layer updates in its ``call`` is logged by ``fit`` under its name."""
        out = []
        if self.__dict__.get("compiled"):
            out.append(self._loss_tracker)
            if self._compile_metrics is not None:
                out.append(self._compile_metrics)
            if self._compile_loss is not None:
                out.extend(self._compile_loss.metrics)
        out.extend(self._tracked_metrics())
        for layer in self._flatten_layers(include_self=False):
            if not isinstance(layer, Trainer):
                out.extend(layer.metrics)
        return out

    @property
    def metrics_names(self) -> list:
        return [m.name for m in self.metrics]

    def reset_metrics(self) -> None:
        """Restart the running means of the loss and of the metrics."""
        for m in self.metrics:
            m.reset_state()
        # fit's epochs and evaluate begin here: their steps' logs walk the layers for the metrics
        # once, after the first step (which may build them), not at every step
        self.__dict__["_metrics_memo"] = None

    def compute_loss(self, x: Any = None, y: Any = None, y_pred: Any = None,
                     sample_weight: Any = None, training: bool = True) -> Tensor:
        """The compiled loss(es), weighted by ``loss_weights``, plus the model's :attr:`losses`."""
        terms = []
        if y is not None and self.__dict__.get("_compile_loss") is not None:
            term = self._compile_loss(y, y_pred, sample_weight, batch_weighted=self._steps_run_eagerly())
            if term is not None:
                terms.append(term)
        for extra in self.losses:
            extra = convert_to_tensor(extra)
            terms.append(_scale_for_replicas(reduce_sum(extra) if extra.shape.rank else extra))
        if not terms:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        dt = terms[0].dtype
        terms = [t if t.dtype == dt else cast(t, dt) for t in terms]
        return terms[0] if len(terms) == 1 else add_n(terms)

    def _step_counters(self, data: _Data, kind: str) -> list:
        """``[(variable, value)]`` of what a traced step changes without its batch: the optimizer's
        iteration count, the states of the model's seed generators (ordered ones) and the counts
        of :meth:`_batch_free_counts`."""
        seed_generator = _keras_module("random").SeedGenerator
        found = [getattr(self.optimizer, "iterations", None)]
        for layer in self._flatten_layers():
            found += [g.state for g in vars(layer).values() if isinstance(g, seed_generator)]
        found += self._batch_free_counts(data, kind)
        return [(v, v.numpy()) for v in found if v is not None]

    def _run_batch_free(self, counters: list | None, per_execution: int) -> None:
        """The step begun on the batch the data did not have: of one traced step, TensorFlow runs
        the ops that need no batch (``counters``: what the last step changed of
        :meth:`_step_counters`) before the missing batch fails it; several steps per execution
        ask first whether there is a batch."""
        if per_execution == 1 and counters and not self._steps_run_eagerly():
            for v, delta in counters:
                v.assign_add(delta)

    def _batch_free_counts(self, data: _Data, kind: str) -> list:
        """The ``count`` variables of the mean metrics that Keras's own ``train_step``/``test_step``
        (kind ``"train"``/``"test"``) add a static number to, when the dataset's batches have a
        static size (``batch(..., drop_remainder=True)``): the loss trackers (the static batch
        size) and the compiled metrics (the static number of values), weighted ones too when
        the batches carry no sample weights. TensorFlow runs these additions before the missing
        batch fails the step, so over data of unknown length the means come out smaller."""
        step = kind + "_step"
        spec = getattr(data.iterable, "element_spec", None)
        if spec is None or getattr(type(self), step) is not getattr(Trainer, step):
            return []
        if not all(s.shape.rank and s.shape[0] is not None for s in flatten(spec) if s is not None):
            return []
        metrics = [self._loss_tracker] + list(getattr(self._compile_loss, "metrics", None) or [])
        if self._compile_metrics is not None:
            lists = self._compile_metrics._flat_metrics
            if unpack_x_y_sample_weight(spec)[2] is None and data.class_weight is None:
                lists = lists + self._compile_metrics._flat_weighted_metrics
            metrics += [m for ml in lists if ml for m in ml.metrics]
        mean = _keras_module("metrics").Mean
        return [m.count for m in metrics if isinstance(m, mean)]

    def _steps_per_execution(self) -> int:
        return self.__dict__.get("steps_per_execution", 1)

    def _steps_run_eagerly(self) -> bool:
        return bool(self.__dict__.get("run_eagerly")) or _function.functions_run_eagerly()

    def compute_metrics(self, x: Any, y: Any, y_pred: Any, sample_weight: Any = None) -> dict:
        """Update the compiled metrics with this batch and return every running result."""
        if y is not None and self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self) -> dict:
        """``{name: running result}`` of every metric in :attr:`metrics` (a dict result, as the
        compiled metrics' is, is merged in)."""
        out: dict = {}
        memo = self.__dict__.get("_metrics_memo", False)
        metrics = memo or self.metrics
        if memo is None:
            self.__dict__["_metrics_memo"] = metrics
        for m in metrics:
            r = m.result()
            if isinstance(r, dict):
                out.update({k: self._result(v) for k, v in r.items()})
            else:
                out[m.name] = self._result(r)
        return out

    def _metrics_result_or_logs(self, logs: dict) -> dict:
        """Keras's logs of an epoch (and of an evaluation): the metrics' results when they have
        the last step's log names (a step of one's own that returns ``{"loss": ...}`` without
        updating the loss tracker logs the tracker's result), else the last step's logs."""
        metric_logs = self._logs(self.get_metrics_result())
        return metric_logs if set(metric_logs) == set(logs) else dict(logs)

    @property
    def compiled_metrics(self) -> _CompiledMetrics:
        """Keras 2's ``model.compiled_metrics``, kept by Keras 3 (with a warning): its
        ``update_state(y, y_pred, sample_weight)`` updates every metric in :attr:`metrics`."""
        return _CompiledMetrics(self)

    def compiled_loss(self, y: Any, y_pred: Any, sample_weight: Any = None,
                      regularization_losses: Any = None) -> Tensor:
        """Keras 2's ``model.compiled_loss(y, y_pred)``, kept by Keras 3 (with a warning):
        :meth:`compute_loss` on ``y`` and ``y_pred``."""
        warn_outside("`model.compiled_loss()` is deprecated. Instead, use "
                     "`model.compute_loss(x, y, y_pred, sample_weight, training)`.")
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    @staticmethod
    def _result(r: Any) -> Any:
        if not executing_eagerly():   # (in a traced step a result stays a tensor, as Keras's
            return r                  # pythonify_logs leaves a graph tensor: fit's loop converts it)
        a = np.asarray(getattr(r, "numpy", lambda: r)())
        return float(a) if a.ndim == 0 else a

    def _in_keras_order(self, logs: dict) -> list:
        """``evaluate``'s list: the loss, the metrics that kept their own names, each output's
        loss, then every other log by name (Keras's ``_flatten_metrics_in_order``)."""
        names = [n.name for m in self.metrics
                 for n in (m.metrics if isinstance(m, _CompileMetrics) else [m])]
        return [logs[k] for k in names if k in logs] + [logs[k] for k in sorted(logs) if k not in names]

    # -- steps ------------------------------------------------------------------------------------

    def _require_compiled(self, what: str) -> None:
        if not self.__dict__.get("compiled"):
            raise RuntimeError(f"You must call `compile()` before using the model ({what}).")

    def train_step(self, data: Any) -> dict:
        """One optimizer step on a batch as ``fit`` yields it (``x``, ``(x, y)`` or
        ``(x, y, sample_weight)``, see ``keras.utils.unpack_x_y_sample_weight``); returns the
        running logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._train_core(x, y, sample_weight)
        return self._step_logs(x, y, sample_weight, loss, y_pred)

    def test_step(self, data: Any) -> dict:
        """The loss and metrics of a batch, without training."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        loss, y_pred = self._test_core(x, y, sample_weight)
        return self._step_logs(x, y, sample_weight, loss, y_pred)

    # the steps' tensor work (what the built-in steps trace) and their metrics (kept eager)
    def _train_core(self, x: Any, y: Any, sample_weight: Any) -> tuple:
        with GradientTape() as tape:
            y_pred = self._step_call(x, True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            scaled = self.optimizer.scale_loss(loss)
        variables = self.trainable_weights
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients(zip(grads, variables))  # (a None gradient warns, as in Keras)
        return loss, y_pred

    def _step_call(self, x: Any, training: bool) -> Any:
        """The model on a batch as Keras's built-in steps call it: with ``training`` only when the
        model's ``call`` takes it. A subclassed model whose ``call`` does not is called without
        it, so its Dropout and BatchNormalization layers run as in inference, even in ``fit``
        (Keras 3's TensorFlow trainer does this: tools/record_keras_semantics.py records it)."""
        return self(x, training=training) if self._call_has_training else self(x)

    def _test_core(self, x: Any, y: Any, sample_weight: Any) -> tuple:
        y_pred = self._step_call(x, False)
        return self.compute_loss(x, y, y_pred, sample_weight, training=False), y_pred

    def _train_core_logged(self, x: Any, y: Any, sample_weight: Any) -> Any:
        # (_train_core with the metrics' updates, traced together as Keras traces its
        # train_step; _Step.logged)
        loss, y_pred = self._train_core(x, y, sample_weight)
        self._update_metrics(x, y, sample_weight, loss, y_pred)
        return loss

    def _test_core_logged(self, x: Any, y: Any, sample_weight: Any) -> Any:
        loss, y_pred = self._test_core(x, y, sample_weight)
        self._update_metrics(x, y, sample_weight, loss, y_pred)
        return loss

    def _update_metrics(self, x: Any, y: Any, sample_weight: Any, loss: Any, y_pred: Any) -> None:
        self._loss_tracker.update_state(_unscale_for_replicas(loss), sample_weight=_num_rows(x))
        if y is not None and self._compile_metrics is not None:
            self._compile_metrics.update_state(y, y_pred, sample_weight)

    def _step_logs(self, x: Any, y: Any, sample_weight: Any, loss: Any, y_pred: Any) -> dict:
        self._loss_tracker.update_state(_unscale_for_replicas(loss), sample_weight=_num_rows(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data: Any) -> Any:
        """The model's outputs for a batch."""
        x = unpack_x_y_sample_weight(data)[0]
        return self._step_call(x, False)

    # -- how the steps run ------------------------------------------------------------------------

    def make_train_function(self, force: bool = False) -> Any:
        """The function ``fit`` calls on each batch: ``train_step`` as Keras runs it (traced by
        ``tf.function`` unless :attr:`run_eagerly`; see the module's docstring). Kept until
        ``compile`` or a change of the trainable variables or the optimizer (``force`` remakes it)."""
        return self._step_function("train", force)

    def make_test_function(self, force: bool = False) -> Any:
        """The function ``evaluate`` calls on each batch (``test_step``, as :meth:`make_train_function`)."""
        return self._step_function("test", force)

    def make_predict_function(self, force: bool = False) -> Any:
        """The function ``predict`` calls on each batch (``predict_step``, as :meth:`make_train_function`)."""
        return self._step_function("predict", force)

    def __getstate__(self) -> dict:
        # (copies and pickles leave the step functions out: they are made again when needed)
        state = dict(self.__dict__)
        state.pop("_step_functions", None)
        return state

    def _step_key(self) -> tuple:
        # what a trace holds of the model beyond its inputs: the variables it trains, the optimizer
        return (tuple(id(v) for v in self.trainable_weights), id(getattr(self, "optimizer", None)))

    def _step_function(self, kind: str, force: bool = False) -> Any:
        cache = self.__dict__.setdefault("_step_functions", {})
        key = self._step_key()
        entry = cache.get(kind)
        if entry is None or force or entry[0] != key:
            entry = cache[kind] = (key, _Step(self, kind))
        return entry[1]

    @classmethod
    def _logs(cls, logs: Any) -> dict:  # sorted by name, nested dicts flattened, as Keras's are
        out: dict = {}
        for k, v in sorted(logs.items()):
            if isinstance(v, dict):
                out.update(cls._logs(v))
            else:
                a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
                out[k] = float(a) if a.ndim == 0 else a  # (F1Score() gives one value per class)
        return out

    # -- loops ------------------------------------------------------------------------------------

    @_memory.keep_freed
    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1,
            verbose: Any = "auto", callbacks: Any = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: bool = True, class_weight: Any = None,
            sample_weight: Any = None, initial_epoch: int = 0, steps_per_epoch: int | None = None,
            validation_steps: int | None = None, validation_batch_size: int | None = None,
            validation_freq: int | list = 1) -> Any:
        """Train the model for ``epochs`` passes over the data.

        Each batch runs :meth:`train_step` (one forward pass under a ``GradientTape``, the
        compiled loss, the gradients and one optimizer update). After the first batch the step
        is traced by ``tf.function`` and replayed, once per batch shape, unless the model was
        compiled with ``run_eagerly=True`` (docs/keras.md, "How ``fit`` runs a step", says
        which steps run eagerly, and why). The logged ``loss`` and metrics
        are running means over the epoch's batches (weighted by batch size), as Keras reports
        them. Needs :meth:`compile` first.

        Args:
            x: the inputs: a NumPy array or tensor, a list of them (several inputs) or a dict by
                input name; or a ``tf.data.Dataset``, a ``keras.utils.PyDataset`` or any other
                iterable of batches ``x``, ``(x, y)`` or ``(x, y, sample_weight)``: the batches
                then carry the targets and weights, so ``y`` and ``sample_weight`` must not be
                given (``y`` raises ``ValueError``) and ``batch_size`` is not used. Float arrays
                are cast to ``keras.backend.floatx()`` (float32 by default). A dataset of
                unknown cardinality (after ``filter``, a ``TextLineDataset``, ...) or a generator
                ends each epoch as in Keras: with a step begun on the batch it does not have
                (the callbacks' ``on_train_batch_begin`` hears of it; in a traced step the
                optimizer's ``iterations`` and the seed generators move on once more, as
                TensorFlow runs the step's batch-free ops before the missing batch fails it;
                with batches of static size, ``batch(..., drop_remainder=True)``, the built-in
                step's loss and metric means also count one batch more: n / (n + 1) of the
                batches' mean, as in Keras).
            y: the targets, structured as the model's outputs (arrays only).
            batch_size: rows per batch for array data (default 32, or with
                ``steps_per_epoch`` ``ceil(rows / steps_per_epoch)``: one pass per epoch; the
                last batch may be smaller).
            epochs: the index of the last epoch: training runs epochs ``initial_epoch`` to
                ``epochs - 1``.
            verbose: ``"auto"`` or 1: a progress bar (redrawn on a terminal, one line per epoch
                otherwise); 2: one line per epoch; 0: silent.
            callbacks: a list of ``keras.callbacks.Callback`` objects (``EarlyStopping``,
                ``ModelCheckpoint``, ...). A ``History`` and, if ``verbose``, a
                ``ProgbarLogger`` are added.
            validation_split: a fraction in (0, 1) of the array data held out for validation:
                the *last* rows, taken before shuffling. Not for datasets.
            validation_data: data to evaluate at the end of each epoch: ``(x_val, y_val)``,
                ``(x_val, y_val, sample_weight_val)`` or a dataset. Overrides
                ``validation_split``. Its results are logged with a ``val_`` prefix.
            shuffle: reshuffle the array data's rows before each epoch (with TensorFlow's random
                numbers, so a seeded program shuffles as TF does). A dataset is not shuffled
                here: use ``Dataset.shuffle``.
            class_weight: a dict ``{class index: weight}`` weighting each sample's loss by its
                class (single-output models; the class is the argmax of a one-hot row, else the
                label).
            sample_weight: per-sample weights, an array of ``len(x)`` (arrays only; not with
                ``class_weight``).
            initial_epoch: the epoch to start from (to resume a run). ``BackupAndRestore``
                sets it when it restores a run.
            steps_per_epoch: batches per epoch; without it an epoch is one pass over the data.
                With it, the batches continue across epochs and a pass restarts when the data
                runs out (a warning says so for a dataset that ends early: ``repeat()`` it).
            validation_steps: batches of ``validation_data`` to evaluate each time.
            validation_batch_size: the batch size for array ``validation_data`` (default:
                ``batch_size``).
            validation_freq: validate every ``validation_freq`` epochs, or, a list, after the
                epochs it holds (numbered from 1).

        Returns:
            The model's ``History`` callback: ``history.history`` maps each log name
            (``"loss"``, ``"accuracy"``, ``"val_loss"``, ...) to its value for each epoch.

        Raises:
            RuntimeError: the model was not compiled.
            ValueError: ``x``, ``y`` and ``sample_weight`` of different lengths, ``y`` given
                with a dataset, ``validation_split`` with a dataset, ``class_weight`` with
                ``sample_weight``.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> tf.keras.utils.set_random_seed(0)
        >>> x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
        >>> y = x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")
        >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> history = model.fit(x, y, batch_size=16, epochs=5, validation_split=0.25, verbose=0)
        >>> sorted(history.history), len(history.history["loss"])
        (['loss', 'val_loss'], 5)
        >>> bool(history.history["loss"][-1] < history.history["loss"][0])
        True
        """
        self._require_compiled("fit")
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = _split(x, y, sample_weight, validation_split)
        epochs = _backend._capped_epochs(epochs)   # (keras.config's debugging caps)
        data = _Data(x, y, sample_weight, batch_size, _backend._capped_steps(steps_per_epoch), shuffle,
                     class_weight)
        if self._made_under_strategy():
            data.prime()
        val = None
        if validation_data is not None:
            if isinstance(validation_data, (tuple, list)) and len(validation_data) in (2, 3) and \
                    _is_arraylike(validation_data[0]):
                vx, vy, vsw = (tuple(validation_data) + (None,))[:3]
                val = (vx, vy, vsw)
            else:
                val = (validation_data, None, None)
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                            model=self, verbose=verbose, epochs=epochs,
                                            steps=data.size)
        dist = self._replicas()
        self.stop_training = False
        self._initial_epoch = None  # (BackupAndRestore sets it to resume)
        cbs.on_train_begin()
        initial_epoch = self._initial_epoch or initial_epoch
        logs: dict = {}
        per_execution = self._steps_per_execution()
        counters = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            train_function = self.make_train_function() if dist is None else None
            first = True
            for begin, end, batches in data.executions(per_execution):
                cbs.on_train_batch_begin(begin)
                for batch in batches:
                    if dist is not None:
                        logs = dist.step("train", batch, reset=first)
                    else:
                        counters = self._step_counters(data, "train") if data._ends_in_step else None
                        logs = self._logs(train_function(batch))
                        counters = counters and [(v, v.numpy() - before) for v, before in counters]
                    first = False
                cbs.on_train_batch_end(end, logs)
                if self.stop_training:
                    break
            if data.ran_out and not self.stop_training:
                # Keras begins an execution on the batch the data did not have: the callbacks
                # hear of it, and of one step TensorFlow runs the traced step's ops that need no
                # batch (the optimizer's iteration count, the seed generators' moves) before
                # the missing batch fails it (several steps ask first whether there is a batch)
                cbs.on_train_batch_begin(data.ran_out_step)
                self._run_batch_free(counters, per_execution)
            epoch_logs = self._metrics_result_or_logs(logs) if dist is None else dist.epoch_logs(logs)
            if val is not None and _should_eval(epoch, validation_freq):
                val_logs = self.evaluate(val[0], val[1], sample_weight=val[2],
                                         batch_size=validation_batch_size or batch_size,
                                         steps=validation_steps, verbose=0, return_dict=True,
                                         _internal=True, _fit_callbacks=cbs)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        if epochs > 0:
            self.optimizer.finalize_variable_values(self.trainable_weights)
        self.__dict__.pop("_metrics_memo", None)
        cbs.on_train_end(epoch_logs if epochs > initial_epoch else {})
        return self.history

    @_memory.keep_freed
    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None,
                 verbose: Any = "auto", sample_weight: Any = None, steps: int | None = None,
                 callbacks: Any = None, return_dict: bool = False, **kwargs: Any) -> Any:
        """The loss and metrics of the model over the data, batch by batch, without training.

        Each batch runs :meth:`test_step` (the model called with ``training=False``); the
        results are the means over all batches, weighted by batch size. Needs :meth:`compile`.

        Args:
            x: the inputs, as in :meth:`fit` (arrays, a dict or list of arrays, or a dataset or
                other iterable of ``(x, y)`` / ``(x, y, sample_weight)`` batches).
            y: the targets (arrays only).
            batch_size: rows per batch for array data (default 32, or with ``steps``
                ``ceil(rows / steps)``).
            verbose: ``"auto"`` or 1: a progress bar; 0: silent.
            sample_weight: per-sample weights for the loss and the ``weighted_metrics``
                (arrays only).
            steps: batches to evaluate (default: all of them).
            callbacks: ``keras.callbacks.Callback`` objects; their ``on_test_*`` methods run
                (one that sets ``model.stop_evaluating = True`` ends the evaluation there).
            return_dict: return ``{name: value}`` instead of a scalar or list.

        Returns:
            The loss as a float when nothing else is logged; otherwise a list in
            :attr:`metrics_names`' order (the loss first); with ``return_dict=True``, a dict.

        Raises:
            RuntimeError: the model was not compiled.
            TypeError: an unknown keyword argument.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse", metrics=["mae"])
        >>> logs = model.evaluate(np.ones((8, 2)), np.zeros((8, 1)), verbose=0, return_dict=True)
        >>> sorted(logs)
        ['loss', 'mae']
        """
        self._require_compiled("evaluate")
        internal = kwargs.pop("_internal", False)
        cbs = kwargs.pop("_fit_callbacks", None)  # fit's validation: fit's callbacks, as in Keras
        if kwargs:
            raise TypeError(f"Invalid keyword arguments: {list(kwargs)}")
        data = _Data(x, y, sample_weight, batch_size, _backend._capped_steps(steps))
        if self._made_under_strategy():
            data.prime()
        verbose = 1 if verbose == "auto" else int(verbose)
        if cbs is None:
            cbs = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                                verbose=verbose, epochs=1, steps=data.size,
                                                mode="test")
        self.reset_metrics()
        dist = self._replicas()
        self.stop_evaluating = False   # (a callback may set it to end the evaluation)
        cbs.on_test_begin()
        logs: dict = {}
        test_function = self.make_test_function() if dist is None else None
        first = True
        per_execution = self._steps_per_execution()
        counters = None
        for begin, end, batches in data.executions(per_execution):
            cbs.on_test_batch_begin(begin)
            for batch in batches:
                if dist is not None:
                    logs = dist.step("test", batch, first)
                else:
                    counters = self._step_counters(data, "test") if data._ends_in_step else None
                    logs = self._logs(test_function(batch))
                    counters = counters and [(v, v.numpy() - before) for v, before in counters]
                first = False
            cbs.on_test_batch_end(end, logs)
            if self.stop_evaluating:
                break
        if data.ran_out:   # (as fit: Keras begins an execution on the batch the data did not have)
            cbs.on_test_batch_begin(data.ran_out_step)
            self._run_batch_free(counters, per_execution)
        logs = self._metrics_result_or_logs(logs) if dist is None else dist.epoch_logs(logs)
        if not internal:
            self.__dict__.pop("_metrics_memo", None)
        cbs.on_test_end(logs)
        if return_dict or internal:
            return logs
        return self._flat(logs)

    @_memory.keep_freed
    def predict(self, x: Any, batch_size: int | None = None, verbose: Any = "auto",
                steps: int | None = None, callbacks: Any = None) -> Any:
        """The model's outputs for ``x``, computed batch by batch and joined into NumPy arrays.

        Each batch runs :meth:`predict_step` (the model called with ``training=False``, so
        dropout is off and batch normalization uses its moving statistics). No compile is
        needed. For one small batch, ``model(x)`` or :meth:`predict_on_batch` is quicker.

        Args:
            x: the inputs: arrays (a dict or list of them for several inputs), or a dataset or
                other iterable of batches (``(x, y)`` batches are accepted; ``y`` is ignored).
            batch_size: rows per batch for array data (default 32, or with ``steps``
                ``ceil(rows / steps)``).
            verbose: ``"auto"`` or 1: a progress bar; 0: silent.
            steps: batches to predict (default: all of them).
            callbacks: ``keras.callbacks.Callback`` objects; their ``on_predict_*`` methods run
                (one that sets ``model.stop_predicting = True`` ends the predictions there).

        Returns:
            A NumPy array (or the model's structure of outputs, each a NumPy array) with one row
            per input row.

        Raises:
            ValueError: the data gave no batch.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
        >>> model.predict(np.zeros((50, 4)), batch_size=16, verbose=0).shape
        (50, 3)
        """
        data = _Data(x, None, None, batch_size, _backend._capped_steps(steps))
        verbose = 1 if verbose == "auto" else int(verbose)
        cbs = callbacks_module.CallbackList(callbacks, add_progbar=verbose != 0, model=self,
                                            verbose=verbose, epochs=1, steps=data.size,
                                            mode="predict")
        dist = self._replicas()
        self.stop_predicting = False   # (a callback may set it to end the predictions)
        cbs.on_predict_begin()
        outs: list = []
        predict_function = self.make_predict_function() if dist is None else None
        for begin, end, batches in data.executions(self._steps_per_execution()):
            cbs.on_predict_batch_begin(begin)
            step_outs = [map_structure(lambda t: np.asarray(t.numpy() if hasattr(t, "numpy") else t),
                                       predict_function(batch) if dist is None else dist.predict(batch))
                         for batch in batches]
            outs.extend(step_outs)
            # (an execution's outputs: its steps' joined, as Keras's multi-step predict joins them)
            cbs.on_predict_batch_end(end, {"outputs": step_outs[0] if len(step_outs) == 1 else
                                           _join(step_outs)})
            if self.stop_predicting:
                break
        if data.ran_out:   # (as fit: Keras begins an execution on the batch the data did not have)
            cbs.on_predict_batch_begin(data.ran_out_step)
        cbs.on_predict_end()
        if not outs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please "
                             "use `Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_"
                             "eagerly(True)` for more information of where went wrong, or file a "
                             "issue/bug to `keras`.")
        return _join(outs)

    def train_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                       class_weight: Any = None, return_dict: bool = False) -> Any:
        """One optimizer step on one batch (the whole of ``x``, not split into batches).

        For a training loop of your own: the metrics are reset first, as Keras resets them, so
        the results are this batch's. Needs :meth:`compile`.

        Args:
            x: the batch's inputs (an array, or a list or dict of arrays).
            y: the batch's targets.
            sample_weight: per-sample weights.
            class_weight: ``{class index: weight}``: each row's weight by its class, as in
                :meth:`fit` (not with ``sample_weight``; needs ``y``).
            return_dict: return ``{name: value}`` instead of a scalar or list.

        Returns:
            The loss as a float when nothing else is logged, else a list in
            :attr:`metrics_names`' order, or a dict with ``return_dict=True``.

        Raises:
            RuntimeError: the model was not compiled.
            ValueError: both ``class_weight`` and ``sample_weight``, or ``class_weight``
                without ``y``.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> x, y = np.ones((4, 2)), np.ones((4, 1))
        >>> first = model.train_on_batch(x, y)
        >>> bool(model.train_on_batch(x, y) < first)
        True
        """
        self._require_compiled("train_on_batch")
        self.reset_metrics()
        if class_weight is not None:
            if sample_weight is not None:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
            if y is None:
                raise ValueError("`class_weight` needs the targets `y`: it weighs each row by its class.")
            sample_weight = _class_weights(y, class_weight)
        batch = (_to_numpy(x), None if y is None else _to_numpy(y), sample_weight)
        dist = self._replicas()
        logs = self._logs(self.make_train_function()(batch)) if dist is None else \
            dist.step("train", batch, reset=True, split=False)  # (every replica: the whole batch)
        return logs if return_dict else self._flat(logs)

    def test_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                      return_dict: bool = False) -> Any:
        """The loss and metrics of one batch (the whole of ``x``), without training.

        The metrics are reset first, so the results are this batch's. Needs :meth:`compile`.

        Args:
            x: the batch's inputs.
            y: the batch's targets.
            sample_weight: per-sample weights.
            return_dict: return ``{name: value}`` instead of a scalar or list.

        Returns:
            As :meth:`train_on_batch`.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((2,)),
        ...                              tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse")
        >>> model.test_on_batch(np.ones((4, 2)), np.full((4, 1), 3.0))
        9.0
        """
        self._require_compiled("test_on_batch")
        self.reset_metrics()
        batch = (_to_numpy(x), None if y is None else _to_numpy(y), sample_weight)
        dist = self._replicas()
        logs = self._logs(self.make_test_function()(batch)) if dist is None else \
            dist.step("test", batch, reset=True, split=False)  # (every replica: the whole batch)
        return logs if return_dict else self._flat(logs)

    def predict_on_batch(self, x: Any) -> Any:
        """The model's outputs for one batch (the whole of ``x``), as NumPy arrays.

        Runs :meth:`predict_step` once (``training=False``). No compile is needed.

        Args:
            x: the batch's inputs (an array, or a list or dict of arrays).

        Returns:
            A NumPy array, or the model's structure of outputs as NumPy arrays.

        Example:

        >>> import numpy as np
        >>> import tapegrad as tf
        >>> model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3)])
        >>> model.predict_on_batch(np.zeros((5, 4))).shape
        (5, 3)
        """
        dist = self._replicas()
        if dist is not None:
            return dist.predict((_to_numpy(x),))
        return map_structure(lambda t: t.numpy(), self.make_predict_function()((_to_numpy(x),)))

    def _flat(self, logs: dict) -> Any:
        values = self._in_keras_order(logs)
        return values[0] if len(values) == 1 else values


_MAX_SHAPES = 8   # batch shapes a step function traces before it runs eagerly


class _Step:
    """One of a model's step functions (see the module's docstring): ``step(batch)``."""

    def __init__(self, model: Any, kind: str) -> None:
        self.model, self.kind = model, kind
        self.method = getattr(model, kind + "_step")
        own = getattr(type(model), kind + "_step") is getattr(Trainer, kind + "_step")
        self.core = getattr(model, f"_{kind}_core") if own and kind != "predict" else None
        # with Keras's compute_metrics and step logs, the metrics' updates are traced with the
        # step (as in Keras's traced train_step), and the step returns the loss alone
        self.logged = (self.core is not None and type(model).compute_metrics is Trainer.compute_metrics
                       and type(model)._step_logs is Trainer._step_logs
                       and model.__dict__.get("_strategy_ref") is None)
        if self.logged:
            self.core = getattr(model, f"_{kind}_core_logged")
        elif self.core is not None:
            self.core = _with_output_masks(self.core)
        # TensorFlow's retracing warning counts the traces of Keras's step functions by the code
        # of the closure Keras makes them from: one for train and test (called on a dataset
        # iterator, whose batch dimension is None: one trace per model and data spec), one for
        # predict (called on each batch, retraced for a new size as reduce_retracing relaxes it)
        self.traced = _function.Function(
            self.core or self.method, reduce_retracing=True,
            stats_key=(Trainer.predict if kind == "predict" else Trainer.fit).__wrapped__.__code__,
            batch_free=kind != "predict")
        self.traced.__name__ = f"{type(model).__name__}.{kind}_step"   # (for its warning)
        self.calls = 0
        self.shapes: set = set()   # the batch shapes traced (each trace is kept, with its buffers)
        self.eager = False

    def __call__(self, batch: Any) -> Any:
        if self.model.jit_compile:   # (the image ops' compiled kernels: the same numbers, see _jit)
            with _jit.compiled_steps():
                return self._call(batch)
        return self._call(batch)

    def _call(self, batch: Any) -> Any:
        model = self.model
        with _random.graph_step(model):   # (Keras's step is a tf.function: graph op seeds)
            self.calls += 1
            if model.__dict__.get("run_eagerly"):
                return self.method(batch)
            data = map_structure(_as_tensor, batch)
            if self.calls == 1 or self.eager or getattr(model.__dict__.get("_compile_loss"), "metrics", None):
                # (the first call builds what the step needs; each output's loss tracker keeps
                # Python state that a replay would skip) run eagerly, counted as Keras's traced
                # step would count it for TensorFlow's retracing warning
                if self.core is None:
                    self.traced.count_call(data)
                else:
                    self.traced.count_call(*unpack_x_y_sample_weight(data))
                return self.method(batch)
            shape = tuple(np.shape(t) for t in flatten(data) if t is not None)
            if shape not in self.shapes:
                self.shapes.add(shape)
                if len(self.shapes) > _MAX_SHAPES:
                    self.eager = True
                    warnings.warn(
                        f"Model.{self.kind}_step runs eagerly from now on: its batches came in more "
                        f"than {_MAX_SHAPES} shapes, and each shape is traced and kept. Give the "
                        "batches fewer shapes (pad them to a few lengths), or pass "
                        "run_eagerly=True to compile().", UserWarning, stacklevel=4)
                    return self.method(batch)
            if self.core is None:
                return self.traced(data)
            x, y, sample_weight = unpack_x_y_sample_weight(data)
            if self.logged:
                if _distribute.get_strategy().num_replicas_in_sync != 1:
                    return self.method(batch)
                self.traced(x, y, sample_weight)
                return model.get_metrics_result()
            loss, y_pred, masks = self.traced(x, y, sample_weight)
            for out, mask in zip(flatten(y_pred), masks):
                if mask is not None:  # (a replay's outputs: the masks the metrics read)
                    set_mask(out, mask)
        return model._step_logs(x, y, sample_weight, loss, y_pred)


def _with_output_masks(core: Any) -> Any:
    """A step's core that also returns its outputs' masks (Embedding(mask_zero)'s), which the
    metrics updated after it weigh by: a replayed trace's tensors carry none."""
    def core_and_masks(x: Any, y: Any, sample_weight: Any) -> tuple:
        loss, y_pred = core(x, y, sample_weight)
        return loss, y_pred, [get_mask(o) for o in flatten(y_pred)]
    return core_and_masks


def _should_eval(epoch: int, validation_freq: Any) -> bool:
    """Whether fit validates after ``epoch`` (0-based), as Keras's ``_should_eval``."""
    if isinstance(validation_freq, int):
        if validation_freq == 0:
            raise ValueError("`validation_freq` must not be 0: give a positive int (validate every "
                             "that many epochs) or a list of the epochs (from 1) to validate after.")
        return (epoch + 1) % validation_freq == 0
    if isinstance(validation_freq, list):
        return epoch + 1 in validation_freq
    raise ValueError("Expected `validation_freq` to be a list or int. Received: "
                     f"validation_freq={validation_freq} of the type {type(validation_freq)}.")


def _join(outs: list) -> Any:
    """Batches' outputs (NumPy arrays in the model's structure) joined along the batch axis."""
    first = outs[0]
    if isinstance(first, np.ndarray):
        return np.concatenate(outs)
    leaves = [flatten(o) for o in outs]
    joined = [np.concatenate([l[i] for l in leaves]) for i in range(len(leaves[0]))]
    it = iter(joined)
    return map_structure(lambda _: next(it), first)


def _as_tensor(v: Any) -> Any:
    return convert_to_tensor(v) if isinstance(v, (np.ndarray, np.generic)) else v
