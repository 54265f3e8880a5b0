"""Record Keras 3.15's MobileNet, InceptionV3, Xception, DenseNet and InceptionResNetV2, and the
symbolic ``preprocess_input`` (tests/test_keras_applications_more.py replays them).

Run with a Python that has TensorFlow and Keras 3 installed (development only):

    $TAPEGRAD_TF_PYTHON tools/record_keras_applications_more.py

Writes ``tests/fixtures/keras_applications_more.json``:

* ``applications``: for each case of ``APPS`` (a constructor with ``weights=None`` and small
  inputs), the model's name, its layers (name, class), the weights' paths and shapes in order (in
  full for the cases of ``FULL``, else their SHA-1), the parameter counts and the input and output
  shapes, as tools/record_keras_surface.py records them; ``prediction``: the network is built
  after ``keras.utils.set_random_seed(0)``, and this is its output on ``preprocess_input`` of the
  two images of ``images``; ``prediction_bn``: the same after ``randomize_batch_norm``;
* ``preprocess``: ``keras.Model(inp, imagenet_utils.preprocess_input(inp, data_format, mode))``'s
  prediction on a fixed 4-D input (``output``), and ``preprocess_input`` of that input as a tensor
  (``eager``), for each mode and data format. (Keras 3.15's functional model gives wrong numbers
  for ``channels_first`` with ``"caffe"`` and ``"torch"``: the channel means go along the last
  axis. docs/differences.md says so; tapegrad gives the eager numbers there.)
"""
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "keras_applications_more.json")

# name -> (constructor, kwargs); weights=None is added to each.
APPS = {
    "mobilenet_32_top": ("MobileNet", {"input_shape": (32, 32, 3), "classes": 7,
                                       "classifier_activation": None}),
    "mobilenet_a025_dm2_avg": ("MobileNet", {"input_shape": (40, 48, 3), "alpha": 0.25,
                                             "depth_multiplier": 2, "include_top": False,
                                             "pooling": "avg"}),
    "mobilenet_a075_128_max": ("MobileNet", {"input_shape": (128, 128, 3), "alpha": 0.75,
                                             "include_top": False, "pooling": "max"}),
    "mobilenet_notop_none": ("MobileNet", {"include_top": False}),
    "inception_v3_75_top": ("InceptionV3", {"input_shape": (75, 75, 3), "classes": 10,
                                            "classifier_activation": None}),
    "xception_notop_max": ("Xception", {"input_shape": (71, 71, 3), "include_top": False,
                                        "pooling": "max"}),
    "densenet121_top": ("DenseNet121", {"input_shape": (32, 32, 3), "classes": 3,
                                        "classifier_activation": None}),
    "densenet169_notop_avg": ("DenseNet169", {"input_shape": (32, 32, 3), "include_top": False,
                                              "pooling": "avg"}),
    "densenet201_notop": ("DenseNet201", {"input_shape": (32, 40, 3), "include_top": False}),
    "inception_resnet_v2_notop_avg": ("InceptionResNetV2", {"input_shape": (75, 75, 3),
                                                            "include_top": False, "pooling": "avg"}),
}
FULL = ("mobilenet_32_top", "inception_v3_75_top")

# the module whose preprocess_input a constructor's inputs go through
MODULES = {"MobileNet": "mobilenet", "InceptionV3": "inception_v3", "Xception": "xception",
           "DenseNet121": "densenet", "DenseNet169": "densenet", "DenseNet201": "densenet",
           "InceptionResNetV2": "inception_resnet_v2"}


def images(np, input_shape):
    """Two images of the network's input size (32 x 32 where it is None), pixels in [0, 255]."""
    rows, cols = (32 if d is None else d for d in input_shape[1:3])
    return np.random.default_rng(1).uniform(0, 255, (2, rows, cols, 3)).astype("float32")


def randomize_batch_norm(keras, np, model):
    """Set every batch norm's statistics (and scale and offset, where it has them) at random, in
    the order of ``model.layers``, so that the outputs depend on them."""
    rng = np.random.default_rng(3)
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            n = layer.moving_mean.shape[0]
            layer.moving_mean.assign(rng.normal(0, 0.2, n).astype("float32"))
            layer.moving_variance.assign(rng.uniform(0.5, 1.5, n).astype("float32"))
            if layer.gamma is not None:
                layer.gamma.assign(rng.uniform(0.8, 1.2, n).astype("float32"))
            if layer.beta is not None:
                layer.beta.assign(rng.normal(0, 0.1, n).astype("float32"))


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _tf import quiet_tensorflow
    from record_keras_surface import describe
    quiet_tensorflow()
    import keras
    import numpy as np

    record = {"keras": keras.__version__, "applications": {}, "preprocess": {}}
    for name, (ctor, kwargs) in APPS.items():
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        model = getattr(keras.applications, ctor)(weights=None, **kwargs)
        x = getattr(keras.applications, MODULES[ctor]).preprocess_input(images(np, model.input.shape))
        record["applications"][name] = {"ctor": ctor, "kwargs": kwargs,
                                        **describe(name if name in FULL else "", model),
                                        "prediction": model.predict(x, verbose=0).tolist()}
        randomize_batch_norm(keras, np, model)
        record["applications"][name]["prediction_bn"] = model.predict(x, verbose=0).tolist()
        print(name, record["applications"][name]["params"], flush=True)

    x = np.random.default_rng(2).uniform(0, 255, (2, 3, 4, 3)).astype("float32")
    for mode in ("caffe", "tf", "torch"):
        for data_format in ("channels_last", "channels_first"):
            inp = keras.Input(x.shape[1:])
            out = keras.applications.imagenet_utils.preprocess_input(inp, data_format=data_format, mode=mode)
            got = keras.Model(inp, out).predict(x, verbose=0)
            eager = keras.applications.imagenet_utils.preprocess_input(
                keras.ops.convert_to_tensor(x), data_format=data_format, mode=mode)
            record["preprocess"][f"{mode}_{data_format}"] = {
                "input": x.tolist(), "output": got.tolist(), "eager": keras.ops.convert_to_numpy(eager).tolist()}
    with open(FIXTURE, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print("wrote", FIXTURE)


if __name__ == "__main__":
    main()
