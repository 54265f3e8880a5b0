"""tf.keras's legacy backend, ``tf.data.Dataset.counter``, ``timeseries_dataset_from_array`` and
the text layers' dtypes against TensorFlow 2.21 / Keras 3.15.

The cases in tests/fixtures/keras_legacy.json were run under TensorFlow by
tools/record_keras_legacy.py; here the same snippets run with ``import tapegrad as tf``. Dtypes,
shapes, integers, strings and error types must agree exactly; floats by tests/tf_compare.py's
rule (float32: 512 units in the last place, the results being short chains of elementwise ops,
reductions over at most 24 numbers, small convolutions). Deliberate differences are in
DIFFERENCES with what tapegrad gives instead.
"""
import json
import os
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))

import tapegrad as tf  # noqa: E402
import tf_compare  # noqa: E402
from record_keras_legacy import run_case  # noqa: E402

with open(os.path.join(HERE, "fixtures", "keras_legacy.json"), encoding="utf-8") as _fh:
    CASES = json.load(_fh)["cases"]

DIFFERENCES = {
    # Keras 3's TimeseriesGenerator.get_config calls PyDataset.get_config, which Keras 3 lacks
    # (AttributeError); tapegrad gives the configuration (docs/differences.md).
    "timeseries_generator_config": {"t": "dict", "v": {
        "workers": 1, "use_multiprocessing": False, "max_queue_size": 10, "data": "[0, 1, 2, 3, 4]",
        "targets": "[0, 1, 2, 3, 4]", "length": 2, "sampling_rate": 1, "stride": 1, "start_index": 2,
        "end_index": 4, "shuffle": False, "reverse": False, "batch_size": 128}},
}


def _error_classes(name):
    cls = getattr(tf.errors, name, None) or getattr(__import__("builtins"), name, None)
    return cls.__mro__ if isinstance(cls, type) else ()


def _same(got, want, path):
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), f"{path}: {got} vs {want}"
        if want["dtype"].startswith(("float", "bfloat")):
            w = np.asarray(want["v"], dtype=want["dtype"])
            tf_compare.assert_close(np.asarray(got["v"], dtype=got["dtype"]), w, spread=0, err_msg=path)
        else:
            assert got["v"] == want["v"], f"{path}: {got['v']} vs {want['v']}"
    elif isinstance(want, dict) and want.get("t") == "error":
        assert isinstance(got, dict) and got.get("t") == "error", f"{path}: {got} vs {want}"
        names = {c.__name__ for c in _error_classes(got["type"])}
        assert want["type"] in names, f"{path}: raised {got['type']}, TensorFlow raised {want['type']}"
    elif isinstance(want, dict) and "t" in want:
        assert isinstance(got, dict) and got.get("t") == want["t"], f"{path}: {got} vs {want}"
        for k in want:
            if k != "t":
                _same(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: {got} vs {want}"
        for k in want:
            _same(got[k], want[k], f"{path}[{k!r}]")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got} vs {want}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        tf_compare.assert_close(np.float32(got), np.float32(want), spread=0, err_msg=path)
    else:
        assert got == want, f"{path}: {got!r} vs {want!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensorflow(name):
    tf.random.set_seed(0)
    np.random.seed(0)
    got = run_case(tf, CASES[name]["code"])
    _same(got, DIFFERENCES.get(name, CASES[name]["tf"]), name)


def test_differences_are_real():
    for name, want in DIFFERENCES.items():
        assert CASES[name]["tf"] != want


