"""tf.saved_model and Keras's export: round trips replayed against TensorFlow 2.21's results
(tools/record_tf_saved_model.py, tests/saved_model_cases.py), the sizes of dimensions declared None,
errors at save time, and loading as data (nothing in the folder runs)."""
import json
import logging
import os
import shutil
import zipfile

import numpy as np
import pytest

import saved_model_cases
import tapegrad as tf

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "fixtures", "tf_saved_model.json"), encoding="utf-8") as f:
    RECORDED = json.load(f)["cases"]
keras = tf.keras

# A signature's input names are the KerasTensors' names, which Keras numbers process-wide
# ("keras_tensor_3") and tapegrad names after the input layer: compared by count only.
KERAS_TENSOR_NAMES = {("keras_export", "sig_inputs")}


def _close(got, want, where):
    """Recorded results: structure, dtypes, shapes, integers and strings exactly; floats to 8 float32
    units in the last place of the array's scale (every case computes a few exact products and sums
    of small numbers: TensorFlow and NumPy may round a sum in another order, nothing more)."""
    if isinstance(want, dict) and set(want) == {"f"}:
        assert isinstance(got, dict) and set(got) == {"f"}, (where, got)
        w, g = float(want["f"]), float(got["f"])
        assert abs(g - w) <= 8 * 2.0 ** -23 * max(1.0, abs(w)), (where, g, w)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
        for k in want:
            if (where[0], k) in KERAS_TENSOR_NAMES:
                assert len(got[k]) == len(want[k]), (where, got[k])
                continue
            _close(got[k], want[k], where + (k,))
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, where + (i,))
    else:
        assert got == want, (where, got, want)


@pytest.mark.parametrize("name", sorted(saved_model_cases.CASES))
def test_matches_tensorflow(name, tmp_path):
    _close(saved_model_cases.run(name, tf, str(tmp_path / "m")), RECORDED[name], (name,))


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(saved_model_cases.CASES)


# -- dimensions declared None
@pytest.mark.parametrize("layers,shape,dtype", [
    ([keras.layers.Conv2D(2, 3), keras.layers.MaxPooling2D(), keras.layers.Flatten(), keras.layers.Dense(3)],
     (6, 6, 1), "float32"),
    ([keras.layers.Embedding(10, 3), keras.layers.GlobalAveragePooling1D()], (4,), "int32"),
    ([keras.layers.LSTM(3)], (5, 2), "float32"),
    ([keras.layers.Reshape((2, 3)), keras.layers.Dense(1)], (6,), "float32"),
    ([keras.layers.BatchNormalization(), keras.layers.Dropout(0.5), keras.layers.Dense(2, activation="softmax")],
     (3,), "float32"),
], ids=["cnn", "embedding", "lstm", "reshape", "batchnorm"])
def test_keras_models_serve_every_batch_size(layers, shape, dtype, tmp_path):
    """The serving signature's batch dimension is None: shapes in op parameters and constants (a
    Flatten's target, an LSTM's zero state) follow each call's batch size."""
    tf.keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input(shape, dtype=dtype), *layers])
    tf.saved_model.save(model, str(tmp_path))
    sig = tf.saved_model.load(str(tmp_path)).signatures["serving_default"]
    rng = np.random.default_rng(0)
    for batch in (1, 2, 3, 7, 32):
        x = (rng.integers(0, 10, (batch, *shape)) if dtype == "int32" else rng.normal(size=(batch, *shape)))
        x = tf.constant(x.astype(dtype))
        got = sig(inputs=x)["output_0"]
        assert got.shape == (batch, *model(x).shape[1:])
        # the same NumPy calls as the eager model, in the same order
        np.testing.assert_allclose(got.numpy(), model(x).numpy(), rtol=1e-6, atol=1e-6)


def test_a_trace_that_depends_on_a_size_otherwise_fails_at_save(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def mean(self, x):
            return tf.reduce_sum(x) / float(x.shape[0])  # a float of the size: no hole describes it

    with pytest.raises(ValueError, match=r"values depend on the sizes declared None.*declare those sizes"):
        tf.saved_model.save(M(), str(tmp_path))


def test_unknown_rank_with_other_unknown_sizes_fails_at_save(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x, y: x * 2.0 + tf.reduce_sum(y),
                      input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec([None], tf.float32)])
    with pytest.raises(ValueError, match="unknown rank"):
        tf.saved_model.save(m, str(tmp_path))


