"""tf.train.ClusterSpec and the cluster resolvers answer as TensorFlow's (recorded by
tools/record_tf_cluster.py from tests/cluster_cases.py), and MultiWorkerMirroredStrategy runs a
TF_CONFIG cluster of one worker as that worker."""
import json
import os
from pathlib import Path

import pytest

import tapegrad as tf

import cluster_cases

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "tf_cluster.json").read_text())["cases"]
RESULTS = json.loads(json.dumps(cluster_cases.run(tf), sort_keys=True))


@pytest.mark.parametrize("name", sorted(FIXTURE))
def test_answers_as_tensorflow(name):
    want, got = FIXTURE[name], RESULTS[name]
    if isinstance(want, list) and want and want[0] == "error":
        assert got[:2] == want[:2], (got, want)
    else:
        assert got == want


def test_multi_worker_strategy_reads_tf_config(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["localhost:12399"]},
                                               "task": {"type": "worker", "index": 0}}))
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    r = strategy.cluster_resolver
    assert (strategy.num_replicas_in_sync, type(r).__name__, r.task_type, r.task_id) == \
        (1, "TFConfigClusterResolver", "worker", 0)   # (TF 2.21 answers the same)
    assert r.cluster_spec().as_dict() == {"worker": ["localhost:12399"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:2"]},
                                               "task": {"type": "worker", "index": 0}}))
    with pytest.raises(ValueError, match="Dask"):
        tf.distribute.MultiWorkerMirroredStrategy()
    monkeypatch.delenv("TF_CONFIG")
    r = tf.distribute.MultiWorkerMirroredStrategy().cluster_resolver
    assert (type(r).__name__, r.task_type, r.task_id, r.cluster_spec().as_dict()) == \
        ("TFConfigClusterResolver", None, None, {})
    assert not os.environ.get("TF_CONFIG")
