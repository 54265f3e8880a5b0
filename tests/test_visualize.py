"""Tape pictures: DOT text always; rendering only where Graphviz is installed."""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import visualize

try:
    import graphviz  # noqa: F401
    HAVE_GRAPHVIZ = shutil.which("dot") is not None
except ImportError:
    HAVE_GRAPHVIZ = False
needs_graphviz = pytest.mark.skipif(not HAVE_GRAPHVIZ, reason="graphviz package or dot missing")


def small_tape(**kw):
    x = tf.constant([3.0, 4.0])
    w = tf.Variable([[1.0], [2.0]], name="w")
    tape = tf.GradientTape(persistent=True)
    if kw:
        tape.explain(**kw)
    with tape:
        tape.watch(x)
        h = tf.tanh(tf.reshape(x, [1, 2]) @ w)
        y = tf.reduce_sum(h * 2.0)
    return tape, x, w, h, y


def edges(dot):
    return re.findall(r"^\s*(\w+) -> (\w+) \[(.*)\];$", dot, re.M)


def test_dot_lists_ops_sources_targets_shapes_dtypes():
    tape, x, w, h, y = small_tape()
    dot = visualize.to_dot(tape)
    assert dot.startswith("digraph tape {") and dot.rstrip().endswith("}")
    for name in ("Reshape", "BatchMatMulV2", "Tanh", "Mul", "Sum"):
        assert f'label="{name}' in dot
    assert "Variable 'w:0'\\nfloat32[2, 1]" in dot
    assert "watched\\nfloat32[2]" in dot
    assert "target\\nfloat32[]" in dot
    assert 'label="float32[1, 2]"' in dot  # the Reshape -> MatMul edge
    assert dot.count("shape=point") == 1    # the constant 2.0 (Reshape's shape is a parameter)
    assert 'label="Reshape\\nshape=(1, 2)"' in dot
    assert len(re.findall(r"^\s*op\d+ \[", dot, re.M)) == 5


