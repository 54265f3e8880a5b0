"""TensorFlow 1's graphs, sessions, variable scopes and name-based checkpoints, as far as eager
code can have them: what the TF2 checkpoint migration guide and TF1 programs saving and restoring
variables use (``tf.Graph``, ``tf.compat.v1.Session``, ``get_variable``, ``variable_scope``,
``global_variables_initializer``, ``train.Saver``, ``train.init_from_checkpoint``).

A graph made default by ``as_default()`` collects the Variables created inside it (its
``GLOBAL_VARIABLES`` and ``TRAINABLE_VARIABLES`` collections, names made unique as TF1's graph
makes them: ``a``, ``a_1``), and holds ``get_variable``'s store, so that names are reused only
with ``reuse=True`` (or ``AUTO_REUSE``). It records the ops built in it as its program
(:mod:`tapegrad.compat._program`): ``Session.run`` runs the steps its fetches need on the values
fed to placeholders, and runs initializers; a variable has its initial value from its creation
on, and ``global_variables_initializer()`` sets it again (to a checkpoint's value after
``init_from_checkpoint``). See docs/differences.md.

``Saver`` writes TF1's checkpoint key names (the variables' names: ``"scoped/c"``) in tapegrad's
checkpoint files; ``tf.train.load_checkpoint``, ``list_variables`` and ``Checkpoint.restore``
(by variable name, as TF's name-based restore) read them.

>>> import os, tempfile, tapegrad as tf
>>> tf1 = tf.compat.v1
>>> with tf.Graph().as_default():
...     with tf1.variable_scope("scoped"):
...         c = tf1.get_variable("c", shape=[], initializer=tf1.constant_initializer(3.0))
...     with tf1.Session() as sess:
...         sess.run(tf1.global_variables_initializer())
...         path = tf1.train.Saver().save(sess, os.path.join(tempfile.mkdtemp(), "ckpt"))
...         value = sess.run(c)
>>> value, tf.train.list_variables(path)
(np.float32(3.0), [('scoped/c', [])])
"""
from __future__ import annotations

import json
import os
import threading
import types
from typing import Any

import numpy as np

from .. import train as _train
from .._scope import name_scope
from .._tensor import GRAPH_EVAL, Tensor, TensorShape, wrap
from .. import _recorders as _rec, _trace
from .._variable import CREATION_OBSERVERS, GRAPH_ASSIGN, GRAPH_INITIALIZER, Variable
from . import _program
from ..errors import InvalidArgumentError, NotFoundError
from ..saved_model._format import encode, encode_program

__all__ = ["placeholder", "placeholder_with_default", "AUTO_REUSE", "Graph", "GraphKeys", "Session",
           "InteractiveSession", "VariableScope", "Saver",
           "get_default_graph", "reset_default_graph", "get_variable", "get_variable_scope", "variable_scope",
           "global_variables", "trainable_variables", "global_variables_initializer", "variables_initializer",
           "init_from_checkpoint"]


class GraphKeys:
    """The standard collection names (TF1's ``tf.compat.v1.GraphKeys``)."""
    GLOBAL_VARIABLES = "variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    LOCAL_VARIABLES = "local_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    VARIABLES = GLOBAL_VARIABLES
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    GLOBAL_STEP = "global_step"
    SUMMARIES = "summaries"
    TRAIN_OP = "train_op"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    METRIC_VARIABLES = "metric_variables"
    TABLE_INITIALIZERS = "table_initializer"


class _State(threading.local):
    def __init__(self) -> None:
        self.graphs: list = []   # the graphs made default by as_default(), innermost last
        self.scopes: list = []   # the open variable scopes, innermost last
        self.stores: list = []   # get_variable's stores of the templates running (make_template)


_state = _State()
AUTO_REUSE = "AUTO_REUSE"  # (TF1's _ReuseMode.AUTO_REUSE)


