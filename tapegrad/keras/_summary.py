"""``model.summary()`` as Keras 3 prints it: Keras's ``print_summary`` builds a ``rich`` table
(fixed column widths from ``positions``, cells wrapped at spaces, words too long cut with "…",
heavy header box) and the parameter totals; this module draws the same text without ``rich``."""
from __future__ import annotations

import math
import re
import shutil
from typing import Any, Callable

import numpy as np

from ._data_utils import print_msg
from ._keras_tensor import KerasTensor
from ._tree import flatten, map_structure

_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")


# ---- the text of one cell (rich's Text.wrap with overflow="ellipsis") ---------------------------

def _breaks(text: str, width: int) -> list[int]:
    """Where rich breaks ``text`` into lines of ``width`` (a word longer than a line gets its own)."""
    out, offset = [], 0
    for m in _WORD.finditer(text):
        start, word = m.start(), m.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            if start:
                out.append(start)
            offset = len(word)
        elif offset and start:
            out.append(start)
            offset = len(word)
    return out


def _truncate(line: str, width: int) -> str:
    return line[:width - 1] + "…" if len(line) > width else line


def _wrap(text: str, width: int, justify: str) -> list[str]:
    lines = []
    for raw in text.split("\n"):
        cuts = [0] + _breaks(raw, width) + [len(raw)]
        for a, b in zip(cuts, cuts[1:]):
            line = raw[a:b]
            if len(line) > width:  # (rich's rstrip_end: trailing spaces beyond the width go)
                m = _TRAILING_SPACE.search(line)
                if m:
                    line = line[:len(line) - min(len(m.group(0)), len(line) - width)]
            if justify == "left":
                line = _truncate(line, width).ljust(width)
            elif justify == "right":
                line = _truncate(line.rstrip(), width).rjust(width)
            else:
                line = _truncate(line.rstrip(), width)
                line = (" " * ((width - len(line)) // 2) + line).ljust(width)
            lines.append(line)
    return lines


# ---- column widths (rich's Table with a fixed width per column and the table's width) -----------

def _ratio_reduce(total: int, values: list[int]) -> list[int]:
    ratio, out = len(values), []
    for v in values:
        d = min(v, round(total / ratio)) if ratio else 0
        out.append(v - d)
        total, ratio = total - d, ratio - 1
    return out


def _ratio_distribute(total: int, ratios: list[int]) -> list[int]:
    out, remaining, left = [], total, sum(ratios)
    for r in ratios:
        d = math.ceil(r * remaining / left) if left > 0 else remaining
        out.append(d)
        left, remaining = left - r, remaining - d
    return out


def _widths(columns: list[int], line_length: int) -> list[int]:
    """Each column's width with its padding, as rich lays out a table ``line_length`` wide."""
    room = line_length - (len(columns) + 1)
    widths = [min(w + 2, room) for w in columns]
    if sum(widths) > room:
        widths = _ratio_reduce(sum(widths) - room, widths)
        widths = [min(w + 2, n) for w, n in zip(columns, widths)]
    if sum(widths) < room:
        widths = [w + p for w, p in zip(widths, _ratio_distribute(room - sum(widths), widths))]
    return widths


def _table(header: list[str], justify: list[str], rows: list[list[str]], columns: list[int],
           line_length: int) -> list[str]:
    widths = _widths(columns, line_length)

    def rule(left: str, mid: str, right: str, fill: str) -> str:
        return left + mid.join(fill * w for w in widths) + right

    def row(cells: list[str], bar: str) -> list[str]:
        wrapped = [_wrap(c, max(w - 2, 0), j) for c, w, j in zip(cells, widths, justify)]
        height = max(len(c) for c in wrapped)
        return [bar + bar.join(" " + (c[i] if i < len(c) else " " * (w - 2)) + " "
                               for c, w in zip(wrapped, widths)) + bar for i in range(height)]
    out = [rule("┏", "┳", "┓", "━"), *row(header, "┃"), rule("┡", "╇", "┩", "━")]
    for i, cells in enumerate(rows):
        if i:
            out.append(rule("├", "┼", "┤", "─"))
        out += row(cells, "│")
    out.append(rule("└", "┴", "┘", "─"))
    return out


# ---- the model's rows and totals ----------------------------------------------------------------

def _user_layer_without_output_shape(cls: type) -> bool:
    """A layer class of the program's own whose ``compute_output_shape`` is Layer's (which Keras
    leaves unimplemented; tapegrad's runs ``call``, and only for a one-input ``call``)."""
    owner = next(c for c in cls.__mro__ if "compute_output_shape" in c.__dict__)
    return owner.__module__ == "tapegrad.keras.layers.layer" and not cls.__module__.startswith("tapegrad.")


def _shape(layer: Any) -> str:
    """Keras's ``format_layer_shape``: the output shape of the layer's last call in a graph, else
    of its build shape, else "?"."""
    def fmt(shape: Any) -> str:
        return "(" + ", ".join(str(d) for d in shape) + ")"
    nodes = layer.__dict__.get("_inbound_nodes") or []
    build = layer.__dict__.get("_build_shapes_dict") or layer.__dict__.get("_build_input_shape")
    if nodes:
        outputs = map_structure(lambda t: fmt(t.shape), nodes[-1].outputs)
    elif build is not None and getattr(layer, "built", False):
        if _user_layer_without_output_shape(type(layer)):
            return "?"  # (Keras's Layer.compute_output_shape raises NotImplementedError)
        try:
            shapes = (layer.compute_output_shape(**build) if isinstance(build, dict)
                      and "_build_shapes_dict" in layer.__dict__ else layer.compute_output_shape(build))
        except NotImplementedError:
            return "?"
        outputs = _map_shapes(fmt, shapes)
    else:
        return "?"
    flat = flatten(outputs)
    return flat[0] if len(flat) == 1 else str(outputs).replace("'", "")


def _map_shapes(fn: Callable, shapes: Any) -> Any:
    if isinstance(shapes, (tuple, list)) and all(d is None or isinstance(d, (int, np.integer))
                                                 for d in shapes):
        return fn(shapes)
    if isinstance(shapes, dict):
        return {k: _map_shapes(fn, v) for k, v in shapes.items()}
    return type(shapes)(_map_shapes(fn, s) for s in shapes)


def _node_depths(nodes: list) -> dict:
    """Each node's depth from the outputs (Keras's ``nodes_by_depth``: an output node is 0, a
    node is one deeper than its deepest consumer)."""
    depth: dict = {}
    for node in reversed(nodes):
        d = depth.setdefault(id(node), 0)
        for parent in node.parents:
            depth[id(parent)] = max(depth.get(id(parent), 0), d + 1)
    return depth


def _sequential_like(model: Any) -> bool:
    if not model.__dict__.get("_functional"):
        return True
    nodes = model._nodes
    depths = _node_depths(nodes)
    by_depth: dict = {}
    for node in nodes:
        by_depth.setdefault(depths[id(node)], []).append(node)
    for group in by_depth.values():
        inputs = [t for t in flatten((group[0].args, group[0].kwargs)) if isinstance(t, KerasTensor)]
        if len(group) > 1 or len(inputs) > 1:
            return False
    seen = set()
    for node in nodes:
        if node.layer in seen:
            return False
        seen.add(node.layer)
    return True


def _connections(layer: Any, relevant: set) -> str:
    out = []
    for node in layer.__dict__.get("_inbound_nodes") or []:
        if relevant and id(node) not in relevant:
            continue
        for t in flatten((node.args, node.kwargs)):
            if isinstance(t, KerasTensor) and t._node is not None:
                source = t._node.layer
                index = (source.__dict__.get("_inbound_nodes") or [t._node]).index(t._node)
                out.append(f"{source.name}[{index}][{t._index}]")
    return ", ".join(out) or "-"


def _count(weights: list) -> int:
    return int(sum(math.prod(v.shape) for v in weights))


def _memory(weights: list) -> float:
    unique = {id(w): w for w in weights}.values()
    return float(sum(math.prod(w.shape) * _itemsize(w.dtype) for w in unique))


def _itemsize(dtype: Any) -> int:
    return dtype.size if hasattr(dtype, "size") else np.dtype(dtype).itemsize


def _readable(size: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB", "PB"):
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _layer_range(layers: list, layer_range: Any) -> tuple[int, int]:
    if layer_range is None:
        return 0, len(layers)
    if len(layer_range) != 2:
        raise ValueError("layer_range must be a list or tuple of length 2. Received: "
                         f"layer_range = {layer_range} of length {len(layer_range)}")
    if not isinstance(layer_range[0], str) or not isinstance(layer_range[1], str):
        raise ValueError(f"layer_range should contain string type only. Received: {layer_range}")
    lower = [i for i, layer in enumerate(layers) if re.match(layer_range[0], layer.name)]
    upper = [i for i, layer in enumerate(layers) if re.match(layer_range[1], layer.name)]
    if not lower or not upper:
        raise ValueError(f"Passed layer_names do not match the layer names in the model. Received: "
                         f"{layer_range}")
    if min(lower) > max(upper):
        return min(upper), max(lower) + 1
    return min(lower), max(upper) + 1


def print_summary(model: Any, line_length: int | None = None, positions: Any = None,
                  print_fn: Callable | None = None, expand_nested: bool = False,
                  show_trainable: bool = False, layer_range: Any = None) -> None:
    """Keras 3's ``keras.utils.summary_utils.print_summary`` (what ``model.summary()`` prints)."""
    sequential_like = _sequential_like(model)
    layers = model.operations if model.__dict__.get("_functional") else model.layers
    if sequential_like:
        default_length, positions = 88, positions or [0.45, 0.80, 1.0]
        header, justify = ["Layer (type)", "Output Shape", "Param #"], ["left", "left", "right"]
        relevant: set = set()
    else:
        default_length, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        justify = ["left", "left", "right", "left"]
        relevant = {id(n) for n in model._nodes}
    if show_trainable:
        default_length += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        justify.append("center")
    columns_available = shutil.get_terminal_size().columns
    line_length = line_length or min(default_length, columns_available - 4)
    columns, current = [], 0
    for pos in positions:
        width = int(pos * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        columns.append(width)
        current += width

    def fields(layer: Any, level: int) -> list[list[str]]:
        prefix = "   " * level + "└ " if level else ""
        if not hasattr(layer, "built"):
            params = "0"
        elif not layer.built:
            params = "0 (unbuilt)"
        else:
            params = f"{layer.count_params():,}"
        row = [f"{prefix}{layer.name} ({type(layer).__name__})", _shape(layer), params]
        if not sequential_like:
            row.append(_connections(layer, relevant))
        if show_trainable:
            row.append(("Y" if layer.trainable else "N") if getattr(layer, "weights", None) else "-")
        rows = [row]
        if expand_nested and getattr(layer, "layers", None):
            for inner in layer.layers:
                rows += fields(inner, level + 1)
        return rows
    start, stop = _layer_range(layers, layer_range)
    rows = [r for layer in layers[start:stop] for r in fields(layer, 0)]
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    optimizer = model.optimizer if getattr(model, "compiled", False) else None
    opt_built = optimizer is not None and getattr(optimizer, "built", True)
    opt_vars = list(optimizer.variables) if opt_built else []
    total = _count(trainable) + _count(non_trainable) + _count(opt_vars)
    total_memory = _memory(trainable) + _memory(non_trainable) + _memory(opt_vars)
    lines = [f'Model: "{model.name}"', *_table(header, justify, rows, columns, line_length),
             f" Total params: {total:,} ({_readable(total_memory)})",
             f" Trainable params: {_count(trainable):,} ({_readable(_memory(trainable))})",
             f" Non-trainable params: {_count(non_trainable):,} ({_readable(_memory(non_trainable))})"]
    if opt_built:
        lines.append(f" Optimizer params: {_count(opt_vars):,} ({_readable(_memory(opt_vars))})")
    text = "".join(line[:columns_available] + "\n" for line in lines)  # (rich crops to the console)
    if print_fn is None:
        print_msg(text, line_break=False)
    else:
        print_fn(text)
