"""The symbolic graph of functional and Sequential models (``input``, ``output``, ``inputs``,
``outputs``, ``input_shape``, ``output_shape``, feature-extractor sub-models, Keras 3's input-rank
adjustment), Keras 3's training-step contract (the batch ``train_step`` receives,
``compile_metrics`` in ``model.metrics``) and its variables (names, paths, tracking), against the
facts tools/record_keras_graph.py recorded from Keras 3.15 (tests/fixtures/keras_graph.json)."""
import json
import os
import warnings

import keras_graph_cases as cases
import numpy as np
import pytest

import tapegrad as tf
from tapegrad import keras

with open(os.path.join(os.path.dirname(__file__), "fixtures", "keras_graph.json")) as _f:
    REC = json.load(_f)


@pytest.fixture(scope="module")
def facts():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the warnings about untracked tf.Variables
        return json.loads(json.dumps(cases.facts(keras, tf)))


@pytest.mark.parametrize("section", ["graph", "rank", "steps", "variables"])
def test_facts_match_keras(facts, section):
    got, want = facts[section], REC[section]
    assert sorted(got) == sorted(want)
    for key in want:
        assert got[key] == want[key], key


def _functional():
    inputs = keras.Input((4,), name="x")
    d1, d2 = keras.layers.Dense(3, name="d1"), keras.layers.Dense(2, name="d2")
    hidden = d1(inputs)
    return inputs, d1, d2, hidden, keras.Model(inputs, d2(hidden))


# ---- functional graph -----------------------------------------------------------------------------

def test_layer_input_and_output_are_its_first_symbolic_call():
    inputs, d1, d2, hidden, model = _functional()
    assert d1.input is inputs and d1.output is hidden and d2.input is hidden
    d1(keras.Input((4,)))  # a second call: input and output stay the first call's
    assert d1.output is hidden
    assert model.layers[0].output is inputs and model.layers[0].input == []
    for attr in ("input_shape", "output_shape", "inputs", "outputs"):
        assert not hasattr(d1, attr)  # Keras 3 layers have none of these


def test_layer_never_called_symbolically_has_no_output():
    layer = keras.layers.Dense(2)
    layer(np.zeros((1, 3), np.float32))  # an eager call adds no node
    with pytest.raises(AttributeError, match="never been called"):
        _ = layer.output


def test_functional_model_ends_and_shapes():
    inputs, _, _, hidden, model = _functional()
    assert model.input is inputs and model.inputs == [inputs]
    assert model.input_shape == (None, 4) and model.output_shape == (None, 2)
    two = keras.Model([inputs], [model.output, hidden])
    assert two.input == [inputs] and two.output_shape == [(None, 2), (None, 3)]


def test_feature_extractor_shares_weights():
    _, d1, _, _, model = _functional()
    sub = keras.Model(model.inputs, [model.get_layer("d1").output, model.output])
    assert sub.get_layer("d1") is d1 and [l.name for l in sub.layers] == ["x", "d1", "d2"]
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    h, out = sub(x)
    np.testing.assert_allclose(h.numpy(), x @ d1.kernel.numpy() + d1.bias.numpy(), rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), model(x).numpy(), rtol=1e-6)
    d1.kernel.assign(np.ones((4, 3), np.float32))  # one set of weights for both models
    np.testing.assert_allclose(sub(x)[0].numpy(), model.get_layer("d1")(x).numpy())
    with tf.GradientTape() as tape:
        h, out = sub(tf.constant(x))
        loss = tf.reduce_sum(out)
    assert tape.gradient(loss, h).shape == (2, 3)  # Grad-CAM's gradient at an inner layer


# ---- Sequential ------------------------------------------------------------------------------------

