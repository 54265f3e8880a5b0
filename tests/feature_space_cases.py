"""The cases of tools/record_keras_feature_space.py, shared with tests/test_keras_feature_space.py:
each is a function of ``tf`` (TensorFlow 2.21 with Keras 3.15 when recorded, tapegrad when
replayed) whose result is encoded as tests/sparse_cases.py encodes it (a SparseTensor as its
indices, values and dense shape; a tensor's dtype, shape and values; an error's type).

They cover keras.utils.FeatureSpace (every feature type, crosses, "concat" and "dict" output,
adapt on a dataset and on a dict, batched and single-sample calls, the functional graph, a
.keras file), keras.layers.HashedCrossing, tf.sparse.cross/cross_hashed and the sparse=True
outputs of the category preprocessing layers."""
import os
import tempfile

import numpy as np

from sparse_cases import encode, run  # noqa: F401  (run: the recorder's and the test's entry)

_RNG = np.random.default_rng(7)
_N = 40
DATA = {
    "f": np.round(_RNG.uniform(-2.0, 5.0, _N), 2),
    "age": _RNG.integers(20, 80, _N),
    "n": _RNG.integers(0, 4, _N),
    "s": np.array(["red", "green", "blue", "teal"])[_RNG.integers(0, 4, _N)],
    "w": np.round(_RNG.uniform(0.0, 10.0, _N), 1),
    "text": np.array(["a b", "b c c", "d", "a a e"])[_RNG.integers(0, 4, _N)],
}
BATCH = {k: v[:5] for k, v in DATA.items()}


def _cols(names):
    return {k: DATA[k] for k in names}


def _batch(names):
    return {k: BATCH[k] for k in names}


def _space(tf, features, names, **kw):
    fs = tf.keras.utils.FeatureSpace(features, **kw)
    fs.adapt(tf.data.Dataset.from_tensor_slices(_cols(names)).batch(8))
    return fs


def all_types_concat(tf):
    FS = tf.keras.utils.FeatureSpace
    data = dict(_cols(["f", "w", "age", "n", "s"]))
    data["d"] = DATA["f"]
    data["h"] = DATA["n"]
    data["hs"] = DATA["s"]
    fs = FS({"f": "float", "w": FS.float_rescaled(scale=0.5, offset=1.0), "age": "float_normalized",
             "n": "integer_categorical", "s": "string_categorical", "d": FS.float_discretized(num_bins=4),
             "h": "integer_hashed", "hs": FS.string_hashed(num_bins=8)}, hashing_dim=16)
    fs.adapt(tf.data.Dataset.from_tensor_slices(data).batch(8))
    batch = {k: v[:5] for k, v in data.items()}
    out = fs(batch)
    return {"out": out, "vocab_n": [int(v) for v in fs.preprocessors["n"].get_vocabulary()],
            "vocab_s": [str(v) for v in fs.preprocessors["s"].get_vocabulary()],
            "bins": [float(b) for b in fs.preprocessors["d"].bin_boundaries]}


def float_of_integers(tf):
    fs = tf.keras.utils.FeatureSpace({"a": "float", "b": "float_normalized"})
    fs.adapt({"a": np.array([1, 2, 3]), "b": np.array([1.0, 2.0, 4.0])})
    return fs({"a": np.array([1, 2]), "b": np.array([1.0, 2.0])})


def default_discretization_bins(tf):
    fs = _space(tf, {"age": "float_discretized"}, ["age"], num_discretization_bins=5)
    return {"out": fs(_batch(["age"])), "bins": [float(b) for b in fs.preprocessors["age"].bin_boundaries]}


def crosses_dict(tf):
    FS = tf.keras.utils.FeatureSpace
    fs = _space(tf, {"n": FS.integer_categorical(num_oov_indices=0), "s": "string_categorical",
                     "age": FS.float_discretized(num_bins=6)}, ["n", "s", "age"],
                crosses=[("n", "s"), FS.cross(("s", "age"), crossing_dim=8, output_mode="int")],
                crossing_dim=16, output_mode="dict")
    out = fs(_batch(["n", "s", "age"]))
    return {"keys": sorted(out), "out": out}


