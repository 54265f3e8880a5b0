"""One op, one place: everything about an op (its rules, its batching rule, its array-API form,
whether its output shape depends on values) is registered in its family file beside its
declaration, keyed by the ``Op`` object; and an op declared by following docs/contributing.md's
steps alone passes every coverage test (the gradient checker's table, vectorized_map, the array
backends, tf.function's traces)."""
from __future__ import annotations

import ast
import pathlib
import sys

import numpy as np
import pytest

import tapegrad as tf
import tapegrad.signal  # noqa: F401  (tf.signal and tf.strings register their ops on first use)
import tapegrad.strings  # noqa: F401
from tapegrad import _backend, _trace, _vmap
from tapegrad._dispatch import REGISTRY, Op, apply, defop
from tapegrad._tensor import Tensor

import test_op_gradients
import test_vmap
from optable import OpCase

ROOT = pathlib.Path(__file__).resolve().parent.parent
PKG = ROOT / "tapegrad"
# the registries keyed by op, the modules that own them, and the calls that fill them
REGISTRIES = {"RULES": "_vmap.py", "FORMS": "_backend.py", "VALUE_SHAPED": "_trace.py"}
REGISTER_CALLS = {("_vmap", "register"), ("_bk", "register"), ("_trace", "value_shaped")}


def test_every_registration_is_keyed_by_an_op_declared_in_an_op_family() -> None:
    for what, keys in (("batching rule", _vmap.RULES), ("array-API form", _backend.FORMS),
                       ("value-shaped mark", _trace.VALUE_SHAPED)):
        for op in keys:
            assert type(op) is Op, f"a {what} is keyed by {op!r}, not by an Op"
            assert REGISTRY.get(op.name) is op, f"the {what} of {op.name} is keyed by an op not in the registry"
            assert op.module.startswith("tapegrad.ops."), f"the {what} of {op.name} belongs to {op.module}"


def _calls(tree: ast.AST) -> list:
    """Calls ``name.attr(...)``, and ``module.REGISTRY.attr(...)`` as ``REGISTRY.attr(...)``."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            v = n.func.value
            if isinstance(v, ast.Attribute) and v.attr in REGISTRIES:
                n.func.value = ast.Name(v.attr)  # (reported as written outside its module)
                out.append(n)
            elif isinstance(v, ast.Name):
                out.append(n)
    return out


def test_registrations_are_made_in_the_op_families_and_never_by_name() -> None:
    bad = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):  # no writes into a registry from outside its module
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AugAssign, ast.AnnAssign)) else []
            for t in targets:
                reg = t.value.attr if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) else \
                    t.value.id if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) else None
                if reg in REGISTRIES and (isinstance(t.value, ast.Attribute) or rel != REGISTRIES[reg]):
                    bad.append(f"{rel}:{node.lineno} writes {reg}[...] (register beside the op)")
        for call in _calls(tree):
            if call.func.value.id in REGISTRIES and rel != REGISTRIES[call.func.value.id]:
                bad.append(f"{rel}:{call.lineno} calls {call.func.value.id}.{call.func.attr} (register beside the op)")
            if (call.func.value.id, call.func.attr) in REGISTER_CALLS:
                if not rel.startswith("ops/"):
                    bad.append(f"{rel}:{call.lineno} registers an op outside tapegrad/ops/")
                if call.args and isinstance(call.args[0], (ast.Constant, ast.JoinedStr, ast.Subscript)):
                    bad.append(f"{rel}:{call.lineno} registers by name, not by the op object")
    assert not bad, "\n".join(bad)


def test_registering_outside_the_declaring_family_is_refused() -> None:
    tanh = REGISTRY["Tanh"]
    with pytest.raises(ValueError, match="register it in tapegrad.ops.math"):
        _vmap.register(tanh, _vmap.broadcasting)
    with pytest.raises(ValueError, match="register it in tapegrad.ops.math"):
        _backend.register(tanh, lambda be, x: be.xp.tanh(x))
    with pytest.raises(ValueError, match="declare it there"):
        _trace.value_shaped(tanh)
    assert tanh not in _vmap.RULES and tanh not in _backend.FORMS and tanh not in _trace.VALUE_SHAPED


def test_every_backend_form_and_batching_rule_lookup_is_by_op() -> None:
    # a renamed op keeps its form and rule: nothing is looked up by name
    for mod in ("_backend.py", "_vmap.py", "_trace.py"):
        src = (PKG / mod).read_text(encoding="utf-8")
        for reg in REGISTRIES:
            assert f"{reg}.get(op.name)" not in src and f"{reg}[op.name]" not in src, (mod, reg)
        assert "op.name in VALUE_SHAPED" not in src


# --------------------------------------------------------------------------- a throwaway op
# Declared here by docs/contributing.md's "Adding an op" steps, with this module as its family.
def _scale_fwd(x: np.ndarray, axis: int) -> np.ndarray:
    return x * np.sum(x * x, axis=axis, keepdims=True)


def _scale_vjp(g: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:  # y = x s, s = Σ x²
    return g * tf.reduce_sum(x * x, axis=axis, keepdims=True) + 2 * x * tf.reduce_sum(g * x, axis=axis, keepdims=True)


def _scale_jvp(t: Tensor, ans: Tensor, x: Tensor, axis: int) -> Tensor:
    return t * tf.reduce_sum(x * x, axis=axis, keepdims=True) + 2 * x * tf.reduce_sum(x * t, axis=axis, keepdims=True)


def _declare() -> tuple:
    scale = defop("ThrowawayScaleByNorm", _scale_fwd, kinds="f", vjp=(_scale_vjp,), jvp=(_scale_jvp,))
    _vmap.register(scale, _vmap.one_axis("axis"))
    _backend.register(scale, lambda be, x, axis: x * be.xp.sum(x * x, axis=axis, keepdims=True))
    nonzero = defop("ThrowawayNonzero", lambda x: np.flatnonzero(x).astype(np.int64), nondiff=True)
    _trace.value_shaped(nonzero)
    return scale, nonzero


def scale_by_norm(x: object, axis: int = -1, name: object = None) -> Tensor:
    """``x`` times the sum of its squares along ``axis``."""
    t = tf.convert_to_tensor(x)
    return apply(REGISTRY["ThrowawayScaleByNorm"], (t,), {"axis": axis % max(t.shape.rank, 1)})


def nonzero_positions(x: object, name: object = None) -> Tensor:
    """The flat positions of ``x``'s nonzero entries (int64)."""
    return apply(REGISTRY["ThrowawayNonzero"], (tf.convert_to_tensor(x),))