class Graph:
    """A TF1 graph: ``with tf.Graph().as_default():`` records the ops built inside for
    ``Session.run``, collects the variables made inside and holds ``get_variable``'s store.

    >>> import tapegrad as tf
    >>> with tf.Graph().as_default() as g:
    ...     v, w = tf.Variable(1.0, name="v"), tf.Variable(2.0, name="v")
    >>> w.name, [x.name for x in g.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES)]
    ('v_1:0', ['v:0', 'v_1:0'])
    """

    def __init__(self) -> None:
        self._collections: dict = {}
        self._names: set = set()
        self._vars: dict = {}      # get_variable's store: full name -> Variable
        self._initial: dict = {}   # id(variable) -> (variable, initial value)
        self._finalized = False
        self._tracer = None        # the recorder of the graph's program (_program), made when first default
        self._deps: list = []      # (first slot, end slot, slots needed) of each control_dependencies block
        self._control: list = []   # the open control_dependencies blocks' inputs
        self._assigned = None      # the result of the last update recorded
        self._tensors: dict = {}   # "name:0" -> the tensor of that name (placeholders, tensors named by signatures)
        self._tensor_names: dict = {}  # id(tensor) -> its name
        self._pending = None       # [frame, name, tensor]: the latest op of a call given name= (_name_result)
        self._variable_call = None  # the frame of the last call given name= that made a Variable (get_variable)

    def as_default(self) -> "_Default":
        """A context in which this is the default graph (it is entered and returned)."""
        return _Default(self)

    def get_collection(self, name: str, scope: str | None = None) -> list:
        """A copy of the collection ``name`` (only names starting with ``scope``, if given)."""
        items = list(self._collections.get(name, []))
        if scope is None:
            return items
        return [x for x in items if getattr(x, "name", "").startswith(scope)]

    def get_collection_ref(self, name: str) -> list:
        """The collection ``name`` itself (a list it is safe to change)."""
        return self._collections.setdefault(name, [])

    def add_to_collection(self, name: str, value: Any) -> None:
        self.get_collection_ref(name).append(value)

    def add_to_collections(self, names: Any, value: Any) -> None:
        for name in ([names] if isinstance(names, str) else names):
            self.add_to_collection(name, value)

    def get_all_collection_keys(self) -> list:
        return [k for k, v in self._collections.items() if v]

    def _group(self, inputs: Any, name: str) -> _program.Operation:
        from .._nest import flatten
        return _program.Operation(name, needs=[x for x in flatten(list(inputs)) if x is not None]
                                  + [c for block in self._control for c in block])

    def control_dependencies(self, control_inputs: Any) -> Any:
        """A context in which the tensors and operations made need ``control_inputs`` to run
        first (``None``: clears the outer blocks' needs)."""
        return _ControlDependencies(self, control_inputs)

    def _gradients(self, ys: Any, xs: Any, grad_ys: Any) -> list:
        from .._nest import flatten
        return _program.gradients(self._tracer, flatten(ys), flatten(xs),
                                  None if grad_ys is None else flatten(grad_ys))

    def finalize(self) -> None:
        """Make the graph read-only: creating a variable in it raises RuntimeError."""
        self._finalized = True

    @property
    def finalized(self) -> bool:
        return self._finalized

    def _unique_name(self, name: str) -> str:
        unique, i = name, 0
        while unique.lower() in self._names:
            i += 1
            unique = f"{name}_{i}"
        self._names.add(unique.lower())
        return unique

    def get_tensor_by_name(self, name: str) -> Tensor:
        """The tensor named ``name`` (``"x:0"``): a placeholder, the result of a function given
        ``name=`` (``tf.multiply(x, v, name="y")``: ``"y:0"``), or a tensor a signature named
        (``predict_signature_def``, ``tf.compat.v1.saved_model.load``); other tensors have no names."""
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        if ":" not in name:
            raise ValueError(f"The name {name!r} refers to an Operation, not a Tensor. Tensor names must be of "
                             "the form \"<op_name>:<output_index>\".")
        self._flush_names()
        t = self._tensors.get(name)
        if t is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. (tapegrad's graphs name "
                           "placeholders, the results of functions given name= and the tensors of signatures.)")
        return t

    def _name_result(self, frame: Any, name: str, t: Tensor) -> None:
        """``t`` is the latest op of the call in ``frame`` given ``name=``: the call's result, named
        ``name`` (in the name scope) once the call has made its last op."""
        if frame is self._variable_call:
            return
        if self._pending is not None and self._pending[0] is not frame:
            self._flush_names()
        if self._pending is None:
            from .._scope import prefixed
            self._pending = [frame, prefixed(name), t]
        self._pending[2] = t

    def _flush_names(self) -> None:
        if self._pending is not None:
            _, name, t = self._pending
            self._pending = None
            if id(t) not in self._tensor_names:
                self._name_tensor(t, name)

    def _name_tensor(self, t: Tensor, name: str) -> str:
        full = self._unique_name(name) + ":0"
        self._tensors[full] = t
        self._tensor_names[id(t)] = full
        return full

    def _name_of_tensor(self, t: Tensor) -> str:
        """``t``'s name in this graph, naming it after the op that made it if it had none."""
        self._flush_names()
        name = self._tensor_names.get(id(t))
        if name is None:
            tr = self._tracer
            s = tr.slot.get(id(t)) if tr is not None else None
            op = next((st[1].name for st in tr.steps if st[0] == "op" and s in st[4]), "Identity") \
                if s is not None else "Const"
            name = self._name_tensor(t, op)
        return name

    def _collect(self, v: Variable) -> None:
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        call = _program._named_call()
        if call is not None:  # (the name is the variable's, not its initializer ops')
            self._variable_call = call[0]
            if self._pending is not None and self._pending[0] is call[0]:
                self._pending = None
        v._name = self._unique_name(v._name[:-2]) + ":0"  # (the tf.Variable name: a Keras variable has its own)
        self.add_to_collection(GraphKeys.GLOBAL_VARIABLES, v)
        if v.trainable:
            self.add_to_collection(GraphKeys.TRAINABLE_VARIABLES, v)
        self._initial[id(v)] = (v, v.numpy())


