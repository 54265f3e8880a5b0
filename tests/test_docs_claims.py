"""Behaviour that docs/differences.md states and no other test asserts (the TF programs of
tests/test_tf_programs.py and the area tests cover the rest), and claims of the other pages
(README.md, docs/migrating.md, docs/examples.md) that can be checked."""
from __future__ import annotations

import contextlib
import inspect
import io
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tf

ROOT = Path(__file__).resolve().parents[1]


def _grad_of(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x)


@pytest.mark.parametrize("bad, message", [
    (lambda dy: tf.constant([1.0, 2.0]), "shape"),
    (lambda dy: tf.constant(1.0, dtype=tf.float64), "dtype"),
])
def test_custom_gradient_results_are_checked(bad, message):
    @tf.custom_gradient
    def f(x):
        return x * 2.0, bad

    with pytest.raises(ValueError, match=message):
        _grad_of(f, tf.constant(3.0))


def test_lstsq_exact_is_differentiable_and_warns_about_l2_regularizer():
    a = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], dtype=tf.float64)
    b = tf.constant([[1.0], [2.0], [3.0]], dtype=tf.float64)
    g = _grad_of(lambda m: tf.linalg.lstsq(m, b, fast=False), a)
    assert g is not None and g.shape == a.shape
    with pytest.warns(UserWarning, match="l2_regularizer"):
        tf.linalg.lstsq(a, b, l2_regularizer=0.5, fast=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.linalg.lstsq(a, b, fast=False)          # no regulariser, no warning


def test_sort_puts_nan_as_the_largest_value():
    x = tf.constant([3.0, np.nan, 1.0])
    np.testing.assert_array_equal(tf.sort(x).numpy(), [1.0, 3.0, np.nan])
    np.testing.assert_array_equal(tf.sort(x, direction="DESCENDING").numpy(), [np.nan, 3.0, 1.0])


def test_top_k_unsorted_is_still_sorted():
    values = tf.math.top_k(tf.constant([1.0, 5.0, 3.0, 2.0, 4.0]), k=3, sorted=False).values
    np.testing.assert_array_equal(values.numpy(), [5.0, 4.0, 3.0])


def test_list_target_jacobian_error_is_type_and_attribute_error():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    for kind in (TypeError, AttributeError):
        with pytest.raises(kind, match="single target"):
            tape.jacobian([y1, y2], x)


def test_unconnected_gradients_raise_is_a_member():
    assert tf.UnconnectedGradients("raise") is tf.UnconnectedGradients.RAISE


# -- the other pages' claims


def test_random_numbers_are_tensorflows_as_migrating_says():
    """docs/migrating.md: a seeded program draws TensorFlow's numbers (the first draws of the
    recorded program ``stateful`` of tests/random_programs.py)."""
    recorded = np.load(ROOT / "tests" / "fixtures" / "tf_random.npz")
    tf.random.set_seed(3)
    draws = [tf.random.normal([3]), tf.random.normal([5], seed=7), tf.random.normal([5], seed=7),
             tf.random.normal([2], seed=7, dtype=tf.float64), tf.random.uniform([7])]
    for i, d in enumerate(draws):
        # normals within TF's last bit or two (docs/differences.md, "Random numbers")
        np.testing.assert_allclose(d.numpy(), recorded[f"stateful/{i}"], rtol=1e-6, err_msg=str(i))
    tf.random.set_seed(None)


def test_migrating_example_prints_tensorflows_numbers():
    """docs/migrating.md's seeded training program prints what TensorFlow 2.21 printed (rounded
    to 4 digits, so the last bits of float32 sums do not matter)."""
    page = (ROOT / "docs" / "migrating.md").read_text(encoding="utf-8")
    code = next(b for b in re.findall(r"```python\n(.*?)```", page, re.S) if "set_seed(0)" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "migrating.md", "exec"), {"__name__": "__docs__"})
    tf.random.set_seed(None)
    assert out.getvalue().split("\n")[:2] == ["[ 1.5111  0.4229 -0.4197]", "6.632 -> 0.0256"]


def test_migrating_names_what_works():
    """docs/migrating.md says string, ragged and sparse tensors work, and lists what is missing."""
    assert tf.strings.upper(tf.constant(["ab"])).numpy().tolist() == [b"AB"]
    assert tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 1]).to_list() == [[1, 2], [3]]
    st = tf.SparseTensor(indices=[[0, 1]], values=[5.0], dense_shape=[2, 2])
    assert tf.sparse.to_dense(st).numpy().tolist() == [[0.0, 5.0], [0.0, 0.0]]
    page = (ROOT / "docs" / "migrating.md").read_text(encoding="utf-8")
    table = page.split("### TensorFlow names tapegrad lacks")[1].split("\n\n## ")[0]
    for name in re.findall(r"^\| `tf\.(\w+)` \|", table, re.M):
        assert not hasattr(tf, name), f"docs/migrating.md lists tf.{name} as missing, but it exists"


def test_readme_setup_commands_are_true():
    """The README's two setup commands: the quick start example exists, and the extras exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -e . && python examples/quickstart.py" in readme
    assert (ROOT / "examples" / "quickstart.py").exists()
    extras = re.search(r'pip install -e "\.\[([\w,]+)\]" && python -m pytest -q', readme).group(1).split(",")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extras_table = pyproject.split("[project.optional-dependencies]")[1].split("\n[")[0]
    declared = set(re.findall(r"^(\w+) = \[", extras_table, re.M))   # (tomllib is Python 3.11+)
    assert set(extras) <= declared, set(extras) - declared


def test_examples_page_lists_every_example():
    page = (ROOT / "docs" / "examples.md").read_text(encoding="utf-8")
    missing = sorted(p.name for p in (ROOT / "examples").glob("*.py") if f"`{p.name}`" not in page)
    assert not missing, f"docs/examples.md's table does not list {missing}"


def test_module_name_scope_prefixes_variable_names_as_training_says():
    class M(tf.Module):
        def __init__(self):
            super().__init__(name="m")
            with self.name_scope:
                self.v = tf.Variable(1.0, name="v")
            self.u = tf.Variable(1.0, name="u")

    m = M()
    assert (m.v.name, m.u.name) == ("m/v:0", "u:0")


@pytest.mark.parametrize("page, start, end", [
    ("signal_image.md", "Still missing", "\n\n"),
    ("sparse.md", "## Not covered yet", "\n\nWhere"),
    ("migrating.md", "### TensorFlow names tapegrad lacks", "\n\n## "),
])
def test_names_the_pages_call_missing_are_missing(page, start, end):
    """A page's list of what is not covered yet names nothing that now exists (a name that lands
    must leave the list)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    section = text.split(start, 1)[1].split(end, 1)[0]
    names = re.findall(r"`(tf(?:\.\w+)+)`", section)
    assert names, f"{page}: no names found after {start!r}"
    present = []
    for name in names:
        obj = tf
        for part in name.split(".")[1:]:
            obj = getattr(obj, part, None)
        if obj is not None and not inspect.ismodule(obj):   # (a namespace named as context)
            present.append(name)
    assert not present, f"docs/{page} says these are not covered, but they exist: {present}"


def test_the_extras_getting_started_names_exist():
    page = (ROOT / "docs" / "getting_started.md").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    declared = set(re.findall(r"^(\w+) = \[", pyproject.split("[project.optional-dependencies]")[1]
                              .split("\n[")[0], re.M))
    named = {e for group in re.findall(r'pip install -e "\.\[([\w,]+)\]"', page) for e in group.split(",")}
    assert named and named <= declared, named - declared
