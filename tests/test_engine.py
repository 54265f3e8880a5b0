"""The engine's housing: the seam, the import layers, defop's vocabulary and the Recorder protocol."""
import ast
import pathlib

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import _recorders, _seam
from tapegrad._dispatch import apply, defop, jointly

# (the private helpers of namespaces, drawn in docs/contributing.md's namespaces row, are not engine)
NAMESPACE_HELPERS = ("_boxes.py", "_decoders.py", "_embedding.py", "_morphology.py", "_xla.py")
ENGINE = sorted(p for p in (pathlib.Path(tf.__file__).parent).glob("_*.py")
                if p.name not in ("__init__.py", "_missing.py", "_tf_names.py") + NAMESPACE_HELPERS)


def test_every_op_the_engine_needs_is_bound():
    for name in _seam.NEEDED:
        f = getattr(_seam, name)
        assert getattr(f, "__name__", "") != "missing", f"_seam.{name} was never bound"
    assert _seam.MUL.name == "Mul"


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_engine_modules_import_at_module_level_and_never_the_ops(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]
            assert not inner, f"{path.name}: function-local import in {node.name}()"
    if path.name in ("_functional.py", "_control_flow.py", "_tensor_array.py"):  # (above the ops)
        return
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            assert not node.module.startswith("ops"), f"{path.name} imports tapegrad.{node.module}"


def test_defop_takes_one_rule_vocabulary():
    with pytest.raises(TypeError, match="one rule per input"):
        defop("TestBareCallable", np.sin, vjp=lambda g, ans, x: g, register=False)
    with pytest.raises(TypeError, match="exactly one of"):
        defop("TestTwoForms", np.sin, deriv=(lambda ans, x: x,), vjp=(lambda g, ans, x: g,),
              register=False)
    with pytest.raises(TypeError, match="jvp= goes with vjp="):
        defop("TestJvpAlone", np.sin, nondiff=True, jvp="linear", register=False)
    with pytest.raises(ValueError, match="declared twice"):
        defop("Sin", np.sin, deriv=(lambda ans, x: tf.cos(x),))


def test_per_input_jvp_rules_are_summed_and_skip_absent_tangents():
    calls = []

    def rule(i):
        def r(t, ans, x, y):
            calls.append(i)
            return t * (y if i == 0 else x)
        return r

    op = defop("TestProduct", np.multiply, vjp=(lambda g, ans, x, y: g * y, lambda g, ans, x, y: g * x),
               jvp=(rule(0), rule(1)), register=False)
    x, y = tf.constant(2.0), tf.constant(5.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        z = apply(op, (x, y))
    assert float(acc.jvp(z)) == 5.0 and calls == [0]   # y has no tangent: its rule is not called
    calls.clear()
    with tf.autodiff.ForwardAccumulator([x, y], [tf.constant(1.0), tf.constant(10.0)]) as acc:
        z = apply(op, (x, y))
    assert float(acc.jvp(z)) == 5.0 + 20.0 and sorted(calls) == [0, 1]


def test_jointly_rules_see_which_inputs_need_a_cotangent():
    seen = []

    def vjp(g, ans, needs, x, y):
        seen.append(tuple(needs))
        return [g * (y if i == 0 else x) for i in needs]

    op = defop("TestJoint", np.multiply, vjp=jointly(vjp), register=False)
    x, y = tf.constant(3.0), tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch(y)
        z = apply(op, (x, y))
    assert float(tape.gradient(z, y)) == 3.0 and seen == [(1,)]


def test_a_recorder_sees_ops_and_variable_reads():
    class Log(_recorders.Recorder):
        def __init__(self):
            self.events = []

        def record(self, op, xs, p, ans, k):
            self.events.append(op.name)

        def on_nondiff(self, op, xs, outs, p=None):
            self.events.append("nondiff:" + op.name)

        def on_variable_read(self, v):
            self.events.append("read:" + v.name)

    log = Log()
    v = tf.Variable(2.0, name="v")
    _recorders.push(log)
    try:
        y = tf.sin(v * 3.0)
        _ = y > 0.0
    finally:
        assert _recorders.pop(log) == 0
    assert log.events == ["read:v:0", "Mul", "Sin", "nondiff:Greater"]
    assert not _recorders.recording()


def test_each_op_records_the_family_that_declared_it():
    from tapegrad.ops import REGISTRY
    assert REGISTRY["Sin"].module == "tapegrad.ops.math"
    assert REGISTRY["MatrixSolve"].module == "tapegrad.ops.decompositions"


def test_a_python_scalar_operand_marks_the_call_as_shaped_and_broadcasting_still_sums_back():
    from tapegrad._recorders import _NEEDS0, NEEDS0_SHAPED
    assert NEEDS0_SHAPED == (0,) and NEEDS0_SHAPED is not _NEEDS0
    x = tf.constant([[1.0, 2.0, 3.0]])            # (1, 3)
    b = tf.constant([[1.0], [2.0]])               # (2, 1): broadcasts with x
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0                                # scalar operand: shaped
        z = y + b                                  # tensor operand: summed back to (1, 3)
    assert tape._rec.entries[0][4] is NEEDS0_SHAPED
    np.testing.assert_array_equal(tape.gradient(z, x).numpy(), [[4.0, 4.0, 4.0]])
