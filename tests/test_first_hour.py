"""A new user's first hour: missing TensorFlow names, printed tensors, type checking."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tapegrad as tf
from tapegrad import _missing
from tapegrad._tf_names import NAMES

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- missing names
@pytest.mark.parametrize("ns,name", [("", "bfloat16"), ("linalg", "eigh_tridiagonal"), ("nn", "fractional_max_pool"),
                                     ("random", "stateless_parameterized_truncated_normal")])
def test_a_tensorflow_name_tapegrad_lacks_says_so_and_points_to_the_guide(ns, name):
    mod = getattr(tf, ns) if ns else tf
    qual = f"tf.{ns}.{name}" if ns else f"tf.{name}"
    with pytest.raises(AttributeError) as e:
        getattr(mod, name)
    msg = str(e.value)
    assert f"does not cover {qual} yet" in msg and _missing.GUIDE in msg
    if not ns:
        assert f"Instead, {_missing.INSTEAD[name]}." in msg
    assert not hasattr(mod, name) and getattr(mod, name, "default") == "default"


def test_a_name_in_another_namespace_is_named(monkeypatch):
    monkeypatch.delattr(tf, "truncatemod")  # (tapegrad has it at the top level too, as TF does)
    with pytest.raises(AttributeError, match=r"Instead, use tf\.math\.truncatemod\."):
        tf.truncatemod
    with pytest.raises(AttributeError, match=r"tapegrad has tf\.nn\.relu\.$"):
        tf.relu


def test_a_misspelt_name_gets_did_you_mean():
    with pytest.raises(AttributeError, match=r"Did you mean: 'GradientTape'\?$"):
        tf.GradientTap
    with pytest.raises(AttributeError, match=r"Did you mean: 'normal'\?$"):
        tf.random.norml
    with pytest.raises(AttributeError, match=r"Did you mean: 'rfft'"):
        tf.signal.rfftt
    with pytest.raises(AttributeError, match=r"Did you mean: 'flip_up_down'"):
        tf.image.flip_up_dow
    with pytest.raises(AttributeError, match=r"^module 'tapegrad' has no attribute 'qwertz'$"):
        tf.qwertz
    with pytest.raises(AttributeError, match=r"^module 'tapegrad' has no attribute '__wrapped__'$"):
        tf.__wrapped__


def test_lazy_names_still_load_and_missing_name_machinery_is_not_imported():
    code = ("import sys, tapegrad as tf; lazy = 'tapegrad._missing' in sys.modules or "
            "'tapegrad._tf_names' in sys.modules; tf.Module; tf.optimizers.SGD; "
            "print(lazy, hasattr(tf, 'bfloat16'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_guide_table_lists_every_hint_and_every_hint_is_a_real_missing_tf_name():
    page = (ROOT / "docs" / "migrating.md").read_text(encoding="utf-8")
    assert "### TensorFlow names tapegrad lacks" in page  # the anchor of _missing.GUIDE
    assert _missing.GUIDE.endswith("#tensorflow-names-tapegrad-lacks")
    rows = dict(re.findall(r"^\| `tf\.(\w+)` \| (.+?) \|$", page, re.M))
    for name, hint in _missing.INSTEAD.items():
        assert name in NAMES[""] and not hasattr(tf, name), name
        assert rows.get(name, "").lower() == hint.lower() + ".", name


# ---------------------------------------------------------------------------- printed tensors
# TensorFlow 2.21's text for the same values, with "tf." replaced by "tapegrad." (the class's name).
TEXT = [
    (lambda: tf.constant(2.5), "<tapegrad.Tensor: shape=(), dtype=float32, numpy=2.5>",
     "tapegrad.Tensor(2.5, shape=(), dtype=float32)"),
    (lambda: tf.constant(1 / 3), "<tapegrad.Tensor: shape=(), dtype=float32, numpy=0.3333333432674408>",
     "tapegrad.Tensor(0.33333334, shape=(), dtype=float32)"),
    (lambda: tf.constant(3), "<tapegrad.Tensor: shape=(), dtype=int32, numpy=3>",
     "tapegrad.Tensor(3, shape=(), dtype=int32)"),
    (lambda: tf.constant(True), "<tapegrad.Tensor: shape=(), dtype=bool, numpy=True>",
     "tapegrad.Tensor(True, shape=(), dtype=bool)"),
    (lambda: tf.constant(1 + 2j, tf.complex128),
     "<tapegrad.Tensor: shape=(), dtype=complex128, numpy=(1+2j)>",
     "tapegrad.Tensor((1+2j), shape=(), dtype=complex128)"),
    (lambda: tf.constant([1.0, 2.5, 3.0]),
     "<tapegrad.Tensor: shape=(3,), dtype=float32, numpy=array([1. , 2.5, 3. ], dtype=float32)>",
     "tapegrad.Tensor([1.  2.5 3. ], shape=(3,), dtype=float32)"),
    (lambda: tf.constant([1.5, 2.0], tf.float16),
     "<tapegrad.Tensor: shape=(2,), dtype=float16, numpy=array([1.5, 2. ], dtype=float16)>",
     "tapegrad.Tensor([1.5 2. ], shape=(2,), dtype=float16)"),
    (lambda: tf.constant([0.1, 2.0], tf.float64),
     "<tapegrad.Tensor: shape=(2,), dtype=float64, numpy=array([0.1, 2. ])>",
     "tapegrad.Tensor([0.1 2. ], shape=(2,), dtype=float64)"),
    (lambda: tf.constant([[1.0, 2.0], [30.5, 4.0]]),
     "<tapegrad.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[ 1. ,  2. ],\n"
     "       [30.5,  4. ]], dtype=float32)>",
     "tapegrad.Tensor(\n[[ 1.   2. ]\n [30.5  4. ]], shape=(2, 2), dtype=float32)"),
    (lambda: tf.reshape(tf.range(12.0), [2, 3, 2]),
     "<tapegrad.Tensor: shape=(2, 3, 2), dtype=float32, numpy=\narray([[[ 0.,  1.],\n"
     "        [ 2.,  3.],\n        [ 4.,  5.]],\n\n       [[ 6.,  7.],\n        [ 8.,  9.],\n"
     "        [10., 11.]]], dtype=float32)>",
     "tapegrad.Tensor(\n[[[ 0.  1.]\n  [ 2.  3.]\n  [ 4.  5.]]\n\n [[ 6.  7.]\n  [ 8.  9.]\n"
     "  [10. 11.]]], shape=(2, 3, 2), dtype=float32)"),
    (lambda: tf.constant([[1, 20], [300, 4]]),
     "<tapegrad.Tensor: shape=(2, 2), dtype=int32, numpy=\narray([[  1,  20],\n"
     "       [300,   4]], dtype=int32)>",
     "tapegrad.Tensor(\n[[  1  20]\n [300   4]], shape=(2, 2), dtype=int32)"),
    (lambda: tf.constant([True, False]),
     "<tapegrad.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>",
     "tapegrad.Tensor([ True False], shape=(2,), dtype=bool)"),
    (lambda: tf.constant([1 + 2j, 3 - 1j], tf.complex64),
     "<tapegrad.Tensor: shape=(2,), dtype=complex64, numpy=array([1.+2.j, 3.-1.j], dtype=complex64)>",
     "tapegrad.Tensor([1.+2.j 3.-1.j], shape=(2,), dtype=complex64)"),
    (lambda: tf.constant([], tf.float32),
     "<tapegrad.Tensor: shape=(0,), dtype=float32, numpy=array([], dtype=float32)>",
     "tapegrad.Tensor([], shape=(0,), dtype=float32)"),
    (lambda: tf.zeros([0, 3]),
     "<tapegrad.Tensor: shape=(0, 3), dtype=float32, numpy=array([], shape=(0, 3), dtype=float32)>",
     "tapegrad.Tensor([], shape=(0, 3), dtype=float32)"),
    (lambda: tf.Variable(2.5), "<tapegrad.Variable 'Variable:0' shape=() dtype=float32, numpy=2.5>",
     "<tapegrad.Variable 'Variable:0' shape=() dtype=float32, numpy=2.5>"),
    (lambda: tf.Variable([[1.0, 2.0], [3.0, 4.5]], name="w"),
     "<tapegrad.Variable 'w:0' shape=(2, 2) dtype=float32, numpy=\narray([[1. , 2. ],\n"
     "       [3. , 4.5]], dtype=float32)>",
     "<tapegrad.Variable 'w:0' shape=(2, 2) dtype=float32, numpy=\narray([[1. , 2. ],\n"
     "       [3. , 4.5]], dtype=float32)>"),
]


@pytest.mark.parametrize("make,rep,text", TEXT, ids=[t[1].split(", numpy")[0] for t in TEXT])
def test_repr_and_str_read_like_tensorflow(make, rep, text):
    x = make()
    assert repr(x) == rep
    assert str(x) == text


def test_large_tensors_are_summarised_and_multiline_text_starts_on_its_own_line():
    x = tf.reshape(tf.range(10000), [100, 100])
    s, r = str(x), repr(x)
    assert s.startswith("tapegrad.Tensor(\n[[   0    1    2 ...   97   98   99]\n [ 100")
    assert s.endswith(" [9900 9901 9902 ... 9997 9998 9999]], shape=(100, 100), dtype=int32)")
    assert r.startswith("<tapegrad.Tensor: shape=(100, 100), dtype=int32, numpy=\narray([[   0,")
    assert "...," in r and len(s) < 500
    rows = s.splitlines()[1:]
    assert len(rows[0]) == len(rows[1]) == len(rows[2])  # aligned rows


def test_format_is_the_values_format():
    assert f"{tf.constant(2.5):.2f}" == "2.50" and f"{tf.constant(1 / 3)}" == "0.3333333432674408"
    assert f"{tf.constant([[1.0, 2.0], [3.0, 4.0]])}" == "[[1. 2.]\n [3. 4.]]"
    with pytest.raises(TypeError):
        f"{tf.constant([1.0, 2.0]):.2f}"  # as TensorFlow (and NumPy arrays)


def _readme_blocks() -> list:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("index", range(len(_readme_blocks())))
def test_readme_print_comments_show_what_tapegrad_prints(index):
    """A ``print(...)  # <output>`` comment in the README starts with what that line prints."""
    code = _readme_blocks()[index]
    printed: dict = {}

    def record(*args, **kw):
        line = sys._getframe(1).f_lineno
        printed[line] = " ".join(str(a) for a in args)

    exec(compile(code, "README", "exec"), {"__name__": "__readme__", "print": record})
    checked = 0
    for n, line in enumerate(code.splitlines(), 1):
        m = re.match(r"\s*print\(.*\)\s+# ([\[\d(-].*)$", line)
        if m:
            said, shown = " ".join(m.group(1).split()), " ".join(printed[n].split())
            assert said.startswith(shown), (line, printed[n])
            checked += 1
    assert checked or index > 0


