"""Record how TensorFlow 2.21 and Keras 3.15 read the structures of tests/nest_cases.py.

Development only (tapegrad and CI never import TensorFlow):

    $TAPEGRAD_TF_PYTHON tools/record_nest_cases.py

For every structure: ``tf.nest.flatten`` and ``pack_sequence_as``, ``GradientTape.gradient``
with the structure as its sources, ``keras.tree.flatten`` and ``map_structure``, and what a
Keras layer receives when the structure is its input; and a RaggedTensor in a structure, with
and without ``expand_composites``. ``tests/test_structures.py`` runs the
same with ``tf`` bound to tapegrad (``run`` below is shared). The results go to
``tests/fixtures/nest_cases.json``.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from nest_cases import CASES, describe  # noqa: E402

RAGGED = "(a RaggedTensor)"  # the fixture's key of run_ragged's record


def _error(e: BaseException) -> list:
    """An error as its type and the text before Python's own cause (which differs by version)."""
    return ["error", type(e).__name__, str(e).split(" Cause:")[0].splitlines()[0]]


def _attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (TypeError, ValueError) as e:
        return _error(e)


def _scalar(v: Any) -> Any:
    return v if v is None or isinstance(v, int) else f"leaf {type(v).__name__}"


def run(tf: Any, keras: Any, tree: Any, build: Callable) -> dict:
    """The record of one structure: ``tf`` and ``keras`` are TensorFlow's or tapegrad's; ``tree``
    has Keras's ``flatten`` and ``map_structure``."""
    import numpy as np

    s = build(1, 2, 3)
    out = {"nest_flatten": [_scalar(v) for v in tf.nest.flatten(s)],
           "nest_pack": _attempt(lambda: describe(tf.nest.pack_sequence_as(
               s, [None if v is None else 10 * v for v in tf.nest.flatten(s)]), _scalar)),
           "keras_flatten": [_scalar(v) for v in tree.flatten(s)],
           "keras_map": _attempt(lambda: describe(tree.map_structure(
               lambda v: 10 * v if isinstance(v, int) else v, s), _scalar))}
    x, z, w = (tf.constant(float(v)) for v in (1, 2, 3))
    with tf.GradientTape() as tape:
        tape.watch([x, z, w])
        y = 3.0 * x + 5.0 * z + 7.0 * w
    out["gradient"] = _attempt(lambda: describe(tape.gradient(y, build(x, z, w)),
                                                lambda g: None if g is None else round(float(g), 6)))

    seen: list = []  # (not an attribute of the layer: Keras would track it, wrapping lists and dicts)

    class Identity(keras.layers.Layer):
        def call(self, inputs: Any) -> Any:
            seen.append(inputs)
            return inputs

    def received() -> Any:
        Identity()(build(*(np.float32(v) for v in (1, 2, 3))))
        return describe(seen[0], lambda v: v if v is None else "tensor" if hasattr(v, "shape")
                        and not isinstance(v, np.generic) else f"leaf {type(v).__name__}")
    out["keras_layer_input"] = _attempt(received)
    return out


def run_ragged(tf: Any) -> dict:
    """A RaggedTensor in a structure: a leaf, its components with ``expand_composites``, and the
    gradient with respect to it (a RaggedTensor, from its flat values)."""
    r = tf.ragged.constant([[1.0], [2.0, 3.0]])
    s = {"r": r, "x": 1}
    flat = tf.nest.flatten(s, expand_composites=True)
    packed = tf.nest.pack_sequence_as(s, flat, expand_composites=True)
    with tf.GradientTape() as tape:
        tape.watch(r.flat_values)
        y = tf.reduce_sum(r * r)
    g = tape.gradient(y, {"r": r})["r"]
    return {"leaves": [v if isinstance(v, int) else type(v).__name__ for v in tf.nest.flatten(s)],
            "components": [v if isinstance(v, int) else [v.dtype.name, v.shape.as_list()] for v in flat],
            "packed": [type(packed["r"]).__name__, packed["r"].to_list(), packed["x"]],
            "gradient": [type(g).__name__, g.to_list()]}


def main() -> None:
    from _tf import quiet_tensorflow

    tf = quiet_tensorflow()
    import keras

    out = {name: run(tf, keras, keras.tree, build) for name, build in CASES.items()}
    out[RAGGED] = run_ragged(tf)
    path = os.path.join(ROOT, "tests", "fixtures", "nest_cases.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path}: {len(out)} structures")


if __name__ == "__main__":
    main()