class _ControlDependencies:
    def __init__(self, graph: Graph, control_inputs: Any) -> None:
        from .._nest import flatten
        self._graph = graph
        self._inputs = None if control_inputs is None else [x for x in flatten(list(control_inputs))
                                                            if x is not None]

    def __enter__(self) -> None:
        g = self._graph
        if g._tracer is None:
            g._tracer = _program.new_tracer(g)
        self._saved = g._control
        g._control = [] if self._inputs is None else g._control + [self._inputs]
        self._first = g._tracer.n

    def __exit__(self, *exc: Any) -> None:
        g = self._graph
        tr = g._tracer
        if self._inputs:
            slots: set = set()
            for x in self._inputs:
                _program._needs_of(x, tr, slots, [], set())
            g._deps.append((self._first, tr.n, slots))
        g._control = self._saved


class _Default:
    """A graph made default; ``None``: eager code (off every graph) inside a graph's block."""

    def __init__(self, graph: Graph | None) -> None:
        self._graph = graph

    def __enter__(self) -> Graph | None:
        before = _current()
        _state.graphs.append(self._graph)
        _switch(before, self._graph)
        return self._graph

    def __exit__(self, *exc: Any) -> None:
        _state.graphs.pop()
        _switch(self._graph, _current())


_eager = [True]  # False after disable_eager_execution(): the global graph records at top level


def _switch(old: Graph | None, new: Graph | None) -> None:
    """Make ``new``'s program recorder the active one in this thread, in place of ``old``'s."""
    if old is new:
        return
    if old is not None:
        _trace.stop(old._tracer)
    if new is not None:
        if new._tracer is None:
            new._tracer = _program.new_tracer(new)
        _trace.start(new._tracer)
    if _current() is None:
        if _graph_assign in GRAPH_ASSIGN:
            GRAPH_ASSIGN.remove(_graph_assign)
    elif _graph_assign not in GRAPH_ASSIGN:
        GRAPH_ASSIGN.append(_graph_assign)


def _recording() -> Graph | None:
    """The graph whose program records this thread's ops now (None in eager code and in runs)."""
    tr = _trace.innermost()
    return getattr(tr, "tf1_graph", None) if tr is not None else None


def _graph_assign(v: Variable, read_value: bool, before: Tensor) -> Any:
    """What ``assign`` returns in a graph: its result tensor (fetching it runs the update), or
    an Operation (``read_value=False``). Building a graph runs nothing, as in TensorFlow: the
    update recorded, the variable gets back its value ``before`` (a session that already ran the
    initializer sees it unchanged until it runs the update)."""
    g = _recording()
    if g is None:
        return v if read_value else None
    t = g._assigned
    with v._lock:
        v._snap = before
    return t if read_value else _program.Operation("Assign", needs=[t])


def _current() -> Graph | None:
    """The graph made default by ``as_default()`` (or the global one, eager execution disabled),
    or None (eager code)."""
    return _state.graphs[-1] if _state.graphs else None if _eager[0] else _global_graph[0]


def _observe(v: Variable) -> None:
    g = _current()
    if g is not None:
        g._collect(v)


CREATION_OBSERVERS.append(_observe)
_global_graph = [Graph()]  # what get_default_graph() gives outside every as_default()


def placeholder(dtype: Any, shape: Any = None, name: str | None = None) -> Tensor:
    """A symbolic input of the default graph, given its value by ``Session.run``'s ``feed_dict``
    (``shape``: None dimensions take any size; None: any shape). Only in a graph: eager code
    raises RuntimeError, as TensorFlow 2 does.

    The tensor returned is the stand-in the graph is built on (ones, zeros for integers; unknown
    dimensions 1): its ``shape`` is the stand-in's, it has no ``name``. A run fed other sizes
    replays the graph's ops on them; where a step fixed the stand-in's size when it was built
    (``tf.reshape`` to a shape of Python numbers, ``tf.ones_like``), the run raises saying so.

    >>> import tapegrad as tf
    >>> with tf.Graph().as_default():
    ...     x = tf.compat.v1.placeholder(tf.float32, shape=[None, 2], name="x")
    ...     y = tf.reduce_sum(x * 2.0, axis=1)
    ...     with tf.compat.v1.Session() as sess:
    ...         out = sess.run(y, feed_dict={x: [[1.0, 2.0], [3.0, 4.0]]})
    >>> out
    array([ 6., 14.], dtype=float32)
    """
    from .. import dtypes as _dtypes
    return _placeholder(_dtypes.as_dtype(dtype), shape, name or "Placeholder", None)


def placeholder_with_default(input: Any, shape: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """A placeholder whose value is ``input`` unless ``Session.run`` feeds one (of ``shape``)."""
    from .._convert import convert_to_tensor
    t = convert_to_tensor(input)
    if not TensorShape(shape).is_compatible_with(t.shape):
        raise ValueError(f"Shapes {t.shape} and {TensorShape(shape)} are incompatible")
    return _placeholder(t.dtype, shape, name or "PlaceholderWithDefault", t)


def _placeholder(dtype: Any, shape: Any, name: str, default: Any) -> Tensor:
    g = _recording()
    if g is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    from .._scope import prefixed
    full = g._unique_name(prefixed(name))
    t = _program.placeholder(g._tracer, dtype, shape, full, default)
    g._tensors[full + ":0"], g._tensor_names[id(t)] = t, full + ":0"
    return t


def get_default_graph() -> Graph:
    """The innermost graph made default, else the global default graph."""
    return _current() or _global_graph[0]


def reset_default_graph() -> None:
    """Replace the global default graph by a new one (not inside ``as_default()``)."""
    if _state.graphs:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need "
                             "a cleared graph, exit the nesting and create a new graph.")
    old, _global_graph[0] = _global_graph[0], Graph()
    if not _eager[0]:
        _switch(old, _global_graph[0])


