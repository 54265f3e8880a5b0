"""``tf.function``: TensorFlow's tracing semantics over a replayed trace (``_trace``).

A call's arguments give a key (TensorFlow's rules: tensor shapes and dtypes, Python values,
nested structure; an ``input_signature`` instead). A new key runs the Python function once under
a tracer (Python side effects happen then, as in TensorFlow); later calls with the key replay the
trace. A trace whose guards see other values than the trace did is abandoned and the call traced
again under those values (traces of one key are tried in turn), so a Python ``if`` on a tensor
gives AutoGraph's results. A call of new sizes that TensorFlow's relaxed signature covers (None
dimensions, ``reduce_retracing``) replays a size-free trace (``_trace._size_free``) of the other
sizes instead of tracing again. A function whose trace cannot be replayed runs eagerly, with one
warning saying why. An argument whose class has a ``_function_key()`` method (a distributed
value, ``tf.distribute``'s ``PerReplica``; a ``tf.RaggedTensor``) is keyed by what it returns and
passed to the function as it is, which then runs eagerly, quietly: a distributed value's work is
done elsewhere (on the replicas); a RaggedTensor's row partitions are read in Python.
"""
from __future__ import annotations

import collections
import functools
import inspect
import logging
import threading
import warnings
import weakref
from typing import Any, Callable

import numpy as np

from . import _memory, _nest, _recorders as _rec, _trace, _variable, dtypes as _dt
from ._convert import convert_to_tensor
from .errors import InvalidArgumentError
from ._spec import TensorSpec
from ._tensor import CompositeTensor, IndexedSlices, Tensor, TensorShape, VariableBase, wrap

__all__ = ["function", "Function", "ConcreteFunction", "run_functions_eagerly",
           "functions_run_eagerly", "tracing"]

_PASSED = "E"  # the key of an argument passed as it is (a class with ``_function_key``)
_MAX_BRANCH_TRACES = 16  # traces of one key (one per guard outcome) before running eagerly
MAX_TRACES = 256  # keys a Function keeps traces for; beyond, the least recently used is dropped
# TensorFlow's frequent-retracing warning: at most twice per Python function, when 5 of its
# last calls (a window of about 10) traced
_RETRACE_WINDOW, _RETRACE_THRESHOLD, _RETRACE_WARNINGS = 10, 5, 2
_detectors: Any = weakref.WeakKeyDictionary()  # Python function's code -> _RetraceDetector
_detectors_lock = threading.Lock()
_ARG_VAR = object()  # (in an output template: (_ARG_VAR, r), the r-th Variable passed)
_state = threading.local()
_eagerly = False
_SLOT = object()  # (in an output template: a tensor the replay gives)
_SLICES = object()  # (in an output template: (_SLICES, n), an IndexedSlices of the next n tensors)
_COMPOSITE = object()  # (in an output template: (_COMPOSITE, n, c), c rebuilt from the next n tensors)
_WEAK = object()  # (in an output template: (_WEAK, cls), the next tensor as a weak tensor of class cls)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Make every ``tf.function`` run its Python function eagerly (``True``), for debugging.

    >>> from tapegrad._function import run_functions_eagerly, functions_run_eagerly
    >>> run_functions_eagerly(True); functions_run_eagerly()
    True
    >>> run_functions_eagerly(False)
    """
    global _eagerly
    _eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether :func:`run_functions_eagerly` is on."""
    return _eagerly


def tracing() -> bool:
    """Whether a ``tf.function`` is being traced in this thread (``tf.executing_eagerly()`` is
    False then)."""
    return getattr(_state, "depth", 0) > 0