def test_sequential_with_input_shape_builds_its_graph_at_construction():
    keras.backend.clear_session()
    seq = keras.Sequential([keras.layers.Dense(3, input_shape=(4,), name="s1"),
                            keras.layers.Dense(2, name="s2")])
    assert seq.input_shape == (None, 4) and seq.output_shape == (None, 2)
    assert seq.inputs[0].shape == (None, 4) and seq.outputs[0] is seq.layers[1].output
    assert [l.name for l in seq.layers] == ["s1", "s2"]  # the InputLayer is not listed
    sub = keras.Model(seq.inputs, seq.get_layer("s1").output)
    assert sub.layers[1] is seq.layers[0] and sub(np.ones((1, 4))).shape == (1, 3)
    with pytest.raises(AttributeError, match="never been called"):
        _ = seq.output  # as Keras 3: a Sequential's own `output` is its symbolic call's
    seq.add(keras.layers.Dense(5))
    assert seq.output_shape == (None, 5)


def test_sequential_without_input_builds_on_first_call():
    seq = keras.Sequential([keras.layers.Dense(3)])
    for attr in ("inputs", "outputs", "input_shape", "output_shape"):
        with pytest.raises(AttributeError, match="no defined"):
            getattr(seq, attr)
    seq(np.zeros((2, 5), np.float32))
    assert seq.inputs[0].shape == (2, 5)  # Keras 3 keeps the first batch's size
    assert seq.layers[0].output.shape == (2, 3)
    assert seq(np.zeros((7, 5), np.float32)).shape == (7, 3)
    with pytest.raises(ValueError, match="already been configured"):
        seq.build((None, 6))


def _dense_model(shape):
    inputs = keras.Input(shape)
    return keras.Model(inputs, keras.layers.Dense(2)(inputs))


def test_model_input_rank_adjusted_as_keras_3():
    for model in (keras.Sequential([keras.Input((1,)), keras.layers.Dense(2)]), _dense_model((1,))):
        model.set_weights([np.array([[1.0, 2.0]]), np.zeros(2)])
        out = model(np.array([1.0, 3.0], np.float32))  # (2,) -> (2, 1)
        np.testing.assert_allclose(out.numpy(), [[1, 2], [3, 6]])
        assert model.predict(np.ones(5, np.float32), verbose=0).shape == (5, 2)
    model = _dense_model((3,))
    assert model(np.ones((4, 3, 1), np.float32)).shape == (4, 2)  # trailing 1 squeezed
    with pytest.raises(ValueError, match="Invalid input shape"):
        model(np.ones((4,), np.float32))


# ---- training-step contract ---------------------------------------------------------------------------

class _Recorder(keras.Model):
    def train_step(self, data):
        self.seen.append(data)
        return super().train_step(data)


@pytest.mark.parametrize("sample_weight", [False, True])
def test_train_step_receives_the_batch_as_keras_3_packs_it(sample_weight):
    inputs = keras.Input((2,))
    model = _Recorder(inputs, keras.layers.Dense(1)(inputs))
    model.seen = []
    model.compile(optimizer="sgd", loss="mse")
    x, y, sw = np.ones((4, 2), np.float32), np.ones((4, 1), np.float32), np.ones(4, np.float32)
    model.fit(x, y, sample_weight=sw if sample_weight else None, batch_size=4, verbose=0,
              shuffle=False)
    assert isinstance(model.seen[0], tuple) and len(model.seen[0]) == (3 if sample_weight else 2)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    model.seen = []
    model.fit(ds, verbose=0)
    # as the dataset yields it; the step is traced, so train_step's Python runs once (Keras 3.15
    # under TF 2.21 gives the same: one entry)
    assert len(model.seen) == 1 and len(model.seen[0]) == 2


def test_unpack_and_pack_x_y_sample_weight():
    unpack, pack = keras.utils.unpack_x_y_sample_weight, keras.utils.pack_x_y_sample_weight
    assert unpack("x") == ("x", None, None) and unpack(("x",)) == ("x", None, None)
    assert unpack(["x", "y"]) == ("x", "y", None) and unpack(("x", "y", "w")) == ("x", "y", "w")
    with pytest.raises(ValueError, match="found a tuple of 4"):
        unpack((1, 2, 3, 4))
    assert pack("x") == "x" and pack(["a", "b"]) == (["a", "b"],)
    assert pack("x", "y") == ("x", "y") and pack("x", "y", "w") == ("x", "y", "w")


