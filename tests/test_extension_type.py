"""tf.experimental.ExtensionType against TensorFlow's recorded behaviour
(tests/extension_type_cases.py, recorded by tools/record_extension_type.py): field conversion and
errors, specs, equality, nest, tf.function tracing, dispatch, tf.data and map_fn batching,
control flow and gradients through tensor fields."""
import json
import math
import pathlib
import sys

import pytest

import tapegrad as tf

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import extension_type_cases  # noqa: E402

RECORDED = json.loads((HERE / "fixtures" / "extension_type.json").read_text())["results"]
GOT = extension_type_cases.run(tf)


def _close(a, b):
    """Equal, floats to float32 round-off (~1e-6 relative; these values are sums of a few terms)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-7)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_as_tensorflow(case):
    want, got = RECORDED[case], GOT[case]
    if isinstance(want, str):  # (a spec's repr: the class's qualified name is the test module's)
        want = want.replace("run.<locals>.", "")
        got = got.replace("run.<locals>.", "")
    if case == "data":
        want = [w.replace("run.<locals>.", "") if isinstance(w, str) else w for w in want]
        got = [g.replace("run.<locals>.", "") if isinstance(g, str) else g for g in got]
    assert _close(got, want), f"{case}: tapegrad {got!r}, TensorFlow {want!r}"


def test_class_definition_errors():
    with pytest.raises(ValueError, match="missing a type annotation"):
        class Bad(tf.experimental.ExtensionType):  # noqa: F841
            x: tf.Tensor
            y = 3
    with pytest.raises(TypeError, match="Unsupported type annotation"):
        class Bad2(tf.experimental.ExtensionType):  # noqa: F841
            x: list
    with pytest.raises(ValueError, match="reserved"):
        class Bad3(tf.experimental.ExtensionType):  # noqa: F841
            _type_spec: tf.Tensor
    with pytest.raises(AssertionError):
        tf.experimental.ExtensionType()


def test_keyword_only_after_default_and_signature():
    import inspect

    class P(tf.experimental.ExtensionType):
        a: int = 1
        b: tf.Tensor

    params = inspect.signature(P.__init__).parameters
    assert [(n, p.kind.name) for n, p in params.items()] == [
        ("self", "POSITIONAL_OR_KEYWORD"), ("a", "POSITIONAL_OR_KEYWORD"), ("b", "KEYWORD_ONLY")]
    assert P(b=2).a == 1 and int(P(b=2).b) == 2