class ConcreteFunction:
    """The function traced for one input signature (from ``Function.get_concrete_function``).

    Calling it binds the arguments to ``structured_input_signature`` and runs the trace, as
    TensorFlow runs its graph: a tensor of another dtype is an ``InvalidArgumentError``; one of
    another shape runs the trace on that shape (the ops' kernels decide whether it fits).
    """

    def __init__(self, owner: "Function", signature: tuple, outputs: Any, entry: Any = None) -> None:
        self._owner = owner
        self._entry = entry  # (the owner's traces for the signature)
        self.structured_input_signature = signature
        self.structured_outputs = outputs

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # the arguments holding tensors are passed (positionally in the function's order, or by
        # name); the Python values the function was traced with are filled in, as in TensorFlow
        sig_args, sig_kwargs = self.structured_input_signature
        has_spec = lambda v: any(_is_spec(x) or _is_type_spec(x) for x in _nest.flatten(v))  # noqa: E731
        slots = [i for i, v in enumerate(sig_args) if has_spec(v)]
        names = [k for k in self._owner._param_order(sig_kwargs) if has_spec(sig_kwargs[k])]
        call_args, call_kwargs = list(sig_args), dict(sig_kwargs)
        pending = list(args)
        params = [] if self._owner._pysig is None else list(self._owner._pysig.parameters)
        for i in slots:
            if i < len(params) and params[i] in kwargs and not pending:  # (named: bound by name)
                call_args[i] = kwargs.pop(params[i])
            elif pending:
                call_args[i] = pending.pop(0)
        for k in names:
            if k in kwargs:
                call_kwargs[k] = kwargs.pop(k)
            elif pending:
                call_kwargs[k] = pending.pop(0)
            else:
                raise TypeError(f"{self!r}: missing the tensor argument {k!r}")
        for k, v in kwargs.items():  # a traced Python value may be repeated, not changed
            if k not in call_kwargs or has_spec(call_kwargs[k]) or not _same_value(v, call_kwargs[k]):
                raise TypeError(f"Binding inputs to tf.function failed: {k}={v!r} does not fit {self!r} "
                                f"(traced with {k}={call_kwargs.get(k, '(no such argument)')!r}); "
                                "call the tf.function itself to trace for other Python values")
        if pending:
            raise TypeError(f"Binding inputs to tf.function failed: {self!r} takes "
                            f"{len(slots) + len(names)} tensor argument(s), got {len(args)}")
        for spec, v in zip([sig_args[i] for i in slots] + [sig_kwargs[k] for k in names],
                           [call_args[i] for i in slots] + [call_kwargs[k] for k in names]):
            if not _nest.same_structure(spec, v):
                raise TypeError(f"Binding inputs to tf.function failed due to `{v!r} does not have "
                                f"the structure of {spec!r}`: pass the structure {self!r} was traced for")
        specs = _nest.flatten((tuple(sig_args), sig_kwargs))
        vals = _nest.flatten((tuple(call_args), call_kwargs))
        inputs, variables, given, resized = [], [], [], False
        for spec, v in zip(specs, vals):
            if isinstance(spec, TensorSpec):
                # TensorFlow's graph takes tensors of its inputs' dtypes (Python numbers converted
                # to them) and of any shape: its kernels run on the shapes given
                t = v if isinstance(v, (Tensor, VariableBase)) else convert_to_tensor(v, spec.dtype)
                if t.dtype != spec.dtype:
                    name = f"__inference_{self._owner.__name__}"
                    raise InvalidArgumentError(
                        f"cannot compute {name} as input #{len(inputs)}(zero-based) was expected to be "
                        f"a {spec.dtype.name} tensor but is a {t.dtype.name} tensor [Op:{name}]")
                resized |= not spec.shape.is_compatible_with(t.shape)
                inputs.append(convert_to_tensor(t))
                v = inputs[-1]
            elif _is_type_spec(spec) and not spec.is_compatible_with(v):
                raise TypeError(f"Binding inputs to tf.function failed: {v!r} is not compatible with {spec!r}")
            elif isinstance(v, VariableBase) and all(v is not w for w in variables):
                variables.append(v)
            given.append(v)
        if resized and self._entry is not None and self._entry.eager is None:
            for prog in self._entry.programs:  # the trace for the signature, on the shapes given
                try:
                    res = prog.run_engine(inputs, prog.resources(variables))
                except _trace.Miss:  # (it read a shape into Python: traced for these below)
                    continue
                return _nest.pack_sequence_as(prog.structure, _fill(prog, res, variables))
        call_args, call_kwargs = _nest.pack_sequence_as((tuple(call_args), call_kwargs), given)
        return self._owner(*call_args, **call_kwargs)

    @property
    def inputs(self) -> list:
        return [s for s in _nest.flatten(self.structured_input_signature) if isinstance(s, TensorSpec)]

    @property
    def outputs(self) -> list:
        """The graph's output tensors (``graph.outputs``)."""
        return self.graph.outputs

    @property
    def variables(self) -> tuple:
        """The Variables the function reads or writes (captured, and passed as arguments)."""
        return self.graph.variables

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if getattr(v, "trainable", False))

    @property
    def captured_inputs(self) -> list:
        return self.graph.external_captures

    @property
    def graph(self) -> "FuncGraph":
        """The traced function as TensorFlow's ``FuncGraph`` presents it (:class:`FuncGraph`:
        its operations, inputs, outputs, captures), built from tapegrad's trace.

        >>> import tapegrad as tf
        >>> f = tf.function(lambda x: x * 2.0)
        >>> [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]
        ['Placeholder', 'Const', 'Mul', 'Identity']
        """
        g = self.__dict__.get("_graph")
        if g is None:
            progs = [] if self._entry is None else self._entry.programs
            if not progs:
                why = "" if self._entry is None or self._entry.eager is None else f" ({self._entry.eager})"
                raise ValueError(f"{self!r} has no graph: tapegrad runs it eagerly{why}, so it has "
                                 "no trace to present as TensorFlow's FuncGraph.")
            names, specs = self._arg_names()
            g = self.__dict__["_graph"] = FuncGraph(f"{self._owner.__name__}", progs[0], names, specs)
        return g

    def _arg_names(self) -> tuple:
        """The names TensorFlow gives the graph's placeholders: the tensor inputs' (a spec's own
        name, else its parameter's, ``_1``, ``_2`` for more in one argument), then the Variables
        passed as arguments."""
        sig_args, sig_kwargs = self.structured_input_signature
        params = [] if self._owner._pysig is None else list(self._owner._pysig.parameters)
        named = [(params[i] if i < len(params) else f"args_{i}", v) for i, v in enumerate(sig_args)]
        named += [(k, sig_kwargs[k]) for k in self._owner._param_order(sig_kwargs)]
        tensors, variables = [], []
        for p, v in named:
            k = 0
            for leaf in _nest.flatten(v):
                if isinstance(leaf, TensorSpec):
                    tensors.append(leaf.name or (p if k == 0 else f"{p}_{k}"))
                    k += 1
                elif isinstance(leaf, VariableBase):
                    variables.append(p)
        return tensors + variables, self.inputs

    @property
    def function_def(self) -> Any:
        """The function's signature as TensorFlow's FunctionDef presents it:
        ``signature.name``, ``signature.input_arg``/``output_arg`` (each ``name`` and ``type``,
        TensorFlow's DataType number; a Variable's is DT_RESOURCE, 20), ``node_def`` (the graph's
        operations past the placeholders). Records with those field names, not a protocol buffer."""
        g = self.graph
        def arg(t: Any, name: str) -> _Record:
            return _Record(name=name, type=_DT_RESOURCE if t.dtype is None else t.dtype.as_datatype_enum)
        ins = [arg(t, t.op.name.replace("/", "_").lower()) for t in g.inputs]
        outs = [arg(t, "identity" if i == 0 else f"identity_{i}") for i, t in enumerate(g.outputs)]
        return _Record(signature=_Record(name=f"__inference_{self._owner.__name__}", input_arg=ins,
                                         output_arg=outs),
                       node_def=[op.node_def for op in g.get_operations() if op.type != "Placeholder"])

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """TensorFlow's description of the signature: each parameter's kind and type (a
        ``TensorSpec``, ``Literal[value]`` for a traced Python value), the output's type, the
        captured Variables.

        >>> import tapegrad as tf
        >>> f = tf.function(lambda a, b: a ** b)
        >>> print(f.get_concrete_function(tf.TensorSpec([], tf.float32), 2).pretty_printed_signature())
        Input Parameters:
          a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
          b (POSITIONAL_OR_KEYWORD): Literal[2]
        Output Type:
          TensorSpec(shape=(), dtype=tf.float32, name=None)
        Captures:
          None
        """
        captured = [] if self._entry is None or not self._entry.programs else \
            [v for v in self._entry.programs[0].res if v is not None]
        return self._owner._describe(self.structured_input_signature, self.structured_outputs, captured)

    def __str__(self) -> str:
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self._owner.__name__}{self.structured_input_signature}>"


class _Entry:
    """The traces of one key (one per guard outcome), or the reason it runs eagerly."""

    __slots__ = ("programs", "eager", "pinned", "kernels", "__weakref__")

    def __init__(self) -> None:
        self.programs: list = []
        self.eager: str | None = None
        self.pinned = False  # its trace created the function's Variables: never dropped
        self.kernels: _Kernels | None = None


class _Kernels:
    """The random kernels of one of TensorFlow's concrete functions of a ``tf.function`` (one per
    input signature it traces: with an ``input_signature`` one for every call), which the traces
    tapegrad makes for the calls it covers share."""

    __slots__ = ("__weakref__",)


class _RetraceDetector:
    """TensorFlow's ``_FrequentTracingDetector``: how many of a Python function's recent calls
    traced; ``calls``: per tracing call, 1 + the calls that followed it without tracing."""

    __slots__ = ("calls", "count", "warned", "functions", "gone")

    def __init__(self) -> None:
        self.calls: list = []
        self.count = 0
        self.warned = 0
        self.functions: Any = weakref.WeakSet()  # the tf.functions of this Python function
        self.gone = 0  # the calls not yet told of those deleted since

    def traced(self, untraced_before: int, fn: Any) -> None:
        if self.calls:
            self.calls[-1] += untraced_before
        self.count += untraced_before + 1
        self.calls.append(1)
        while self.calls and self.count - self.calls[0] > _RETRACE_WINDOW:
            self.count -= self.calls.pop(0)
        if self.warned < _RETRACE_WARNINGS and len(self.calls) >= _RETRACE_THRESHOLD:
            self.warned += 1
            logging.getLogger("tensorflow").warning(
                f"{len(self.calls)} out of the last {self.count} calls to {fn} triggered tf.function "
                "retracing. Tracing is expensive and the excessive number of tracings could be due to "
                "(1) creating @tf.function repeatedly in a loop, (2) passing tensors with different "
                "shapes, (3) passing Python objects instead of tensors. For (1), please define your "
                "@tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True "
                "option that can avoid unnecessary retracing. For (3), please refer to "
                "https://www.tensorflow.org/guide/function#controlling_retracing and "
                "https://www.tensorflow.org/api_docs/python/tf/function for more details.")