def test_model_metrics_hold_the_loss_tracker_and_compile_metrics():
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    assert model.metrics == []
    model.compile(optimizer="sgd", loss="mse", metrics=["mae", "mse"])
    assert model.metrics_names == ["loss", "compile_metrics"]
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    model.compute_metrics(x, y, model(x))
    result = model.metrics[1].result()
    assert sorted(result) == ["mae", "mse"]
    assert sorted(model.get_metrics_result()) == ["loss", "mae", "mse"]
    model.reset_metrics()
    assert float(model.metrics[1].metrics[0].result()) == 0.0
    history = model.fit(x, y, verbose=0)
    assert sorted(history.history) == ["loss", "mae", "mse"]  # the nested dict flattened


def test_custom_train_step_over_model_metrics():
    class Custom(keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            self.optimizer.apply(tape.gradient(loss, self.trainable_variables),
                                 self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    inputs = keras.Input((2,))
    model = Custom(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x, y = np.ones((8, 2), np.float32), np.zeros((8, 1), np.float32)
    history = model.fit(x, y, epochs=2, verbose=0)
    assert sorted(history.history) == ["loss", "mae"] and len(history.history["mae"]) == 2


def test_metric_attributes_are_in_model_metrics():
    class WithTracker(keras.Model):
        def __init__(self):
            super().__init__()
            self.tracker = keras.metrics.Mean(name="extra")
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = WithTracker()
    model.compile(optimizer="sgd", loss="mse")
    assert model.metrics_names == ["loss", "extra"]


def test_compiled_loss_and_compiled_metrics_warn_and_work():
    inputs = keras.Input((2,))
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    x, y = np.ones((4, 2), np.float32), np.zeros((4, 1), np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = model.compiled_loss(y, model(x))
        model.compiled_metrics.update_state(y, model(x))
    assert len(caught) == 2 and "deprecated" in str(caught[0].message)
    np.testing.assert_allclose(float(loss), float(model.compute_loss(y=y, y_pred=model(x))))
    assert "mae" in model.get_metrics_result()


def test_untracked_tf_variable_attribute_warns_once():
    class Scale(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.factor = tf.Variable(2.0)

        def call(self, x):
            return x * self.factor

    layer = Scale()
    with pytest.warns(UserWarning, match=r"Scale.factor holds a tf.Variable.*add_weight"):
        assert layer.weights == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert layer.trainable_weights == [] and Scale().weights == []


def test_operators_and_keras_ops_on_keras_tensors_are_graph_nodes(tmp_path):
    # Keras 3: `x + attention`, `2.0 * x`, `x[:, 0]`, keras.ops.mean(x, axis=1) on symbolic tensors
    # build nodes of the functional graph, replayed with the data (and saved with the model)
    inp = keras.Input((4,))
    h = keras.layers.Dense(4, kernel_initializer="ones")(inp)
    out = keras.ops.concatenate([(h + inp) * 2.0 - 1.0, -abs(h) / 4.0, h[:, :1] ** 2,
                                 keras.ops.mean(h, axis=1, keepdims=True)], axis=1)
    assert isinstance(out, keras.KerasTensor) and out.shape == (None, 10)
    model = keras.Model(inp, out)
    x = np.arange(8.0, dtype=np.float32).reshape(2, 4)
    hx = x.sum(1, keepdims=True) * np.ones((1, 4), np.float32)
    want = np.concatenate([(hx + x) * 2 - 1, -np.abs(hx) / 4, hx[:, :1] ** 2, hx.mean(1, keepdims=True)], 1)
    np.testing.assert_allclose(model(tf.constant(x)).numpy(), want, rtol=1e-6)
    assert float(keras.ops.add(tf.constant(1.0), 2.0)) == 3.0  # eager keras.ops are unchanged
    path = str(tmp_path / "m.keras")
    model.save(path)
    np.testing.assert_allclose(keras.models.load_model(path)(tf.constant(x)).numpy(), want, rtol=1e-6)
