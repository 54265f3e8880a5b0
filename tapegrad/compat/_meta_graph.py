"""TF1's meta graphs and wrapped functions: a graph's program as a file, and graphs as functions.

``export_meta_graph`` writes the default graph's program (its steps as data, as
:mod:`tapegrad.saved_model._format` writes a trace; its placeholders, its variables with their
initial values, its tensors' names) to one file (tapegrad's format, not TensorFlow's
``MetaGraphDef`` protocol buffer); ``import_meta_graph`` builds that program again in the
default graph, under the same names, and returns a ``Saver`` of its variables.
``wrap_function(fn, signature)`` runs ``fn`` on placeholders in a graph of its own; the
:class:`WrappedFunction` runs that graph eagerly, and ``prune(feeds, fetches)`` makes a function
of any of its tensors.
"""
from __future__ import annotations

import contextlib
import json
import os
from typing import Any

import numpy as np

from .. import _nest
from .._convert import check_values, convert_to_tensor
from .._dispatch import apply
from .._scope import name_scope
from .._spec import TensorSpec
from .._tensor import Tensor, wrap
from .._variable import Variable
from ..dtypes import as_dtype
from ..saved_model._format import Unreadable, decode, decode_program
from . import _graph, _program
from ._graph import export_meta_graph  # noqa: F401  (tf.compat.v1.train's)

def import_meta_graph(meta_graph_or_file: str, clear_devices: bool = False, import_scope: str | None = None,
                      **kwargs: Any) -> Any:
    """Build the program of a file ``export_meta_graph`` wrote into the default graph: its
    placeholders and tensors under their names (``graph.get_tensor_by_name("y:0")``), its
    variables at their initial values; returns a ``tf.compat.v1.train.Saver`` of those variables
    (None if it has none), to restore their values from a checkpoint.

    >>> import os, tempfile, tapegrad as tf
    >>> tf1 = tf.compat.v1
    >>> d = tempfile.mkdtemp()
    >>> with tf.Graph().as_default():
    ...     x = tf1.placeholder(tf.float32, shape=[], name="x")
    ...     y = tf.multiply(x, tf.Variable(3.0, name="v"), name="y")
    ...     tf1.train.export_meta_graph(os.path.join(d, "m.meta"))
    >>> with tf.Graph().as_default() as g:
    ...     saver = tf1.train.import_meta_graph(os.path.join(d, "m.meta"))
    ...     with tf1.Session() as sess:
    ...         sess.run(tf1.global_variables_initializer())
    ...         sess.run(g.get_tensor_by_name("y:0"), {g.get_tensor_by_name("x:0"): 2.0})
    np.float32(6.0)
    """
    g = _graph.get_default_graph()
    if _graph._recording() is not g:
        raise RuntimeError("tf.compat.v1.train.import_meta_graph builds into a TF1 graph: call it inside "
                           "`with tf.Graph().as_default():` (or tf.compat.v1.wrap_function).")
    path = os.fspath(meta_graph_or_file)
    if not os.path.exists(path):
        raise OSError(f"File {path} does not exist.")
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(bytes(z["meta"]).decode())
        if meta.get("format") != _graph.META_GRAPH_FORMAT:
            raise Unreadable(f"{path} is not a meta graph that tapegrad's export_meta_graph wrote")
        arrays = [z[f"a{i}"] for i in range(len(z.files) - 1)]
    with name_scope(import_scope) if import_scope else contextlib.nullcontext():
        return _build(g, meta, arrays)