def global_variables(scope: str | None = None) -> list:
    """The variables of the default graph (none in eager code, as in TF2)."""
    g = _current()
    return [] if g is None else g.get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def trainable_variables(scope: str | None = None) -> list:
    """The trainable variables of the default graph (none in eager code)."""
    g = _current()
    return [] if g is None else g.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def variables_initializer(var_list: Any, name: str = "init") -> _program.Operation:
    """An op that sets each variable of ``var_list`` to its initial value (a variable made in a
    graph; one made eagerly keeps its value)."""
    var_list = list(var_list)
    g = _current()

    def run() -> None:
        for v in var_list:
            if g is not None and id(v) in g._initial:
                v.assign(g._initial[id(v)][1])
    return _program.Operation(name, run)


def _initializer_of(v: Variable) -> _program.Operation | None:
    g = _current()
    return variables_initializer([v], v.name[:-2] + "/Assign") if g is not None and id(v) in g._initial else None


GRAPH_INITIALIZER.append(_initializer_of)


def _eval(t: Any, feed_dict: Any, session: Any) -> Any:
    session = session or (_program.SESSIONS[-1] if _program.SESSIONS else None)
    if session is None:
        if _recording() is None:
            if isinstance(t, Variable):
                raise RuntimeError("This operation is not supported when eager execution is enabled.")
            raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what "
                                      "you're looking for?")
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                         "sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return session.run(t, feed_dict=feed_dict)


GRAPH_EVAL.append(_eval)


def global_variables_initializer() -> _program.Operation:
    """An op that sets every variable of the default graph to its initial value."""
    return variables_initializer(global_variables())


class Session:
    """A TF1 session on a graph (the default one). ``run(fetches, feed_dict)`` runs the ops the
    fetches need (tensors, variables, operations, and lists, tuples and dicts of them) on the
    values fed to placeholders, and returns the fetches' values (None for an operation); using
    it as a context makes its graph the default one. See :mod:`tapegrad.compat._program`.

    >>> import tapegrad as tf
    >>> tf1 = tf.compat.v1
    >>> with tf.Graph().as_default():
    ...     x = tf1.placeholder(tf.float32, shape=[None])
    ...     v = tf.Variable(1.0)
    ...     step = v.assign_add(tf.reduce_sum(x))
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         a = sess.run(step, feed_dict={x: [1.0, 2.0]})
    ...         b = sess.run(step, {x: [3.0]})
    >>> a, b
    (np.float32(4.0), np.float32(7.0))
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        self._graph = graph or get_default_graph()
        self._closed = False
        self._plans: dict = {}  # (fetched slots, fed keys, program length, blocks) -> the steps to run
        self._default: _Default | None = None

    @property
    def graph(self) -> Graph:
        return self._graph

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        g = self._graph
        tr = g._tracer
        fetches = _named(fetches, g)
        slots: set = set()
        runs: list = []
        seen: set = set()
        leaves = _leaves(fetches)
        for x in leaves:
            if tr is not None:
                _program._needs_of(x, tr, slots, runs, seen)
            elif isinstance(x, _program.Operation) and x._run is not None:
                runs.append(x._run)
        fed = self._feeds(feed_dict)
        with _rec.swapped([r for r in _rec.tls.stack if getattr(r, "tf1_graph", None) is None]):
            for run in runs:
                run()
            values: dict = {}
            for x in leaves:  # (a variable fetched: its value at the start of the run)
                if isinstance(x, Variable):
                    values[id(x)] = x.numpy()
        if slots:
            order = sorted(slots)
            key = (tuple(order), frozenset(fed), len(tr.steps), len(g._deps))
            steps = self._plans.get(key)
            if steps is None:
                steps = self._plans[key] = _program.prune(tr, slots, g._deps, fed)
            outs = _program.execute(tr, steps, fed, order)
            values.update({s: t for s, t in zip(order, outs)})
        return _pack(fetches, tr, values)

    def _feeds(self, feed_dict: Any) -> dict:
        fed: dict = {}
        tr = self._graph._tracer
        for key, value in (feed_dict or {}).items():
            key = _named(key, self._graph, feed=True)
            feed = _feed_of(tr, key)
            if feed is not None:
                arr = np.asarray(value.numpy() if hasattr(value, "numpy") else value, key.dtype.as_numpy_dtype)
                if not feed.shape.is_compatible_with(arr.shape):
                    shape = tuple(feed.shape.as_list()) if feed.shape.rank is not None else "<unknown>"
                    raise ValueError(f"Cannot feed value of shape {arr.shape} for Tensor {feed.name}:0, which "
                                     f"has shape {shape}")
                fed[feed] = wrap(arr)
            elif isinstance(key, Tensor) and tr is not None and id(key) in tr.slot:
                fed[tr.slot[id(key)]] = wrap(np.asarray(value.numpy() if hasattr(value, "numpy") else value,
                                                        key.dtype.as_numpy_dtype))
            else:
                raise TypeError(f"Cannot interpret feed_dict key {key!r} as a Tensor of this graph: feed "
                                "placeholders (or tensors) built in the session's graph.")
        return fed

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> "Session":
        self._default = _Default(self._graph)
        self._default.__enter__()
        _program.SESSIONS.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._default is not None
        _program.SESSIONS.remove(self)
        self._default.__exit__()
        self.close()

    def as_default(self) -> Any:
        """A context in which this session is the default one (``op.run()``) and its graph the
        default graph."""
        return _AsDefault(self)


class _AsDefault:
    def __init__(self, session: Session) -> None:
        self._session, self._default = session, _Default(session.graph)

    def __enter__(self) -> Session:
        self._default.__enter__()
        _program.SESSIONS.append(self._session)
        return self._session

    def __exit__(self, *exc: Any) -> None:
        _program.SESSIONS.remove(self._session)
        self._default.__exit__()


def _feed_of(tr: Any, key: Any) -> Any:
    """The Feed of placeholder ``key`` of ``tr``'s program (None if ``key`` is none)."""
    s = tr.slot.get(id(key)) if tr is not None and isinstance(key, Tensor) else None
    return None if s is None else getattr(tr, "feed_at", {}).get(s)


