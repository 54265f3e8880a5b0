"""Keras's saving hooks in ``.keras`` files (saving_lib's walk of the model): a layer's
``save_own_variables``/``load_own_variables`` and ``save_assets``/``load_assets`` called with the
store and the assets folder of its path, ``get_build_config``/``build_from_config`` and
``get_compile_config``/``compile_from_config`` used when overridden."""
import os
import zipfile

import numpy as np
import pytest

from tapegrad import keras


@keras.saving.register_keras_serializable(package="hooks_test")
class Scaled(keras.layers.Dense):
    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        self.scale = keras.Variable(np.full((units,), 2.0, "float32"), name="scale", trainable=False)

    def save_own_variables(self, store):
        super().save_own_variables(store)
        store["scale_times_ten"] = self.scale.numpy() * 10

    def load_own_variables(self, store):
        self.scale.assign(store["scale_times_ten"] / 10)
        self.kernel.assign(store["0"])
        self.bias.assign(store["1"])

    def call(self, x):
        return super().call(x) * self.scale


@keras.saving.register_keras_serializable(package="hooks_test")
class WithAssets(keras.layers.Layer):
    def __init__(self, text="", **kwargs):
        super().__init__(**kwargs)
        self.text = text
        self.seen = None

    def save_assets(self, inner_path):
        with open(os.path.join(inner_path, "text.txt"), "w") as fh:
            fh.write(self.text.upper())

    def load_assets(self, inner_path):
        self.seen = inner_path
        with open(os.path.join(inner_path, "text.txt")) as fh:
            self.text = fh.read()

    def call(self, x):
        return x


def test_own_variables_and_assets_round_trip(tmp_path):
    model = keras.Sequential([keras.Input((3,)), Scaled(2, name="scaled"), WithAssets("abc", name="w")])
    model.layers[0].scale.assign([3.0, 4.0])
    path = str(tmp_path / "m.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    assert "assets/layers/with_assets/text.txt" in names   # (Keras's path of the layer)
    again = keras.models.load_model(path)
    np.testing.assert_array_equal(again.layers[0].scale.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(again.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())
    assert again.layers[1].text == "ABC" and again.layers[1].seen is not None
    x = np.ones((1, 3), "float32")
    np.testing.assert_allclose(again(x).numpy(), model(x).numpy(), rtol=1e-6)


def test_default_own_variables_store_is_keras_layout():
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    store = {}
    layer.save_own_variables(store)
    assert sorted(store) == ["0", "1"] and store["0"].shape == (3, 2)
    other = keras.layers.Dense(2)
    other.build((None, 3))
    other.load_own_variables(store)
    np.testing.assert_array_equal(other.kernel.numpy(), layer.kernel.numpy())
    with pytest.raises(ValueError, match="expected 2 variables, but received 1"):
        other.load_own_variables({"0": store["0"]})


def test_assets_outside_their_folder_are_refused(tmp_path):
    model = keras.Sequential([keras.Input((3,)), WithAssets("abc", name="w")])
    path = str(tmp_path / "m.keras")
    model.save(path)
    bad = str(tmp_path / "bad.keras")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(bad, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        dst.writestr("assets/../../escape.txt", "x")
    with pytest.raises(ValueError, match="outside its assets folder"):
        keras.models.load_model(bad)


@keras.saving.register_keras_serializable(package="hooks_test")
class CustomBuild(keras.layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape, init):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer=init)
        self.init, self._shape = init, input_shape

    def call(self, x):
        return x @ self.w

    def get_config(self):
        return dict(units=self.units, **super().get_config())

    def get_build_config(self):
        return {"input_shape": self._shape, "init": self.init}

    def build_from_config(self, config):
        self.build(config["input_shape"], config["init"])


@keras.saving.register_keras_serializable(package="hooks_test")
class CustomCompile(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def compile(self, optimizer, loss_fn):
        super().compile(optimizer=optimizer, loss=loss_fn)
        self.saved = (optimizer, loss_fn)

    def get_compile_config(self):
        return {"optimizer": self.saved[0], "loss_fn": self.saved[1]}

    def compile_from_config(self, config):
        self.compile(keras.utils.deserialize_keras_object(config["optimizer"]),
                     keras.utils.deserialize_keras_object(config["loss_fn"]))


def test_build_and_compile_hooks(tmp_path):
    layer = CustomBuild(3, name="cb")
    layer.build((4,), "ones")
    model = keras.Sequential([layer])
    model(np.ones((2, 4), "float32"))
    path = str(tmp_path / "b.keras")
    model.save(path)
    again = keras.models.load_model(path)
    assert again.layers[0].init == "ones" and again.built
    np.testing.assert_array_equal(again.layers[0].w.numpy(), np.ones((4, 3)))

    net = CustomCompile()
    net.compile("sgd", "mse")
    net.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)
    path = str(tmp_path / "c.keras")
    net.save(path)
    again = keras.models.load_model(path)
    assert again.compiled and again.saved[1] == "mse"