def _stats_key(fn: Any) -> Any:
    """What TensorFlow counts retracing by: the Python function's code object (shared by the
    tf.functions made from one function, and by a method's instances)."""
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__code__", None)


class Function:
    """A Python function traced once per input signature and replayed; made by :func:`function`."""

    def __init__(self, fn: Callable, input_signature: Any = None, reduce_retracing: bool = False,
                 name: str | None = None, owner: Any = None, stats_key: Any = None,
                 batch_free: bool = False) -> None:
        # stats_key: what the retracing warning counts this function's traces under (default:
        # its Python function's code); batch_free: count traces as if every tensor argument's
        # first dimension were None (Keras's step functions take a dataset's batches, whose
        # element spec has a None batch dimension: one trace for every batch size)
        self._fn = fn
        self._stats_key_for = stats_key
        self._batch_free = batch_free
        self._sig = None if input_signature is None else tuple(input_signature)
        if self._sig is not None:
            for s in _nest.flatten(list(self._sig)):
                if not isinstance(s, TensorSpec) and not hasattr(s, "is_compatible_with"):
                    raise TypeError(f"input_signature must be a possibly nested sequence of "
                                    f"TensorSpec objects; got {s!r}")
        self._reduce = reduce_retracing
        self._cache: collections.OrderedDict = collections.OrderedDict()  # (least recently used first)
        self._ncalls = 0           # calls, and those told to the retracing warning's detector
        self._told = 0
        self._counted: list = []  # the signatures TensorFlow would have traced
        self._kernels: list = []  # the random kernels of each (of its concrete function)
        self._count = 0
        self._created = False      # Variables were created on the first trace
        self._warned = False
        self._instances: Any = None
        self._spec_signatures: list = []  # get_concrete_function's TensorSpec signatures (saved with it)
        self._owner = owner
        self.__name__ = name or getattr(fn, "__name__", "function")
        functools.update_wrapper(self, fn)
        try:
            self._pysig = inspect.signature(fn)
        except (TypeError, ValueError):
            self._pysig = None
        # calls of only plain tensors, all positional, key a fast path to their entry
        self._fast: dict = {}
        ps = [] if self._pysig is None else list(self._pysig.parameters.values())
        self._npos = -1 if self._sig is not None or any(
            p.kind is not p.POSITIONAL_OR_KEYWORD or p.default is not p.empty for p in ps) else len(ps)

    @property
    def python_function(self) -> Callable:
        """The Python function that is traced."""
        return self._fn

    @property
    def input_signature(self) -> tuple | None:
        return self._sig

    def experimental_get_tracing_count(self) -> int:
        """The number of traces TensorFlow would make (one per new input signature)."""
        return self._count

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        if self._instances is None:
            self._instances = weakref.WeakKeyDictionary()
        try:
            bound = self._instances.get(obj)
        except TypeError:
            return Function(self._fn.__get__(obj, objtype), self._sig, self._reduce, self.__name__)
        if bound is None:
            bound = Function(self._fn.__get__(obj, objtype), self._sig, self._reduce, self.__name__)
            self._instances[obj] = bound
        return bound

    # -- arguments
    def _bind(self, args: tuple, kwargs: dict) -> tuple:
        if self._sig is not None:
            if self._pysig is not None and (kwargs or len(args) < len(self._sig)):
                try:  # (keywords by name, and defaults for what the call leaves out, as TF binds them)
                    b = self._pysig.bind(*args, **kwargs)
                except TypeError as e:
                    raise TypeError(f"Binding inputs to tf.function `{self.__name__}` failed due to "
                                    f"`{e}`.") from None
                b.apply_defaults()
                args, kwargs = b.args, b.kwargs
            if len(args) != len(self._sig) or kwargs:
                raise TypeError(f"{self.__name__}: the input_signature has {len(self._sig)} "
                                f"entries but the call gave {len(args)} positional and "
                                f"{len(kwargs)} keyword arguments")
            # each argument where the signature has a TensorSpec is one value: a (nested) list
            # there is a tensor's value, as TensorFlow converts it, not a structure
            parts = _nest.flatten_up_to(list(self._sig), list(args))
            if parts is not None and any(type(x) in (list, tuple) for x in parts):
                args = tuple(_nest.pack_sequence_as(list(self._sig), [
                    convert_to_tensor(x, spec.dtype) if type(x) in (list, tuple)
                    and isinstance(spec, TensorSpec) else x
                    for x, spec in zip(parts, _nest.flatten(list(self._sig)))]))
            return args, {}
        if self._pysig is not None:
            try:
                b = self._pysig.bind(*args, **kwargs)
            except TypeError as e:
                raise TypeError(f"Binding inputs to tf.function `{self.__name__}` failed due to "
                                f"`{e}`.") from None
            b.apply_defaults()
            return b.args, b.kwargs
        return args, kwargs

    def _leaves(self, args: tuple, kwargs: dict) -> tuple:
        """Flat tensor inputs, and the key of the call."""
        structure = (list(args), kwargs)
        flat = _nest.flatten(structure)
        tensors, key, variables = [], [], []
        specs = _nest.flatten(list(self._sig)) if self._sig is not None else None
        if any(getattr(x, "_TRACED_BY_COMPONENTS", False) for x in flat):  # (an extension type)
            flat, specs, key = _by_components(flat, specs, self.__name__)
        if specs is not None and len(specs) != len(flat):
            raise ValueError(f"{self.__name__}: the arguments' structure does not match the "
                             f"input_signature {self._sig}")
        for i, x in enumerate(flat):
            if isinstance(x, VariableBase):
                # TF's VariableSpec: the declared shape and dtype, and which arguments alias
                alias = next((j for j, v in enumerate(variables) if v is x), None)
                if alias is None:
                    alias = len(variables)
                    variables.append(x)
                shape = x.shape
                key.append(("V", None if shape.rank is None else tuple(shape), x.dtype.name, alias))
            elif hasattr(type(x), "_function_key"):
                if specs is not None and not specs[i].is_compatible_with(x):
                    raise TypeError(f"Binding inputs to tf.function `{self.__name__}` failed: the "
                                    f"argument {x!r} does not fit the input_signature's {specs[i]!r}")
                key.append((_PASSED, x._function_key()))
            elif specs is not None and not isinstance(specs[i], TensorSpec):
                raise TypeError(f"Binding inputs to tf.function `{self.__name__}` failed: the "
                                f"argument {x!r} does not fit the input_signature's {specs[i]!r}")
            elif isinstance(x, (Tensor, np.ndarray, np.generic)) or specs is not None:
                t = convert_to_tensor(x) if specs is None or isinstance(x, Tensor) else \
                    convert_to_tensor(x, specs[i].dtype)
                if specs is not None and not specs[i].is_compatible_with(t):
                    raise TypeError(
                        f"Binding inputs to tf.function `{self.__name__}` failed: the argument "
                        f"{x!r} does not fit the input_signature's {specs[i]!r}")
                tensors.append(t)
                key.append(("T", tuple(t.shape), t.dtype.name + " weak" * t._weak))  # (a weak input: a trace of its own)
            else:
                try:
                    hash(x)
                except TypeError:  # (TensorFlow's error: a key by id() would replay another call's trace)
                    raise TypeError(f"Could not generate a generic TraceType for {x!r}. Please verify "
                                    "that it is immutable/hashable. Otherwise, consider implementing the "
                                    "Tracing Protocol for it (or pass its numbers as tensors, or as a "
                                    "tuple).") from None
                key.append(("P", type(x), x))
        return tensors, tuple(key), _shape_of_structure(structure), flat, variables

    def _count_trace(self, key: tuple, structure: Any) -> _Kernels:
        """Count the trace TensorFlow would make for a call of ``key`` (none if a concrete function
        it traced covers it); the random kernels of the concrete function the call runs."""
        if self._batch_free:
            key = tuple(("T", (None,) + k[1][1:], k[2]) if k[0] == "T" and k[1] else k for k in key)
        if self._sig is not None:
            if not self._counted:
                self._counted.append(None)
                self._kernels.append(_Kernels())
                self._count += 1
            return self._kernels[0]
        full = (structure, key)
        for c, k in zip(self._counted, self._kernels):
            if c == full or (self._reduce and _generalizes(c, full)):
                return k
        if self._reduce:
            for j, c in enumerate(self._counted):
                g = _generalize(c, full)
                if g is not None:
                    self._counted[j], self._kernels[j] = g, _Kernels()
                    self._count += 1
                    return self._kernels[j]
        self._counted.append(full)
        self._kernels.append(_Kernels())
        self._count += 1
        return self._kernels[-1]

    # -- calls
    @_memory.keep_freed   # (a step's temporaries reuse the last step's memory: see _memory)
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _eagerly:
            return self._fn(*args, **kwargs)
        self._ncalls += 1
        fast = None
        if not kwargs and len(args) == self._npos:
            fast = tuple((a._value.shape, a._value.dtype) if type(a) is Tensor else None for a in args)
            entry = None if None in fast else self._fast.get(fast)
            if entry is not None and entry.eager is None and not (_rec.active and _rec.tls.stack):
                values = [a._value for a in args]
                for prog in entry.programs:
                    try:
                        res = prog.run(values)
                    except _trace.Miss:
                        continue
                    return _fill(prog, res, ())[0] if prog.single else \
                        _nest.pack_sequence_as(prog.structure, _fill(prog, res, ()))
        args, kwargs = self._bind(args, kwargs)
        tensors, key, structure, flat, variables = self._leaves(args, kwargs)
        full = (structure, key)
        entry = self._cache.get(full)
        if entry is None:
            entry = self._new_entry(full)
            counted = self._count
            entry.kernels = self._count_trace(key, structure)
            if self._count != counted:
                self._note_trace()
            if any(k[0] is _PASSED for k in key):
                entry.eager = "its arguments are distributed values or RaggedTensors"
            elif self._count == counted:  # TensorFlow's trace of a relaxed signature covers the call
                entry.programs = self._resized(full)
        else:
            self._cache.move_to_end(full)
        if fast is not None and None not in fast:
            self._fast[fast] = entry
        if entry.eager is not None:
            return self._run_eagerly(entry, args, kwargs)
        outer = _rec.active and _rec.tls.stack
        for prog in entry.programs:
            try:
                res = prog.run_engine(tensors, prog.resources(variables)) if outer else prog.run(
                    [t._value for t in tensors] + variables)
            except _trace.Miss:
                continue
            return _nest.pack_sequence_as(prog.structure, _fill(prog, res, variables))
        if len(entry.programs) >= _MAX_BRANCH_TRACES:
            entry.eager = (f"the values of tensors read into Python changed on "
                           f"{_MAX_BRANCH_TRACES} calls")
            self._warn(entry.eager, entry.programs[-1].where)
            return self._run_eagerly(entry, args, kwargs)
        return self._trace(entry, args, kwargs, tensors, flat, variables)

    def _new_entry(self, full: tuple) -> _Entry:
        """A new cache entry for key ``full``; the least recently used beyond ``MAX_TRACES`` are
        dropped (with their traces), except one whose trace created the Variables."""
        entry = self._cache[full] = _Entry()
        if len(self._cache) > MAX_TRACES:
            for k, e in self._cache.items():
                if not e.pinned and e is not entry:
                    del self._cache[k]
                    for f in [f for f, x in self._fast.items() if x is e]:
                        del self._fast[f]
                    break
        return entry

    def _resized(self, full: tuple) -> list:
        """The size-free traces (``_trace._size_free``) of the keys that differ from ``full`` in
        tensor sizes only, for the sizes of ``full``: TensorFlow traced them once for every size."""
        progs, seen = [], set()
        for k, e in self._cache.items():
            if e.eager is None and _same_but_sizes(k, full):
                for prog in e.programs:
                    origin = getattr(prog, "origin", prog)
                    if getattr(origin, "size_free", False) and id(origin) not in seen:
                        seen.add(id(origin))
                        progs.append(origin.resized())
        return progs

    def __del__(self) -> None:
        d = self.__dict__.get("_detector")
        if d is not None:  # (its calls since the last trace still count for the next one)
            d.gone += self._ncalls - self._told

    def count_call(self, *args: Any, **kwargs: Any) -> None:
        """Count a call made without this function (run eagerly in its place) as TensorFlow would
        count it had this function been called: a trace for a new signature, else a replay."""
        self._ncalls += 1
        try:
            args, kwargs = self._bind(args, kwargs)
            _, key, structure, _, _ = self._leaves(args, kwargs)
        except TypeError:  # (arguments a trace would refuse: the caller runs them eagerly)
            return
        counted = self._count
        self._count_trace(key, structure)
        if self._count != counted:
            self._note_trace()

    def _note_trace(self) -> None:
        """This call traces (as TensorFlow counts traces): TensorFlow's retracing warning."""
        key = self._stats_key_for if self._stats_key_for is not None else _stats_key(self._fn)
        if key is None:
            return
        with _detectors_lock:
            d = _detectors.get(key)
            if d is None:
                d = _detectors[key] = _RetraceDetector()
            d.functions.add(self)
            self._detector = d
            # the calls since the last trace that did not trace, of every tf.function the detector
            # counts for (TensorFlow tells it each call: a model's replays separate two models' traces)
            untraced, d.gone = d.gone - 1, 0  # (this call traces)
            for f in list(d.functions):
                untraced += f._ncalls - f._told
                f._told = f._ncalls
            d.traced(untraced, self._fn)

    def _run_eagerly(self, entry: _Entry, args: tuple, kwargs: dict) -> Any:
        """A call of a function that cannot be replayed: the Python function runs eagerly, its
        random ops still the nodes of the function's graph (TensorFlow's seeds and kernels)."""
        with _trace.graph_run(entry.kernels):
            return _outputs(self._fn(*args, **kwargs), {
                id(x) for x in _nest.flatten((args, kwargs)) if isinstance(x, VariableBase)})

    def _trace(self, entry: _Entry, args: tuple, kwargs: dict, tensors: list, flat: list,
               variables: list) -> Any:
        tr = _trace.Tracer(entry.kernels)
        tr.arguments(variables)
        # Variables may be made on the first trace only: later, tf.Variable() raises at its line
        if self._created or self._count > 1 or len(self._cache) > 1 or entry.programs:
            tr.no_variables = _trace.VARIABLE_ON_RETRACE if self._created else _trace.VARIABLE_ON_LATER_CALL
        it = iter(tensors)
        fresh = []
        for x in flat:  # the inputs take the first slots
            if isinstance(x, VariableBase):
                fresh.append(x)
            elif isinstance(x, (Tensor, np.ndarray, np.generic)) or self._sig is not None:
                t = next(it)
                if id(t) in tr.slot:  # (the same tensor passed twice: two inputs)
                    t = wrap(t._value)
                tr.input(t)
                fresh.append(t)
            else:
                fresh.append(x)
        a, kw = _nest.pack_sequence_as((list(args), kwargs), fresh, expand_composites=any(
            getattr(x, "_TRACED_BY_COMPONENTS", False) for x in _nest.flatten((list(args), kwargs))))
        spent0 = getattr(_state, "spent", 0)  # (uids that nested traces take for this check)
        uid0 = _variable._var_uid()
        _trace.start(tr)
        _state.depth = getattr(_state, "depth", 0) + 1
        try:
            out = _outputs(self._fn(*a, **kw), {id(v) for v in variables})
        finally:
            _state.depth -= 1
            _trace.stop(tr)
        made = _variable._var_uid() - uid0 - 1 - (getattr(_state, "spent", 0) - spent0)
        _state.spent = getattr(_state, "spent", 0) + 2
        if made:
            if tr.no_variables:  # (one made without tf.Variable(): copied, say)
                raise ValueError(tr.no_variables)
            self._created = entry.pinned = True
            self._count += 1  # (TensorFlow traces the first call twice when it creates Variables)
        leaves = _nest.flatten(out)
        tens: list = []
        template: list = []
        arg_vars = {id(v): r for r, v in enumerate(variables)}
        for x in leaves:  # tensors, and the tensors an IndexedSlices holds, are the replay's
            if id(x) in arg_vars and isinstance(x, VariableBase):  # (each call's own Variable)
                template.append((_ARG_VAR, arg_vars[id(x)]))
            elif isinstance(x, IndexedSlices):
                parts = [x.values, x.indices] + ([] if x.dense_shape is None else [x.dense_shape])
                tens += parts
                template.append((_SLICES, len(parts)))
            elif isinstance(x, CompositeTensor):  # (a RaggedTensor: its values and row splits)
                parts = x._components()
                tens += parts
                template.append((_COMPOSITE, len(parts), x))
            elif isinstance(x, Tensor) and not isinstance(x, VariableBase):
                tens.append(x)
                template.append((_WEAK, type(x)) if x._weak else _SLOT)
            else:
                template.append(x)
        prog = tr.finish(tens) if tr.problem is None else None
        if prog is None:
            entry.eager = tr.problem[0]
            if not tr.quiet:
                self._warn(*tr.problem)
            return out
        prog.where = next((s[4] for s in reversed(tr.steps) if s[0] == "guard"), "?")
        prog.loop_spans = tr.loop_spans
        prog.template = template
        prog.inputs = _nest.map_structure(  # (the call's signature, which tf.saved_model saves)
            lambda x: TensorSpec(x.shape, x.dtype) if isinstance(x, (Tensor, VariableBase)) else
            x._type_spec if getattr(x, "_TRACED_BY_COMPONENTS", False) else x, (tuple(a), kw))
        entry.programs.append(prog)
        # the output's structure, per trace (traces of one key may differ: tf.unstack(x, axis=t));
        # not the trace's values
        prog.structure = _nest.map_structure(lambda x: None, out)
        prog.single = isinstance(out, Tensor) and not isinstance(out, VariableBase)
        prog.outputs = _nest.map_structure(
            lambda x: TensorSpec(x.shape, x.dtype) if isinstance(x, (Tensor, VariableBase)) else
            getattr(x, "_type_spec", None) if isinstance(x, CompositeTensor) else x, out)
        # the caller gets tensors of its own (the trace's inputs were fresh tensors)
        return out

    def _warn(self, reason: str, where: str) -> None:
        if not self._warned:
            self._warned = True
            warnings.warn(f"tf.function {self.__name__!r} runs eagerly: its trace cannot be replayed "
                          f"because {reason} (at {where}).", UserWarning, stacklevel=3)

    def ran_elsewhere(self, args: tuple, kwargs: dict) -> None:
        """(internal) Note a call that a strategy's replicas ran in their processes: saving the
        function traces its signature here (TensorFlow retraces a function's signatures when it
        saves, outside replica context)."""
        if self._sig is not None:
            return
        sig = _nest.map_structure(lambda x: TensorSpec.from_tensor(convert_to_tensor(x)) if isinstance(
            x, (Tensor, np.ndarray)) and not isinstance(x, VariableBase) else x, (tuple(args), dict(kwargs)))
        if not any(_nest.flatten(s) == _nest.flatten(sig) for s in self._spec_signatures):
            self._spec_signatures.append(sig)

    def get_concrete_function(self, *args: Any, **kwargs: Any) -> ConcreteFunction:
        """The function traced for these arguments (tensors, or ``TensorSpec`` for each tensor)."""
        if not args and not kwargs and self._sig is not None:
            args = self._sig
        spec_args = _nest.map_structure(
            lambda x: _zeros_for(x) if isinstance(x, TensorSpec) else x._placeholder(_zeros_for)
            if hasattr(x, "_placeholder") else x, (list(args), kwargs))
        a, kw = spec_args
        in_specs = [c for x in _nest.flatten((list(args), kwargs)) if _is_spec(x)
                    for c in (x._component_specs if hasattr(x, "_placeholder") else [x])]
        unknown_rank = any(x.shape.rank is None for x in in_specs)
        unknown_dims = any(d is None for x in in_specs if x.shape.rank is not None for d in x.shape)
        try:
            with _variable.restoring_variables():  # (a trace for its signature: TF runs no assignment in it)
                out = self(*a, **kw)
            _, key, structure, _, _ = self._leaves(*self._bind(tuple(a), kw))
            entry = self._cache.get((structure, key))
        except Exception:
            if not (unknown_rank or unknown_dims):
                raise
            # the sample of the unknown sizes does not fit the function (TensorFlow's symbolic
            # trace does): each call traces for its own shapes
            out, entry = None, None
        sig = _nest.map_structure(
            lambda x: TensorSpec.from_tensor(x) if isinstance(x, Tensor) and not isinstance(
                x, VariableBase) else x._type_spec if isinstance(x, CompositeTensor) and hasattr(x, "_type_spec") else x,
            (tuple(a), kw))
        if self._sig is not None:
            sig = (tuple(self._sig), {})
        else:
            sig = _nest.pack_sequence_as(sig, [
                s if not _is_spec(o) else o
                for s, o in zip(_nest.flatten(sig), _nest.flatten((tuple(args), kwargs)))])

        def out_spec(x: Tensor) -> TensorSpec:
            # traced on a sample (unknown dimensions 1, unknown rank a scalar): an output dimension
            # of 1 may be an unknown one, an input of unknown rank leaves the outputs' ranks unknown
            if unknown_rank:
                return TensorSpec(None, x.dtype)
            return TensorSpec([None if unknown_dims and d == 1 else d for d in x.shape], x.dtype)

        outs = _nest.map_structure(lambda x: out_spec(x) if isinstance(x, Tensor) else x, out)
        if in_specs and self._sig is None and not any(
                _nest.flatten(s) == _nest.flatten((tuple(args), kwargs)) for s in self._spec_signatures):
            self._spec_signatures.append((tuple(args), dict(kwargs)))
        if entry is None:
            return ConcreteFunction(self, sig, outs, entry)
        # the same arguments' signature gives the same concrete function, as TensorFlow's cache does
        known = self.__dict__.setdefault("_concretes", {})
        cf = known.get((structure, key))
        if cf is None or cf._entry is not entry:
            cf = known[(structure, key)] = ConcreteFunction(self, sig, outs, entry)
        return cf

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """The :meth:`ConcreteFunction.pretty_printed_signature` of each signature traced so far,
        separated by blank lines (TensorFlow's listing of a function's concrete functions)."""
        seen, parts = [], []
        for entry in self._cache.values():
            for prog in entry.programs[:1]:
                key = _nest.flatten(prog.inputs)
                if key not in seen:
                    seen.append(key)
                    parts.append(self._describe(prog.inputs, prog.outputs,
                                                [v for v in prog.res if v is not None]))
        return "\n\n".join(parts)

    def _describe(self, signature: tuple, outputs: Any, captured: list) -> str:
        params = [] if self._pysig is None else list(self._pysig.parameters.values())
        args, kwargs = signature
        named = [(params[i].name, params[i].kind.name) if i < len(params) else (f"arg{i}", "POSITIONAL_ONLY")
                 for i in range(len(args))]
        named = [(n, k, v) for (n, k), v in zip(named, args)]
        kinds = {p.name: p.kind.name for p in params}
        named += [(k, kinds.get(k, "KEYWORD_ONLY"), kwargs[k]) for k in self._param_order(kwargs)]

        def typ(v: Any) -> str:
            if isinstance(v, (TensorSpec, VariableBase)) or _is_type_spec(v):
                return repr(TensorSpec(v.shape, v.dtype)) if isinstance(v, VariableBase) else repr(v)
            if isinstance(v, (list, tuple, dict)):
                return repr(_nest.map_structure(lambda x: _Typed(typ(x)), v))
            return f"Literal[{v!r}]"
        lines = ["Input Parameters:"] + [f"  {n} ({k}): {typ(v)}" for n, k, v in named]
        lines += ["Output Type:", f"  {typ(outputs) if outputs is not None else None}", "Captures:"]
        lines += [f"  {id(v)}: TensorSpec(shape=(), dtype=tf.resource, name=None)" for v in captured] or ["  None"]
        return "\n".join(lines)

    def _param_order(self, kwargs: dict) -> list:
        """The keys of ``kwargs`` in the order of the Python function's parameters."""
        try:
            order = list(inspect.signature(self._fn).parameters)
        except (TypeError, ValueError):
            order = []
        return sorted(kwargs, key=lambda k: (order.index(k) if k in order else len(order), k))

    def __repr__(self) -> str:
        return f"<tapegrad.function {self.__name__}>"