def _named(x: Any, g: Graph, feed: bool = False) -> Any:
    """``x`` with the names in it replaced by ``g``'s tensors (``"x:0"``) or operations (``"x"``:
    fetched, it runs and gives None)."""
    if isinstance(x, str):
        g._flush_names()
        t = g._tensors.get(x)
        if t is not None:
            return t
        if not feed and ":" not in x and x + ":0" in g._tensors:
            return _program.Operation(x, needs=[g._tensors[x + ":0"]])
        if any(v.name in (x, x + ":0") for v in g.get_collection(GraphKeys.GLOBAL_VARIABLES)):
            raise NotImplementedError(f"Session.run({x!r}): a variable's name is its resource handle in TensorFlow, "
                                      "which tapegrad's graphs do not have; fetch the variable itself.")
        why = (f"The name {x!r} refers to a Tensor which does not exist. (tapegrad's graphs name placeholders, "
               "the results of functions given name= and the tensors of signatures.)")
        if feed:
            raise TypeError(f"Cannot interpret feed_dict key as Tensor: {why}")
        raise ValueError(f"Argument `fetch` = {x} cannot be interpreted as a Tensor. ({why})")
    if isinstance(x, dict):
        return type(x)((k, _named(v, g)) for k, v in x.items())
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(_named(v, g) for v in x)
    return x


def _leaves(x: Any) -> list:
    if isinstance(x, dict):
        return [y for v in x.values() for y in _leaves(v)]
    if isinstance(x, (list, tuple)):
        return [y for v in x for y in _leaves(v)]
    if x is None or isinstance(x, (Tensor, Variable, _program.Operation)):
        return [x]
    raise TypeError(f'Argument `fetch` = {x!r} has invalid type "{type(x).__name__}" must be a string or '
                    f"Tensor. (Can not convert a {type(x).__name__} into a Tensor or Operation.)")


def _pack(x: Any, tr: Any, values: dict) -> Any:
    if isinstance(x, dict):
        return type(x)((k, _pack(v, tr, values)) for k, v in x.items())
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*(_pack(v, tr, values) for v in x))
    if isinstance(x, (list, tuple)):
        return type(x)(_pack(v, tr, values) for v in x)
    if isinstance(x, Variable):
        return values[id(x)]
    if isinstance(x, Tensor):
        s = tr.slot.get(id(x)) if tr is not None else None
        return x.numpy() if s is None else values[s].numpy()
    return None