def int_outputs_dict(tf):
    FS = tf.keras.utils.FeatureSpace
    data = {"n": DATA["n"], "s": DATA["s"], "hs": DATA["s"]}
    fs = FS({"n": FS.integer_categorical(output_mode="int"), "s": FS.string_categorical(output_mode="int"),
             "hs": FS.string_hashed(num_bins=5, output_mode="int")}, output_mode="dict")
    fs.adapt(data)
    return fs({k: v[:5] for k, v in data.items()})


def single_sample(tf):
    fs = _space(tf, {"age": "float_normalized", "s": "string_categorical", "n": "integer_categorical"},
                ["age", "s", "n"], crosses=[("n", "s")])
    return fs({"age": tf.constant(33), "s": tf.constant("blue"), "n": tf.constant(2)})


def single_sample_dict(tf):
    fs = _space(tf, {"age": "float_normalized", "s": "string_categorical"}, ["age", "s"], output_mode="dict")
    return fs({"age": 33, "s": "blue"})


def unbatched_dataset(tf):
    fs = tf.keras.utils.FeatureSpace({"age": "float_normalized", "n": "integer_categorical"})
    fs.adapt(tf.data.Dataset.from_tensor_slices(_cols(["age", "n"])))
    return fs(_batch(["age", "n"]))


def custom_text_feature(tf):
    FS = tf.keras.utils.FeatureSpace
    fs = _space(tf, {"text": FS.feature(preprocessor=tf.keras.layers.TextVectorization(output_mode="tf_idf"),
                                        dtype="string", output_mode="float"),
                     "w": "float"}, ["text", "w"], output_mode="dict")
    codes = _space(tf, {"n": FS.feature(preprocessor=tf.keras.layers.IntegerLookup(), dtype="int64",
                                        output_mode="one_hot"), "w": "float"}, ["n", "w"])
    return {"text": fs(_batch(["text", "w"])), "codes": codes(_batch(["n", "w"]))}


def functional_graph(tf):
    fs = _space(tf, {"age": "float_normalized", "s": "string_categorical", "n": "integer_categorical"},
                ["age", "s", "n"], crosses=[("s", "n")], crossing_dim=4)
    inputs, encoded = fs.get_inputs(), fs.get_encoded_features()
    dense = tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")
    out = dense(encoded)
    train = tf.keras.Model(inputs=encoded, outputs=out)
    infer = tf.keras.Model(inputs=inputs, outputs=out)
    batch = _batch(["age", "s", "n"])
    return {"shape": list(encoded.shape), "dtype": str(encoded.dtype), "inputs": sorted(inputs),
            "input_dtypes": [str(inputs[k].dtype) for k in sorted(inputs)],
            "train": train.predict(fs(batch), verbose=0),
            "infer": infer.predict({k: tf.convert_to_tensor(v) for k, v in batch.items()}, verbose=0)}


def inference_model_saved(tf):
    import json
    import zipfile
    fs = _space(tf, {"age": "float", "n": "integer_categorical", "s": "string_categorical"}, ["age", "n", "s"],
                crosses=[("n", "s")], crossing_dim=4)
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")(fs.get_encoded_features())
    model = tf.keras.Model(fs.get_inputs(), out)
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    layers = json.loads(zipfile.ZipFile(path).read("config.json"))["config"]["layers"]
    back = tf.keras.models.load_model(path)
    x = {k: tf.constant(v[:3, None]) for k, v in _batch(["age", "n", "s"]).items()}
    return {"layers": [(c["module"], c["class_name"]) for c in layers], "model": model(x), "loaded": back(x)}


def dataset_map(tf):
    fs = _space(tf, {"age": "float_normalized", "s": "string_categorical"}, ["age", "s"])
    ds = tf.data.Dataset.from_tensor_slices(_batch(["age", "s"])).batch(2).map(fs)
    return [b for b in ds]