_PY_VALUES = (int, float, bool, complex, str, bytes, np.ndarray, np.generic)


class _Typed(str):
    """A type's description, shown bare inside a structure's repr."""

    def __repr__(self) -> str:
        return str(self)


def _outputs(out: Any, arg_vars: set) -> Any:
    """TensorFlow's outputs of a ``tf.function``: Python numbers, strings and NumPy values in the
    returned structure become tensors (a function that returns ``0`` on one branch returns a
    tensor there too); a Variable it captured gives its value (one passed in stays itself);
    None and tensors stay."""
    leaves = _nest.flatten(out)
    if not any(isinstance(x, _PY_VALUES) or isinstance(x, VariableBase) and id(x) not in arg_vars
               for x in leaves):
        return out
    return _nest.pack_sequence_as(out, [
        convert_to_tensor(x) if isinstance(x, _PY_VALUES) else
        x.read_value() if isinstance(x, VariableBase) and id(x) not in arg_vars else x for x in leaves])


def is_weak_slot(x: Any) -> bool:
    """Whether output template entry ``x`` is a weak tensor's (saved as a plain tensor's)."""
    return type(x) is tuple and len(x) == 2 and x[0] is _WEAK


def _fill(prog: Any, res: list, variables: Any) -> list:
    it = iter([r if type(r) is Tensor else wrap(r) for r in res])
    out = []
    for x in prog.template:
        if x is _SLOT:
            out.append(next(it))
        elif type(x) is tuple and len(x) == 2 and x[0] is _SLICES:
            out.append(IndexedSlices(*[next(it) for _ in range(x[1])]))
        elif type(x) is tuple and len(x) == 2 and x[0] is _ARG_VAR:
            out.append(variables[x[1]])
        elif type(x) is tuple and len(x) == 3 and x[0] is _COMPOSITE:
            out.append(x[2]._from_components([next(it) for _ in range(x[1])]))
        elif is_weak_slot(x):  # (a replay's own output: retyped in place)
            t = next(it)
            t.__class__ = x[1]
            out.append(t)
        else:
            out.append(x)
    return out