# ---------------------------------------------------------------------------- the API reference
def _api_pages():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import api_pages
    finally:
        sys.path.remove(str(ROOT / "docs"))
    return api_pages


def test_api_reference_documents_every_object_once_with_a_summary_table_per_namespace():
    api = _api_pages()
    pages = {p.stem: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "api").glob("*.md")}
    used = [m for text in pages.values() for m in re.findall(r"\.\. api-page:: (\S+)", text)]
    assert sorted(used) == sorted(api.HOMES)  # every namespace has its page (and only one)
    documented = {}
    for modname in api.HOMES:
        rst = api.page_rst(modname)
        assert rst.startswith(".. list-table::")
        names = api.public(modname)
        for target in re.findall(r"^\.\. auto(?:class|function):: (\S+)$", rst, re.M):
            obj = names[target.rsplit(".", 1)[1]]
            assert id(obj) not in documented, (target, documented.get(id(obj)))
            documented[id(obj)] = target
    for modname in api.HOMES:  # every public function and class is documented somewhere
        for name, obj in api.public(modname).items():  # (NumPy's re-exported ones: listed only)
            if api._documented(obj) and not api._foreign(obj):
                assert id(obj) in documented, f"{modname}.{name}"
    assert "``numpy.finfo``, re-exported" in api.page_rst("tapegrad.experimental.numpy")
    rst = api.page_rst("tapegrad")
    assert "``exp``" in rst and "Alias of :py:obj:`tapegrad.math.exp`" in rst
    assert ".. autoclass:: tapegrad.GradientTape" in rst