class InteractiveSession(Session):
    """A Session that is the default one from its creation (``op.run()`` runs in it) until closed."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None) -> None:
        super().__init__(target, graph, config)
        _program.SESSIONS.append(self)

    def close(self) -> None:
        if self in _program.SESSIONS:
            _program.SESSIONS.remove(self)
        super().close()


# ---- variable scopes and get_variable -----------------------------------------------------------

class VariableScope:
    """An open variable scope: its ``name``, ``reuse`` flag, and defaults for ``get_variable``."""

    def __init__(self, name: str, reuse: Any = None, initializer: Any = None, dtype: Any = None,
                 regularizer: Any = None) -> None:
        self.name = name
        self.original_name_scope = name + "/" if name else ""
        self.reuse = reuse
        self.initializer, self.dtype, self.regularizer = initializer, dtype, regularizer

    def reuse_variables(self) -> None:
        """Reuse the variables of this scope from now on."""
        self.reuse = True


def get_variable_scope() -> VariableScope:
    """The innermost open variable scope (the root scope, named ``""``, outside all)."""
    return _state.scopes[-1] if _state.scopes else VariableScope("")


class variable_scope:  # noqa: N801  (TensorFlow's name)
    """Open the variable scope ``name_or_scope`` (a name, nested in the current scope, or a
    :class:`VariableScope`, entered again by its full name) and the name scope of the same name.

    ``reuse``: True (or ``AUTO_REUSE``) lets ``get_variable`` return the variables already made
    under a name; it is inherited by the scopes inside. ``initializer``, ``dtype`` and
    ``regularizer`` are the defaults of ``get_variable`` inside.
    """

    def __init__(self, name_or_scope: Any, default_name: str | None = None, values: Any = None,
                 initializer: Any = None, regularizer: Any = None, caching_device: Any = None,
                 partitioner: Any = None, custom_getter: Any = None, reuse: Any = None, dtype: Any = None,
                 use_resource: Any = None, constraint: Any = None, auxiliary_name_scope: bool = True) -> None:
        if name_or_scope is None and default_name is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if partitioner is not None or custom_getter is not None:
            raise NotImplementedError("variable_scope(partitioner=..., custom_getter=...) is not supported by "
                                      "tapegrad: make the variables whole and create them directly.")
        self._args = (name_or_scope, default_name, initializer, regularizer, reuse, dtype)
        self._aux = auxiliary_name_scope

    def __enter__(self) -> VariableScope:
        name_or_scope, default_name, initializer, regularizer, reuse, dtype = self._args
        parent = get_variable_scope()
        if isinstance(name_or_scope, VariableScope):
            full = name_or_scope.name
            reuse = name_or_scope.reuse if reuse is None else reuse
        else:
            name = name_or_scope if name_or_scope is not None else default_name
            full = f"{parent.name}/{name}" if parent.name else name
        scope = VariableScope(full, True if parent.reuse is True else reuse,
                              initializer if initializer is not None else parent.initializer,
                              dtype if dtype is not None else parent.dtype,
                              regularizer if regularizer is not None else parent.regularizer)
        _state.scopes.append(scope)
        self._names = name_scope(full + "/" if full else "") if self._aux else None
        if self._names is not None:
            self._names.__enter__()
        return scope

    def __exit__(self, *exc: Any) -> None:
        if self._names is not None:
            self._names.__exit__()
        _state.scopes.pop()


def get_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                 regularizer: Any = None, trainable: bool | None = None, collections: Any = None,
                 caching_device: Any = None, partitioner: Any = None, validate_shape: bool = True,
                 use_resource: Any = None, custom_getter: Any = None, constraint: Any = None,
                 synchronization: Any = None, aggregation: Any = None) -> Variable:
    """The variable ``name`` of the current variable scope: made (from ``initializer`` and
    ``shape``) if the default graph has none of that name, returned if it has and the scope
    reuses. Eager code (no graph made default) has no store: each call makes a new variable.

    ``initializer``: an initializer (called with ``shape`` and ``dtype``), or a value (then
    ``shape`` is not given); None: the scope's, else Glorot uniform for floats and zeros otherwise.
    """
    from .. import dtypes as _dtypes
    from ..keras.initializers import GlorotUniform, zeros_initializer
    if partitioner is not None or custom_getter is not None:
        raise NotImplementedError("get_variable(partitioner=..., custom_getter=...) is not supported by "
                                  "tapegrad: make the variable whole.")
    scope = get_variable_scope()
    full = f"{scope.name}/{name}" if scope.name else name
    g = _current()
    store = _state.stores[-1] if _state.stores else g._vars if g is not None else None
    if store is not None and full in store:
        if scope.reuse is None or scope.reuse is False:
            raise ValueError(f"Variable {full} already exists, disallowed. Did you mean to set reuse=True or "
                             "reuse=tf.AUTO_REUSE in VarScope?")
        v = store[full]
        if shape is not None and not TensorShape(shape).is_compatible_with(v.shape):
            raise ValueError(f"Trying to share variable {full}, but specified shape {TensorShape(shape)} and "
                             f"found shape {v.shape}.")
        return v
    if store is not None and scope.reuse is True:
        raise ValueError(f"Variable {full} does not exist, or was not created with tf.get_variable(). Did "
                         "you mean to set reuse=tf.AUTO_REUSE in VarScope?")
    dtype = _dtypes.as_dtype(dtype or scope.dtype or _dtypes.float32)
    initializer = initializer if initializer is not None else scope.initializer
    if initializer is None:
        initializer = GlorotUniform() if dtype.is_floating else zeros_initializer()
    if callable(initializer):
        if shape is None or not TensorShape(shape).is_fully_defined():
            raise ValueError(f"Shape of a new variable ({full}) must be fully defined, but instead was "
                             f"{TensorShape(shape) if shape is not None else '<unknown>'}.")
        value = initializer(TensorShape(shape).as_list(), dtype=dtype)
    else:
        if shape is not None and validate_shape:
            raise ValueError("If initializer is a constant, do not specify shape.")
        value = initializer
    with name_scope(""):
        v = Variable(value, trainable=True if trainable is None else trainable, name=full, dtype=dtype,
                     constraint=constraint)
    if store is not None:
        store[full] = v
    if g is not None:
        if collections is not None:
            for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.TRAINABLE_VARIABLES):
                ref = g.get_collection_ref(key)
                ref[:] = [x for x in ref if x is not v]
            g.add_to_collections(collections, v)
        regularizer = regularizer if regularizer is not None else scope.regularizer
        if regularizer is not None:
            g.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, regularizer(v))
    return v


# ---- TF1's name-based checkpoints -----------------------------------------------------------------

def _by_name(var_list: Any) -> dict:
    if isinstance(var_list, dict):
        named = dict(var_list)
    else:
        named = {}
        for v in var_list:
            if not isinstance(v, Variable):
                raise TypeError(f"Saver's var_list holds a {type(v).__name__}, not a Variable; pass "
                                "variables (or a dict {name: variable}).")
            n = _train.variable_name(v)
            if n in named:
                raise ValueError(f"At least two variables have the same name: {n}")
            named[n] = v
    for n, v in named.items():
        if not isinstance(v, Variable):
            raise TypeError(f"Saver's var_list maps {n!r} to a {type(v).__name__}, not a Variable.")
    return named


class Saver:
    """TF1's ``tf.compat.v1.train.Saver``: saves and restores variables under their names.

    ``var_list``: a list of variables (saved under their names, without ``":0"``), a dict
    ``{name: variable}``, or None: the default graph's global variables (eager code must give one).
    ``save`` writes a checkpoint (tapegrad's files, TF1's key names) and records it in the
    folder's ``checkpoint`` file, keeping the newest ``max_to_keep``; no ``.meta`` graph is written.
    """

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False, max_to_keep: int = 5,
                 keep_checkpoint_every_n_hours: float = 10000.0, name: str | None = None,
                 restore_sequentially: bool = False, saver_def: Any = None, builder: Any = None,
                 defer_build: bool = False, allow_empty: bool = False, write_version: Any = 2,
                 pad_step_number: bool = False, save_relative_paths: bool = False, filename: Any = None) -> None:
        if var_list is None:
            if _current() is None:
                raise RuntimeError("When eager execution is enabled, `var_list` must specify a list or dict "
                                   "of variables to save")
            var_list = global_variables()
        self._vars = _by_name(var_list)
        if not self._vars and not allow_empty:
            raise ValueError("No variables to save")
        self._max_to_keep = max_to_keep
        self._pad = pad_step_number
        self._last: list = []

    @property
    def last_checkpoints(self) -> list:
        """The paths of the checkpoints saved and not deleted, oldest first."""
        return list(self._last)

    def save(self, sess: Any, save_path: str, global_step: Any = None, latest_filename: str | None = None,
             meta_graph_suffix: str = "meta", write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False) -> str:
        """Write the variables' values to ``save_path`` (``save_path-<global_step>`` with a step)
        and return that path."""
        if _current() is not None and not isinstance(sess, Session):
            raise TypeError(f"'sess' must be a Session; {sess}")
        path = os.fspath(save_path)
        if global_step is not None:
            step = int(np.asarray(global_step.numpy() if hasattr(global_step, "numpy") else global_step))
            path = f"{path}-{step:08d}" if self._pad else f"{path}-{step}"
        _train.write_files(path, {n: np.asarray(v.numpy()) for n, v in self._vars.items()}, name_based=True)
        self._last = [p for p in self._last if p != path] + [path]
        if self._max_to_keep:
            while len(self._last) > self._max_to_keep:
                old = self._last.pop(0)
                for suffix in (_train._INDEX, _train._DATA):
                    if os.path.exists(old + suffix):
                        os.remove(old + suffix)
        if write_state:
            folder = os.path.dirname(path)
            _train._write_state(folder, self._last)
        return path

    def export_meta_graph(self, filename: str | None = None, collection_list: Any = None, as_text: bool = False,
                          export_scope: Any = None, clear_devices: bool = False, clear_extraneous_savers: bool = False,
                          strip_default_attrs: bool = False, save_debug_info: bool = False) -> None:
        """Write the default graph's program to ``filename``: see
        :func:`export_meta_graph`."""
        export_meta_graph(filename, as_text=as_text)

    def restore(self, sess: Any, save_path: str | None) -> None:
        """Assign each variable the value saved under its name in ``save_path``."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        file = _train._data_file(os.fspath(save_path))
        if file is None:
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        reader = _train.CheckpointReader(file)
        if not reader._name_based:
            raise NotFoundError(f"{save_path} is an object-based checkpoint (tf.train.Checkpoint's): tapegrad's "
                                "Saver restores name-based ones only. Restore it with tf.train.Checkpoint, or "
                                "read its values with tf.train.load_checkpoint.")
        values = {}
        for n, v in self._vars.items():
            if not reader.has_tensor(n):
                raise NotFoundError(f"Key {n} not found in checkpoint")
            values[n] = reader.get_tensor(n)
            if not TensorShape(values[n].shape).is_compatible_with(v.shape):
                raise InvalidArgumentError(f"Restoring {n}: the checkpoint's shape {list(values[n].shape)} does "
                                           f"not match the variable's shape {v.shape}.")
        with _rec.swapped([r for r in _rec.tls.stack if getattr(r, "tf1_graph", None) is None]):
            for n, v in self._vars.items():   # (run now, in the session, not built into the graph)
                v.assign(values[n])