def _same_value(a: Any, b: Any) -> bool:
    try:
        return bool(np.all(np.asarray(a.numpy() if isinstance(a, Tensor) else a) == b))
    except (TypeError, ValueError):
        return False


def _zeros_for(spec: TensorSpec) -> Tensor:
    """The sample a spec is traced with: unknown dimensions 1, an unknown rank a scalar (a call of
    another shape or rank traces again)."""
    shape = [] if spec.shape.rank is None else [1 if d is None else d for d in spec.shape]
    if spec.dtype.name == "string":
        return convert_to_tensor(np.full(shape, b"", object))
    return wrap(np.zeros(shape, spec.dtype.as_numpy_dtype))


def _is_spec(x: Any) -> bool:
    """Whether ``x`` is a TensorSpec or an extension type's spec."""
    return isinstance(x, TensorSpec) or hasattr(x, "_placeholder")


def _is_type_spec(x: Any) -> bool:
    """Whether ``x`` is the spec of a composite value (a ``tf.RaggedTensorSpec``)."""
    return hasattr(x, "value_type") and hasattr(x, "is_compatible_with")


def _by_components(flat: list, specs: list | None, name: str) -> tuple:
    """A call's leaves with each extension type replaced by its tensors (TensorFlow traces it by
    its spec, its tensors the inputs); the input_signature's specs expanded alike; the key's start
    (the extension types' specs)."""
    out, out_specs, key = [], [] if specs is not None else None, []
    for i, x in enumerate(flat):
        spec = specs[i] if specs is not None else None
        if getattr(x, "_TRACED_BY_COMPONENTS", False):
            xs = x._type_spec
            if spec is not None and not spec.is_compatible_with(x):
                raise TypeError(f"Binding inputs to tf.function `{name}` failed: the argument {x!r} "
                                f"does not fit the input_signature's {spec!r}")
            key.append(("X", spec if spec is not None else xs))
            parts = x._components()
            out += parts
            if out_specs is not None:
                out_specs += spec._component_specs
        else:
            out.append(x)
            if out_specs is not None:
                out_specs.append(spec)
    return out, out_specs, key


