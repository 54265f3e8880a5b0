"""Whole-model saving (``.keras``), configs, the custom-object registry and checkpoint listing,
against Keras 3.15 (configs and outputs recorded by tools/record_keras_saving.py)."""
import inspect
import json
import os
import sys
import zipfile

import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras
from tapegrad.keras.layers.layer import Layer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from record_keras_saving import MODELS

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_saving.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["models"]


@keras.saving.register_keras_serializable(package="Tests")
class Scale(keras.layers.Layer):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones")

    def call(self, x):
        return x * self.w * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


@keras.saving.register_keras_serializable(package="Tests")
class Net(keras.Model):
    def __init__(self, units=3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.dense = keras.layers.Dense(units)
        self.scale = Scale(0.5)

    def call(self, x):
        return self.scale(self.dense(x))

    def get_config(self):
        return {**super().get_config(), "units": self.units}


class Unregistered(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(2)

    def call(self, x):
        return self.dense(x)


class NoConfig(keras.Model):
    def __init__(self, units):
        super().__init__()
        self.dense = keras.layers.Dense(units)

    def call(self, x):
        return self.dense(x)


def data(n=16, d=4, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d)).astype("float32")
    return x, (x @ rng.standard_normal((d, 1))).astype("float32")


def same_weights(a, b):
    wa, wb = a.get_weights(), b.get_weights()
    return len(wa) == len(wb) and all(np.array_equal(x, y) for x, y in zip(wa, wb))


# ---- Keras's configs ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(RECORDED))
def test_keras_config_loads_with_keras_outputs(name):
    rec = RECORDED[name]
    keras.backend.clear_session()
    model = keras.models.model_from_json(json.dumps(rec["config"]))
    model.set_weights([np.array(w, "float32") for w in rec["weights"]])
    y = model.predict(np.array(rec["x"]), verbose=0)
    for got, want in zip(y if isinstance(y, list) else [y], rec["y"]):
        np.testing.assert_allclose(got, np.array(want), rtol=1e-5, atol=1e-6)


# Keras 3 keys tapegrad's configs leave out (options tapegrad does not have, and internals)
_KERAS_ONLY = {"quantization_config", "input_axes", "output_axes", "shared_object_id", "build_config",
               "activity_regularizer", "mask", "training", "dtype"}


def _compare(ours, theirs, path, problems):
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for k in set(ours) | set(theirs):
            if k not in ours:
                if k not in _KERAS_ONLY:
                    problems.append(f"{path}/{k} missing")
            elif k not in theirs:
                if k != "build_config":
                    problems.append(f"{path}/{k} is not in Keras's config")
            else:
                _compare(ours[k], theirs[k], f"{path}/{k}", problems)
    elif isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _compare(a, b, f"{path}/{i}", problems)
    elif ours != theirs:
        problems.append(f"{path}: {ours!r} != {theirs!r}")


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_config_matches_keras(name):
    keras.backend.clear_session()
    model = MODELS[name][0](keras)
    theirs = {k: v for k, v in RECORDED[name]["config"].items() if k not in ("build_config", "compile_config")}
    problems = []
    _compare(json.loads(model.to_json()), theirs, name, problems)
    assert not problems, problems


# ---- whole-model round trips ----------------------------------------------------------------------

def test_sequential_compiled_round_trip_continues_training_identically(tmp_path):
    x, y = data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    path = tmp_path / "model.keras"
    model.save(path)
    with zipfile.ZipFile(path) as z:
        assert sorted(z.namelist()) == ["config.json", "metadata.json", "model.weights.npz"]
        assert json.loads(z.read("metadata.json"))["keras_version"].startswith("3.")
    loaded = keras.models.load_model(path)
    assert type(loaded.optimizer).__name__ == "Adam"
    assert loaded.optimizer.get_config() == model.optimizer.get_config()
    assert int(loaded.optimizer.iterations.numpy()) == int(model.optimizer.iterations.numpy()) == 8
    assert same_weights(model, loaded)
    assert all(np.array_equal(a.numpy(), b.numpy())
               for a, b in zip(model.optimizer.variables, loaded.optimizer.variables))
    h1 = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0).history
    h2 = loaded.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0).history
    assert h1 == h2 and list(h1) == ["loss", "mae"]
    assert same_weights(model, loaded)


