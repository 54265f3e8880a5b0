"""The cases of tools/record_tf_saved_model.py, shared with tests/test_saved_model.py: each is a function
of ``(tf, d)``, ``tf`` being TensorFlow there and tapegrad here, ``d`` a fresh folder to save into.
A case saves with ``tf.saved_model.save`` (or Keras's ``export``), loads the folder back and returns
what TensorFlow documents of the restored object: outputs of restored functions and signatures,
signature output names, restored variables, file listings, and the error types of bad calls.
Results are encoded as in tests/strings_cases.py; an exception's result is its type's name."""
import os

import numpy as np

from strings_cases import encode as _encode


def _err(f):
    try:
        f()
        return "ok"
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return type(e).__name__


def _module_traced(tf, d):  # the TF guide's example: a traced method, no signature
    class M(tf.Module):
        def __init__(self, value):
            self.weight = tf.Variable(value)

        @tf.function
        def multiply(self, x):
            return x * self.weight

    m = M(3)
    m.multiply(tf.constant([1, 2, 3]))
    tf.saved_model.save(m, d)
    r = tf.saved_model.load(d)
    return {"files": sorted(os.listdir(d)), "variables": sorted(os.listdir(os.path.join(d, "variables"))),
            "out": r.multiply(tf.constant([4, 5, 6])), "weight": r.weight,
            "signatures": sorted(r.signatures.keys()),
            "other_shape": _err(lambda: r.multiply(tf.constant([1, 2]))),
            "other_dtype": _err(lambda: r.multiply(tf.constant([1.0, 2.0, 3.0]))),
            "contains": [tf.saved_model.contains_saved_model(d),
                         tf.saved_model.contains_saved_model(os.path.join(d, "variables"))]}


def _module_signature(tf, d):  # an input_signature: one function, the default serving signature
    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[1.0], [2.0]])
            self.b = tf.Variable(0.5)

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x, self.w) + self.b

    tf.saved_model.save(M(), d)
    r = tf.saved_model.load(d)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    sig = r.signatures["serving_default"]
    return {"call": r(x), "call_one": r(x[:1]), "signatures": sorted(r.signatures.keys()),
            "sig_out": sig(x=x), "sig_outputs": sorted(sig.structured_outputs),
            "positional": _err(lambda: sig(x)),
            "wrong_dtype": _err(lambda: r(tf.constant([[1, 2]]))),
            "wrong_shape": _err(lambda: r(tf.constant([1.0, 2.0]))),
            "variables": [r.w, r.b], "has_variables": hasattr(r, "variables")}


def _several_signatures(tf, d):  # signatures= a dict; a dict output keeps its keys
    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def scale(self, x):
            return {"scaled": x * self.v, "sum": tf.reduce_sum(x)}

        @tf.function
        def shift(self, x, y):
            return x + y + self.v

    m = M()
    conc = m.shift.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32))
    tf.saved_model.save(m, d, signatures={"scale": m.scale, "shift": conc})
    r = tf.saved_model.load(d)
    x = tf.constant([1.0, 2.0])
    return {"signatures": sorted(r.signatures.keys()), "scale": r.signatures["scale"](x=x),
            "shift": r.signatures["shift"](x=x, y=tf.constant([10.0, 20.0])),
            "shift_names": sorted(r.signatures["shift"].structured_outputs),
            "method": r.shift(x, tf.constant([10.0, 20.0])), "scale_method": r.scale(tf.constant([3.0]))}


def _tree(tf, d):  # lists and dicts of variables and modules; variables mutated after loading
    class Leaf(tf.Module):
        def __init__(self, v):
            self.v = tf.Variable(v)

    root = tf.Module()
    root.leaves = [Leaf(1.0), Leaf(2.0)]
    root.table = {"a": tf.Variable([1, 2]), "b": Leaf(3.0)}
    root.counter = tf.Variable(0)

    @tf.function(input_signature=[])
    def bump():
        root.counter.assign_add(1)
        return root.counter.read_value()

    root.bump = bump
    tf.saved_model.save(root, d)
    r = tf.saved_model.load(d)
    first = r.bump()
    second = r.bump()
    return {"leaves": [x.v for x in r.leaves], "a": r.table["a"], "b": r.table["b"].v,
            "bump": [first, second, r.counter], "trainable": r.counter.trainable,
            "has_variables": hasattr(r, "variables"), "name": r.table["a"].name}


