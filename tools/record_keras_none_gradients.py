"""Record Keras 3's messages for None gradients in ``optimizer.apply_gradients`` for
tests/test_optimizers.py: the warning that names the skipped variables (a Keras weight by its
path, a ``tf.Variable`` by its name), the same warning from ``fit`` for a layer the model holds
but never calls, and the error when every gradient is None.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    python tools/record_keras_none_gradients.py   (a Python with TensorFlow and Keras 3)

It writes tests/fixtures/keras_none_gradients.json (sorted keys).
"""
import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(__file__))
from _tf import quiet_tensorflow  # noqa: E402

tf = quiet_tensorflow()
import keras  # noqa: E402
import numpy as np  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_none_gradients.json")


def warned(grads, variables):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        keras.optimizers.SGD(0.1).apply_gradients(zip(grads, variables))
    return [str(w.message) for w in caught if "Gradients do not exist" in str(w.message)]


def main():
    inp = keras.Input((3,))
    model = keras.Model(inp, [keras.layers.Dense(4, name="used")(inp),
                              keras.layers.Dense(2, name="spare")(inp)])
    x = tf.constant(np.ones((2, 3), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x)[0])
    grads = tape.gradient(loss, model.trainable_variables)
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    with tf.GradientTape() as tape:
        y = a * 2.0
    plain = warned(tape.gradient(y, [a, b]), [a, b])
    try:
        keras.optimizers.SGD(0.1).apply_gradients([(None, b)])
        error = None
    except ValueError as e:
        error = str(e)
    fit = keras.Model(inp, keras.layers.Dense(1, name="head")(inp))
    fit.spare = keras.layers.Dense(2, name="never_called")
    fit.spare.build((None, 3))
    fit.compile("sgd", "mse")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit.fit(np.ones((4, 3), np.float32), np.ones((4, 1), np.float32), epochs=1, verbose=0)
    rec = {"keras": keras.__version__,
           "fit": sorted({str(w.message) for w in caught if "Gradients do not exist" in str(w.message)}),
           "keras_model": warned(grads, model.trainable_variables),
           "tf_variables": plain,
           "all_none": error}
    with open(OUT, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(rec, indent=1))


if __name__ == "__main__":
    main()
