"""TensorFlow for the recording scripts in tools/ (development only: tapegrad and CI never use it).

The scripts run under a Python that has TensorFlow 2.21 and Keras 3.15 installed, named in their usage
lines by the environment variable ``TAPEGRAD_TF_PYTHON``; by default, make one beside the checkout::

    python3 -m venv ../tfenv && ../tfenv/bin/pip install "tensorflow==2.21.*" "keras==3.15.*" h5py scipy
    export TAPEGRAD_TF_PYTHON=../tfenv/bin/python
"""
import os


THREADS_VARIABLE = "RECORD_TF_THREADS"  # "1" or "default": overrides a recorder's thread count


def quiet_tensorflow():
    """``import tensorflow`` with its C++, absl and Python logging at ERROR.

    With the environment variable ``RECORD_TF_THREADS=1``, TensorFlow runs on one intra-op and one
    inter-op thread (tools/record_tf_spread.py reruns recorders that way to measure TensorFlow's
    own spread); unset or ``default``, it keeps its default thread pools.
    """
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    try:
        import absl.logging

        absl.logging.set_verbosity(absl.logging.ERROR)
    except ImportError:
        pass
    tf.get_logger().setLevel("ERROR")
    if os.environ.get(THREADS_VARIABLE) == "1":
        _one_thread(tf)
    return tf


def _one_thread(tf) -> None:
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)


def one_thread_tensorflow():
    """``quiet_tensorflow()`` with one intra-op and one inter-op thread.

    TensorFlow's CPU reductions and matmuls split work across threads, and the split changes the
    float32 summation order: on the corpus, TF with its default threads and TF with one thread
    differ from each other by up to 2.5e-4 relative. One thread is TensorFlow's deterministic
    result, the one recorded; tools/record_tf_spread.py measures how far the other configurations
    land from it, and the tests allow tapegrad a multiple of that (docs/reliability.md).
    With ``RECORD_TF_THREADS=default`` (tools/record_tf_spread.py), TensorFlow keeps its default
    thread pools instead.
    """
    tf = quiet_tensorflow()
    if os.environ.get(THREADS_VARIABLE) != "default":
        _one_thread(tf)
    return tf


def write_fixture(rec: dict, path: str, tf, keras) -> None:
    """Write ``rec`` with the versions of ``tf`` and ``keras`` to the JSON fixture ``path``
    (sorted keys)."""
    import json

    rec["versions"] = {"keras": keras.__version__, "tensorflow": tf.__version__}
    with open(path, "w") as f:
        json.dump(rec, f, sort_keys=True, indent=0)
        f.write("\n")
    print("wrote", os.path.relpath(path))


def record_keras_cases(cases: list, fixture: str, preview: int = 300) -> None:
    """Run each Keras case function ``case(tf, keras, np)`` after a ``clear_session`` and write the
    results to ``fixture`` by the case's name. Case names given on the command line rerun only
    those, keeping the fixture's other results."""
    import json
    import sys

    tf = quiet_tensorflow()
    import keras
    import numpy as np

    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": {}}
    only = sys.argv[1:]
    if only and os.path.exists(fixture):
        with open(fixture, encoding="utf-8") as fh:
            out["cases"] = json.load(fh)["cases"]
    for case in cases:
        if only and case.__name__ not in only:
            continue
        keras.utils.clear_session()
        out["cases"][case.__name__] = case(tf, keras, np)
        print(case.__name__, str(out["cases"][case.__name__])[:preview], file=sys.stderr)
    with open(fixture, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")



def record_cases_module(module: str, fixture: str) -> None:
    """Run ``tests/<module>.py``'s ``run(keras)`` under Keras on TensorFlow and write its results,
    with the versions, to ``tests/fixtures/<fixture>`` (compact JSON)."""
    import importlib
    import json
    import sys

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, os.path.join(repo, "tests"))
    os.environ.setdefault("KERAS_BACKEND", "tensorflow")
    tf = quiet_tensorflow()
    import keras

    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "cases": importlib.import_module(module).run(keras)}
    with open(os.path.join(repo, "tests", "fixtures", fixture), "w") as f:
        json.dump(out, f, separators=(",", ":"))
