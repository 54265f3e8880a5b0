"""Record Keras 3.15's MobileNetV3, ConvNeXt, EfficientNetV2 and NASNet networks
(tests/test_keras_applications_v3.py replays them).

Run with a Python that has TensorFlow and Keras 3 installed (development only):

    $TAPEGRAD_TF_PYTHON tools/record_keras_applications_v3.py

Writes ``tests/fixtures/keras_applications_v3.json``: for each case of ``APPS`` (a
``keras.applications`` constructor with ``weights=None``, mostly on small inputs), the model's
name, its operations in order (a layer as ``[name, class]``, a ``keras.ops`` call on KerasTensors
as ``[null, class]``), the weights' paths, shapes and trainability in order, the parameter
counts and the input and output shapes; and ``tests/fixtures/keras_applications_v3.npz``: for
each case of ``PREDICT``, an input batch and the prediction of the network built right after
``keras.utils.set_random_seed(0)`` (its seeded initial weights); and into
``tests/fixtures/keras_applications_v3/``, for each case of ``FILES`` (small builder
configurations, every weight moved at random), its weights as Keras 3 saves them
(``<name>.weights.h5``) and in the legacy ``.h5`` layout of Keras's pretrained files
(``<name>.h5``), with an input and the prediction in ``<name>.npz``.
"""
import hashlib
import importlib
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_applications_v3.json")
ARRAYS = os.path.join(REPO, "tests", "fixtures", "keras_applications_v3.npz")
OUT = os.path.join(REPO, "tests", "fixtures", "keras_applications_v3")

S32, S32_1 = (32, 32, 3), (32, 32, 1)
# name -> (constructor, kwargs); weights=None is added to each.
APPS = {
    "mobilenet_v3_small_32_top": ("MobileNetV3Small", {"input_shape": S32, "classes": 5}),
    "mobilenet_v3_small_default": ("MobileNetV3Small", {}),
    "mobilenet_v3_small_min_a075_avg": ("MobileNetV3Small", {"input_shape": (40, 48, 3), "alpha": 0.75,
                                                             "minimalistic": True, "include_top": False,
                                                             "pooling": "avg"}),
    "mobilenet_v3_small_a15_nopre": ("MobileNetV3Small", {"input_shape": S32, "alpha": 1.5, "classes": 3,
                                                          "include_preprocessing": False, "dropout_rate": 0.0}),
    "mobilenet_v3_large_default": ("MobileNetV3Large", {}),
    "mobilenet_v3_large_min_max": ("MobileNetV3Large", {"input_shape": (64, 64, 3), "minimalistic": True,
                                                        "include_top": False, "pooling": "max"}),
    "mobilenet_v3_large_a125_logits": ("MobileNetV3Large", {"input_shape": S32, "alpha": 1.25, "classes": 7,
                                                            "classifier_activation": None}),
    "convnext_tiny_32_top": ("ConvNeXtTiny", {"input_shape": S32, "classes": 4}),
    "convnext_tiny_notop": ("ConvNeXtTiny", {"include_top": False}),
    "convnext_small_avg": ("ConvNeXtSmall", {"input_shape": S32, "include_top": False, "pooling": "avg"}),
    "convnext_base_gray_max": ("ConvNeXtBase", {"input_shape": S32_1, "include_top": False, "pooling": "max"}),
    "convnext_large_nopre": ("ConvNeXtLarge", {"input_shape": S32, "classes": 2, "include_preprocessing": False}),
    "convnext_xlarge_avg": ("ConvNeXtXLarge", {"input_shape": S32, "include_top": False, "pooling": "avg"}),
    "efficientnetv2_b0_32_top": ("EfficientNetV2B0", {"input_shape": S32, "classes": 5}),
    "efficientnetv2_b0_default": ("EfficientNetV2B0", {}),
    "efficientnetv2_b1_avg": ("EfficientNetV2B1", {"input_shape": S32, "include_top": False, "pooling": "avg"}),
    "efficientnetv2_b2_nopre": ("EfficientNetV2B2", {"input_shape": S32, "include_top": False,
                                                     "include_preprocessing": False}),
    "efficientnetv2_b3_gray_max": ("EfficientNetV2B3", {"input_shape": S32_1, "include_top": False,
                                                        "pooling": "max"}),
    "efficientnetv2_s_32": ("EfficientNetV2S", {"input_shape": S32, "include_top": False}),
    "efficientnetv2_m_top": ("EfficientNetV2M", {"input_shape": S32, "classes": 3}),
    "efficientnetv2_l_avg": ("EfficientNetV2L", {"input_shape": S32, "include_top": False, "pooling": "avg"}),
    "nasnet_mobile_default": ("NASNetMobile", {}),
    "nasnet_mobile_32_notop": ("NASNetMobile", {"input_shape": S32, "include_top": False, "pooling": "avg"}),
    "nasnet_mobile_notop_none": ("NASNetMobile", {"include_top": False}),
    "nasnet_large_64_top": ("NASNetLarge", {"input_shape": (64, 64, 3), "classes": 3}),
}

