"""Record what TensorFlow does with TF1 graphs, sessions, name-based checkpoints and protobuf's text
format of tf.train.Example, for tests/test_tf1_compat.py.

    /root/tfenv/bin/python tools/record_tf1_compat.py

writes tests/fixtures/tf1_compat.json.
"""
import json
import os
import sys
import tempfile

import tensorflow as tf
import tensorflow.compat.v1 as tf1
from google.protobuf import text_format

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import tf1_compat_cases as cases  # noqa: E402

os.chdir(tempfile.mkdtemp())
OUT = {**cases.graphs_and_savers(tf, tf1), **cases.init_from_checkpoint_and_escaped_keys(tf, tf1),
       **cases.text_format_errors_and_merge(tf, text_format)}
OUT["text"] = {}
for name, text in cases.TEXTS.items():
    ex = text_format.Parse(text, tf.train.Example())
    OUT["text"][name] = [text, ex.SerializeToString().hex(), text_format.MessageToString(ex),
                         text_format.MessageToString(ex, as_one_line=True)]

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "tf1_compat.json"),
          "w") as f:
    json.dump(OUT, f, indent=1, sort_keys=True)
    f.write("\n")
