"""A picture of what a GradientTape recorded, as Graphviz DOT (and SVG/PNG when Graphviz is there).

:func:`to_dot` needs nothing beyond tapegrad. :func:`render` and the inline pictures in Jupyter
need the optional ``graphviz`` Python package and Graphviz's ``dot`` program
(``pip install "tapegrad[viz]"`` and e.g. ``apt-get install graphviz``).

The graph shows the sources (watched tensors and Variables, green; a Keras weight is labelled
with its path, ``dense_1/kernel``, which names its layer), every recorded op (boxes; in explain
mode, an op run inside a Keras layer also names the layer, ``in model/dense_1``, and every op
names the line of your code that ran it, ``train.py:42``, the whole path in its tooltip),
the tensors between them (edge labels: dtype and shape) and the targets (orange). Inputs that are
not on the tape (constants) are small grey points. After ``gradient`` on a persistent tape in
explain mode with ``cotangents=True``, every edge also carries the norm of the cotangent that
flowed back along it (``‖ḡ‖``), which shows at a glance where gradients vanish or explode::

    >>> import tapegrad as tf
    >>> x = tf.constant([1.0, 2.0])
    >>> with tf.GradientTape(persistent=True).explain(cotangents=True) as tape:
    ...     tape.watch(x)
    ...     y = tf.reduce_sum(tf.sin(x) * x)
    >>> _ = tape.gradient(y, x)
    >>> dot = tf.visualize.to_dot(tape)
    >>> print(dot.splitlines()[0])
    digraph tape {
    >>> "Sin" in dot and "‖ḡ‖" in dot
    True

In Jupyter, the value of ``to_dot(tape)`` displays as the picture.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from . import _nest, _tape
from ._tensor import Tensor
from ._variable import Variable

__all__ = ["to_dot", "render", "DotGraph"]

_SOURCE = 'shape=ellipse, style=filled, fillcolor="#c7e9c0", color="#31a354"'
_TARGET = 'shape=ellipse, style=filled, fillcolor="#fdd0a2", color="#e6550d"'
_OP = 'shape=box, style="rounded,filled", fillcolor="#eff3ff", color="#3182bd"'
_CONST = 'shape=point, width=0.08, color="#999999"'


class DotGraph(str):
    """Graphviz DOT text (a ``str``) that Jupyter shows as a picture when Graphviz is installed."""

    def _repr_svg_(self) -> str | None:
        try:
            return _pipe(self, "svg").decode("utf-8")
        except (ImportError, RuntimeError):
            return None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        out = {"text/plain": str(self)}
        svg = self._repr_svg_()
        if svg is not None:
            out["image/svg+xml"] = svg
        return out


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _desc(t: Any) -> str:
    v = t._snap._value if isinstance(t, Variable) else t._value
    return f"{v.dtype.name}{list(v.shape)}"


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def _params(p: dict) -> str:
    """A short line of an op's static parameters (scalars and short tuples only)."""
    parts = []
    for k, v in p.items():
        if v is False or v is None:
            continue
        if isinstance(v, (bool, int, float, str, np.integer, np.floating)) or \
                (isinstance(v, tuple) and len(v) <= 4 and all(isinstance(e, (int, np.integer)) for e in v)):
            parts.append(f"{k}={v}")
    s = ", ".join(parts)
    return s if len(s) <= 40 else s[:37] + "..."


def _ids_of(targets: Any) -> list:
    out = []
    for t in _nest.flatten(targets):
        if isinstance(t, Variable):
            out.append(t._id)
        elif isinstance(t, Tensor):
            out.append(t._id)
        else:
            raise TypeError(f"to_dot: targets must be tensors or Variables, got {type(t).__name__}.")
    return out