def test_model_checkpoint_saves_keras_files_with_a_schedule(tmp_path):
    x, y = data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    schedule = keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.9)
    model.compile(optimizer=keras.optimizers.Adam(schedule), loss="mse")
    path = tmp_path / "best.keras"
    model.fit(x, y, epochs=2, batch_size=8, verbose=0,
              callbacks=[keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True)])
    loaded = keras.models.load_model(path)
    assert loaded.optimizer.get_config()["learning_rate"].get_config() == schedule.get_config()
    assert int(loaded.optimizer.iterations.numpy()) == 4
    assert same_weights(model, loaded)


def test_saving_namespace_weights_functions(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    keras.saving.save_weights(model, tmp_path / "w.npz")
    other = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    keras.saving.load_weights(other, tmp_path / "w.npz")
    assert same_weights(model, other)
    assert "clone_model" not in keras.saving.__all__ and "get_registered_name" not in keras.utils.__all__


def test_load_without_compile(tmp_path):
    x, _y = data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras", compile=False)
    assert not loaded.compiled and loaded.optimizer is None
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_functional_with_branches_round_trip(tmp_path):
    keras.backend.clear_session()
    model = MODELS["branches"][0](keras)
    model.compile(optimizer="rmsprop", loss=["mse", "sparse_categorical_crossentropy"])
    x = np.random.default_rng(1).standard_normal((8, 6)).astype("float32")
    model.fit(x, [x[:, :1], (x[:, 0] > 0).astype("int32")], verbose=0)
    keras.saving.save_model(model, tmp_path / "f.keras")
    loaded = keras.saving.load_model(tmp_path / "f.keras")
    assert [layer.name for layer in loaded.layers] == [layer.name for layer in model.layers]
    assert loaded.output_names == model.output_names == ["score", "cls"]
    for a, b in zip(loaded.predict(x, verbose=0), model.predict(x, verbose=0)):
        np.testing.assert_array_equal(a, b)
    assert loaded.loss == ["mse", "sparse_categorical_crossentropy"]


def test_subclassed_registered_model_round_trip(tmp_path):
    x, _y = data()
    model = Net(3)
    model(x)
    model.scale.w.assign([1.0, 2.0, 3.0])
    model.save(tmp_path / "net.keras")
    loaded = keras.models.load_model(tmp_path / "net.keras")
    assert type(loaded) is Net and loaded.units == 3 and loaded.scale.factor == 0.5
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_custom_layer_in_sequential_round_trip(tmp_path):
    x, _ = data()
    model = keras.Sequential([keras.Input((4,)), Scale(3.0, name="scale"), keras.layers.Dense(2)])
    model.get_layer("scale").w.assign([1.0, -1.0, 2.0, 0.5])
    model.save(tmp_path / "s.keras")
    loaded = keras.models.load_model(tmp_path / "s.keras")
    assert isinstance(loaded.layers[0], Scale) and loaded.layers[0].factor == 3.0
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_custom_objects_and_scope_find_unregistered_classes(tmp_path):
    x, _ = data()
    model = Unregistered()
    model(x)
    model.save(tmp_path / "u.keras")
    with pytest.raises(TypeError, match="Could not locate class 'Unregistered'"):
        keras.models.load_model(tmp_path / "u.keras")
    loaded = keras.models.load_model(tmp_path / "u.keras", custom_objects={"Unregistered": Unregistered})
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())
    with keras.utils.custom_object_scope({"Unregistered": Unregistered}):
        assert type(keras.models.load_model(tmp_path / "u.keras")) is Unregistered
    with keras.saving.CustomObjectScope({"Unregistered": Unregistered}):
        assert keras.saving.get_registered_object("Unregistered") is Unregistered
    assert keras.saving.get_registered_object("Unregistered") is None


@keras.saving.register_keras_serializable(package="Tests", name="square")
def square(x):
    return x**2


def test_registered_activation_round_trip(tmp_path):
    inputs = keras.Input((4,))
    model = keras.Model(inputs, keras.layers.Dense(1, activation=square)(Scale(0.5)(inputs)))
    model.compile(optimizer="rmsprop", loss="mean_squared_error")
    model.save(tmp_path / "a.keras")
    loaded = keras.models.load_model(tmp_path / "a.keras")
    assert loaded.layers[-1].activation is square
    assert keras.activations.serialize(square)["config"] == "Tests>square"
    assert keras.activations.get("Tests>square") is square
    x = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


@keras.saving.register_keras_serializable(package="Tests")
class AutoLayer(keras.layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units))

    def call(self, x):
        return x @ self.w