META_GRAPH_FORMAT = "tapegrad meta graph"


def _shape(shape: TensorShape) -> Any:
    return None if shape.rank is None else shape.as_list()


def export_meta_graph(filename: str | None = None, graph: Any = None, as_text: bool = False, **kwargs: Any) -> None:
    """Write ``graph``'s (the default graph's) program to ``filename``: its ops as data, its
    placeholders, its variables (with their initial values: restore their values from a
    checkpoint) and its tensors' names. ``as_text`` is accepted; the file is tapegrad's own
    (``import_meta_graph`` reads it; TensorFlow does not). A graph whose program calls Python code
    or takes gradients raises ValueError."""
    g = graph or get_default_graph()
    g._flush_names()
    tr = g._tracer
    if tr is None:
        raise ValueError("The graph is empty: there is no meta graph to export.")
    arrays: list = []
    resources: list = []
    index: dict = {}

    def resource(x: Any) -> int:
        if id(x) not in index:
            index[id(x)] = len(resources)
            if isinstance(x, _program.Feed):
                resources.append({"placeholder": x.name, "dtype": x.stand_in.dtype.name, "shape": _shape(x.shape),
                                  "default": None if x.default is None else encode(np.asarray(x.default._value),
                                                                                  arrays)})
            else:
                initial = g._initial.get(id(x), (x, x.numpy()))[1]
                resources.append({"variable": x.name[:-2], "dtype": x.dtype.name, "shape": _shape(x.shape),
                                  "trainable": bool(x.trainable), "initial": encode(np.asarray(initial), arrays)})
        return index[id(x)]
    if any(st[0] == "grad" for st in tr.steps):
        raise ValueError("This graph takes gradients (tf.gradients, an optimizer's minimize): tapegrad's meta "
                         "graphs hold ops and variable updates only; export the graph before the training ops.")
    prog = types.SimpleNamespace(steps=tr.steps, consts=tr.consts, res=tr.res, outs=[], n_inputs=0, n_slots=tr.n,
                                 n_arg_res=0)
    program = encode_program(prog, resource, arrays, "this graph")
    names = sorted([tr.slot[id(t)], n] for n, t in g._tensors.items() if id(t) in tr.slot)
    meta = json.dumps({"format": META_GRAPH_FORMAT, "program": program, "resources": resources, "names": names})
    if filename is not None:
        with open(os.fspath(filename), "wb") as f:
            np.savez(f, meta=np.frombuffer(meta.encode(), np.uint8), **{f"a{i}": a for i, a in enumerate(arrays)})