# -- what a restored function does
def test_restored_variables_are_variables(tmp_path):
    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([1.0, 2.0], name="w")
            self.frozen = tf.Variable(3, trainable=False)

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def __call__(self, x):
            return x * self.w + tf.cast(self.frozen, tf.float32)

    tf.saved_model.save(M(), str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    assert r.w.name == "w:0" and r.w.trainable and not r.frozen.trainable
    r.w.assign([10.0, 20.0])  # the restored function reads the restored variable
    np.testing.assert_array_equal(r(tf.constant([1.0, 1.0])).numpy(), [13.0, 23.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(r(tf.constant([2.0, 3.0])))
    np.testing.assert_array_equal(tape.gradient(y, r.w).numpy(), [2.0, 3.0])


def test_branches_traced_before_saving_are_kept(tmp_path):
    class M(tf.Module):
        @tf.function
        def f(self, x):
            if tf.reduce_sum(x) > 0:
                return x * 2.0
            return -x

    m = M()
    m.f(tf.constant([1.0]))
    tf.saved_model.save(m, str(tmp_path / "one"))
    r = tf.saved_model.load(str(tmp_path / "one"))
    assert r.f(tf.constant([4.0])).numpy() == 8.0
    with pytest.raises(ValueError, match="branch that was not traced before saving"):
        r.f(tf.constant([-4.0]))
    m.f(tf.constant([-1.0]))
    tf.saved_model.save(m, str(tmp_path / "both"))
    r = tf.saved_model.load(str(tmp_path / "both"))
    assert r.f(tf.constant([4.0])).numpy() == 8.0 and r.f(tf.constant([-4.0])).numpy() == 4.0


def test_a_restored_object_saves_again(tmp_path):
    model = keras.Sequential([keras.Input((5, 2)), keras.layers.LSTM(3)])
    tf.saved_model.save(model, str(tmp_path / "a"))
    r = tf.saved_model.load(str(tmp_path / "a"))
    tf.saved_model.save(r, str(tmp_path / "b"))
    r2 = tf.saved_model.load(str(tmp_path / "b"))
    x = tf.constant(np.random.default_rng(0).normal(size=(4, 5, 2)).astype("float32"))
    np.testing.assert_allclose(r2.signatures["serving_default"](inputs=x)["output_0"].numpy(),
                               model(x).numpy(), rtol=1e-6, atol=1e-6)


def test_tfsm_layer_in_a_model(tmp_path):
    inner = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, kernel_initializer="ones")])
    inner.export(str(tmp_path), verbose=False)
    outer = keras.Sequential([keras.Input((2,)), keras.layers.TFSMLayer(str(tmp_path)), keras.layers.Dense(1)])
    x = tf.constant([[1.0, 2.0]])
    tfsm, dense = outer.layers
    np.testing.assert_allclose(outer(x).numpy(), tfsm(x).numpy() @ dense.kernel.numpy() + dense.bias.numpy(),
                               rtol=1e-6)
    np.testing.assert_array_equal(tfsm(x).numpy(), [[3.0, 3.0]])
    assert len(tfsm.weights) == 2 and len(outer.weights) == 4


def test_tfsm_layer_config_round_trips(tmp_path):
    keras.Sequential([keras.Input((2,)), keras.layers.Dense(2)]).export(str(tmp_path), verbose=False)
    layer = keras.layers.TFSMLayer(str(tmp_path), call_endpoint="serving_default", name="sm")
    config = layer.get_config()
    assert config["filepath"] == str(tmp_path) and config["call_endpoint"] == "serving_default"
    again = keras.saving.deserialize_keras_object(json.loads(json.dumps(keras.saving.serialize_keras_object(layer))))
    assert type(again) is type(layer) and again.get_config() == config
    x = tf.constant([[1.0, 2.0]])
    np.testing.assert_array_equal(again(x)["output_0"].numpy(), layer(x)["output_0"].numpy())


def test_export_formats(tmp_path):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="format='tf_saved_model' or 'litert'"):
        model.export(str(tmp_path), format="onnx")
    with pytest.raises(TypeError, match="keras.Model"):
        keras.export.export_saved_model(keras.layers.Dense(1), str(tmp_path))