@keras.saving.register_keras_serializable(package="Tests")
class AutoModel(keras.Model):
    def __init__(self, units=2, activation="relu", **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units, activation=activation)
        self.extra = AutoLayer(3)

    def call(self, x):
        return self.extra(self.dense(x))


def test_default_get_config_records_plain_constructor_arguments(tmp_path):
    # Keras 3 records the plain arguments of a layer class without get_config; a subclassed
    # model's Model.__new__ passes none on, so its config holds its __init__ defaults
    policy = {"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float32"}, "registered_name": None}
    assert AutoLayer(4, name="auto").get_config() == {"name": "auto", "trainable": True, "dtype": policy, "units": 4}
    assert AutoModel(4, activation="tanh", name="m").get_config() == {
        "name": "m", "units": 2, "activation": "relu", "trainable": True, "dtype": policy}
    model = AutoModel(name="m")
    x = np.ones((2, 5), "float32")
    model(x)
    model.save(tmp_path / "auto.keras")
    loaded = keras.models.load_model(tmp_path / "auto.keras")
    assert loaded.dense.units == 2 and loaded.extra.units == 3 and loaded.name == "m"
    np.testing.assert_array_equal(loaded(x).numpy(), model(x).numpy())


def test_subclassed_model_without_get_config_cannot_be_saved(tmp_path):
    model = NoConfig(2)   # a positional argument (Keras 3 refuses it too)
    model(np.ones((1, 3)))
    with pytest.raises(NotImplementedError, match="get_config"):
        model.save(tmp_path / "n.keras")

    class Holder(keras.layers.Layer):
        def __init__(self, thing):
            super().__init__()
            self.thing = thing

    with pytest.raises(NotImplementedError, match="non-serializable argument values"):
        Holder(object()).get_config()


def test_lambda_layers_save_named_functions_only(tmp_path):
    named = keras.Sequential([keras.Input((2,)), keras.layers.Lambda(keras.activations.relu)])
    named.save(tmp_path / "r.keras")
    assert keras.models.load_model(tmp_path / "r.keras").layers[0].function is keras.activations.relu
    model = keras.Sequential([keras.Input((2,)), keras.layers.Lambda(lambda x: 2 * x)])
    with pytest.warns(UserWarning, match="never stores or loads code"):  # (Keras saves it, as bytecode)
        model.save(tmp_path / "l.keras")
    with pytest.raises(ValueError, match="never loads code"):
        keras.models.load_model(tmp_path / "l.keras")
    keras_config = {"module": "keras.layers", "class_name": "Lambda", "registered_name": None,
                    "config": {"name": "lambda", "function": {"class_name": "__lambda__",
                                                              "config": {"value": ["4wEAAAAA", None, None]}}}}
    for safe_mode in (True, False):
        with pytest.raises(ValueError, match="never loads code"):
            keras.saving.deserialize_keras_object(keras_config, safe_mode=safe_mode)


@pytest.mark.parametrize("filename, match", [
    ("model", "Invalid filepath extension"), ("model.tf", "Invalid filepath extension")])
def test_save_rejects_other_formats(tmp_path, filename, match):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match=match):
        model.save(tmp_path / filename)


def test_save_and_load_errors(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.save(tmp_path / "m.keras")
    with pytest.raises(FileExistsError):
        model.save(tmp_path / "m.keras", overwrite=False)
    with pytest.raises(ValueError, match="zip"):
        model.save(tmp_path / "z.keras", zipped=False)
    with pytest.raises(ValueError, match="File not found"):
        keras.models.load_model(tmp_path / "missing.keras")
    with pytest.raises(ValueError, match="File format not supported"):
        keras.models.load_model(tmp_path / "m")
    with zipfile.ZipFile(tmp_path / "no_weights.keras", "w") as z:
        z.writestr("config.json", "{}")
    with pytest.raises(ValueError, match="has no model.weights.npz"):
        keras.models.load_model(tmp_path / "no_weights.keras")


# ---- configs, clone, JSON -------------------------------------------------------------------------

def test_clone_model_has_same_architecture_new_weights():
    keras.backend.clear_session()
    model = MODELS["branches"][0](keras)
    clone = keras.models.clone_model(model)
    assert clone is not model and clone.get_config() == model.get_config()
    assert not any(a is b for a, b in zip(clone.weights, model.weights))
    assert not np.array_equal(clone.get_layer("left").kernel.numpy(), model.get_layer("left").kernel.numpy())
    seq = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d")])
    assert [layer.name for layer in keras.models.clone_model(seq).layers] == ["d"]


def test_to_json_and_model_from_json():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="relu")], name="seq")
    again = keras.models.model_from_json(model.to_json())
    assert again.name == "seq" and again.get_config() == model.get_config()
    assert json.loads(model.to_json())["class_name"] == "Sequential"


