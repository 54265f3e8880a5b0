"""Differential tests: tapegrad against results recorded once with TensorFlow.

Each program in ``tests/tf_programs`` was run with TensorFlow 2.21 by
``tools/record_tf_fixtures.py`` and its encoded result stored in
``tests/fixtures/tf_programs.json``. Here the same program runs with
``import tapegrad as tf`` and the two results are compared:

* same structure and kinds (list/tuple/namedtuple/dict/None/scalars/tensors/
  IndexedSlices/errors);
* tensors: dtype names equal, shapes equal, values within rtol 1e-5 / atol 1e-6
  for float32 and complex64, 1e-10 for float64, complex128 and Python floats,
  1e-3 for float16; NaN matches NaN and infinities match by sign; integers,
  bools and strings exactly;
* IndexedSlices: values, indices and dense_shape as tensors, with the
  (index, row) pairs taken in sorted order (concatenation order is not part
  of the contract);
* errors: the recorded exception type name must be the name of tapegrad's
  exception class or of one of its base classes (messages are not compared).

Where tapegrad deliberately does better than TensorFlow, the case is listed in
``DIFFERENCES`` with what tapegrad must return or raise instead; the
difference is asserted, never skipped.

TensorFlow is not needed (nor imported) here.
"""

import json
import os
import sys
from dataclasses import dataclass

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for _path in (REPO, HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import tapegrad as tf  # noqa: E402

from tf_programs import ALL_CASES  # noqa: E402
from tf_programs._encoding import decode_float, encode_array, run_case  # noqa: E402

FIXTURE_PATH = os.path.join(HERE, "fixtures", "tf_programs.json")
with open(FIXTURE_PATH, encoding="utf-8") as _fh:
    FIXTURE = json.load(_fh)
RECORDED = FIXTURE["cases"]


# --------------------------------------------------------------------------
# Expectation helpers for DIFFERENCES (they build encoded nodes).

NONE = {"kind": "none"}


def tensor(value, dtype):
    return encode_array(np.asarray(value, dtype=dtype))


def raises(type_name):
    return {"kind": "error", "type": type_name}


def lst(*items):
    return {"kind": "list", "items": list(items)}


def tup(*items):
    return {"kind": "tuple", "items": list(items)}


@dataclass(frozen=True)
class SameAs:
    """Expect exactly what TensorFlow recorded for another case."""

    case: str


@dataclass(frozen=True)
class Difference:
    """A deliberate divergence from TensorFlow.

    ``expect`` is what tapegrad must return or raise instead: an encoded node
    built with the helpers above, or ``SameAs("module.case")``.
    """

    reason: str
    expect: object


# Cases where TF and tapegrad raise the same exception type but tapegrad has a
# clearer message need no entry (messages are never compared), e.g.
# errors.case_never_entered_gradient_raises (RuntimeError, "never entered" text)
# and errors.case_none_in_sources_raises (TypeError in both).
# ops_linalg.case_det_complex_grad's input and determinant
_DET_A = (np.array([[2.0, 0.5, -0.3], [0.4, 3.0, 0.2], [-0.7, 0.4, 5.0]])
          + 0.3j * np.array([[1.0, -2.0, 0.5], [0.3, 1.5, -1.0], [2.0, 0.7, -0.4]]))
_DET_C = np.linalg.det(_DET_A)

DIFFERENCES = {
    "ops_training.case_new_variable_after_first_update": Difference(
        reason="an optimizer takes on variables it has not seen before (Keras 3 raises "
        "'Unknown variable' for any variable not in its first apply_gradients call)",
        expect=tup(tensor(0.5, "float32"), tensor(1.5, "float32")),
    ),
    # ---- output_gradients: validated, None means ones, ints are cast (spec 1.8)
    "output_gradients.case_none_entry_means_ones": Difference(
        reason="a None seed means ones (TF crashes converting None)",
        expect=tensor(2 * 2.0 + 2.0 * 3 * 2.0**2, "float32"),
    ),
    "output_gradients.case_single_none_seed_in_list": Difference(
        reason="a None seed means ones (TF crashes converting None)",
        expect=tensor([2.0, 4.0], "float32"),
    ),
    "output_gradients.case_fewer_seeds_than_targets": Difference(
        reason="seed count must equal the number of flattened targets (TF uses ones for the rest)",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_more_seeds_than_targets": Difference(
        reason="seed count must equal the number of flattened targets (TF ignores extras)",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_single_target_list_of_scalar_seeds": Difference(
        reason="a list of 3 scalar seeds for one target is a count error "
        "(TF flattens it, uses the first seed and broadcasts it: [6, 12, 18])",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_wrong_shape_seed_matmul": Difference(
        reason="seed shape must match the target shape (TF fails deep in MatMul's VJP)",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_wrong_shape_seed_reshape": Difference(
        reason="seed shape must match the target shape (TF fails deep in Reshape's VJP)",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_scalar_seed_for_vector_target": Difference(
        reason="seed shape must match the target shape; a scalar seed for a [3] target is "
        "a wrong shape (TF broadcasts it silently through the elementwise VJP)",
        expect=raises("ValueError"),
    ),
    "targets_sources.case_target_is_source_with_wrong_shape_seed": Difference(
        reason="seed shape is validated even when the target is the source "
        "(TF returns the [3] seed as the gradient of a [2] source)",
        expect=raises("ValueError"),
    ),
    "output_gradients.case_int_seed_for_float_target": Difference(
        reason="an int seed for a float target is cast (TF raises InvalidArgumentError in Mul)",
        expect=tensor(2 * 6.0, "float32"),
    ),
    "output_gradients.case_int_tensor_seed_for_float_vector_target": Difference(
        reason="an int seed for a float target is cast (TF raises InvalidArgumentError in Mul)",
        expect=tensor([2.0 * 3, 4.0 * 4], "float32"),
    ),
    # ---- clear errors for misuse (spec 1.2, 1.7 item 7)
    "errors.case_failed_backward_then_retry": Difference(
        reason="a one-shot tape whose backward pass raised says so on a retry (RuntimeError naming "
        "the first failure) instead of TF's InternalError about a corrupted tape",
        expect=lst(raises("ArithmeticError"), raises("RuntimeError")),
    ),
    "watching.case_watch_between_with_blocks": Difference(
        reason="watch() on an entered tape takes effect even between its with-blocks (TF silently "
        "ignores it)",
        expect=tensor(4.0, "float32"),
    ),
    "stopping.case_stop_recording_then_watch_inside": Difference(
        reason="watch() inside stop_recording() takes effect for the ops after the pause (TF "
        "silently ignores it)",
        expect=lst(NONE, tensor(5.0, "float32")),
    ),
    "errors.case_op_without_gradient_raises_lookup_error": Difference(
        reason="tf.unique's values are differentiable in tapegrad (k equal inputs share their "
        "value's gradient, 1/k each); TF registers no gradient and raises LookupError",
        expect=tensor([0.5, 1.0, 0.5], "float32"),
    ),
    "errors.case_never_entered_watch_raises": Difference(
        reason="watch() on a never-entered tape is a RuntimeError "
        "(TF: AttributeError 'NoneType' object has no attribute '_tape')",
        expect=raises("RuntimeError"),
    ),
    "errors.case_source_python_float_raises": Difference(
        reason="a Python float source is a TypeError up front (TF: late AttributeError)",
        expect=raises("TypeError"),
    ),
    "errors.case_source_ndarray_raises": Difference(
        reason="an ndarray source is a TypeError up front (TF: late AttributeError)",
        expect=raises("TypeError"),
    ),
    "errors.case_target_python_float_raises": Difference(
        reason="a Python float target is a TypeError (TF: AttributeError)",
        expect=raises("TypeError"),
    ),
    # ---- batch_jacobian honours unconnected_gradients (spec 1.12)
    "jacobians.case_batch_jacobian_unconnected_none": Difference(
        reason="batch_jacobian honours unconnected_gradients=NONE (TF returns zeros)",
        expect=NONE,
    ),
    # ---- experimental_use_pfor is a pure performance switch (spec 1.11/1.12)
    "jacobians.case_jacobian_tanh_matvec_no_pfor_nonpersistent": Difference(
        reason="experimental_use_pfor=False works on a non-persistent tape, "
        "same result as pfor (TF raises RuntimeError)",
        expect=SameAs("jacobians.case_jacobian_tanh_matvec_pfor"),
    ),
    "jacobians.case_batch_jacobian_sigmoid_no_pfor_nonpersistent": Difference(
        reason="experimental_use_pfor=False works on a non-persistent tape, "
        "same result as pfor (TF raises RuntimeError)",
        expect=SameAs("jacobians.case_batch_jacobian_sigmoid_pfor"),
    ),
    "ops_jacobians.case_jacobian_parallel_iterations_one_float64": Difference(
        reason="parallel_iterations only bounds the rows per backward walk; the result is the "
        "same (TF 2.21 fails to vectorise with parallel_iterations=1: ValueError)",
        expect=SameAs("ops_jacobians.case_jacobian_exp_matmul_float64"),
    ),
    # ---- ForwardAccumulator zero rules for piecewise-constant ops (spec 1.17)
    "forward_mode.case_jvp_sign_piecewise_constant": Difference(
        reason="JVP of sign is zeros (TF: None)",
        expect=tensor([0.0, 0.0], "float32"),
    ),
    "forward_mode.case_jvp_round_piecewise_constant": Difference(
        reason="JVP of round is zeros (TF: None)",
        expect=tensor([0.0, 0.0], "float32"),
    ),
    "forward_mode.case_jvp_floor_piecewise_constant": Difference(
        reason="JVP of floor is zeros (TF: None)",
        expect=tensor([0.0, 0.0], "float32"),
    ),
    # ---- custom_gradient binds keyword arguments (spec 1.15)
    "custom_gradient.case_custom_gradient_all_keyword_call": Difference(
        reason="an all-keyword call still uses the custom gradient "
        "(TF silently differentiates the body: 2.0)",
        expect=lst(tensor(6.0, "float32"), tensor(5.0, "float32")),
    ),
    # ---- linear algebra
    "ops_linalg.case_cholesky_not_positive_definite": Difference(
        reason="a non-positive-definite input to cholesky raises InvalidArgumentError "
        "(TF 2.21 logs a warning and returns a factor filled with NaN and garbage)",
        expect=raises("InvalidArgumentError"),
    ),
    "ops_linalg.case_det_complex_grad": Difference(
        reason="complex det gradient is conj(det) * A^-H, TF's own convention for holomorphic "
        "functions and consistent with forward mode (TF's MatrixDeterminant grad omits the conj)",
        expect=lst(tensor(_DET_C.real, "float64"),
                   lst(tensor(np.conj(_DET_C) * np.linalg.inv(_DET_A).conj().T, "complex128"))),
    ),
    # ---- extra tf.math ops
    "ops_math.case_float_tests_gradient": Difference(
        reason="is_nan/is_inf/is_finite are non-differentiable ops, so the gradient is None "
        "(TF registers no gradient for them and raises LookupError)",
        expect=NONE,
    ),
    "ops_math.case_polyval_python_floats_float64_x": Difference(
        reason="Python coefficients take x's dtype, as in every binary op "
        "(TF converts them to float32 first and raises on a float64 x)",
        expect=tensor(5.0, "float64"),
    ),
    "ops_math.case_xlogy_complex_gradient": Difference(
        reason="complex xlogy gradients are conj(log y) and conj(x / y), TF's own convention for "
        "holomorphic functions (the same as x * log(y) written with Mul; TF's Xlogy grad omits the conj)",
        expect=lst(tensor([(1 + 2j) * np.log(2 + 0.5j)], "complex128"),
                   lst(tensor([np.conj(np.log(2 + 0.5j))], "complex128"),
                       tensor([np.conj((1 + 2j) / (2 + 0.5j))], "complex128"))),
    ),
    "ops_math.case_segment_prod_hessian_at_zero": Difference(
        reason="the product-of-others rule divides only by nonzero entries, so the Hessian at a "
        "lone zero is exact (TF's rule divides 0 by 0 in the branch where() discards: all NaN)",
        expect=lst(tensor([6.0, 0.0, 0.0], "float32"),
                   tensor([[0.0, 3.0, 2.0], [3.0, 0.0, 0.0], [2.0, 0.0, 0.0]], "float32")),
    ),
    "ops_math.case_bessel_i1_gradient_at_zero": Difference(
        reason="the derivative of bessel_i1 at 0 is 0.5 (I1(x) = x/2 + O(x^3)); TF's rule hard-codes 1",
        expect=lst(tensor([0.0], "float32"), lst(tensor([0.5], "float32"))),
    ),
    "ops_math.case_segment_prod_complex_gradient": Difference(
        reason="complex segment product gradients are conj(product of the others), TF's own "
        "convention (as tf.reduce_prod; TF's UnsortedSegmentProd grad omits the conj)",
        expect=lst(tensor([(1 + 2j) * (0.5 - 1j) * (2 + 0.3j)], "complex128"),
                   lst(tensor(np.conj([(0.5 - 1j) * (2 + 0.3j), (1 + 2j) * (2 + 0.3j), (1 + 2j) * (0.5 - 1j)]),
                              "complex128"))),
    ),
    "ops_nn.case_moments_hessian_of_variance": Difference(
        reason="tf.nn.moments differentiates the variance through the mean too, so second "
        "derivatives are exact: 2/n (I - 1/n) (TF stops the gradient at the mean and gives 2/n I; "
        "first derivatives agree)",
        expect=tensor(0.5 * (np.eye(4) - 0.25), "float32"),
    ),
    # ---- NumPy interop: NumPy functions tapegrad implements return tensors on the tape
    "ops_numpy_interop.case_np_sin_of_tensor_is_array": Difference(
        reason="tensors implement __array_ufunc__: np.sin(tensor) is a Tensor (TF: an ndarray)",
        expect={"kind": "bool", "value": False},
    ),
    "ops_numpy_interop.case_np_sum_of_tensor_is_numpy": Difference(
        reason="tensors implement __array_function__: np.sum(tensor) is a Tensor (TF: NumPy)",
        expect={"kind": "bool", "value": False},
    ),
    "ops_numpy_interop.case_gradient_through_np_sin": Difference(
        reason="np.sin(tensor) stays on the tape, so the gradient is 2 cos(x) (TF: None, the "
        "value left the tape)",
        expect=tensor(2 * np.cos([0.5, 1.0]), "float32"),
    ),
}


# --------------------------------------------------------------------------
# Comparison.

TOLERANCES = {
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "float32": (1e-5, 1e-6),
    "complex64": (1e-5, 1e-6),
    "float64": (1e-10, 1e-10),
    "complex128": (1e-10, 1e-10),
}
PYTHON_FLOAT_TOLERANCE = (1e-10, 1e-10)


def summary(node):
    kind = node["kind"]
    if kind == "tensor":
        return f"tensor {node['dtype']}{node['shape']} {json.dumps(node['value'])[:200]}"
    if kind == "error":
        return f"{node['type']}: {node.get('message', '')[:300]}"
    if kind == "indexed_slices":
        return "IndexedSlices(" + summary(node["values"]) + ")"
    if kind in ("bool", "int", "float", "str"):
        return f"{kind} {node['value']!r}"
    if kind in ("list", "tuple", "namedtuple"):
        return f"{kind} of {len(node['items'])}"
    if kind == "dict":
        return f"dict with keys {sorted(node['items'])}"
    return kind


def _decode_value(node):
    value = node["value"]
    shape = tuple(node["shape"])
    dtype = node["dtype"]

    def walk(v, fn):
        return [walk(x, fn) for x in v] if isinstance(v, list) and not _is_leaf(v) else fn(v)

    def _is_leaf(v):
        return node.get("complex") and len(v) == 2 and not isinstance(v[0], list)

    if node.get("complex"):
        flat = walk(value, lambda p: complex(decode_float(p[0]), decode_float(p[1])))
        arr = np.array(flat, dtype=np.complex128)
    elif dtype in TOLERANCES:
        arr = np.array(walk(value, decode_float), dtype=np.float64)
    elif dtype == "bool":
        arr = np.array(value, dtype=bool)
    elif dtype.startswith("int") or dtype.startswith("uint"):
        arr = np.array(value, dtype=np.int64)
    else:
        arr = np.array(value, dtype=object)
    return arr.reshape(shape)


def _close(actual, expected, rtol, atol):
    if np.iscomplexobj(actual) or np.iscomplexobj(expected):
        return _close(np.real(actual), np.real(expected), rtol, atol) & _close(
            np.imag(actual), np.imag(expected), rtol, atol
        )
    return np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)