# the cases whose operation and weight lists are written out in full (the others: their digest)
FULL = ("mobilenet_v3_small_32_top", "convnext_tiny_32_top", "efficientnetv2_b0_32_top",
        "nasnet_mobile_32_notop")

# name -> (constructor, kwargs, input shape): seeded predictions on uniform [0, 255) pixels
PREDICT = {
    "mobilenet_v3_small": ("MobileNetV3Small", {"input_shape": S32, "classes": 10,
                                                "classifier_activation": None}, (2,) + S32),
    "convnext_tiny": ("ConvNeXtTiny", {"input_shape": S32, "classes": 10, "classifier_activation": None},
                      (2,) + S32),
}

# name -> (module, builder, kwargs, input shape): weights files of small configurations (ConvNeXt:
# its nested Sequential blocks and unnamed LayerScale weights are what the file layouts test;
# the other networks' layers load as MobileNetV2's do, tests/test_keras_applications.py)
FILES = {
    "convnext_mini": ("convnext", "ConvNeXt", {"depths": [1, 1, 2, 1], "projection_dims": [8, 16, 24, 32],
                                               "input_shape": S32, "classes": 3, "drop_path_rate": 0.2}, (2,) + S32),
}


def digest(rows):
    """SHA-1 of the rows as compact JSON (tests/test_keras_applications_v3.py computes the same)."""
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def describe(name, model, keras):
    ops = [[op.name if isinstance(op, keras.layers.Layer) else None, type(op).__name__]
           for op in model.operations]
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    trainable = int(sum(int(w.numpy().size) for w in model.trainable_weights))
    return {
        "name": model.name,
        "n_layers": len(model.layers), "n_operations": len(ops), "n_weights": len(weights),
        "operations_sha1": digest(ops), "weights_sha1": digest(weights),
        **({"operations": ops, "weights": weights} if name in FULL else {}),
        "params": [model.count_params(), trainable, model.count_params() - trainable],
        "output_shape": list(model.output.shape),
        "input_shape": list(model.input.shape),
    }


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import one_thread_tensorflow
    one_thread_tensorflow()
    import keras
    import numpy as np

    only = set(sys.argv[1:])  # (names of APPS cases to record again; the rest is kept)
    record = {"keras": keras.__version__, "applications": {}}
    if only and os.path.exists(FIXTURE):
        with open(FIXTURE) as f:
            record = json.load(f)
    for name, (ctor, kwargs) in APPS.items():
        if only and name not in only:
            continue
        keras.backend.clear_session()
        model = getattr(keras.applications, ctor)(weights=None, **kwargs)
        record["applications"][name] = {"ctor": ctor, "kwargs": kwargs, **describe(name, model, keras)}
        print(name, record["applications"][name]["params"], flush=True)
    arrays, record["predict"] = {}, {}
    for name, (ctor, kwargs, shape) in PREDICT.items():
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        model = getattr(keras.applications, ctor)(weights=None, **kwargs)
        x = np.random.default_rng(1).uniform(0, 255, shape).astype("float32")
        arrays[f"{name}__input"] = x
        arrays[f"{name}__prediction"] = model.predict(x, verbose=0)
        record["predict"][name] = {"ctor": ctor, "kwargs": kwargs}
    np.savez_compressed(ARRAYS, **arrays)

    import h5py
    from keras.src.legacy.saving import legacy_h5_format
    os.makedirs(OUT, exist_ok=True)
    record["files"] = {}
    for name, (module, builder, kwargs, shape) in FILES.items():
        keras.backend.clear_session()
        keras.utils.set_random_seed(2)
        kwargs = {k: tuple(v) if k == "input_shape" else v for k, v in kwargs.items()}
        # (the builders are in keras.src: Keras exports only the variants)
        model = getattr(importlib.import_module(f"keras.src.applications.{module}"), builder)(weights=None, **kwargs)
        rng = np.random.default_rng(3)
        for w in model.weights:  # (every weight moved off its initial value, layer scales included)
            w.assign(w.numpy() + rng.normal(0, 0.1, w.shape).astype("float32"))
        x = rng.uniform(0, 255, shape).astype("float32")
        model.save_weights(os.path.join(OUT, f"{name}.weights.h5"))
        with h5py.File(os.path.join(OUT, f"{name}.h5"), "w") as f:
            legacy_h5_format.save_weights_to_hdf5_group(f, model)
        np.savez(os.path.join(OUT, f"{name}.npz"), input=x, prediction=model.predict(x, verbose=0))
        record["files"][name] = {"module": module, "builder": builder, "kwargs": kwargs,
                                                "params": model.count_params()}
    with open(FIXTURE, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print("wrote", FIXTURE, ARRAYS)


if __name__ == "__main__":
    main()
