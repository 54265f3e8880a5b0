"""``python -m tapegrad script.py`` runs an unmodified TensorFlow or Keras program, as ``python
script.py`` would (argv, ``__main__``, ``__file__``, exit code, traceback), through an import hook
that lives in that process only; ``tapegrad.install_as_tensorflow()`` does the same in-process."""
import os
import subprocess
import sys
import textwrap

import pytest

import tapegrad

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TF_PROGRAM = '''
import os
import sys
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
import tensorflow.experimental.numpy as tnp

print("argv", sys.argv[1:], __name__, __file__ == os.path.join(HERE, "prog.py"), sys.path[0] == HERE)
w = tf.Variable([[1.0], [2.0]])
x = tf.constant([[3.0, 4.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
print("grad", tape.gradient(loss, w).numpy().ravel().tolist())
model = keras.Sequential([layers.Dense(2, kernel_initializer="ones")])
print("dense", model(np.ones((1, 3), np.float32)).numpy().tolist(), float(tnp.sum(tnp.ones(3))))
if "fail" in sys.argv:
    def inner():
        raise ValueError("boom from the program")
    inner()
sys.exit(int(sys.argv[-1]) if sys.argv[-1].isdigit() else 0)
'''

KERAS3_PROGRAM = '''
import numpy as np
import keras
from keras import layers, ops

keras.utils.set_random_seed(1)
model = keras.Sequential([keras.Input(shape=(3,)), layers.Dense(8, activation="relu"), layers.Dense(1)])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
y = ops.sum(x, axis=1, keepdims=True)
history = model.fit(x, y, epochs=3, batch_size=16, verbose=0)
losses = history.history["loss"]
print("epochs", len(losses), "decreasing", losses[-1] < losses[0])
print("ops", float(ops.mean(ops.square(ops.ones((2, 2))))), type(model).__module__.split(".")[0])
'''


def run(tmp_path, source, *args, module=False):
    script = tmp_path / "prog.py"
    script.write_text(textwrap.dedent(source).replace("HERE", repr(str(tmp_path))), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": ROOT}
    cmd = [sys.executable, "-m", "tapegrad"] + (["-m", "prog"] if module else ["prog.py"]) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)


def test_an_unmodified_tensorflow_program_runs(tmp_path):
    r = run(tmp_path, TF_PROGRAM, "a", "b")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "argv ['a', 'b'] __main__ True True"
    assert lines[1] == "grad [66.0, 88.0]"
    assert lines[2] == "dense [[3.0, 3.0]] 3.0"


def test_an_unmodified_keras_3_program_runs(tmp_path):
    r = run(tmp_path, KERAS3_PROGRAM)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["epochs 3 decreasing True", "ops 1.0 tapegrad"]


def test_exit_code_and_traceback_are_the_programs(tmp_path):
    assert run(tmp_path, TF_PROGRAM, "7").returncode == 7
    r = run(tmp_path, TF_PROGRAM, "fail")
    assert r.returncode == 1
    assert r.stderr.startswith("Traceback (most recent call last):\n")
    assert 'prog.py", line' in r.stderr.splitlines()[1]          # the program's frame first
    assert "runpy" not in r.stderr and "__main__.py" not in r.stderr
    assert r.stderr.rstrip().endswith("ValueError: boom from the program")


def test_module_form(tmp_path):
    r = run(tmp_path, TF_PROGRAM, "x", module=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].startswith("argv ['x'] __main__")


@pytest.mark.parametrize("statement,message", [
    ("tf.bfloat16", "tapegrad does not cover tf.bfloat16 yet"),
    ("from tensorflow import feature_column", "tapegrad does not cover tf.feature_column yet"),
    ("import tensorflow.feature_column", "tapegrad does not cover tf.feature_column yet"),
    ("from keras.layers import Densse", "Did you mean: 'Dense'?"),
])
def test_missing_names_fail_with_tapegrads_message(tmp_path, statement, message):
    r = run(tmp_path, f"import tensorflow as tf\n{statement}\n")
    assert r.returncode == 1 and message in r.stderr.splitlines()[-1], r.stderr


def test_usage(tmp_path):
    r = subprocess.run([sys.executable, "-m", "tapegrad"], capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": ROOT}, timeout=60)
    assert r.returncode == 2 and "usage: python -m tapegrad script.py" in r.stderr
    r = subprocess.run([sys.executable, "-m", "tapegrad", "nope.py"], capture_output=True, text=True,
                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": ROOT}, timeout=60)
    assert r.returncode == 2 and "can't open file" in r.stderr


def test_nothing_is_installed_for_other_processes(tmp_path):
    run(tmp_path, TF_PROGRAM)
    r = subprocess.run([sys.executable, "-c", "import importlib.util as u; print(u.find_spec('tensorflow'))"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT}, timeout=60)
    assert r.stdout.strip() == "None"   # (this test environment has no TensorFlow)


def test_install_in_process_and_uninstall_puts_things_back():
    meta_path, modules = list(sys.meta_path), set(sys.modules)
    sentinel = object()
    sys.modules["keras"] = sentinel           # (a real Keras imported before)
    try:
        with tapegrad.install_as_tensorflow() as hook:
            import keras
            import tensorflow as tf
            from tensorflow.keras import layers
            assert tf is tapegrad and keras is tapegrad.keras and layers is tapegrad.keras.layers
            assert "installed" in repr(hook)
        assert sys.modules["keras"] is sentinel
        assert sys.meta_path == meta_path and "tensorflow" not in sys.modules
        hook.uninstall()                      # twice: nothing more
    finally:
        sys.modules.pop("keras", None)
    assert set(sys.modules) - modules <= {m for m in sys.modules if m.startswith("tapegrad")}


def test_the_corpus_runner_uses_the_same_hook():
    sys.path.insert(0, os.path.join(ROOT, "tests", "real_programs"))
    try:
        import _runner
    finally:
        sys.path.pop(0)
    with _runner.tapegrad_imports():
        assert any(type(f).__module__ == "tapegrad._import_hook" for f in sys.meta_path)