def _compare_tensor(expected, actual, path):
    if "value_shape" in actual:
        return [
            f"{path}: tapegrad tensor .shape {actual['shape']} disagrees with "
            f".numpy().shape {actual['value_shape']}"
        ]
    out = []
    if expected["dtype"] != actual["dtype"]:
        out.append(f"{path}: dtype expected {expected['dtype']}, got {actual['dtype']}")
    if list(expected["shape"]) != list(actual["shape"]):
        out.append(f"{path}: shape expected {expected['shape']}, got {actual['shape']}")
        return out
    ev = _decode_value(expected)
    av = _decode_value(actual)
    if expected["dtype"] in TOLERANCES or expected.get("complex"):
        rtol, atol = TOLERANCES.get(expected["dtype"], (1e-10, 1e-10))
        ok = _close(av, ev, rtol, atol)
        if not np.all(ok):
            out.append(
                f"{path}: values differ (rtol={rtol}, atol={atol}): expected "
                f"{json.dumps(expected['value'])[:300]}, got {json.dumps(actual['value'])[:300]}"
            )
    elif not np.array_equal(av, ev):
        out.append(
            f"{path}: values differ: expected {json.dumps(expected['value'])[:300]}, "
            f"got {json.dumps(actual['value'])[:300]}"
        )
    return out