def config(tf):
    FS = tf.keras.utils.FeatureSpace
    fs = FS({"age": "float_normalized", "s": FS.string_categorical(max_tokens=3, name="s")},
            crosses=[FS.cross(("age", "s"), crossing_dim=7)], output_mode="dict")
    c = fs.get_config()
    return {"keys": sorted(c), "output_mode": c["output_mode"], "crossing_dim": c["crossing_dim"],
            "hashing_dim": c["hashing_dim"], "bins": c["num_discretization_bins"],
            "features": {k: (v["class_name"], v["config"]["dtype"], v["config"]["output_mode"],
                             v["config"]["preprocessor"]["class_name"]) for k, v in c["features"].items()},
            "cross": [(x["class_name"], list(x["config"]["feature_names"]), x["config"]["crossing_dim"])
                      for x in c["crosses"]],
            "cross_name": fs.crosses[0].name, "crosser": type(fs.crossers["age_X_s"]).__name__}


def saved_and_loaded(tf):
    FS = tf.keras.utils.FeatureSpace
    fs = _space(tf, {"age": "float_normalized", "s": "string_categorical", "n": FS.integer_categorical(),
                     "f": FS.float_discretized(num_bins=3)}, ["age", "s", "n", "f"], crosses=[("s", "n")])
    path = os.path.join(tempfile.mkdtemp(), "fs.keras")
    fs.save(path)
    back = tf.keras.models.load_model(path)
    batch = _batch(["age", "s", "n", "f"])
    return {"type": type(back).__name__, "out": back(batch), "same": bool(np.allclose(back(batch), fs(batch)))}


def errors(tf):
    FS = tf.keras.utils.FeatureSpace
    out = {}
    for name, make in {
        "empty": lambda: FS({}),
        "bad_type": lambda: FS({"a": "floaty"}),
        "bad_mode": lambda: FS({"a": "float"}, output_mode="list"),
        "bad_cross": lambda: FS({"a": "float"}, crosses=[("a", "b")]),
        "bad_cross_mode": lambda: FS.cross(("a", "b"), 4, output_mode="multi_hot"),
        "bad_feature_mode": lambda: FS.feature("float32", tf.keras.layers.Identity(), "binary"),
        "not_adapted": lambda: FS({"a": "float_normalized"})({"a": [1.0]}),
        "not_dict": lambda: FS({"a": "float"})([1.0]),
        "adapt_list": lambda: FS({"a": "float_normalized"}).adapt([1.0, 2.0]),
        "concat_int": lambda: FS({"a": FS.integer_categorical(output_mode="int")}).adapt({"a": [1, 2]}),
    }.items():
        try:
            make()
            out[name] = None
        except Exception as e:  # noqa: BLE001  (the error is the result)
            out[name] = type(e).__name__
    return out


# ---------------------------------------------------------------------------- HashedCrossing and tf.sparse.cross
def hashed_crossing_int(tf):
    layer = tf.keras.layers.HashedCrossing(num_bins=5)
    return [layer((np.array(["A", "B", "A", "B", "A"]), np.array([101, 101, 101, 102, 102]))),
            layer((tf.constant([[1], [2]]), tf.constant([[3], [4]]))),
            layer((tf.constant(7), tf.constant("x"))),
            {k: v for k, v in layer.get_config().items() if k != "name"}]


def hashed_crossing_one_hot(tf):
    layer = tf.keras.layers.HashedCrossing(num_bins=6, output_mode="one_hot")
    sp = tf.keras.layers.HashedCrossing(num_bins=6, output_mode="one_hot", sparse=True)
    x = (np.array([["A"], ["B"], ["C"]]), np.array([[1], [2], [3]], np.int64))
    return [layer(x), sp(x), tf.keras.layers.HashedCrossing(num_bins=4, output_mode="one_hot")((1, 2))]


def hashed_crossing_symbolic(tf):
    a, b = tf.keras.Input((1,), dtype="int64"), tf.keras.Input((1,), dtype="string")
    out = tf.keras.layers.HashedCrossing(num_bins=5, output_mode="one_hot")((a, b))
    return [list(out.shape), str(out.dtype)]


def hashed_crossing_errors(tf):
    layer = tf.keras.layers.HashedCrossing(num_bins=5)
    out = {}
    for name, x in {"one": [np.array([1, 2])], "not_list": np.array([1, 2]),
                    "wide": (np.array([[1, 2]]), np.array([[3, 4]])), "shapes": (np.array([1, 2]), np.array([3])),
                    "floats": (np.array([1.0]), np.array([2.0]))}.items():
        try:
            layer(x)
            out[name] = None
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    try:
        tf.keras.layers.HashedCrossing(num_bins=5, output_mode="multi_hot")
    except Exception as e:  # noqa: BLE001
        out["mode"] = type(e).__name__
    return out