def _build(g: Any, meta: dict, arrays: list) -> Any:
    descs = meta["resources"]
    made: list = []
    for d in descs:
        if "variable" in d:
            made.append(Variable(decode(d["initial"], arrays), name=d["variable"], dtype=as_dtype(d["dtype"]),
                                 trainable=d["trainable"]))
        else:
            made.append(None)  # (a placeholder: made at its read step)
    prog = decode_program(meta["program"], made, arrays, None)
    env: dict = {}

    def val(s: int) -> Tensor:
        t = env.get(s)
        if t is None:
            t = env[s] = wrap(prog.consts[s])
        return t
    names = {s: n for s, n in meta["names"]}
    for step in prog.steps:
        kind = step[0]
        if kind == "read":
            d = descs[step[1]]
            if "variable" in d:
                env[step[2]] = made[step[1]].read_value()
            else:
                default = None if d["default"] is None else convert_to_tensor(decode(d["default"], arrays))
                name = names.get(step[2], d["placeholder"] + ":0")[:-2]
                env[step[2]] = (_graph.placeholder(as_dtype(d["dtype"]), d["shape"], name=name) if default is None
                                else _graph.placeholder_with_default(default, d["shape"], name=name))
        elif kind == "op":
            r = apply(step[1], [val(i) for i in step[2]], step[3])
            for s, t in zip(step[4], r if type(r) is tuple else (r,)):
                env[s] = t
        elif kind == "write":
            _, r, how, _prev, src, out = step
            env[out] = getattr(made[r], how)(val(src))
        elif kind == "check":
            check_values(step[1], *[val(i) for i in step[2]])
        elif kind == "draw":
            raise NotImplementedError("This meta graph draws random numbers: tapegrad's import_meta_graph builds "
                                      "ops and variable updates only.")
        # (guard, shape: checks of the stand-in values it was built on; this build makes its own)
    for s, name in sorted(names.items()):
        t = env.get(s)
        if t is not None and id(t) not in g._tensor_names:
            g._name_tensor(t, name[:-2])
    variables = [v for v in made if v is not None]
    return _graph.Saver(variables) if variables else None


class WrappedFunction:
    """What ``tf.compat.v1.wrap_function`` returns: a TF1 graph (``graph``) built by a function
    on placeholders, run eagerly: calling it feeds its inputs and gives its outputs;
    ``prune(feeds, fetches)`` is the function from any of its tensors to others. ``variables``:
    the graph's variables (their values are the objects', as eager Variables)."""

    def __init__(self, graph: Any, inputs: list, outputs: Any) -> None:
        self._graph, self.inputs, self.structured_outputs = graph, list(inputs), outputs
        self.outputs = [t for t in _nest.flatten(outputs) if isinstance(t, Tensor)]

    @property
    def graph(self) -> Any:
        return self._graph

    @property
    def variables(self) -> list:
        return self._graph.get_collection(_graph.GraphKeys.GLOBAL_VARIABLES)

    @property
    def trainable_variables(self) -> list:
        return self._graph.get_collection(_graph.GraphKeys.TRAINABLE_VARIABLES)

    def prune(self, feeds: Any, fetches: Any, name: str | None = None, input_signature: Any = None) -> "WrappedFunction":
        """The function of this graph from the tensors ``feeds`` (one, or a list) to ``fetches``
        (a tensor or a nest of them)."""
        tr = self._graph._tracer
        for t in _nest.flatten(feeds) + _nest.flatten(fetches):
            if not isinstance(t, Tensor) or tr is None or id(t) not in tr.slot:
                raise ValueError(f"Can only prune function whose feeds and fetches are tensors of its graph; got {t!r}.")
        return WrappedFunction(self._graph, _nest.flatten(feeds), fetches)

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.inputs):
            raise TypeError(f"This wrapped function takes {len(self.inputs)} positional arguments, got {len(args)}.")
        tr = self._graph._tracer
        fed: dict = {}
        for t, a in zip(self.inputs, args):
            a = convert_to_tensor(a, dtype=t.dtype)
            feed = _graph._feed_of(tr, t)
            fed[feed if feed is not None else tr.slot[id(t)]] = a
        outs = [tr.slot[id(t)] for t in self.outputs]
        steps = _program.prune(tr, set(outs), self._graph._deps, fed)
        got = iter(_program.execute(tr, steps, fed, outs))
        return _nest.map_structure(lambda t: next(got) if isinstance(t, Tensor) else t, self.structured_outputs)


def wrap_function(fn: Any, signature: Any, name: str | None = None) -> WrappedFunction:
    """Run ``fn`` (TF1 graph-building code: placeholders, ``get_variable``, ``import_meta_graph``)
    in a new graph, on a placeholder for each ``tf.TensorSpec`` of ``signature``, and return the
    :class:`WrappedFunction` that runs that graph eagerly.

    >>> import tapegrad as tf
    >>> def f(x):
    ...     v = tf.compat.v1.get_variable("v", initializer=2.0)
    ...     return x * v
    >>> w = tf.compat.v1.wrap_function(f, [tf.TensorSpec([], tf.float32)])
    >>> w(tf.constant(3.0)).numpy(), [v.name for v in w.variables]
    (np.float32(6.0), ['v:0'])
    """
    specs = list(signature or [])
    g = _graph.Graph()
    with g.as_default():
        args = [_graph.placeholder(s.dtype, s.shape, name=s.name) for s in specs if isinstance(s, TensorSpec)]
        outputs = fn(*args)
    return WrappedFunction(g, args, outputs)