def _canonical_slices(node):
    """Order the (index, row) pairs of an IndexedSlices node.

    An IndexedSlices stands for the dense sum of its rows; the order in which
    backward contributions were concatenated carries no meaning, so both sides
    are sorted by index (then by row values) before comparing. Which rows go
    with which index, duplicates included, is still compared exactly.
    """
    values, indices = node["values"], node["indices"]
    if values["kind"] != "tensor" or indices["kind"] != "tensor":
        return node
    if "value_shape" in values or "value_shape" in indices:
        return node
    v = _decode_value(values)
    i = _decode_value(indices)
    if i.ndim != 1 or v.ndim < 1 or v.shape[0] != i.shape[0] or i.shape[0] < 2:
        return node
    rows = v.reshape(v.shape[0], -1)
    keys = [rows[:, k].real for k in range(rows.shape[1] - 1, -1, -1)] + [i]
    order = np.lexsort(keys)
    canonical = dict(node)
    canonical["values"] = encode_array(v[order], values["dtype"], values["shape"])
    canonical["indices"] = encode_array(i[order], indices["dtype"], indices["shape"])
    return canonical


def compare(expected, actual, path="result"):
    """Return a list of human-readable mismatches (empty when they agree)."""
    ek, ak = expected["kind"], actual["kind"]
    if ek == "error":
        if ak != "error":
            return [f"{path}: expected {expected['type']} to be raised, got {summary(actual)}"]
        names = [actual["type"]] + list(actual.get("bases", []))
        if expected["type"] not in names:
            return [f"{path}: expected {expected['type']}, got {summary(actual)} (class and bases: {names})"]
        return []
    if ak == "error":
        return [f"{path}: expected {summary(expected)}, got {summary(actual)}"]
    if ek != ak:
        return [f"{path}: expected {summary(expected)}, got {summary(actual)}"]
    if ek == "none":
        return []
    if ek in ("bool", "int", "str"):
        if expected["value"] != actual["value"]:
            return [f"{path}: expected {expected['value']!r}, got {actual['value']!r}"]
        return []
    if ek == "float":
        e = np.float64(decode_float(expected["value"]))
        a = np.float64(decode_float(actual["value"]))
        if not _close(a, e, *PYTHON_FLOAT_TOLERANCE):
            return [f"{path}: expected {expected['value']!r}, got {actual['value']!r}"]
        return []
    if ek == "tensor":
        return _compare_tensor(expected, actual, path)
    if ek == "indexed_slices":
        expected, actual = _canonical_slices(expected), _canonical_slices(actual)
        out = []
        for part in ("values", "indices", "dense_shape"):
            out += compare(expected[part], actual[part], f"{path}.{part}")
        return out
    if ek in ("list", "tuple", "namedtuple"):
        if ek == "namedtuple" and (
            expected["name"] != actual["name"] or expected["fields"] != actual["fields"]
        ):
            return [
                f"{path}: expected namedtuple {expected['name']}{expected['fields']}, "
                f"got {actual['name']}{actual['fields']}"
            ]
        e_items, a_items = expected["items"], actual["items"]
        if len(e_items) != len(a_items):
            return [f"{path}: expected {ek} of {len(e_items)}, got {len(a_items)}"]
        out = []
        for i, (e, a) in enumerate(zip(e_items, a_items)):
            out += compare(e, a, f"{path}[{i}]")
        return out
    if ek == "dict":
        e_items, a_items = expected["items"], actual["items"]
        if sorted(e_items) != sorted(a_items):
            return [f"{path}: expected keys {sorted(e_items)}, got {sorted(a_items)}"]
        out = []
        for key in sorted(e_items):
            out += compare(e_items[key], a_items[key], f"{path}[{key!r}]")
        return out
    raise AssertionError(f"unknown kind {ek!r} in the fixture")


