"""Differential test programs for tapegrad against real TensorFlow.

Every program is a plain function ``case_<name>(tf)`` that receives the module
under test (``tensorflow`` when recording, ``tapegrad`` when testing) and
returns a result made of tensors, Variables, IndexedSlices, None, Python
scalars/strings/bools, exceptions caught by the program, and lists, tuples,
namedtuples and dicts of these; or raises.

Programs that are expected to raise in TensorFlow are marked with
``@tf_raises("ExceptionName")`` so that the recorder can check that every
error in the fixture is a deliberate one.

``ALL_CASES`` maps ``"module.case_name"`` to the program function.
"""

import importlib

MODULES = (
    "watching",
    "variables",
    "nesting",
    "targets_sources",
    "output_gradients",
    "unconnected",
    "stopping",
    "jacobians",
    "forward_mode",
    "custom_gradient",
    "indexed_slices",
    "dtypes",
    "errors",
    "op_conventions",
    "seeds",
    "ops_training",
    "ops_linalg",
    "ops_nn",
    "ops_arrays",
    "ops_math",
    "ops_jacobians",
    "ops_numpy_interop",
)


def _collect():
    cases = {}
    for module_name in MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        for name, value in vars(module).items():
            if name.startswith("case_") and callable(value):
                cases[f"{module_name}.{name}"] = value
    return dict(sorted(cases.items()))


ALL_CASES = _collect()