def sparse_cross(tf):
    a = tf.constant([["a"], ["b"], ["c"]])
    b = tf.constant([[1, 2], [3, 4], [5, 6]])
    sp = tf.SparseTensor([[0, 0], [2, 0], [2, 1]], tf.constant(["x", "y", "z"]), [3, 2])
    return [tf.sparse.cross([a, b]), tf.sparse.cross([a, sp], separator="#"), tf.sparse.cross([b, sp, a])]


def sparse_cross_hashed(tf):
    a = tf.constant([["a"], ["b"], ["c"]])
    b = tf.constant([[1, 2], [3, 4], [5, 6]], tf.int64)
    sp = tf.SparseTensor([[0, 0], [2, 0], [2, 1]], tf.constant([10, 20, 30], tf.int64), [3, 2])
    return [tf.sparse.cross_hashed([a, b]), tf.sparse.cross_hashed([a, b], num_buckets=7),
            tf.sparse.cross_hashed([a, sp], num_buckets=100, hash_key=12345),
            tf.sparse.cross_hashed([tf.constant([[1], [2]], tf.int32), tf.constant([["u"], ["v"]])], 9)]


# ---------------------------------------------------------------------------- sparse=True outputs
def sparse_category_encoding(tf):
    L = tf.keras.layers.CategoryEncoding
    ids = tf.constant([[1, 3, 3], [0, 5, 5]])
    return [L(num_tokens=6, output_mode="count", sparse=True)(ids, count_weights=tf.constant(
                [[0.5, 0.0, 1.0], [1.0, 2.0, -2.0]])),
            L(num_tokens=6, output_mode="multi_hot", sparse=True)(ids),
            L(num_tokens=6, output_mode="count", sparse=True)(ids),
            L(num_tokens=6, output_mode="one_hot", sparse=True)(tf.constant([1, 3, 0])),
            L(num_tokens=6, output_mode="one_hot", sparse=True)(tf.constant([[1], [4]])),
            L(num_tokens=6, output_mode="count", sparse=True)(tf.constant([1, 3, 3])),
            L(num_tokens=6, output_mode="multi_hot", sparse=True)(tf.constant(2))]


def sparse_lookups(tf):
    Ls = tf.keras.layers
    s = tf.constant([["a", "c", "a"], ["b", "b", "z"]])
    i = tf.constant([[4, 4, 9], [7, 4, 7]], tf.int64)
    return [Ls.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot", sparse=True)(s),
            Ls.StringLookup(vocabulary=["a", "b", "c"], output_mode="count", sparse=True)(s),
            Ls.StringLookup(vocabulary=["a", "b"], output_mode="one_hot", sparse=True)(tf.constant(["a", "c", "b"])),
            Ls.StringLookup(vocabulary=["a", "b", "c"], output_mode="multi_hot", sparse=True, mask_token="",
                            num_oov_indices=2)(tf.constant([["a", "", "q"]])),
            Ls.IntegerLookup(vocabulary=[4, 7], output_mode="count", sparse=True)(i),
            Ls.IntegerLookup(vocabulary=[4, 7], output_mode="multi_hot", sparse=True, pad_to_max_tokens=True,
                             max_tokens=6)(i)]


def sparse_hashing_discretization(tf):
    Ls = tf.keras.layers
    return [Ls.Hashing(num_bins=4, output_mode="multi_hot", sparse=True)(tf.constant([["a", "c"], ["b", "b"]])),
            Ls.Hashing(num_bins=4, output_mode="count", sparse=True)(tf.constant([[1, 1, 2]])),
            Ls.Hashing(num_bins=4, output_mode="one_hot", sparse=True)(tf.constant(["a", "b"])),
            Ls.Discretization(bin_boundaries=[0.0, 1.0], output_mode="one_hot", sparse=True)(
                tf.constant([-1.0, 0.5, 3.0])),
            Ls.Discretization(bin_boundaries=[0.0, 1.0], output_mode="count", sparse=True)(
                tf.constant([[-1.0, 0.5, 3.0, 4.0]]))]