def expected_for(name):
    difference = DIFFERENCES.get(name)
    if difference is None:
        return RECORDED[name]
    if isinstance(difference.expect, SameAs):
        return RECORDED[difference.expect.case]
    return difference.expect


# --------------------------------------------------------------------------
# Tests.


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_program(name):
    assert name in RECORDED, f"{name} is not in the fixture: re-run tools/record_tf_fixtures.py"
    expected = expected_for(name)
    actual = run_case(ALL_CASES[name], tf)
    mismatches = compare(expected, actual)
    if mismatches:
        lines = list(mismatches)
        if name in DIFFERENCES:
            lines.append(f"(deliberate difference: {DIFFERENCES[name].reason})")
            lines.append(f"(TensorFlow recorded: {summary(RECORDED[name])})")
        pytest.fail("\n".join(lines), pytrace=False)


def test_fixture_matches_programs():
    missing = sorted(set(ALL_CASES) - set(RECORDED))
    stale = sorted(set(RECORDED) - set(ALL_CASES))
    assert not missing and not stale, (
        f"re-run tools/record_tf_fixtures.py (missing: {missing}, stale: {stale})"
    )


def test_fixture_recorded_with_tensorflow_2_21():
    assert FIXTURE["tensorflow_version"].startswith("2.21.")


def test_differences_are_real_differences():
    for name, difference in DIFFERENCES.items():
        assert name in RECORDED, f"DIFFERENCES names an unknown case {name}"
        assert difference.reason
        if isinstance(difference.expect, SameAs):
            assert difference.expect.case in RECORDED, difference.expect.case
        assert compare(expected_for(name), RECORDED[name]), (
            f"{name}: the expectation equals TensorFlow's result; drop it from DIFFERENCES"
        )


def test_no_reference_framework_imported():
    for framework in ("tensorflow", "jax", "torch"):
        assert framework not in sys.modules, f"{framework} must not be imported by the tests"