# -- errors at save time, naming what cannot be saved
def _module_with(fn):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(fn, input_signature=[tf.TensorSpec([None], tf.float32)])
    return m


@pytest.mark.parametrize("fn,message", [
    (lambda x: tf.numpy_function(lambda a: a * 2, [x], tf.float32), "tf.numpy_function"),
    (lambda x: tf.print(x, output_stream=logging.info) or x, "calls tf.print with"),
    (lambda x: tf.custom_gradient(lambda a: (a * 2, lambda g: g))(x), "custom_gradient"),
], ids=["numpy_function", "print", "custom_gradient"])
def test_unsavable_traces_fail_at_save(fn, message, tmp_path):
    with pytest.raises(ValueError, match=r"Cannot save .*the function obj\.f.*" + message):
        tf.saved_model.save(_module_with(fn), str(tmp_path))
    assert not os.path.exists(tmp_path / "saved_model.pb")


def test_untracked_variable_fails_at_save(tmp_path):
    hidden = tf.Variable(2.0)
    m = tf.Module()
    m.f = tf.function(lambda x: x * hidden, input_signature=[tf.TensorSpec([], tf.float32)])
    with pytest.raises(AssertionError, match="'untracked' resource"):  # (TensorFlow's type)
        tf.saved_model.save(m, str(tmp_path))


def test_signature_needs_an_input_signature(tmp_path):
    m = tf.Module()
    m.f = tf.function(lambda x: x)
    with pytest.raises(ValueError, match="must have an input_signature"):
        tf.saved_model.save(m, str(tmp_path), signatures=m.f)
    with pytest.raises(ValueError, match="root of a SavedModel"):
        tf.saved_model.save([tf.Variable(1.0)], str(tmp_path))


# -- loading is reading data
def _saved(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1.0, 2.0])
    m.f = tf.function(lambda x: tf.gather(m.v, x), input_signature=[tf.TensorSpec([None], tf.int32)])
    tf.saved_model.save(m, str(tmp_path))
    return str(tmp_path)


def test_layout_and_content_are_arrays_only(tmp_path):
    d = _saved(tmp_path)
    assert sorted(os.listdir(d)) == ["assets", "fingerprint.pb", "saved_model.pb", "variables"]
    assert sorted(os.listdir(os.path.join(d, "variables"))) == ["variables.data-00000-of-00001", "variables.index"]
    for f in ("saved_model.pb", "variables/variables.data-00000-of-00001"):
        with np.load(os.path.join(d, f), allow_pickle=False) as z:  # plain arrays: no pickle anywhere
            assert all(z[k].dtype != object for k in z.files)
    assert tf.saved_model.contains_saved_model(d) and not tf.saved_model.contains_saved_model(str(tmp_path / "no"))
    r = tf.saved_model.load(d)
    np.testing.assert_array_equal(r.f(tf.constant([1, 0])).numpy(), [2.0, 1.0])
    with pytest.raises(tf.errors.InvalidArgumentError):  # the gather's index check is saved too
        r.f(tf.constant([5]))


def _rewrite_graph(d, change):
    path = os.path.join(d, "saved_model.pb")
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    graph = json.loads(arrays["saved_model"].tobytes())
    change(graph)
    arrays["saved_model"] = np.frombuffer(json.dumps(graph).encode(), np.uint8)
    np.savez(path, **arrays)
    os.replace(path + ".npz", path)


def _steps(graph):
    return [st for c in graph["concrete"] for p in c["programs"] for st in p["data"]["steps"]]


@pytest.mark.parametrize("change,message", [
    (lambda g: [st.__setitem__(1, "os.system") for st in _steps(g) if st[0] == "op"], "op 'os.system'"),
    (lambda g: [st.__setitem__(1, ["os", "system", {"tuple": []}, {"dict": []}])
                for st in _steps(g) if st[0] == "check"], "unknown value check os.system"),
    (lambda g: [st.__setitem__(1, ["tapegrad.ops.io", "__import__", {"tuple": []}, {"dict": []}])
                for st in _steps(g) if st[0] == "check"], "unknown value check"),
    (lambda g: [st.__setitem__(3, {"pickle": "x"}) for st in _steps(g) if st[0] == "op"], "unknown value tag"),
    (lambda g: [st.__setitem__(2, [10 ** 6]) for st in _steps(g) if st[0] == "op"], "slot out of range"),
], ids=["op-name", "check-module", "check-name", "value-tag", "slot"])
def test_crafted_graphs_are_refused(change, message, tmp_path):
    d = _saved(tmp_path)
    _rewrite_graph(d, change)
    with pytest.raises(ValueError, match=message):
        tf.saved_model.load(d).f(tf.constant([0]))


