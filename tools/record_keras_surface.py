"""Record Keras 3.15's first-hour surface (tests/test_keras_applications.py and
tests/test_keras_summary.py replay it).

Run with a Python that has TensorFlow, Keras 3 and h5py installed (development only):

    $TAPEGRAD_TF_PYTHON tools/record_keras_surface.py

Writes ``tests/fixtures/keras_surface.json``:

* ``applications``: for each case of ``APPS`` (a ``keras.applications`` constructor with
  ``weights=None`` and small inputs), the model's name, its layers (name, class), the weights'
  paths and shapes in order, the parameter counts and the output shape;
* ``summary``: for each model of ``tests/keras_surface_cases.py`` (a Sequential, a functional
  model with branches, a functional chain, a subclassed model), ``model.summary()``'s text before
  and after ``fit`` (and with ``show_trainable``, ``line_length=70``), and what ``fit``,
  ``evaluate`` and ``predict`` print (verbose 1 and 2, with validation data). Run it with
  ``COLUMNS=200``: the summary's default width is capped by the terminal's.

and into ``tests/fixtures/keras_surface/``: ``mobilenet_v2_tiny.weights.h5`` (a seeded MobileNetV2
with ``alpha=0.1``, 32x32 inputs, no top, batch-norm statistics set at random) and
``mobilenet_v2_tiny.npz``, its prediction on a fixed input; ``image_data_generator.npz``, the
batches of ``tf.keras.preprocessing.image.ImageDataGenerator`` for each case of
``tests/keras_surface_cases.py`` (``GENERATORS`` on arrays, ``DIRECTORY`` on PNG files).
"""
import hashlib
import tempfile
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
OUT = os.path.join(REPO, "tests", "fixtures", "keras_surface")
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_surface.json")

# name -> (constructor, kwargs); weights=None is added to each.
APPS = {
    "mobilenet_v2_32_notop": ("MobileNetV2", {"input_shape": (32, 32, 3), "include_top": False}),
    "mobilenet_v2_96_top": ("MobileNetV2", {"input_shape": (96, 96, 3), "classes": 7,
                                            "classifier_activation": None}),
    "mobilenet_v2_a035_avg": ("MobileNetV2", {"input_shape": (40, 48, 3), "alpha": 0.35,
                                              "include_top": False, "pooling": "avg"}),
    "mobilenet_v2_a14_max": ("MobileNetV2", {"input_shape": (33, 33, 3), "alpha": 1.4,
                                             "include_top": False, "pooling": "max"}),
    "mobilenet_v2_default": ("MobileNetV2", {}),
    "resnet50_32_top": ("ResNet50", {"input_shape": (32, 32, 3), "classes": 10}),
    "resnet50_notop_none": ("ResNet50", {"include_top": False}),
    "resnet50_default": ("ResNet50", {}),
    "resnet101_avg": ("ResNet101", {"input_shape": (64, 64, 3), "include_top": False, "pooling": "avg"}),
    "resnet152_max": ("ResNet152", {"input_shape": (32, 32, 3), "include_top": False, "pooling": "max"}),
    "resnet50v2_top": ("ResNet50V2", {"input_shape": (32, 32, 3), "classes": 3}),
    "resnet101v2_avg": ("ResNet101V2", {"input_shape": (48, 48, 3), "include_top": False, "pooling": "avg"}),
    "resnet152v2_none": ("ResNet152V2", {"input_shape": (32, 32, 3), "include_top": False}),
    "vgg16_32_top": ("VGG16", {"input_shape": (32, 32, 3), "classes": 10}),
    "vgg16_default": ("VGG16", {}),
    "vgg16_notop_avg": ("VGG16", {"include_top": False, "pooling": "avg"}),
    "vgg19_64_top": ("VGG19", {"input_shape": (64, 64, 3), "classes": 4, "classifier_activation": "sigmoid"}),
    "vgg19_notop_max": ("VGG19", {"input_shape": (32, 48, 1), "include_top": False, "pooling": "max"}),
    "efficientnetb0_32_top": ("EfficientNetB0", {"input_shape": (32, 32, 3), "classes": 5}),
    "efficientnetb0_notop": ("EfficientNetB0", {"include_top": False, "pooling": "avg"}),
}


# the cases whose layer and weight lists are written out in full (the others: their digest)
FULL = ("mobilenet_v2_32_notop", "resnet50_32_top", "resnet50v2_top", "vgg19_64_top")


def digest(rows):
    """SHA-1 of the rows as compact JSON (tests/test_keras_applications.py computes the same)."""
    return hashlib.sha1(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


def describe(name, model):
    layers = [[layer.name, type(layer).__name__] for layer in model.layers]
    weights = [[w.path, list(w.shape), bool(w.trainable)] for w in model.weights]
    return {
        "name": model.name,
        "n_layers": len(layers), "n_weights": len(weights),
        "layers_sha1": digest(layers), "weights_sha1": digest(weights),
        **({"layers": layers, "weights": weights} if name in FULL else {}),
        "params": [model.count_params(),
                   int(sum(int(w.numpy().size) for w in model.trainable_weights)),
                   int(sum(int(w.numpy().size) for w in model.non_trainable_weights))],
        "output_shape": list(model.output.shape),
        "input_shape": list(model.input.shape),
    }


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    quiet_tensorflow()
    import keras
    import numpy as np

    import keras_surface_cases as cases

    os.makedirs(OUT, exist_ok=True)
    record = {"keras": keras.__version__, "applications": {}}
    for name, (ctor, kwargs) in APPS.items():
        keras.backend.clear_session()
        model = getattr(keras.applications, ctor)(weights=None, **kwargs)
        record["applications"][name] = {"ctor": ctor, "kwargs": kwargs, **describe(name, model)}
        print(name, record["applications"][name]["params"], flush=True)

    # a tiny MobileNetV2 with non-trivial batch-norm statistics, saved, and its prediction
    keras.backend.clear_session()
    keras.utils.set_random_seed(0)
    model = keras.applications.MobileNetV2(weights=None, alpha=0.1, input_shape=(32, 32, 3),
                                           include_top=False, pooling="avg")
    rng = np.random.default_rng(1)
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            n = layer.moving_mean.shape[0]
            layer.moving_mean.assign(rng.normal(0, 0.2, n).astype("float32"))
            layer.moving_variance.assign(rng.uniform(0.5, 1.5, n).astype("float32"))
            layer.gamma.assign(rng.uniform(0.8, 1.2, n).astype("float32"))
            layer.beta.assign(rng.normal(0, 0.1, n).astype("float32"))
    x = rng.uniform(0, 255, (2, 32, 32, 3)).astype("float32")
    xp = keras.applications.mobilenet_v2.preprocess_input(x.copy())
    model.save_weights(os.path.join(OUT, "mobilenet_v2_tiny.weights.h5"))
    np.savez(os.path.join(OUT, "mobilenet_v2_tiny.npz"), input=x, prediction=model.predict(xp, verbose=0))
    record["tiny"] = {"params": model.count_params()}

    record["summary"] = cases.summaries(keras, np)

    import tensorflow as tf
    with tempfile.TemporaryDirectory() as root:
        batches = cases.generator_batches(tf.keras.preprocessing.image, np, os.path.join(root, "images"))
    np.savez_compressed(os.path.join(OUT, "image_data_generator.npz"),
                        **{f"{name}__{i}": a for name, arrays in batches.items() for i, a in enumerate(arrays)})
    with open(FIXTURE, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