def _shape_of_structure(structure: Any) -> Any:
    return repr(_nest.map_structure(lambda x: 0, structure))


def _same_but_sizes(a: tuple, b: tuple) -> bool:
    """Whether two call keys differ only in the sizes of tensors (same ranks and dtypes)."""
    if a is b or a[0] != b[0] or len(a[1]) != len(b[1]):
        return False
    return all(x == y or x[0] == "T" == y[0] and x[2] == y[2] and len(x[1]) == len(y[1])
               for x, y in zip(a[1], b[1]))


def _generalizes(general: tuple, call: tuple) -> bool:
    if general[0] != call[0] or len(general[1]) != len(call[1]):
        return False
    for g, c in zip(general[1], call[1]):
        if g[0] == "T" and c[0] == "T":
            if g[2] != c[2] or not TensorShape(g[1]).is_compatible_with(c[1]) \
                    or len(g[1]) != len(c[1]):
                return False
        elif g != c:
            return False
    return True


def _generalize(a: tuple, b: tuple) -> tuple | None:
    """The signature with None where tensor dimensions of ``a`` and ``b`` differ (or None)."""
    if a[0] != b[0] or len(a[1]) != len(b[1]):
        return None
    out = []
    for g, c in zip(a[1], b[1]):
        if g[0] == "T" and c[0] == "T" and g[2] == c[2] and len(g[1]) == len(c[1]):
            out.append(("T", tuple(x if x == y else None for x, y in zip(g[1], c[1])), g[2]))
        elif g == c:
            out.append(g)
        else:
            return None
    return (a[0], tuple(out))


