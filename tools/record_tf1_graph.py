"""Record what TensorFlow does with TF1 graph-mode programs (placeholders, Session.run with
feed_dict, tf.compat.v1.train's optimizers and decays, v1 losses, nn and initializers), for
tests/test_tf1_graph.py.

    $TAPEGRAD_TF_PYTHON tools/record_tf1_graph.py

writes tests/fixtures/tf1_graph.json.
"""
import json
import os
import sys

import tensorflow as tf
import tensorflow.compat.v1 as tf1

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import tf1_graph_cases as cases  # noqa: E402

OUT = {}
for name in ("placeholders_and_feeds", "counters_and_dependencies", "graph_optimizers", "eager_optimizers",
             "decays", "v1_losses", "v1_nn_and_initializers", "migration_debugging", "creator_scopes", "v1_as_tf", "keras_layer_in_graph", "v1_saved_model", "v1_meta_graph",
             "disabled_eager"):  # (disabled_eager last)
    OUT[name] = getattr(cases, name)(tf, tf1)

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "tf1_graph.json"),
          "w") as f:
    json.dump(OUT, f, indent=1, sort_keys=True)
    f.write("\n")
