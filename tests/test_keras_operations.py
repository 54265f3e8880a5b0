"""keras.ops calls on KerasTensors are Operations, not layers, as in Keras 3: ``model.layers``
leaves them out, ``model.operations`` lists them under Keras's class names, and configs name
their classes (also Keras's own ``keras.src.ops.*`` entries and tapegrad's older "Operation")."""
import numpy as np
import pytest

from tapegrad import keras
from tapegrad.keras.layers.operation import Operation


def _model():
    x = keras.Input((3,))
    h = keras.layers.Dense(4, kernel_initializer="ones")(x)
    y = keras.ops.sum(h * 2.0 + x[:, :1], axis=-1)
    return keras.Model(x, y)


def test_operations_are_not_layers():
    keras.backend.clear_session()
    model = _model()
    assert [type(op).__name__ for op in model.layers] == ["InputLayer", "Dense"]
    assert [type(op).__name__ for op in model.operations] == \
        ["InputLayer", "Dense", "Multiply", "GetItem", "Add", "Sum"]
    assert [op.name for op in model.operations[2:]] == ["multiply", "get_item", "add", "sum"]
    assert all(isinstance(op, Operation) for op in model.operations)
    assert isinstance(model.layers[1], Operation)  # (Layer subclasses Operation)
    assert repr(model.operations[-1]) == "<Operation name=sum>"
    with pytest.raises(ValueError, match="No such layer"):
        model.get_layer("add")
    # a layer named after an op shares Keras's name counter
    assert keras.layers.Add().name == "add_1"
    assert model.operations[-1].output is model.outputs[0]


def test_operations_round_trip_through_a_config():
    keras.backend.clear_session()
    model = _model()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    config = model.get_config()
    entry = config["layers"][-1]
    assert (entry["class_name"], entry["config"]) == ("Sum", {"name": "sum", "axis": -1})
    again = keras.Model.from_config(config)
    again.set_weights(model.get_weights())
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy())
    assert [type(op).__name__ for op in again.operations] == [type(op).__name__ for op in model.operations]


def test_configs_keras_and_older_tapegrad_files_write():
    keras.backend.clear_session()
    model = _model()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    config = model.get_config()
    keras_style = {**config, "layers": [dict(e, module="keras.src.ops.numpy", registered_name=e["class_name"])
                                        if e["class_name"] in ("Multiply", "GetItem", "Add", "Sum") else e
                                        for e in config["layers"]]}
    legacy = {**config, "layers": [dict(e, class_name="Operation", module="keras.layers", config={
        "name": e["config"]["name"], "trainable": True, "op": {"Multiply": "multiply", "GetItem": "get_item",
                                                             "Add": "add", "Sum": "sum"}[e["class_name"]],
        "op_kwargs": {k: v for k, v in e["config"].items() if k != "name"}})
        if e["class_name"] in ("Multiply", "GetItem", "Add", "Sum") else e for e in config["layers"]]}
    for c in (keras_style, legacy):
        again = keras.Model.from_config(c)
        again.set_weights(model.get_weights())
        np.testing.assert_allclose(again(x).numpy(), model(x).numpy())
        assert [type(op).__name__ for op in again.operations][2:] == ["Multiply", "GetItem", "Add", "Sum"]


def test_every_operator_of_keras_tensors_is_keras_operation():
    keras.backend.clear_session()
    x, b = keras.Input((3,)), keras.Input((3,), dtype="bool")
    outs = [x / 2.0, 2.0 / x, 5.0 % x, x != x, b & b, b | b, b ^ b, ~b, round(x), x[:, 0]]
    model = keras.Model([x, b], outs)
    assert [type(op).__name__ for op in model.operations[2:]] == [
        "TrueDivide", "TrueDivide", "Mod", "NotEqual", "LogicalAnd", "LogicalOr", "LogicalXor",
        "LogicalNot", "Round", "GetItem"]
    xv, bv = np.array([[1.0, 2.0, 3.5]], np.float32), np.array([[True, False, True]])
    got = [t.numpy() for t in model([xv, bv])]
    want = [xv / 2, 2 / xv, 5 % xv, xv != xv, bv & bv, bv | bv, bv ^ bv, ~bv, np.round(xv), xv[:, 0]]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="Iterating"):
        list(x)


def test_a_layer_called_with_keywords_only_takes_calls_first_argument():
    # Keras's CallSpec: the endpoint-layer pattern, layer(targets=..., logits=...)
    class Endpoint(keras.layers.Layer):
        def call(self, targets, logits, sample_weights=None):
            self.add_loss(keras.ops.mean(keras.ops.square(targets - logits)))
            return keras.ops.sigmoid(logits)
    inputs, targets = keras.Input((3,)), keras.Input((2,))
    logits = keras.layers.Dense(2, kernel_initializer="ones")(inputs)
    model = keras.Model([inputs, targets], Endpoint()(targets=targets, logits=logits))
    out = model([np.ones((1, 3), np.float32), np.zeros((1, 2), np.float32)])
    np.testing.assert_allclose(out.numpy(), 1 / (1 + np.exp(-3.0)) * np.ones((1, 2)), rtol=1e-6)
    assert len(model.losses) == 1
    with pytest.raises(TypeError, match="called without inputs"):
        keras.layers.Dense(2)()


def test_keras_ops_image_resize_and_colour_conversions():
    rng = np.random.default_rng(0)
    x = rng.random((2, 8, 6, 3)).astype("float32")
    from tapegrad import image as tf_image
    np.testing.assert_allclose(keras.ops.image.resize(x, (4, 4)).numpy(),
                               tf_image.resize(x, [4, 4]).numpy(), rtol=1e-6)
    crop = keras.ops.image.resize(x, (4, 4), crop_to_aspect_ratio=True)   # central 6x6 crop first
    np.testing.assert_allclose(crop.numpy(), tf_image.resize(x[:, 1:7], [4, 4]).numpy(), rtol=1e-6)
    first = keras.ops.image.resize(np.transpose(x, [0, 3, 1, 2]), (4, 4), data_format="channels_first")
    np.testing.assert_allclose(np.transpose(first.numpy(), [0, 2, 3, 1]), tf_image.resize(x, [4, 4]).numpy(),
                               rtol=1e-6)
    assert keras.ops.image.rgb_to_grayscale(x[0]).shape == (8, 6, 1)
    np.testing.assert_allclose(keras.ops.image.hsv_to_rgb(keras.ops.image.rgb_to_hsv(x)).numpy(), x, atol=1e-6)
    inputs = keras.Input((8, 6, 3))
    model = keras.Model(inputs, keras.ops.image.resize(inputs, (4, 4)))
    assert type(model.operations[-1]).__name__ == "Resize" and model(x).shape == (2, 4, 4, 3)
    with pytest.raises(ValueError, match="Only one of"):
        keras.ops.image.resize(x, (4, 4), crop_to_aspect_ratio=True, pad_to_aspect_ratio=True)
