"""A new user's first hour: missing TensorFlow names, printed tensors, type checking."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tapegrad as tf
from tapegrad import _missing
from tapegrad._tf_names import NAMES

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- missing names
@pytest.mark.parametrize("ns,name", [("", "keras"), ("", "function"), ("", "data"), ("", "print"),
                                     ("", "image"), ("", "signal"), ("", "TensorArray"),
                                     ("", "device"), ("", "name_scope"), ("math", "bincount"),
                                     ("nn", "conv3d"), ("linalg", "lu"),
                                     ("random", "stateless_normal")])
def test_a_tensorflow_name_tapegrad_lacks_says_so_and_points_to_the_guide(ns, name):
    mod = getattr(tf, ns) if ns else tf
    qual = f"tf.{ns}.{name}" if ns else f"tf.{name}"
    with pytest.raises(AttributeError) as e:
        getattr(mod, name)
    msg = str(e.value)
    assert f"does not cover {qual} yet" in msg and _missing.GUIDE in msg
    if not ns:
        assert f"Instead, {_missing.INSTEAD[name]}." in msg
    assert not hasattr(mod, name) and getattr(mod, name, "default") == "default"


def test_a_name_in_another_namespace_is_named():
    with pytest.raises(AttributeError, match=r"Instead, use tf\.nn\.log_softmax\."):
        tf.math.log_softmax
    with pytest.raises(AttributeError, match=r"tapegrad has tf\.nn\.relu\.$"):
        tf.relu


def test_a_misspelt_name_gets_did_you_mean():
    with pytest.raises(AttributeError, match=r"Did you mean: 'GradientTape'\?$"):
        tf.GradientTap
    with pytest.raises(AttributeError, match=r"Did you mean: 'normal'\?$"):
        tf.random.norml
    with pytest.raises(AttributeError, match=r"^module 'tapegrad' has no attribute 'qwertz'$"):
        tf.qwertz
    with pytest.raises(AttributeError, match=r"^module 'tapegrad' has no attribute '__wrapped__'$"):
        tf.__wrapped__


def test_lazy_names_still_load_and_missing_name_machinery_is_not_imported():
    code = ("import sys, tapegrad as tf; lazy = 'tapegrad._missing' in sys.modules or "
            "'tapegrad._tf_names' in sys.modules; tf.Module; tf.optimizers.SGD; "
            "print(lazy, hasattr(tf, 'keras'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_guide_table_lists_every_hint_and_every_hint_is_a_real_missing_tf_name():
    page = (ROOT / "docs" / "migrating.md").read_text(encoding="utf-8")
    assert "### TensorFlow names tapegrad lacks" in page  # the anchor of _missing.GUIDE
    assert _missing.GUIDE.endswith("#tensorflow-names-tapegrad-lacks")
    rows = dict(re.findall(r"^\| `tf\.(\w+)` \| (.+?) \|$", page, re.M))
    for name, hint in _missing.INSTEAD.items():
        assert name in NAMES[""] and not hasattr(tf, name), name
        assert rows.get(name, "").lower() == hint.lower() + ".", name
