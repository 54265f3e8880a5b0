"""Title: Migrating Keras 2 code to multi-backend Keras 3 (Keras guide)
Source: https://github.com/keras-team/keras-io/blob/f6ba11af8ab221510beffd4a953bd1668cec06d2/guides/migrating_to_keras_3.py
Licence: Apache-2.0 (keras-team/keras-io)
Changed: the guide's executed code only (the error-reproducing snippets inside its docstrings are
not run by the guide either); run in a temporary working directory (export("saved_model"));
keras.utils.set_random_seed(0) (np.random, the initializers and tf.random are unseeded); the
models' kernels fixed (fix_weights) where they are built before use; verbose=0 (predict);
prints and displayed values -> RESULTS; multi_output_model.evaluate(x_test, y_test) -> the
model's outputs on x_test (Keras 3.15 itself rejects that evaluate: one target array for
two outputs, "The path: (0,) in the `loss` argument, can't be found"); the TFSMLayer, the dict-input
model and the exported model are also called once on small inputs to record their outputs.
"""

import os
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"

import keras
import tensorflow as tf
import numpy as np
from _corpus import fix_weights

keras.utils.set_random_seed(0)
RESULTS = {}
os.chdir(tempfile.mkdtemp())


class MyModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def call(self, inputs):
        # tf.strings ops aren't support by XLA
        string_input = tf.strings.as_string(inputs)
        return tf.strings.to_number(string_input)


subclass_model = MyModel()
x_train = np.array([[1, 2, 3], [4, 5, 6]])
subclass_model.jit_compile = False
RESULTS["strings_predict"] = subclass_model.predict(x_train, verbose=0)

sequential_model = keras.Sequential([keras.layers.Dense(2)])
sequential_model(np.random.rand(3, 5))
fix_weights(sequential_model)
sequential_model.export("saved_model")

_tfsm = keras.layers.TFSMLayer("saved_model", call_endpoint="serving_default")
RESULTS["tfsm_out"] = list(_tfsm(np.ones((1, 5), "float32")).values())[0]
RESULTS["sequential_out"] = sequential_model(np.ones((1, 5), "float32"))

inputs = {
    "foo": keras.Input(shape=(1,), name="foo"),
    "bar": keras.Input(shape=(1,), name="bar"),
}
outputs = inputs["foo"] + inputs["bar"]
_dict_model = keras.Model(inputs, outputs)
RESULTS["dict_model"] = _dict_model({"foo": np.ones((2, 1)), "bar": 2 * np.ones((2, 1))})


class MyCustomLayer(keras.layers.Layer):
    @tf.function()
    def call(self, inputs):
        if tf.random.uniform(()) > 0.5:
            return inputs * 2
        else:
            return inputs / 2


layer = MyCustomLayer()
data = np.random.uniform(size=[3, 3])
model = keras.models.Sequential([layer])
model.compile(optimizer="adam", loss="mse")
_pred = model.predict(data, verbose=0)
RESULTS["autograph_predict_ratio"] = np.round(_pred / data, 3)

input = keras.layers.Input([2, 2, 1])
RESULTS["squeeze_shape"] = [-1 if d is None else d for d in keras.ops.squeeze(input).shape]

from keras import layers

# A functional model with multiple outputs
inputs = layers.Input(shape=(10,))
x1 = layers.Dense(5, activation="relu")(inputs)
x2 = layers.Dense(5, activation="relu")(x1)
output_1 = layers.Dense(5, activation="softmax", name="output_1")(x1)
output_2 = layers.Dense(5, activation="softmax", name="output_2")(x2)
# dummy data
x_test = np.random.uniform(size=[10, 10])
y_test = np.random.uniform(size=[10, 5])
multi_output_model = keras.Model(inputs=inputs, outputs=[output_1, output_2])
fix_weights(multi_output_model)
multi_output_model.compile(
    optimizer="adam",
    loss="categorical_crossentropy",
    metrics=["categorical_crossentropy", "categorical_crossentropy"],
)
RESULTS["multi_output_out"] = multi_output_model(x_test)


class MyCustomLayer(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self.w = self.add_weight(
            shape=[input_dim, self.units],
            initializer="zeros",
        )
        self.b = self.add_weight(
            shape=[
                self.units,
            ],
            initializer="zeros",
        )

    def call(self, inputs):
        return keras.ops.matmul(inputs, self.w) + self.b


layer = MyCustomLayer(3)
data = np.random.uniform(size=[3, 3])
model = keras.models.Sequential([layer])
model.compile(optimizer="adam", loss="mse")
RESULTS["tracked_predict"] = model.predict(data, verbose=0)
# Verify that the variables are now being tracked
RESULTS["tracked_sizes"] = [[int(np.prod(v.shape)) for v in layer.trainable_variables] for layer in model.layers]


class CustomLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()

    def call(self, inputs):
        foo = inputs["foo"]
        baz = inputs["bar"]["baz"]
        return foo + baz


layer = CustomLayer()
inputs = {
    "foo": keras.Input(shape=(1,), name="foo"),
    "bar": {
        "baz": keras.Input(shape=(1,), name="bar"),
    },
}
RESULTS["nested_shape"] = [-1 if d is None else d for d in layer(inputs).shape]


class CustomLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()

    def call(self, foo, baz=None):
        if baz is not None:
            return foo + baz
        return foo


layer = CustomLayer()
foo = keras.Input(shape=(1,), name="foo")
baz = None
RESULTS["optional_shape"] = [-1 if d is None else d for d in layer(foo, baz=baz).shape]


class MyModel(keras.Model):
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        loss = keras.ops.sum(keras.losses.mean_squared_error(y, y_pred, sample_weight))
        return loss


class MyModel(keras.Model):
    def train_step(self, *args, **kwargs):
        if keras.backend.backend() == "jax":
            return self._jax_train_step(*args, **kwargs)
        elif keras.backend.backend() == "tensorflow":
            return self._tensorflow_train_step(*args, **kwargs)
        elif keras.backend.backend() == "torch":
            return self._torch_train_step(*args, **kwargs)

    def _jax_train_step(self, state, data):
        pass  # See guide: keras.io/guides/custom_train_step_in_jax/

    def _tensorflow_train_step(self, data):
        pass  # See guide: keras.io/guides/custom_train_step_in_tensorflow/

    def _torch_train_step(self, data):
        pass  # See guide: keras.io/guides/custom_train_step_in_torch/


RESULTS["stateless_normal"] = [keras.random.normal(shape=(), seed=123),
                               keras.random.normal(shape=(), seed=123)]

RESULTS["stateful_normal"] = [tf.random.normal(shape=(), seed=123),
                              tf.random.normal(shape=(), seed=123)]

seed_generator = keras.random.SeedGenerator(1337)
RESULTS["seed_generator_normal"] = [keras.random.normal(shape=(), seed=seed_generator),
                                    keras.random.normal(shape=(), seed=seed_generator)]


class RandomNoiseLayer(keras.layers.Layer):
    def __init__(self, noise_rate, **kwargs):
        super().__init__(**kwargs)
        self.noise_rate = noise_rate
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        noise = keras.random.uniform(
            minval=0, maxval=self.noise_rate, seed=self.seed_generator
        )
        return inputs + noise