def sparse_text_vectorization(tf):
    out = []
    for mode in ("multi_hot", "count"):
        tv = tf.keras.layers.TextVectorization(output_mode=mode, sparse=True)
        tv.adapt(["a b c", "a a d"])
        out.append(tv(["a b z", "d d"]))
    return out


def sparse_inputs(tf):
    Ls = tf.keras.layers
    ss = tf.SparseTensor([[0, 0], [0, 2], [2, 1]], tf.constant(["a", "z", "b"]), [3, 3])
    si = tf.SparseTensor([[0, 0], [0, 2], [2, 1]], tf.constant([4, 9, 7], tf.int64), [3, 3])
    out = [Ls.StringLookup(vocabulary=["a", "b"])(ss),
           Ls.StringLookup(vocabulary=["a", "b"], output_mode="multi_hot")(ss),
           Ls.StringLookup(vocabulary=["a", "b"], output_mode="count", sparse=True)(ss),
           Ls.IntegerLookup(vocabulary=[4, 7])(si),
           Ls.IntegerLookup(vocabulary=[4, 7], invert=True)(tf.SparseTensor([[0, 1]], tf.constant([2], tf.int64),
                                                                           [1, 2])),
           Ls.Hashing(num_bins=3)(ss), Ls.Hashing(num_bins=3, output_mode="multi_hot")(si),
           Ls.CategoryEncoding(num_tokens=10, output_mode="count")(si),
           Ls.CategoryEncoding(num_tokens=10, output_mode="multi_hot", sparse=True)(si),
           Ls.Discretization(bin_boundaries=[5.0])(tf.SparseTensor([[0, 1]], [3.0], [1, 2]))]
    try:
        Ls.CategoryEncoding(num_tokens=10, output_mode="one_hot")(si)
    except Exception as e:  # noqa: BLE001
        out.append(type(e).__name__)
    return out


def sparse_errors(tf):
    Ls = tf.keras.layers
    out = {}
    for name, make in {"string_int": lambda: Ls.StringLookup(vocabulary=["a"], sparse=True),
                       "integer_int": lambda: Ls.IntegerLookup(vocabulary=[1], sparse=True),
                       "hashing_int": lambda: Ls.Hashing(num_bins=3, sparse=True),
                       "discretization_int": lambda: Ls.Discretization(bin_boundaries=[0.0], sparse=True),
                       "text_int": lambda: Ls.TextVectorization(sparse=True)}.items():
        try:
            make()
            out[name] = None
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    return out


def sparse_into_dense_layer(tf):
    count = tf.keras.layers.CategoryEncoding(num_tokens=5, output_mode="count", sparse=True)
    dense = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones")
    x = count(tf.constant([[0, 4, 4], [1, 1, 2]]), count_weights=tf.constant([[0.5, 1.0, 2.0], [1.0, 1.0, 3.0]]))
    inp = tf.keras.Input((3,), dtype="int32")
    enc = tf.keras.layers.CategoryEncoding(num_tokens=5, sparse=True)(inp)
    model = tf.keras.Model(inp, tf.keras.layers.Dense(2, kernel_initializer="ones")(enc))
    return [dense(x), bool(enc.sparse), list(enc.shape), model(tf.constant([[0, 1, 1], [4, 4, 4]]))]


CASES = {f.__name__: f for f in (
    all_types_concat, float_of_integers, default_discretization_bins, crosses_dict, int_outputs_dict, single_sample,
    single_sample_dict, unbatched_dataset, custom_text_feature, functional_graph, inference_model_saved, dataset_map,
    config, saved_and_loaded, errors,
    hashed_crossing_int, hashed_crossing_one_hot, hashed_crossing_symbolic, hashed_crossing_errors, sparse_cross,
    sparse_cross_hashed, sparse_category_encoding, sparse_lookups, sparse_hashing_discretization,
    sparse_text_vectorization, sparse_inputs, sparse_errors, sparse_into_dense_layer)}