def test_keras_weights_are_labelled_with_their_paths():
    layer = tf.keras.layers.Dense(2, name="dense_out")
    x = tf.constant(np.ones((1, 3), np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    dot = visualize.to_dot(tape, y)
    assert "Variable 'dense_out/kernel'\\nfloat32[3, 2]" in dot  # the path names the layer
    assert "Variable 'dense_out/bias'\\nfloat32[2]" in dot


def test_in_explain_mode_ops_name_the_keras_layer_they_ran_in():
    inner = tf.keras.layers.Dense(2, name="inner")
    model = tf.keras.Sequential([tf.keras.Input((3,)), inner], name="seq")
    x = tf.constant(np.ones((1, 3), np.float32))
    with tf.GradientTape().explain() as tape:
        line = sys._getframe().f_lineno + 1
        y = tf.reduce_sum(model(x)) * 2.0
    dot = visualize.to_dot(tape, y)
    here = f"test_visualize.py:{line}"  # the user's line that ran the op, beside the layer
    assert f'label="BatchMatMulV2\\nin seq/inner\\n{here}"' in dot
    assert f'label="AddV2\\nin seq/inner\\n{here}"' in dot
    assert f'label="Mul\\n{here}"' in dot  # outside every layer: no layer named
    assert f'tooltip="{__file__}:{line}"' in dot or f'tooltip="{os.path.realpath(__file__)}:{line}"' in dot
    with tf.GradientTape() as plain:  # without explain mode nothing is noted
        y = tf.reduce_sum(model(x))
    dot = visualize.to_dot(plain, y)
    assert "in seq/inner" not in dot and "test_visualize.py" not in dot


def test_picture_lines_point_past_helpers_inside_tapegrad():
    # an op reached through tapegrad's own functions (a loss, a layer) is placed at the user's call
    x = tf.constant(np.ones((2, 3), np.float32))
    with tf.GradientTape().explain() as tape:
        tape.watch(x)
        line = sys._getframe().f_lineno + 1
        y = tf.keras.losses.mean_squared_error(tf.zeros((2, 3)), tf.nn.softmax(x))
    dot = visualize.to_dot(tape, y)
    ops = [ln for ln in dot.splitlines() if "shape=box" in ln]
    assert ops and all(f"test_visualize.py:{line}" in ln for ln in ops)


def test_dot_is_valid_graphviz():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed")
    tape, *_ = small_tape(cotangents=True)
    tape.gradient(tape._rec.entries[-1][3], tape.watched_variables())
    out = subprocess.run(["dot", "-Tsvg"], input=visualize.to_dot(tape), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "<svg" in out.stdout


def test_targets_restrict_the_picture():
    tape, x, w, h, y = small_tape()
    dot = visualize.to_dot(tape, targets=h)
    assert "Sum" not in dot and "Tanh" in dot
    assert len(re.findall(r"^\s*target\d+ \[", dot, re.M)) == 1 and dot.count("-> target0") == 1


def test_several_targets_are_numbered():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = tf.sin(x), tf.cos(x)
    dot = visualize.to_dot(tape, [a, b])
    assert "target 0" in dot and "target 1" in dot


def test_multi_output_ops_label_their_outputs():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        r0, r1 = tf.unstack(x)
        y = r0 * r1
    dot = visualize.to_dot(tape, y)
    assert "Unpack" in dot and "[0]" in dot and "[1]" in dot


def test_cotangent_norms_on_edges_after_gradient():
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape(persistent=True).explain(cotangents=True) as tape:
        tape.watch(x)
        s = x * x
        y = tf.reduce_sum(s)
    g = tape.gradient(y, x)
    dot = visualize.to_dot(tape)
    norms = sorted((a[0], b[0], lab.split("‖ḡ‖=")[1].rstrip('"')) for a, b, lab in edges(dot))
    # each input of x * x gets x (norm 5), Sum's input gets ones(2) (norm 1.41), the seed is 1
    assert norms == [("o", "o", "1.41"), ("o", "t", "1"), ("t", "o", "5"), ("t", "o", "5")]
    np.testing.assert_array_equal(g.numpy(), [6.0, 8.0])


def test_no_norms_without_the_flag():
    tape, x, w, h, y = small_tape()
    tape.gradient(y, [x, w])
    assert "‖ḡ‖" not in visualize.to_dot(tape)


def test_default_targets_are_the_last_gradient_targets():
    tape, x, w, h, y = small_tape(warn=False)
    tape.gradient(h, x)
    assert "Sum" not in visualize.to_dot(tape)


def test_used_one_shot_tape_is_refused():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(ValueError, match="persistent=True"):
        visualize.to_dot(tape)


def test_bad_targets():
    tape, *_ = small_tape()
    with pytest.raises(TypeError, match="targets"):
        visualize.to_dot(tape, targets="y")


def test_labels_are_escaped():
    assert visualize._q('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'


def test_dot_graph_is_a_str_with_a_text_bundle():
    tape, *_ = small_tape()
    dot = visualize.to_dot(tape)
    assert isinstance(dot, str)
    bundle = dot._repr_mimebundle_()
    assert bundle["text/plain"] == str(dot)
    assert ("image/svg+xml" in bundle) == HAVE_GRAPHVIZ


def test_render_without_graphviz_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    tape, *_ = small_tape()
    with pytest.raises(ImportError, match=r"tapegrad\[viz\]"):
        visualize.render(tape, tmp_path / "t.svg")
    assert visualize.to_dot(tape)._repr_svg_() is None


def test_render_format_is_checked(tmp_path):
    tape, *_ = small_tape()
    with pytest.raises(ValueError, match="'svg' or 'png'"):
        visualize.render(tape, tmp_path / "t.pdf", format="pdf")


@needs_graphviz
@pytest.mark.parametrize("fmt,magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_render_writes_the_file(tmp_path, fmt, magic):
    tape, *_ = small_tape()
    path = visualize.render(tape, tmp_path / f"tape.{fmt}", format=fmt)
    data = open(path, "rb").read()
    assert magic in data[:400]


@needs_graphviz
def test_jupyter_svg():
    tape, *_ = small_tape()
    assert "<svg" in visualize.to_dot(tape)._repr_svg_()


def test_docstring_examples():
    import doctest
    assert doctest.testmod(visualize, optionflags=doctest.ELLIPSIS).failed == 0