def function(func: Callable | None = None, input_signature: Any = None, autograph: bool = True,
             jit_compile: bool | None = None, reduce_retracing: bool = False,
             experimental_implements: Any = None, experimental_autograph_options: Any = None,
             experimental_attributes: Any = None, experimental_relax_shapes: Any = None,
             experimental_compile: Any = None, experimental_follow_type_hints: Any = None,
             name: str | None = None) -> Any:
    """Trace ``func`` once per input signature and replay the trace on later calls (TensorFlow's
    ``tf.function``); a decorator, with or without arguments.

    Python side effects happen while tracing only; Variable reads and writes happen on every
    call. A Python ``if``/``while`` on a tensor's value is guarded: a call whose value differs is
    traced again for it (see docs/function.md). ``autograph`` and ``jit_compile`` are accepted.

    >>> import tapegrad as tf
    >>> @tf.function
    ... def f(x):
    ...     print("tracing")
    ...     return tf.sin(x) * 2.0
    >>> print(f(tf.constant(1.0)).numpy().round(4))
    tracing
    1.6829
    >>> print(f(tf.constant(2.0)).numpy().round(4))  # replayed: no print
    1.8186
    >>> f.experimental_get_tracing_count()
    1
    """
    if experimental_relax_shapes:
        reduce_retracing = True

    def make(fn: Callable) -> Function:
        return Function(fn, input_signature, reduce_retracing, name)

    return make if func is None else make(func)


# -- ConcreteFunction.graph: the trace presented as TensorFlow's FuncGraph

# tapegrad's op names where TensorFlow's graph has another type; the default node names
# TensorFlow's Python API gives ops of these types (others: the type itself)
_TF_TYPE = {"CastToNonFloat": "Cast", "CastToFloat": "Cast"}
_TF_NAME = {"AddV2": "add", "Mul": "mul", "Sub": "sub", "RealDiv": "truediv", "Pow": "pow",
            "FloorDiv": "floordiv", "FloorMod": "mod", "Maximum": "Maximum", "Neg": "Neg",
            "Less": "Less", "Greater": "Greater", "Equal": "Equal"}
_WRITE = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
          "assign_sub": "AssignSubVariableOp"}
_DT_RESOURCE = 20


class GraphTensor:
    """A tensor of a :class:`FuncGraph`: the ``index``-th output of ``op``."""

    def __init__(self, op: "GraphOperation", index: int, shape: Any, dtype: Any) -> None:
        self.op, self.value_index = op, index
        self.shape, self.dtype = TensorShape(shape), dtype
        self.graph = op.graph

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    def get_shape(self) -> TensorShape:
        return self.shape

    def consumers(self) -> list:
        return [op for op in self.graph._ops if any(t is self for t in op.inputs)]

    def __repr__(self) -> str:
        dt = "resource" if self.dtype is None else self.dtype.name
        return f'<tf.Tensor \'{self.name}\' shape={self.shape} dtype={dt}>'


class GraphOperation:
    """An operation of a :class:`FuncGraph`: ``name``, ``type``, ``inputs``, ``outputs``."""

    def __init__(self, graph: "FuncGraph", name: str, type_: str, inputs: list, outputs: list) -> None:
        self.graph, self.name, self.type = graph, name, type_
        self.inputs = list(inputs)
        self.outputs = [GraphTensor(self, i, sh, dt) for i, (sh, dt) in enumerate(outputs)]

    @property
    def node_def(self) -> Any:
        return _Record(name=self.name, op=self.type, input=[t.name.removesuffix(":0") for t in self.inputs])

    def __repr__(self) -> str:
        return f'<tf.Operation \'{self.name}\' type={self.type}>'


class _Record:
    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__dict__})"