_LAYER_ARGS = {
    "AveragePooling1D": {"pool_size": 2}, "AveragePooling2D": {"pool_size": 2},
    "MaxPooling1D": {"pool_size": 3, "strides": 1}, "MaxPooling2D": {"pool_size": 2},
    "Bidirectional": {"layer": keras.layers.LSTM(3, return_sequences=True)},
    "Conv1D": {"filters": 2, "kernel_size": 3}, "Conv2D": {"filters": 2, "kernel_size": 3, "activation": "relu"},
    "ConvLSTM1D": {"filters": 2, "kernel_size": 3}, "ConvLSTM2D": {"filters": 2, "kernel_size": 3, "dropout": 0.1},
    "ConvLSTM3D": {"filters": 2, "kernel_size": 2},
    "Conv2DTranspose": {"filters": 2, "kernel_size": 3}, "DepthwiseConv2D": {"kernel_size": 3},
    "SeparableConv2D": {"filters": 2, "kernel_size": 3}, "Embedding": {"input_dim": 5, "output_dim": 2},
    "GRU": {"units": 3}, "LSTM": {"units": 3}, "SimpleRNN": {"units": 3},
    "Dense": {"units": 3, "activation": "relu", "kernel_regularizer": "l2"}, "Activation": {"activation": "tanh"},
    "Dropout": {"rate": 0.3, "seed": 2}, "Reshape": {"target_shape": (2, 3)}, "Softmax": {"axis": 1},
    "LeakyReLU": {"negative_slope": 0.2}, "ReLU": {"max_value": 6.0}, "Concatenate": {"axis": 1},
    "Lambda": {"function": keras.activations.relu}, "InputLayer": {"shape": (3,)},
    "Normalization": {"mean": [1.0, 2.0], "variance": [4.0, 1.0]},
    "AlphaDropout": {"rate": 0.2}, "GaussianDropout": {"rate": 0.2}, "GaussianNoise": {"stddev": 0.1},
    "SpatialDropout1D": {"rate": 0.2}, "SpatialDropout2D": {"rate": 0.2}, "SpatialDropout3D": {"rate": 0.2},
    "CategoryEncoding": {"num_tokens": 4}, "Discretization": {"bin_boundaries": [0.0, 1.0]},
    "Hashing": {"num_bins": 3}, "HashedCrossing": {"num_bins": 3}, "CenterCrop": {"height": 2, "width": 2},
    "Resizing": {"height": 2, "width": 2},
    "RandomCrop": {"height": 2, "width": 2}, "RandomBrightness": {"factor": 0.2}, "RandomContrast": {"factor": 0.2},
    "MaxNumBoundingBoxes": {"max_number": 3}, "RandomColorDegeneration": {"factor": 0.5},
    "RandomHue": {"factor": 0.5}, "RandomPosterization": {"factor": (1, 4)}, "RandomSaturation": {"factor": 0.5},
    "RandomSharpness": {"factor": 0.5},
    "RandomRotation": {"factor": 0.1}, "RandomTranslation": {"height_factor": 0.1, "width_factor": 0.1},
    "RandomZoom": {"height_factor": 0.1}, "Rescaling": {"scale": 0.5, "offset": 1.0},
    "Conv1DTranspose": {"filters": 2, "kernel_size": 3}, "Conv3D": {"filters": 2, "kernel_size": 2},
    "Conv3DTranspose": {"filters": 2, "kernel_size": 2}, "Dot": {"axes": 1},
    "EinsumDense": {"equation": "ab,bc->ac", "output_shape": 3, "bias_axes": "c"},
    "Permute": {"dims": (2, 1)}, "RepeatVector": {"n": 2},
    "SimpleRNNCell": {"units": 3}, "LSTMCell": {"units": 3}, "GRUCell": {"units": 3},
    "RNN": {"cell": keras.layers.LSTMCell(3), "return_sequences": True},
    "StackedRNNCells": {"cells": [keras.layers.LSTMCell(2), keras.layers.GRUCell(3)]},
    "TimeDistributed": {"layer": keras.layers.Dense(2)}, "Wrapper": {"layer": keras.layers.Dense(2)},
    "RandomHeight": {"factor": 0.2, "seed": 3}, "RandomWidth": {"factor": (-0.2, 0.3)},
    "Pipeline": {"layers": [keras.layers.Rescaling(2.0), keras.layers.RandomFlip(seed=1)]},
    "MultiHeadAttention": {"num_heads": 2, "key_dim": 3},
    **{f"Adaptive{k}Pooling{n}D": {"output_size": 2} for k in ("Average", "Max") for n in (1, 2, 3)},
    "DepthwiseConv1D": {"kernel_size": 3}, "SeparableConv1D": {"filters": 2, "kernel_size": 3},
    "ReversibleEmbedding": {"input_dim": 5, "output_dim": 2, "logit_soft_cap": 3.0},
    "SpectralNormalization": {"layer": keras.layers.Dense(2), "power_iterations": 2},
    "GroupQueryAttention": {"head_dim": 2, "num_query_heads": 4, "num_key_value_heads": 2, "sliding_window": 3},
}


