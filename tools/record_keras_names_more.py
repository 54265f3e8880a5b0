"""Record Keras 3.15's numbers for tests/test_keras_names_more.py: tf.keras's activations (celu,
glu, sparsemax, ...), keras.metrics' function aliases, the Dice/Tversky/Circle/CTC losses, the STFT
initializer, keras.utils.get_source_inputs and Config, and the layers ThresholdedReLU, RandomHeight,
RandomWidth, Pipeline and Wrapper. The cases are described once, in tests/keras_names_more_cases.py.

Development only (tapegrad and CI never import Keras). Run with the TensorFlow + Keras venv:

    $TAPEGRAD_TF_PYTHON tools/record_keras_names_more.py

It writes tests/fixtures/keras_names_more.json (sorted keys).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from _tf import one_thread_tensorflow  # noqa: E402

tf = one_thread_tensorflow()
import keras  # noqa: E402

import keras_names_more_cases as cases  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "keras_names_more.json")


def main():
    k = tf.keras  # tf.keras is Keras 3.15's keras._tf_keras.keras: the names programs reach
    rec = {"keras": keras.__version__,
           "activations": {f"{n}/{d}": cases.run_activation(tf, k, n, d)
                           for n in cases.ACTIVATIONS for d in cases.ACTIVATION_DTYPES},
           "metric_aliases": {n: cases.run_metric_alias(k, n) for n in cases.METRIC_ALIASES},
           "losses": {n: cases.run_loss(tf, k, n) for n in cases.LOSSES},
           "masked_loss": cases.run_masked_loss(tf, k),
           "loss_functions": {n: cases.run_loss_function(tf, k, n) for n in cases.LOSS_FUNCTIONS},
           "stft": {n: cases.run_stft(k, n) for n in cases.STFT},
           "source_inputs": cases.run_source_inputs(k),
           "config": cases.run_config(k),
           "thresholded_relu": cases.run_thresholded_relu(tf, k),
           "random_resize": {n: cases.run_random_resize(tf, k, n) for n in cases.RANDOM_RESIZE},
           "pipeline": cases.run_pipeline(tf, k),
           "wrapper": cases.run_wrapper(tf, k)}
    with open(OUT, "w") as f:
        json.dump(rec, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(OUT))


if __name__ == "__main__":
    main()
