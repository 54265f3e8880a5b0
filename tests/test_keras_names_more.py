"""tf.keras names of Keras 3.15 outside keras.ops: the activations celu ... threshold, keras.metrics'
function aliases, the Dice/Tversky/Circle/CTC losses, the STFT initializer, keras.utils's
get_source_inputs and Config, and the layers ThresholdedReLU, RandomHeight, RandomWidth, Pipeline
and Wrapper, against Keras 3.15's numbers (recorded by tools/record_keras_names_more.py; the cases
are in tests/keras_names_more_cases.py)."""
from __future__ import annotations

import numpy as np
import pytest

import keras_names_more_cases as cases
import tapegrad as tf
import tf_compare
from tapegrad import keras

DATA = tf_compare.load_fixture("keras_names_more.json")


def close(got, want, dtype="float32", rtol=None):
    """TensorFlow's numbers by tests/tf_compare.py's rule, with the floor of ``dtype`` (the precision
    the result was computed in); ``rtol`` where a test argues its own."""
    tf_compare.assert_close(np.asarray(got, dtype), want, rtol=rtol)


# ---- activations ----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", cases.ACTIVATION_DTYPES)
@pytest.mark.parametrize("name", list(cases.ACTIVATIONS))
def test_activation_values_gradients_and_names_match_keras(name, dtype):
    got, want = cases.run_activation(tf, keras, name, dtype), DATA["activations"][f"{name}/{dtype}"]
    assert got["dtype"] == want["dtype"]
    close(got["value"], want["value"], dtype)
    close(got["grad"], want["grad"], dtype)
    for key in ("serialized", "get_is_fn", "deserialize_is_fn"):
        assert got.get(key) == want.get(key), key


def test_new_activations_serialize_by_name():
    for name in ("celu", "glu", "sparsemax", "threshold", "log_sigmoid"):
        fn = getattr(keras.activations, name)
        assert keras.activations.serialize(fn) == name
        assert keras.activations.get(name) is fn
    with pytest.raises(ValueError, match="Did you mean 'sparsemax'"):
        keras.activations.get("sparsemx")


def test_glu_refuses_an_odd_axis():
    with pytest.raises(ValueError, match="divisible by 2"):
        keras.activations.glu(np.ones((2, 3), np.float32))


def test_sparsemax_refuses_a_scalar():
    with pytest.raises(ValueError, match="rank 1 or more"):
        keras.activations.sparsemax(1.0)


def test_sparsemax_second_derivative_runs_through_the_tape():
    x = tf.constant(cases.activation_input("float64"))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(keras.activations.squareplus(x) ** 2)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x).numpy()
    xv = x.numpy()
    s = np.sqrt(xv ** 2 + 4)
    f, df = (xv + s) / 2, (1 + xv / s) / 2
    d2f = 2 / s ** 3
    np.testing.assert_allclose(h, 2 * (df ** 2 + f * d2f), rtol=1e-12)  # d²/dx² of f(x)²


# ---- metrics' function aliases -------------------------------------------------------------------

@pytest.mark.parametrize("name", cases.METRIC_ALIASES)
def test_metric_aliases_are_the_loss_functions(name):
    got, want = cases.run_metric_alias(keras, name), DATA["metric_aliases"][name]
    assert got["callable_class"] == want["callable_class"] is False
    close(got["value"], want["value"])


def test_metric_alias_strings_still_name_the_classes():
    assert type(keras.metrics.get("mae")).__name__ == "MeanAbsoluteError"
    assert keras.metrics.mae is keras.losses.mean_absolute_error


# ---- losses ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.LOSSES))
def test_loss_classes_match_keras(name):
    got, want = cases.run_loss(tf, keras, name), DATA["losses"][name]
    assert got["dtype"] == want["dtype"]
    close(got["value"], want["value"])
    close(got["grad"], want["grad"])
    for key in ("config", "again", "serialized", "deserialized"):
        assert got[key] == want[key], key


@pytest.mark.parametrize("name", list(cases.LOSS_FUNCTIONS))
def test_loss_functions_match_keras(name):
    got, want = cases.run_loss_function(tf, keras, name), DATA["loss_functions"][name]
    close(got["value"], want["value"])
    close(got["grad"], want["grad"])
    assert got["get_is_fn"] == want["get_is_fn"]


def test_a_loss_of_a_masked_prediction_matches_keras():
    got, want = cases.run_masked_loss(tf, keras), DATA["masked_loss"]
    for key in want:
        close(got[key], want[key])


def test_circle_masks_a_sample_without_positives():
    labels, emb = cases.embedding_data()
    per_sample = keras.losses.circle(labels, emb)
    assert per_sample.numpy()[4] == 0.0  # label 2 is alone in the batch
    mean = keras.losses.Circle()(labels, emb).numpy()
    np.testing.assert_allclose(mean, per_sample.numpy().sum() / 5, rtol=1e-6)  # over the 5 others


def test_ctc_refuses_bad_ranks():
    with pytest.raises(ValueError, match=r"\(batch_size, max_length\)"):
        keras.losses.ctc(np.ones((2, 3, 1), np.int32), np.zeros((2, 4, 3), np.float32))
    with pytest.raises(ValueError, match=r"\(batch_size, max_length, num_classes\)"):
        keras.losses.ctc(np.ones((2, 3), np.int32), np.zeros((2, 4), np.float32))


def test_new_losses_by_name():
    assert keras.losses.get("dice") is keras.losses.dice
    assert type(keras.losses.get("Tversky")).__name__ == "Tversky"
    assert keras.losses.deserialize({"class_name": "Circle", "config": {"gamma": 3.0}}).gamma == 3.0