def _layer_classes():
    for name in sorted(keras.layers._LAZY):
        cls = getattr(keras.layers, name)
        if inspect.isclass(cls) and issubclass(cls, Layer) and cls.__name__ == name and cls is not Layer \
                and name != "TFSMLayer":  # (needs a SavedModel folder: tests/test_saved_model.py)
            yield name


@pytest.mark.parametrize("name", list(_layer_classes()))
def test_every_layer_config_round_trips(name):
    cls = getattr(keras.layers, name)
    required = [p for p in list(inspect.signature(cls.__init__).parameters.values())[1:]
                if p.default is p.empty and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    assert name in _LAYER_ARGS or not required, f"add constructor arguments for {name} to _LAYER_ARGS"
    layer = cls(**_LAYER_ARGS.get(name, {}))
    config = layer.get_config()
    assert type(layer).from_config(config).get_config() == config
    text = json.dumps(keras.saving.serialize_keras_object(layer))
    again = keras.saving.deserialize_keras_object(json.loads(text))
    assert type(again) is cls
    assert json.dumps(keras.saving.serialize_keras_object(again)) == text


def test_serialize_and_deserialize_keras_objects():
    S, D = keras.saving.serialize_keras_object, keras.saving.deserialize_keras_object
    assert S(keras.activations.relu) == {"module": "builtins", "class_name": "function", "config": "relu",
                                         "registered_name": "function"}
    assert D(S(keras.activations.relu)) is keras.activations.relu
    assert S(keras.initializers.HeNormal(seed=1)) == {  # (Keras 3.15: with input_axes/output_axes)
        "module": "keras.initializers", "class_name": "HeNormal",
        "config": {"seed": 1, "input_axes": None, "output_axes": None}, "registered_name": None}
    assert type(D(S(keras.initializers.HeNormal(seed=1)))).__name__ == "HeNormal"
    assert S(keras.losses.MeanSquaredError()) == {
        "module": "keras.losses", "class_name": "MeanSquaredError",
        "config": {"name": "mean_squared_error", "reduction": "sum_over_batch_size"}, "registered_name": None}
    assert D(S(keras.losses.Huber(2.0))).get_config()["delta"] == 2.0
    assert S(keras.losses.mean_squared_error)["config"] == "mean_squared_error"
    opt = D(S(keras.optimizers.SGD(0.1, momentum=0.5)))
    assert type(opt).__name__ == "SGD" and opt.get_config()["momentum"] == 0.5
    assert S(np.array([1.0, 2.0])) == {"class_name": "__numpy__", "config": {"value": [1.0, 2.0], "dtype": "float64"}}
    np.testing.assert_array_equal(D(S(np.array([1.0, 2.0]))), [1.0, 2.0])
    layer = D(S(keras.layers.Dense(3, name="d")))
    assert type(layer).__name__ == "Dense" and layer.units == 3 and layer.name == "d"
    assert D("relu") == "relu"
    with pytest.raises(TypeError, match="Could not locate function 'my_loss'"):
        D({"module": "builtins", "class_name": "function", "config": "my_loss", "registered_name": "function"})
    with pytest.raises(TypeError, match="Could not locate class 'Nope'"):
        D({"module": None, "class_name": "Nope", "config": {}, "registered_name": "Nope"})


def test_registry():
    assert keras.saving.get_registered_name(Scale) == "Tests>Scale"
    assert keras.saving.get_registered_object("Tests>Scale") is Scale
    assert keras.saving.get_custom_objects()["Tests>Net"] is Net
    assert keras.saving.get_registered_name(keras.layers.Dense) == "Dense"
    assert keras.utils.register_keras_serializable is keras.saving.register_keras_serializable
    serialized = keras.saving.serialize_keras_object(Scale(2.0, name="s"))
    assert serialized["registered_name"] == "Tests>Scale" and serialized["config"]["factor"] == 2.0

    @keras.saving.register_keras_serializable(package="Tests", name="twice")
    def twice(x):
        return 2 * x

    try:
        assert keras.saving.serialize_keras_object(twice)["config"] == "Tests>twice"
        assert keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(twice)) is twice
    finally:
        del keras.saving.get_custom_objects()["Tests>twice"]
    with pytest.raises(ValueError, match="get_config"):
        keras.saving.register_keras_serializable()(type("Plain", (), {}))