def init_from_checkpoint(ckpt_dir_or_file: Any, assignment_map: Any) -> None:
    """Set variables' initial values from a checkpoint, as TF1's ``init_from_checkpoint``.

    ``assignment_map``: ``{checkpoint name: variable, or name of a variable of the default
    graph's get_variable store}``, or ``{"ckpt_scope/": "scope/"}`` for every variable of
    ``scope`` (``"/"``: the root). In a graph the values are assigned by the initializers
    (``global_variables_initializer()``); in eager code, at once.
    """
    reader = _train.load_checkpoint(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    g = _current()
    store = g._vars if g is not None else {}
    pairs: list = []
    items = assignment_map.items() if isinstance(assignment_map, dict) else assignment_map
    for in_ckpt, current in sorted(items, key=lambda pair: pair[0]):
        var = current if isinstance(current, Variable) else store.get(current)
        if var is not None:
            if in_ckpt not in shapes:
                raise ValueError(f"Tensor {in_ckpt} is not found in {ckpt_dir_or_file} checkpoint {shapes}")
            if not TensorShape(shapes[in_ckpt]).is_compatible_with(var.shape):
                raise ValueError(f"Shape of variable {var.name} ({var.shape}) doesn't match with shape of tensor "
                                 f"{in_ckpt} ({shapes[in_ckpt]}) from checkpoint reader.")
            pairs.append((var, in_ckpt))
            continue
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not in_ckpt.endswith("/"):
            raise ValueError(f"Assignment map with scope only name {scopes} should map to scope only "
                             f"{in_ckpt}. Should be 'scope/': 'other_scope/'.")
        for var_name in sorted(n for n in store if not scopes or n.startswith(scopes + "/")):
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if in_ckpt != "/":
                full = in_ckpt + full
            full = full[:-1] if full.endswith("/") else full
            if full not in shapes:
                raise ValueError(f"Tensor {full} ({var_name[len(scopes) + 1:]} in {in_ckpt}) is not found in "
                                 f"{ckpt_dir_or_file} checkpoint")
            pairs.append((store[var_name], full))
    for var, name in pairs:
        value = reader.get_tensor(name)
        if g is not None and id(var) in g._initial:
            g._initial[id(var)] = (var, value)
        else:
            var.assign(value)