CASES = [OpCase("ThrowawayScaleByNorm", scale_by_norm, [((3,),), ((2, 3),)]),
         OpCase("ThrowawayScaleByNorm-axis0", lambda x: scale_by_norm(x, axis=0), [((2, 3),)],
                ops=["ThrowawayScaleByNorm"]),
         OpCase("ThrowawayNonzero", lambda x: nonzero_positions(tf.nn.relu(x)), [((5,),)], nondiff=True)]


@pytest.fixture(scope="module")
def throwaway():
    ops = _declare()
    yield ops
    for op in ops:  # (test-made ops leave the registries)
        del REGISTRY[op.name]
        _vmap.RULES.pop(op, None)
        _backend.FORMS.pop(op, None)
        _trace.VALUE_SHAPED.discard(op)


def test_the_throwaway_op_passes_the_registry_wide_coverage_tests(throwaway, monkeypatch) -> None:
    # (the layout tests, which check that an op lives in tapegrad/ops/, do not apply to an op
    # declared in a test; the registries check at registration that it is made in the declaring module)
    monkeypatch.setattr(test_op_gradients, "CASES", test_op_gradients.CASES + CASES)
    test_op_gradients.test_every_registered_op_is_in_the_table()
    test_op_gradients.test_table_names_only_registered_ops()
    monkeypatch.setattr(test_vmap, "NO_RULE", test_vmap.NO_RULE | {"ThrowawayNonzero"})  # (sizes depend on values)
    test_vmap.test_which_registered_ops_have_batching_rules()
    scale, nonzero = throwaway
    assert _vmap.rule_of(scale) is not None and scale in _backend.FORMS and nonzero in _trace.VALUE_SHAPED


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_throwaway_op_passes_the_gradient_checker(throwaway, case) -> None:
    for shapes in case.shapes:
        test_op_gradients.test_op_derivatives(case, shapes)


@pytest.mark.parametrize("pattern", [(True,)])
@pytest.mark.parametrize("case", CASES[:2], ids=[c.name for c in CASES[:2]])
def test_the_throwaway_op_is_batched_by_its_rule(throwaway, case, pattern) -> None:
    for shapes in case.shapes:
        test_vmap.test_vectorized_map_equals_stacked_rows(case, shapes, pattern)


@pytest.mark.parametrize("case", CASES[:2], ids=[c.name for c in CASES[:2]])
def test_the_throwaway_op_runs_on_the_array_backends_by_its_form(throwaway, case) -> None:
    pytest.importorskip("array_api_strict")
    pytest.importorskip("dask.array")
    sys.path.insert(0, str(ROOT / "tools"))
    import backend_table
    for name, make in backend_table.backends().items():
        assert backend_table.status(case, make) == ("runs", ""), name


def test_the_throwaway_ops_replay_in_tf_function_traces(throwaway) -> None:
    rng = np.random.default_rng(0)
    f = tf.function(lambda x: scale_by_norm(x) * 2.0)
    for _ in range(3):  # (the later calls replay the trace)
        x = rng.standard_normal((2, 3))
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), 2 * _scale_fwd(x, 1), rtol=1e-12)
    # a value-shaped op: its output's shape is guarded, so a replay whose values give another
    # shape traces again instead of reusing shapes read at the first trace
    g = tf.function(lambda x: tf.cast(nonzero_positions(x), tf.float64) + tf.zeros(nonzero_positions(x).shape[0],
                                                                                   tf.float64))
    for x in ([0.0, 1.0, 2.0, 0.0], [3.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]):
        np.testing.assert_array_equal(g(tf.constant(x)).numpy(), np.flatnonzero(x).astype(np.float64))


def test_the_steps_the_throwaway_op_followed_are_the_ones_contributing_md_gives() -> None:
    page = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    steps = page.split("## Everything about an op, in one place", 1)[1].split("## Tests and benchmarks", 1)[0]
    for call in ("defop(", "_vmap.register(", "_vmap.one_axis(", "_bk.register(", "_trace.value_shaped(",
                 "NO_RULE", "tests/optable/<family>.py", "tests/test_one_place.py"):
        assert call in steps, f"docs/contributing.md's add-an-op steps do not mention {call}"