def _gradient(tf, d):  # a tape watches a restored function's variables
    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([1.0, -2.0])

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def loss(self, x):
            return tf.reduce_sum(tf.square(self.w * x))

    tf.saved_model.save(M(), d)
    r = tf.saved_model.load(d)
    x = tf.constant([3.0, 0.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = r.loss(x)
    return {"y": y, "dw": tape.gradient(y, r.w), "dx": tape.gradient(y, x)}


def _keras_model(tf, d):  # tf.saved_model.save on a Keras model: its default serving signature
    keras = tf.keras
    inputs = keras.Input((3,))
    h = keras.layers.Dense(4, activation="relu", kernel_initializer="ones", bias_initializer="zeros")(inputs)
    outputs = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones")(h)
    model = keras.Model(inputs, outputs)
    x = tf.constant([[0.1, -0.2, 0.3], [1.0, 2.0, -1.0]])
    tf.saved_model.save(model, d)
    r = tf.saved_model.load(d)
    sig = r.signatures["serving_default"]
    names = sorted(sig.structured_input_signature[1])
    out = sig(**{names[0]: x})
    return {"files": sorted(os.listdir(d)), "signatures": sorted(r.signatures.keys()), "inputs": names,
            "outputs": {k: v for k, v in out.items()}, "model": model(x)}


def _keras_export(tf, d):  # model.export, reloaded as a SavedModel and as a TFSMLayer
    keras = tf.keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, kernel_initializer="ones",
                                                                     bias_initializer="zeros")])
    x = tf.constant([[1.0, 2.0]])
    model.export(d, format="tf_saved_model", verbose=False)
    r = tf.saved_model.load(d)
    layer = keras.layers.TFSMLayer(d, call_endpoint="serve")
    return {"files": sorted(os.listdir(d)), "serve": r.serve(x),
            "signatures": sorted(r.signatures.keys()),
            "sig_names": sorted(r.signatures["serving_default"].structured_outputs),
            "sig_inputs": sorted(r.signatures["serving_default"].structured_input_signature[1]),
            "trainable": [len(layer.trainable_weights), len(layer.non_trainable_weights)],
            "has_variables": [len(r.variables), len(r.trainable_variables)],
            "layer": layer(x), "layer_weights": len(layer.weights), "model": model(x),
            "bad_endpoint": _err(lambda: keras.layers.TFSMLayer(d, call_endpoint="nope"))}


def _export_archive(tf, d):  # keras.export.ExportArchive: tracked variables, two endpoints
    keras = tf.keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                     bias_initializer="ones")])
    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint(name="serve", fn=model.call,
                         input_signature=[tf.TensorSpec(shape=(None, 2), dtype=tf.float32)])
    archive.add_endpoint(name="double", fn=lambda x: 2.0 * model(x),
                         input_signature=[tf.TensorSpec(shape=(None, 2), dtype=tf.float32)])
    archive.write_out(d, verbose=False)
    r = tf.saved_model.load(d)
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    return {"serve": r.serve(x), "double": r.double(x), "signatures": sorted(r.signatures.keys()),
            "double_inputs": sorted(r.signatures["double"].structured_input_signature[1]),
            "no_endpoint": _err(lambda: keras.export.ExportArchive().write_out(d + "_empty", verbose=False)),
            "taken": _err(lambda: archive.add_endpoint(name="serve", fn=model.call,
                                                       input_signature=[tf.TensorSpec((None, 2))])),
            "no_signature": _err(lambda: archive.add_endpoint(name="other", fn=lambda x: x))}


def _keras_save_no_suffix(tf, d):  # Keras 3: model.save needs .keras or .h5
    keras = tf.keras
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    return _err(lambda: model.save(os.path.join(d, "model")))


def _nested_inputs(tf, d):  # a signature's names for a nest of inputs, and its output specs
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m.f = tf.function(lambda pair, scale: {"sum": pair[0] + pair[1] * scale * m.v, "n": tf.shape(pair[0])},
                      input_signature=[[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)],
                                       tf.TensorSpec([], tf.float32, name="k")])
    tf.saved_model.save(m, d)
    sig = tf.saved_model.load(d).signatures["serving_default"]
    names = sorted(sig.structured_input_signature[1])
    outs = {k: [v.dtype.name, v.shape.as_list()] for k, v in sig.structured_outputs.items()}
    x = tf.constant([1.0, 2.0])
    return {"names": names, "outputs": outs,
            "call": sig(**dict(zip(names, [tf.constant(2.0), x, tf.constant([3.0, 4.0])])))}


def _checkpoint(tf, d):  # a tf.train.Checkpoint's objects, a Generator's state
    w = tf.Variable([1.0, 2.0])
    ckpt = tf.train.Checkpoint(w=w, gen=tf.random.Generator.from_seed(3))
    tf.saved_model.save(ckpt, d)
    r = tf.saved_model.load(d)
    return {"w": r.w, "counter": hasattr(r, "save_counter"), "gen": r.gen._state_var.numpy().tolist()}


def _keras_built(tf, d):  # the serving signature of Keras models without Input: their build shapes
    keras = tf.keras

    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(3, kernel_initializer="ones")

        def call(self, x):
            return self.d(x)

    sub = Sub()
    sub(tf.zeros([1, 5]))
    seq = keras.Sequential([keras.layers.Dense(2, kernel_initializer="ones")])
    seq.build((None, 3))
    out = {}
    for name, model in (("sub", sub), ("seq", seq)):
        tf.saved_model.save(model, os.path.join(d, name))
        sigs = tf.saved_model.load(os.path.join(d, name)).signatures
        out[name] = {k: [[n, s.dtype.name, s.shape.as_list()] for n, s in sorted(v.structured_input_signature[1].items())]
                     for k, v in sigs.items()}
    return out


CASES = {"nested_inputs": _nested_inputs, "keras_built": _keras_built, "checkpoint": _checkpoint, "module_traced": _module_traced, "module_signature": _module_signature,
         "several_signatures": _several_signatures, "tree": _tree, "gradient": _gradient,
         "keras_model": _keras_model, "keras_export": _keras_export, "export_archive": _export_archive,
         "keras_save_no_suffix": _keras_save_no_suffix}


def run(name, tf, d):
    try:
        return _encode(CASES[name](tf, d), np)
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return {"error": type(e).__name__, "message": str(e)[:300]}