def test_pickles_and_foreign_files_are_refused(tmp_path):
    d = _saved(tmp_path)
    with zipfile.ZipFile(os.path.join(d, "saved_model.pb"), "a") as z:
        with z.open("evil.npy", "w") as m:
            np.lib.format.write_array(m, np.array([object()], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="Python objects.*never unpickles"):
        tf.saved_model.load(d)
    with open(os.path.join(d, "saved_model.pb"), "wb") as f:
        f.write(b"\x80\x04K\x01.")
    with pytest.raises(ValueError, match="not a SavedModel"):
        tf.saved_model.load(d)
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load(str(tmp_path / "nothing"))


def test_a_tensorflow_savedmodel_says_what_to_do(tmp_path):
    """The graph TensorFlow 2.21 wrote for a one-variable Module (tools/record_tf_saved_model.py)."""
    shutil.copy(os.path.join(HERE, "fixtures", "tf_saved_model", "saved_model.pb"), tmp_path)
    assert tf.saved_model.contains_saved_model(str(tmp_path))
    with pytest.raises(ValueError, match=r"written by TensorFlow.*cannot run TensorFlow's graphs.*weights"):
        tf.saved_model.load(str(tmp_path))


def test_options_are_accepted(tmp_path):
    m = _module_with(lambda x: x * 2.0)
    tf.saved_model.save(m, str(tmp_path), options=tf.saved_model.SaveOptions())
    r = tf.saved_model.load(str(tmp_path), options=tf.saved_model.LoadOptions())
    np.testing.assert_array_equal(r.f(tf.constant([1.0])).numpy(), [2.0])
    with pytest.raises(TypeError, match="SaveOptions"):
        tf.saved_model.save(m, str(tmp_path), options={"x": 1})


def test_signature_names_and_output_specs(tmp_path):
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(lambda pair, scale: {"sum": pair[0] + pair[1] * scale * m.v, "n": tf.shape(pair[0])},
                      input_signature=[[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)],
                                       tf.TensorSpec([], tf.float32, name="k")])
    tf.saved_model.save(m, str(tmp_path))
    sig = tf.saved_model.load(str(tmp_path)).signatures["serving_default"]
    assert sorted(sig.structured_input_signature[1]) == ["k", "pair", "pair_1"]
    outs = sig.structured_outputs
    assert outs["sum"].dtype == tf.float32 and outs["sum"].shape.as_list() == [None]
    assert outs["n"].dtype == tf.int32 and outs["n"].shape.as_list() == [1]
    got = sig(pair=tf.constant([1.0, 2.0]), pair_1=tf.constant([3.0, 4.0]), k=tf.constant(2.0))
    np.testing.assert_array_equal(got["sum"].numpy(), [7.0, 10.0])
    np.testing.assert_array_equal(got["n"].numpy(), [2])


def test_what_has_no_place_in_the_object_graph_fails_at_save(tmp_path):
    m = tf.Module()
    m.table = {("a", 1): tf.Variable(1.0)}
    with pytest.raises(ValueError, match=r"obj\.table is a dict whose key \('a', 1\)"):
        tf.saved_model.save(m, str(tmp_path))
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(lambda v, x: v * x)
    m.f(m.v, tf.constant(2.0))
    with pytest.raises(ValueError, match="takes a tf.Variable as an argument"):
        tf.saved_model.save(m, str(tmp_path))