def test_every_tf_keras_backend_name():
    # TF 2.21's tf.keras.backend (keras/api/_tf_keras/keras/backend/__init__.py of Keras 3.15)
    names = ("abs all any arange argmax argmin backend batch_dot batch_flatten batch_get_value "
             "batch_normalization batch_set_value bias_add binary_crossentropy binary_focal_crossentropy "
             "cast cast_to_floatx categorical_crossentropy categorical_focal_crossentropy clear_session clip "
             "concatenate constant conv1d conv2d conv2d_transpose conv3d cos count_params ctc_batch_cost "
             "ctc_decode ctc_label_dense_to_sparse cumprod cumsum depthwise_conv2d dot dropout dtype elu "
             "epsilon equal eval exp expand_dims eye flatten floatx foldl foldr gather get_uid get_value "
             "gradients greater greater_equal hard_sigmoid image_data_format in_top_k int_shape "
             "is_float_dtype is_int_dtype is_keras_tensor is_sparse l2_normalize less less_equal log map_fn "
             "max maximum mean min minimum moving_average_update name_scope ndim not_equal one_hot ones "
             "ones_like permute_dimensions pool2d pool3d pow prod random_bernoulli random_normal "
             "random_normal_variable random_uniform random_uniform_variable relu repeat repeat_elements "
             "reshape resize_images resize_volumes result_type reverse rnn round separable_conv2d "
             "set_epsilon set_floatx set_image_data_format set_value shape sigmoid sign sin softmax softplus "
             "softsign sparse_categorical_crossentropy spatial_2d_padding spatial_3d_padding sqrt square "
             "squeeze stack standardize_dtype std stop_gradient sum switch tanh temporal_padding tile "
             "to_dense transpose truncated_normal update update_add update_sub var variable zeros "
             "zeros_like").split()
    assert len(names) == 137
    assert [n for n in names if not callable(getattr(tf.keras.backend, n, None))] == []
    with pytest.raises(AttributeError, match="softmax"):
        tf.keras.backend.softmaxx  # noqa: B018  (a typo: "did you mean")


def test_legacy_functions_work_in_a_traced_function():
    K = tf.keras.backend
    w = tf.Variable(np.linspace(-1.0, 1.0, 6).reshape(3, 2).astype(np.float32))

    @tf.function
    def loss(x):
        return K.mean(K.sum(K.square(K.softmax(K.dot(x, w))), axis=1))

    x = tf.constant(np.arange(12.0, dtype=np.float32).reshape(4, 3) / 10)
    with tf.GradientTape() as tape:
        a = loss(x)
    g = tape.gradient(a, w)
    with tf.GradientTape() as tape:
        b = K.mean(K.sum(K.square(K.softmax(K.dot(x, w))), axis=1))
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), tape.gradient(b, w).numpy(), rtol=1e-5, atol=1e-7)


def test_ctc_decode_beam_search_says_what_to_do():
    with pytest.raises(NotImplementedError, match="greedy=True"):
        tf.keras.backend.ctc_decode(np.full((1, 3, 2), 0.5, np.float32), np.array([3]), greedy=False)


def test_lookup_layers_export_their_table(tmp_path):
    # the lookups and the categorical encoding are registered ops, so a traced call is data:
    # a model exported with one serves the table it had (TextVectorization that splits text
    # is not exportable yet: the split's row lengths depend on the text, not on its shape)
    K = tf.keras
    tv = K.layers.TextVectorization(split=None, standardize=None)
    tv.adapt(["x", "y", "x"])
    sl = K.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="one_hot")
    for name, model, text in (("tv", K.Sequential([tv]), ["x", "q", "y"]),
                              ("sl", K.Sequential([sl, K.layers.Dense(2, kernel_initializer="ones")]),
                               ["a", "z", "c"])):
        model.build((None,))
        model.export(str(tmp_path / name), verbose=False)
        served = tf.saved_model.load(str(tmp_path / name)).serve(tf.constant(text)).numpy()
        np.testing.assert_array_equal(served, model(tf.constant(text)).numpy())
    np.testing.assert_array_equal(tv(tf.constant(["x", "q", "y"])).numpy(), [2, 1, 3])


def test_counter_iterated_in_a_tf_function():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for a, (b, c) in ds:
            s += a * b + c
        return s

    c = tf.data.Dataset.counter
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(3), (c(), c(5))))
    assert int(total(ds)) == 0 * 0 + 5 + 1 * 1 + 6 + 2 * 2 + 7