def to_dot(tape: Any, targets: Any = None) -> DotGraph:
    """Graphviz DOT of the ops ``tape`` recorded (see the module docstring for what is drawn).

    Args:
      tape: a GradientTape (persistent, or not yet used: a used one-shot tape has freed its record).
      targets: a tensor or nest of tensors; only the ops they depend on are drawn, and they are
        marked as targets. By default: the targets of the last ``gradient`` call when the tape is in
        explain mode, else every recorded output that no recorded op consumed.

    Returns a :class:`DotGraph`, a ``str`` that Jupyter displays as a picture.

    >>> import tapegrad as tf
    >>> x = tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> "Mul" in tf.visualize.to_dot(tape, y)
    True
    """
    rec = _tape.recorder(tape)
    if _tape.used(tape) and not rec.entries:
        raise ValueError("to_dot: this non-persistent tape has already computed its gradient and "
                         "freed what it recorded. Draw it before calling gradient, or use "
                         "GradientTape(persistent=True).")
    entries = [e for e in rec.entries if e is not None]
    ex = rec.explain
    producer: dict = {}
    for k, (op, xs, p, ans, needs) in enumerate(entries):
        for j, o in enumerate(ans if isinstance(ans, tuple) else (ans,)):
            producer[o._id] = (k, j, o)
    if targets is not None:
        tids = _ids_of(targets)
    elif ex is not None and ex.last_targets:
        tids = list(ex.last_targets)
    else:
        used = {x._id for _, xs, _, _, needs in entries for x in xs}
        tids = [i for i in producer if i not in used]
    # keep only what the targets depend on
    keep: set = set()
    todo = [producer[i][0] for i in tids if i in producer]
    while todo:
        k = todo.pop()
        if k in keep:
            continue
        keep.add(k)
        _, xs, _, _, needs = entries[k]
        todo.extend(producer[xs[i]._id][0] for i in needs if xs[i]._id in producer)
    norms = ex.norms if ex is not None else {}
    layers: dict = {}  # an output's id -> the Keras layer its op ran in (explain mode)
    lines_at: dict = {}  # an output's id -> (file, line) of the user code that ran its op
    if ex is not None:
        for op_, xs_, outs, dts, recorded, where, paused in ex.ops:
            if recorded and where and outs:
                o = outs[0]
                lines_at[o if type(o) is int else o._id] = where
        for pos, layer in ex.layers.items():
            outs = ex.ops[pos][2]
            if outs:
                o = outs[0]
                layers[o if type(o) is int else o._id] = layer
    index = {id(e): k for k, e in enumerate(_tape.recorder(tape).entries) if e is not None}  # positions in the walk

    lines = ["digraph tape {", '  rankdir=LR; node [fontname="Helvetica", fontsize=11]; '
             'edge [fontname="Helvetica", fontsize=9, color="#555555"];']
    leaves: dict = {}
    for k in sorted(keep):
        op, xs, p, ans, needs = entries[k]
        extra = _params(p)
        first = ans[0] if isinstance(ans, tuple) else ans
        layer = layers.get(first._id) if layers else None
        where = lines_at.get(first._id)
        label = (op.name + (f"\n{extra}" if extra else "") + (f"\nin {layer}" if layer else "")
                 + (f"\n{os.path.basename(where[0])}:{where[1]}" if where else ""))
        tip = f", tooltip={_q(f'{where[0]}:{where[1]}')}" if where else ""
        lines.append(f"  op{k} [label={_q(label)}, {_OP}{tip}];")
        walk_k = index.get(id(entries[k]))
        for i, x in enumerate(xs):
            if i in needs and x._id in producer:
                pk, pj, _ = producer[x._id]
                src = f"op{pk}"
                lab = _desc(x) + (f" [{pj}]" if isinstance(entries[pk][3], tuple) else "")
            elif i in needs:
                src = f"t{x._id}"
                if src not in leaves:
                    leaves[src] = x
                lab = _desc(x)
            else:
                src = f"c{k}_{i}"
                lines.append(f"  {src} [label=\"\", {_CONST}, tooltip={_q('constant ' + _desc(x))}];")
                lines.append(f'  {src} -> op{k} [style=dashed, color="#bbbbbb", arrowsize=0.5];')
                continue
            n = norms.get((walk_k, i))
            if n is not None:
                lab += f"\n‖ḡ‖={_fmt(n)}"
            lines.append(f"  {src} -> op{k} [label={_q(lab)}];")
    for name, x in leaves.items():
        v = _tape.recorder(tape).vars.get(x._id)
        # a Keras weight by its path ("dense_1/kernel"), which names its layer, as Keras does
        what = f"Variable '{getattr(v, 'path', None) or v.name}'" if v is not None else "watched"
        lines.append(f"  {name} [label={_q(what + chr(10) + _desc(x))}, {_SOURCE}];")
    for n, tid in enumerate(tids):
        if tid not in producer:
            continue
        pk, pj, t = producer[tid]
        if pk not in keep:
            continue
        lab = _desc(t)
        g = norms.get((index.get(id(entries[pk])), -1))
        if g is not None:
            lab += f"\n‖ḡ‖={_fmt(g)}"
        name = f"target {n}" if len(tids) > 1 else "target"
        lines.append(f"  target{n} [label={_q(name + chr(10) + _desc(t))}, {_TARGET}];")
        lines.append(f"  op{pk} -> target{n} [label={_q(lab)}];")
    lines.append("}")
    return DotGraph("\n".join(lines) + "\n")


def _pipe(dot: str, fmt: str) -> bytes:
    try:
        import graphviz
    except ImportError:
        raise ImportError("Rendering needs the optional 'graphviz' package and Graphviz's `dot` "
                          "program: pip install \"tapegrad[viz]\" (and e.g. apt-get install "
                          "graphviz). to_dot() works without them.") from None
    try:
        return graphviz.Source(dot).pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise RuntimeError("Graphviz's `dot` program was not found on PATH: install Graphviz "
                           "(e.g. apt-get install graphviz, brew install graphviz).") from None


def render(tape: Any, path: str | os.PathLike, format: str = "svg", targets: Any = None) -> str:  # noqa: A002
    """Draw ``tape`` (see :func:`to_dot`) into the file ``path`` as ``"svg"`` or ``"png"``.

    Needs the optional ``graphviz`` package (``pip install "tapegrad[viz]"``) and Graphviz's
    ``dot`` program. Returns the path written.
    """
    if format not in ("svg", "png"):
        raise ValueError(f"render: format must be 'svg' or 'png', got {format!r}.")
    data = _pipe(to_dot(tape, targets), format)
    path = os.fspath(path)
    with open(path, "wb") as f:
        f.write(data)
    return path