# ---- STFT initializer -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(cases.STFT))
def test_stft_initializer_matches_keras(name):
    got, want = cases.run_stft(keras, name), DATA["stft"][name]
    assert got["dtype"] == want["dtype"] and got["config"] == want["config"] and got["aliases"] == want["aliases"]
    # cos/sin of float32 angles up to 2π(frames - 1): NumPy's and TF's float32 sin/cos differ by an ulp
    # of the angle, i.e. an absolute 1e-6 near the zero crossings
    tf_compare.assert_close(np.asarray(got["value"]), want["value"], rtol=1e-5, atol=2e-6)


def test_stft_initializer_bad_arguments():
    with pytest.raises(ValueError, match="'real' or 'imag'"):
        keras.initializers.STFT(side="both")
    with pytest.raises(ValueError, match="Scaling is invalid"):
        keras.initializers.STFT(scaling="l2")
    with pytest.raises(ValueError):
        keras.initializers.STFT(window="no_such_window")
    with pytest.raises(ValueError, match=r"\[frame_length\]"):
        keras.initializers.STFT(window=[1.0, 2.0])((4, 1, 3))


# ---- utils -----------------------------------------------------------------------------------------------

def test_get_source_inputs_matches_keras():
    assert cases.run_source_inputs(keras) == DATA["source_inputs"]


def test_get_source_inputs_walks_a_long_chain_without_recursion():
    x = keras.Input((2,), name="deep_in")
    y = x
    for _ in range(3000):
        y = y + 1.0
    assert [t.name for t in keras.utils.get_source_inputs(y)] == ["deep_in"]


def test_config_behaves_as_keras():
    got = cases.run_config(keras)
    assert got == DATA["config"]
    assert repr(keras.utils.Config(a=1)) == "<Config {'a': 1}>"


# ---- layers ----------------------------------------------------------------------------------------------

def test_thresholded_relu_matches_keras():
    got, want = cases.run_thresholded_relu(tf, keras), DATA["thresholded_relu"]
    close(got["value"], want["value"])
    close(got["grad"], want["grad"])
    assert got["config"] == want["config"] and got["again"] == want["again"]
    assert got["default_theta"] == want["default_theta"]
    with pytest.raises(ValueError, match=">=0"):
        keras.layers.ThresholdedReLU(theta=-1.0)
    with pytest.raises(ValueError, match="cannot be None"):
        keras.layers.ThresholdedReLU(theta=None)


@pytest.mark.parametrize("name", list(cases.RANDOM_RESIZE))
def test_random_height_and_width_draw_tf_numbers(name):
    got, want = cases.run_random_resize(tf, keras, name), DATA["random_resize"][name]
    for key in ("first", "second", "default", "off"):
        assert np.shape(got[key]) == np.shape(want[key]), key
        close(got[key], want[key])
    assert got["dtype"] == want["dtype"]
    assert got["config"] == want["config"] and got["again"] == want["again"]
    assert got["output_shape"] == want["output_shape"]


def test_random_height_bad_factors():
    with pytest.raises(ValueError, match="upper bound"):
        keras.layers.RandomHeight((0.5, 0.1))
    with pytest.raises(ValueError, match="larger than -1"):
        keras.layers.RandomWidth((-1.5, 0.1))


def test_random_height_in_a_model_resizes_unless_told_not_to_train():
    # as Keras 3.15: training=None reaches call's own default (True); predict runs in inference
    model = keras.Sequential([keras.Input((6, 5, 1)), keras.layers.RandomHeight((0.5, 0.5), seed=1)])
    x = np.ones((2, 6, 5, 1), np.float32)
    assert model(x).shape == (2, 9, 5, 1)
    assert model(x, training=False).shape == (2, 6, 5, 1)
    assert model.predict(x, verbose=0).shape == (2, 6, 5, 1)
    assert model.output_shape == (None, None, 5, 1)


def test_pipeline_matches_keras():
    got, want = cases.run_pipeline(tf, keras), DATA["pipeline"]
    close(got["train"], want["train"])
    close(got["infer"], want["infer"])
    assert got["layers"] == want["layers"]
    strip = lambda c: {**c, "layers": [{k: v for k, v in layer.items() if k != "build_config"}  # noqa: E731
                                       for layer in c["layers"]]}
    # (Keras builds a Pipeline's layers by a symbolic run of its call, so the layer after a random
    # resize records a build shape with None for the resized side; tapegrad builds each layer on its
    # first real input. The build_config differs, the configs proper must agree.)
    assert strip(got["config"]) == strip(want["config"])
    assert strip(got["again"]) == strip(want["again"])


def test_pipeline_trains_the_weights_of_its_layers():
    pipe = keras.layers.Pipeline([keras.layers.Dense(2, kernel_initializer="ones"), keras.layers.Dense(1)])
    x = tf.ones([3, 4])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(pipe(x))
    grads = tape.gradient(y, pipe.trainable_variables)
    assert len(pipe.trainable_variables) == 4 and all(g is not None for g in grads)


def test_pipeline_config_needs_layers():
    with pytest.raises(ValueError, match="`layers` key"):
        keras.layers.Pipeline.from_config({"name": "p"})


def test_wrapper_matches_keras():
    got, want = cases.run_wrapper(tf, keras), DATA["wrapper"]
    close(got["value"], want["value"])
    for key in ("config", "again", "weights", "td_is_wrapper", "bi_is_wrapper", "td_config"):
        assert got[key] == want[key], key
    with pytest.raises(ValueError, match="isn't a supported layer type"):
        keras.layers.Wrapper("dense")