# ---- tf.train: reading checkpoints ----------------------------------------------------------------

def test_list_and_load_variables_of_a_checkpoint(tmp_path):
    x, y = data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2), keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(0.01)
    model.compile(opt, "mse")
    model.fit(x, y, batch_size=4, verbose=0)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "ckpt"))
    listed = dict(tf.train.list_variables(path))
    assert tf.train.list_variables(str(tmp_path)) == tf.train.list_variables(path)
    # TensorFlow's names and shapes for a Keras 3 optimizer's variables
    suffix = "/.ATTRIBUTES/VARIABLE_VALUE"
    assert {k: v for k, v in listed.items() if k.startswith("optimizer/")} == {
        "optimizer/_iterations" + suffix: [], "optimizer/_learning_rate" + suffix: [],
        **{f"optimizer/_variables/{i}{suffix}": s for i, s in
           zip(range(2, 10), [[4, 2], [4, 2], [2], [2], [2, 1], [2, 1], [1], [1]])}}
    assert listed["save_counter" + suffix] == []
    # TensorFlow's names for a Keras 3 Sequential's layers, and its compiled optimizer under the model
    assert {k: s for k, s in listed.items() if k.startswith("model/_functional/")} == {
        f"model/_functional/_operations/{i}/{w}{suffix}": s for i, w, s in
        [(1, "_kernel", [4, 2]), (1, "bias", [2]), (2, "_kernel", [2, 1]), (2, "bias", [1])]}
    assert {k[len("model/"):]: s for k, s in listed.items() if k.startswith("model/optimizer/")} == \
        {k: s for k, s in listed.items() if k.startswith("optimizer/")}
    assert int(tf.train.load_variable(path, "optimizer/_iterations" + suffix)) == 4
    reader = tf.train.load_checkpoint(path)
    assert reader.has_tensor("optimizer/_iterations") and not reader.has_tensor("nope")
    assert reader.get_variable_to_dtype_map()["optimizer/_iterations" + suffix] == tf.int64
    np.testing.assert_array_equal(reader.get_tensor("optimizer/_learning_rate" + suffix), np.float32(0.01))
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        tf.train.load_variable(path, "nope")
    with pytest.raises(tf.errors.NotFoundError):
        tf.train.list_variables(str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file"):
        tf.train.list_variables(str(tmp_path / "empty"))
    restored = keras.optimizers.Adam(0.01)
    restored.build(model.trainable_variables)
    tf.train.Checkpoint(model=model, optimizer=restored).restore(path).assert_consumed()
    assert int(restored.iterations.numpy()) == 4


def test_load_weights_reads_a_keras_archive(tmp_path):
    # Keras 3: model.load_weights("x.keras") reads the archive's weights (tapegrad's or Keras's)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    model.compile("adam", "mse")
    model.save(tmp_path / "m.keras")
    other = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    other.load_weights(tmp_path / "m.keras")
    for a, b in zip(model.get_weights(), other.get_weights()):
        np.testing.assert_array_equal(a, b)
    import importlib.util
    if importlib.util.find_spec("h5py") is not None:  # (Keras's archive holds HDF5 weights)
        path = os.path.join(os.path.dirname(__file__), "fixtures", "keras_conv_lstm.keras")
        written = keras.models.load_model(path)
        again = keras.models.model_from_json(written.to_json())
        again.load_weights(path)
        for a, b in zip(written.get_weights(), again.get_weights()):
            np.testing.assert_array_equal(a, b)
