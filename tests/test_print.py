"""tf.print against TensorFlow 2.21's output (tests/fixtures/tf_surface.json, from
tools/record_tf_surface.py)."""
from __future__ import annotations

import collections
import json
import logging
import os
import sys

import numpy as np
import pytest

import tapegrad as tf

FIXTURE = json.load(open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_surface.json"),
                         encoding="utf-8"))


@pytest.mark.parametrize("code", sorted(FIXTURE["print"]))
def test_print_matches_tensorflow(code, capsys):
    def P(*args, **kwargs):  # noqa: N802
        tf.print(*args, output_stream=sys.stdout, **kwargs)

    eval(code, {"tf": tf, "np": np, "collections": collections, "P": P})  # noqa: S307
    assert capsys.readouterr().out == FIXTURE["print"][code].replace("\n", os.linesep)


def test_default_stream_is_stderr_and_files_are_appended_to(capsys, tmp_path):
    tf.print("to", tf.constant([1, 2]))
    assert capsys.readouterr() == ("", "to [1 2]" + os.linesep)
    path = tmp_path / "log.txt"
    tf.print("a", output_stream=f"file://{path}")
    tf.print(tf.constant(2.5), output_stream=f"file://{path}")
    assert path.read_text() == "a\n2.5\n".replace("\n", os.linesep)


def test_logging_streams(caplog):
    with caplog.at_level(logging.INFO, logger="tapegrad"):
        tf.print("x", tf.constant(1.0), output_stream=logging.info)
        tf.print("y", output_stream=logging.WARNING)
    assert [(r.levelno, r.getMessage()) for r in caplog.records] == [(logging.INFO, "x 1"),
                                                                     (logging.WARNING, "y")]


def test_unsupported_stream_is_a_value_error():
    with pytest.raises(ValueError, match="Unsupported output stream.*'file://<filepath>'"):
        tf.print(1, output_stream="out.txt")


def test_print_is_not_differentiated_and_returns_none():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = x * x
        assert tf.print(y, output_stream=sys.stdout) is None
    assert float(tape.gradient(y, x)) == 4.0