class FuncGraph:
    """The graph of a traced ``tf.function`` (``ConcreteFunction.graph``) as TensorFlow presents
    it: ``get_operations()`` (each with ``name``, ``type``, ``inputs``, ``outputs``),
    ``get_operation_by_name``, ``get_tensor_by_name``, ``inputs``, ``outputs``, ``variables``,
    ``captures``. Built from tapegrad's trace, which records fewer ops than TensorFlow's graph
    (see docs/differences.md): a ``Placeholder`` per input, a ``Const`` per constant operand
    (named ``<op>/y`` as TensorFlow names a binary op's), the traced ops under TensorFlow's type
    names, ``ReadVariableOp``/``Assign*VariableOp`` for Variables, one ``While`` per outermost
    loop (the trace unrolls it), an ``Identity`` per output.

    >>> import tapegrad as tf
    >>> cube = tf.function(lambda x: x ** 3)
    >>> g = cube.get_concrete_function(tf.constant(2.0)).graph
    >>> [(op.name, op.type) for op in g.get_operations()]
    [('x', 'Placeholder'), ('pow/y', 'Const'), ('pow', 'Pow'), ('Identity', 'Identity')]
    >>> g.get_tensor_by_name("Identity:0")
    <tf.Tensor 'Identity:0' shape=() dtype=float32>
    """

    def __init__(self, name: str, prog: Any, arg_names: list, specs: list) -> None:
        as_dtype = _dt.as_dtype
        self.name = name
        self._ops: list = []
        self._names: dict = {}
        slot_t: dict = {}

        def add(base: str, type_: str, inputs: list, outs: list) -> GraphOperation:
            n, k = base, 0
            while n in self._names:
                k += 1
                n = f"{base}_{k}"
            op = GraphOperation(self, n, type_, inputs, outs)
            self._names[n] = op
            self._ops.append(op)
            return op

        def info(s: int) -> tuple:
            v = prog.values[s] if s < len(prog.values) else None
            return (v[0], as_dtype(v[1])) if v is not None else (None, None)

        self.inputs: list = []
        for s, (nm, spec) in enumerate(zip(arg_names, specs)):
            op = add(nm or "args", "Placeholder", [], [(spec.shape, spec.dtype)])
            slot_t[s] = op.outputs[0]
            self.inputs.append(op.outputs[0])
        res_t: dict = {}
        self.variables = tuple(v for v in prog.res if v is not None)
        self.captures: list = []
        for r in range(prog.n_arg_res):
            op = add(arg_names[len(specs) + r] if len(arg_names) > len(specs) + r else "args",
                     "Placeholder", [], [((), None)])
            res_t[r] = op.outputs[0]
            self.inputs.append(op.outputs[0])
        spans = getattr(prog, "loop_spans", [])
        loop_of = lambda s: next((i for i, (a, b, _) in enumerate(spans) if a <= s < b), None)  # noqa: E731
        loops_done: dict = {}

        def operand(s: int, owner: str, i: int, n_in: int) -> Any:
            if s in prog.consts:  # (TensorFlow's graph converts a constant at each op using it)
                c = np.asarray(prog.consts[s])
                base = f"{owner}/{'xy'[i]}" if n_in == 2 else "Const"
                return add(base, "Const", [], [(c.shape, as_dtype(c.dtype))]).outputs[0]
            return slot_t.get(s)

        def resource(r: int, base: str) -> Any:
            if r not in res_t:
                op = add(f"{base}/resource", "Placeholder", [], [((), None)])
                res_t[r] = op.outputs[0]
                self.captures.append((prog.res[r], op.outputs[0]))
                self.inputs.append(op.outputs[0])
            return res_t[r]

        def loop(step_outs: list) -> bool:
            i = loop_of(step_outs[0]) if step_outs else None
            if i is None:
                return False
            if i not in loops_done:
                loops_done[i] = add("cond" if spans[i][2] else "while",
                                    "If" if spans[i][2] else "While", [], [])
            return True

        for st in prog.steps:
            kind = st[0]
            if kind == "op":
                _, op, ins, _, outs = st
                if loop(outs):
                    continue
                type_ = _TF_TYPE.get(op.name, op.name)
                if type_ == "BatchMatMulV2" and all(len(info(s)[0] or ()) == 2 for s in ins):
                    type_ = "MatMul"
                base = _TF_NAME.get(type_, type_)
                name = base
                k = 0
                while name in self._names:
                    k += 1
                    name = f"{base}_{k}"
                xs = [x for x in (operand(s, name, i, len(ins)) for i, s in enumerate(ins)) if x is not None]
                known = [info(s) for s in outs]   # (a scalar's: its first operand's, as elementwise ops give)
                known = [k if k[1] is not None or not xs else (xs[0].shape, xs[0].dtype) for k in known]
                g = add(base, type_, xs, known)
                slot_t.update({s: t for s, t in zip(outs, g.outputs)})
            elif kind == "read":
                _, r, s = st
                if loop([s]):
                    continue
                g = add("ReadVariableOp", "ReadVariableOp", [resource(r, "ReadVariableOp")], [info(s)])
                slot_t[s] = g.outputs[0]
            elif kind == "write":
                _, r, how, _, src, out = st
                if loop([out]):
                    continue
                t = _WRITE.get(how, "AssignVariableOp")
                x = operand(src, t, 1, 2)
                add(t, t, [resource(r, t)] + ([x] if x is not None else []), [])
                slot_t[out] = None
            elif kind in ("draw", "call"):
                outs = st[3] if kind == "draw" else []
                if loop(outs):
                    continue
                fn = st[1]
                t = "EagerPyFunc" if kind == "call" else getattr(fn, "__name__", "RandomOp")
                g = add(t, t, [], [info(s) for s in outs] if kind == "draw" else [])
                slot_t.update({s: t for s, t in zip(outs, g.outputs)})
        self.outputs: list = []
        out_specs = [x for x in _nest.flatten(getattr(prog, "outputs", None)) if isinstance(x, TensorSpec)]
        for j, s in enumerate(prog.outs):
            src = operand(s, "Identity", 0, 1)
            spec = out_specs[j] if j < len(out_specs) and len(out_specs) == len(prog.outs) else None
            shape, dtype = (spec.shape, spec.dtype) if spec is not None else (
                (src.shape, src.dtype) if src is not None else info(s))
            self.outputs.append(add("Identity", "Identity", [src] if src is not None else [],
                                    [(shape, dtype)]).outputs[0])
        if any(st[0] in ("read", "write", "call") or (st[0] == "draw" and st[4]) for st in prog.steps):
            add("NoOp", "NoOp", [], [])

    def get_operations(self) -> list:
        return list(self._ops)

    def get_operation_by_name(self, name: str) -> GraphOperation:
        if name not in self._names:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return self._names[name]

    def get_tensor_by_name(self, name: str) -> GraphTensor:
        op_name, _, index = name.rpartition(":")
        if not op_name or not index.isdigit():
            raise ValueError(f"The name {name!r} looks like an (invalid) Operation name, not a "
                             "Tensor. Tensor names must be of the form \"<op_name>:<output_index>\".")
        op = self._names.get(op_name)
        if op is None or int(index) >= len(op.outputs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The "
                           f"operation, {op_name!r}, does not exist in the graph.")
        return op.outputs[int(index)]

    def as_graph_def(self) -> Any:
        """The graph's nodes as records with TensorFlow's field names (``node``: ``name``,
        ``op``, ``input``); not a protocol buffer."""
        return _Record(node=[op.node_def for op in self._ops])

    @property
    def external_captures(self) -> list:
        return [c for c, _ in self.captures]

    @property
    def internal_captures(self) -> list:
        return [t for _, t in self.captures]

    def __repr__(self) -> str:
        return f"<tapegrad FuncGraph {self.name!r}: {len(self._ops)} operations>"
