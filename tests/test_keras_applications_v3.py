"""MobileNetV3, ConvNeXt, EfficientNetV2 and NASNet against Keras 3.15
(tests/fixtures/keras_applications_v3.json and .npz, recorded by
tools/record_keras_applications_v3.py): each network's layers and operations in order, weight
paths, shapes and trainability, parameter counts and input/output shapes, the predictions of
seeded weights=None networks, and the argument checks."""
import hashlib
import json
import os

import numpy as np
import pytest

from tapegrad import keras

HERE = os.path.dirname(__file__)
FIXTURES = os.path.join(HERE, "fixtures")
with open(os.path.join(FIXTURES, "keras_applications_v3.json")) as _f:
    RECORD = json.load(_f)
CASES = RECORD["applications"]
# (100M to 350M parameters: tens of seconds each to initialise on a small machine)
HEAVY = {"convnext_large_nopre", "convnext_xlarge_avg", "efficientnetv2_l_avg", "nasnet_large_64_top",
         "convnext_base_gray_max", "efficientnetv2_m_top"}


def digest(rows):
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def build(ctor, kwargs, **extra):
    keras.backend.clear_session()  # (as the recorder: auto-named layers count from 0)
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}
    return getattr(keras.applications, ctor)(weights=None, **kwargs, **extra)


def operations(model):
    # Keras lists a keras.ops call on KerasTensors (`x + y`) in model.operations, not model.layers;
    # tapegrad keeps it as an `Operation` layer (docs/differences.md): compare it by its op's class
    return [[None, "".join(p.capitalize() for p in layer.op.split("_"))] if type(layer).__name__ == "Operation"
            else [layer.name, type(layer).__name__] for layer in model.layers]


@pytest.mark.parametrize("name", sorted(set(CASES) - HEAVY))
def test_network_matches_keras(name):
    want = CASES[name]
    model = build(want["ctor"], want["kwargs"])
    ops = operations(model)
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    if "operations" in want:  # (written out in full for one case of each family: a readable diff)
        assert ops == want["operations"]
        assert weights == want["weights"]
    n_layers = sum(1 for op in ops if op[0] is not None)
    assert (model.name, n_layers, len(ops), len(weights)) == (want["name"], want["n_layers"],
                                                             want["n_operations"], want["n_weights"])
    assert digest(ops) == want["operations_sha1"]
    assert digest(weights) == want["weights_sha1"]
    trainable = sum(int(np.prod(w.shape)) for w in model.trainable_weights)
    assert [model.count_params(), trainable, model.count_params() - trainable] == want["params"]
    assert list(model.output.shape) == want["output_shape"]
    assert list(model.input.shape) == want["input_shape"]


def test_every_network_is_recorded():
    built = {"MobileNetV3Small", "MobileNetV3Large", "ConvNeXtTiny", "ConvNeXtSmall", "ConvNeXtBase",
             "ConvNeXtLarge", "ConvNeXtXLarge", "EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2",
             "EfficientNetV2B3", "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "NASNetMobile",
             "NASNetLarge"}
    assert {c["ctor"] for c in CASES.values()} == built
    assert built <= set(dir(keras.applications))


@pytest.mark.parametrize("name", sorted(RECORD["predict"]))
def test_seeded_network_predicts_as_keras(name):
    case = RECORD["predict"][name]
    data = np.load(os.path.join(FIXTURES, "keras_applications_v3.npz"))
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)
    model = build(case["ctor"], case["kwargs"])
    got = model.predict(data[f"{name}__input"], verbose=0)
    want = data[f"{name}__prediction"]
    # float32 logits of order 1 after some 50 (MobileNetV3Small) and 70 (ConvNeXtTiny) layers;
    # the summation order of convolutions, matmuls and normalizations differs from TensorFlow's
    # kernels by a few ulps per layer, so 1e-4 relative of the largest logit bounds it.
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