def test_dimensions_that_must_agree_share_a_size(tmp_path):
    """Two inputs' batch dimensions must be equal (a Concatenate); a [None, None] input's batch and
    length vary independently (an Embedding and a pooling over any length). An LSTM over a length
    declared None fails at save: tapegrad's trace unrolls it, one step per time step."""
    a, b = keras.Input((2,)), keras.Input((3,))
    two = keras.Model([a, b], keras.layers.Dense(1)(keras.layers.Concatenate()([a, b])))
    tf.saved_model.save(two, str(tmp_path / "two"))
    sig = tf.saved_model.load(str(tmp_path / "two")).signatures["serving_default"]
    x, y = tf.ones([4, 2]), tf.ones([4, 3])
    np.testing.assert_allclose(sig(inputs=x, inputs_1=y)["output_0"].numpy(), two([x, y]).numpy(), rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="needs them equal"):
        sig(inputs=x, inputs_1=tf.ones([5, 3]))
    text = keras.Sequential([keras.Input((None,), dtype="int32"), keras.layers.Embedding(20, 4),
                             keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(2)])
    tf.saved_model.save(text, str(tmp_path / "text"))
    sig = tf.saved_model.load(str(tmp_path / "text")).signatures["serving_default"]
    for shape in ((1, 3), (4, 9), (6, 2)):
        t = tf.constant(np.arange(np.prod(shape)).reshape(shape) % 20, tf.int32)
        np.testing.assert_allclose(sig(inputs=t)["output_0"].numpy(), text(t).numpy(), rtol=1e-5, atol=1e-6)
    rnn = keras.Sequential([keras.Input((None, 2)), keras.layers.LSTM(2)])
    with pytest.raises(ValueError, match=r"steps depend on the sizes declared None.*shape=\(None, None, 2\)"):
        tf.saved_model.save(rnn, str(tmp_path / "rnn"))


def test_checkpoint_and_generator_children(tmp_path):
    w = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(w=w, gen=tf.random.Generator.from_seed(3))
    tf.saved_model.save(ckpt, str(tmp_path))
    r = tf.saved_model.load(str(tmp_path))
    np.testing.assert_array_equal(r.w.numpy(), [1.0, 2.0])
    assert r.save_counter.numpy() == 0
    np.testing.assert_array_equal(r.gen._state_var.numpy(), ckpt.gen.state.numpy())  # (TensorFlow's name)


def test_export_archive_saves_the_variables_its_endpoints_use(tmp_path):
    """Keras tracks the variables an endpoint uses; track() adds the `variables` properties."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    archive = keras.export.ExportArchive()
    archive.add_endpoint("serve", model.call, input_signature=[tf.TensorSpec((None, 2), tf.float32)])
    archive.write_out(str(tmp_path / "a"), verbose=False)
    r = tf.saved_model.load(str(tmp_path / "a"))
    np.testing.assert_array_equal(r.serve(tf.constant([[1.0, 2.0]])).numpy(), [[3.0]])
    assert r.variables == []
    archive = keras.export.ExportArchive()
    archive.track_and_add_endpoint("infer", model, [tf.TensorSpec((None, 2), tf.float32)])
    archive.write_out(str(tmp_path / "b"), verbose=False)
    r = tf.saved_model.load(str(tmp_path / "b"))
    assert sorted(r.signatures) == ["infer", "serving_default"] and len(r.trainable_variables) == 2
    np.testing.assert_array_equal(r.signatures["serving_default"](tf.constant([[1.0, 1.0]]))["output_0"].numpy(),
                                  [[2.0]])


def test_unknown_rank_signatures_save_a_rank_free_trace(tmp_path):
    # the SavedModel guide: module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function
        def __call__(self, x):
            return x * self.v
    m = M()
    m(tf.constant(0.0))
    call = m.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    tf.saved_model.save(m, str(tmp_path / "m"), signatures=call)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    serve = loaded.signatures["serving_default"]
    assert float(serve(x=tf.constant(3.0))["output_0"]) == 6.0
    np.testing.assert_array_equal(serve(x=tf.ones([2, 2]))["output_0"].numpy(), np.full([2, 2], 2.0))
    np.testing.assert_array_equal(loaded(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])

    class Rank(tf.Module):  # a function that depends on the rank is refused, saying so
        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
        def f(self, x):
            return tf.reshape(x, [-1]) if len(x.shape) else x
    with pytest.raises(ValueError, match="ranks 0, 1 and 2 differ"):
        tf.saved_model.save(Rank(), str(tmp_path / "r"))
