"""tf.train.ClusterSpec and the cluster resolvers, run on TensorFlow by tools/record_tf_cluster.py
and on tapegrad by tests/test_cluster.py: ``run(tf)`` returns what each question answers (an
error as its type and message)."""
import json
import os


def _ask(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 (the error is the answer)
        return ["error", type(e).__name__, str(e)[:80]]
    if isinstance(r, dict):
        return {str(k): v for k, v in r.items()}
    return r


def run(tf):
    out = {}
    cs = tf.train.ClusterSpec({"worker": ["localhost:1", "localhost:2"], "ps": ["localhost:3"],
                               "chief": {0: "c:4"}})
    sparse = tf.train.ClusterSpec({"worker": {1: "a:1", 3: "b:2"}})
    for name, f in {
        "str": lambda: str(cs), "jobs": lambda: cs.jobs,
        "as_dict": lambda: json.dumps(cs.as_dict(), sort_keys=True),
        "num_tasks": lambda: cs.num_tasks("worker"), "task_indices": lambda: cs.task_indices("ps"),
        "task_address": lambda: cs.task_address("worker", 1), "job_tasks": lambda: cs.job_tasks("worker"),
        "no_job": lambda: cs.num_tasks("x"), "no_task": lambda: cs.task_address("worker", 5),
        "empty_is_false": lambda: bool(tf.train.ClusterSpec({})),
        "equal_from_dict": lambda: cs == tf.train.ClusterSpec(cs.as_dict()),
        "from_spec": lambda: str(tf.train.ClusterSpec(cs)),
        "sparse": lambda: json.dumps(sparse.as_dict(), sort_keys=True),
        "sparse_job_tasks": lambda: sparse.job_tasks("worker"),
        "sparse_indices": lambda: sparse.task_indices("worker"),
        "not_a_dict": lambda: tf.train.ClusterSpec(5),
        "address_not_text": lambda: tf.train.ClusterSpec({"worker": [1]}),
    }.items():
        out[name] = _ask(f)
    saved = os.environ.pop("TF_CONFIG", None)
    try:
        r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        out["none"] = [_ask(lambda: r.cluster_spec().as_dict()), r.task_type, r.task_id, r.rpc_layer,
                       r.environment, r.master(), dict(r.num_accelerators())]
        os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
                                              "task": {"type": "worker", "index": 1}})
        out["two_workers"] = [_ask(lambda: r.cluster_spec().as_dict()), r.task_type, r.task_id,
                              r.rpc_layer, r.master(), r.master("worker", 0, "grpc"),
                              _ask(lambda: r.master("worker", 7))]
        fixed = tf.distribute.cluster_resolver.TFConfigClusterResolver(task_type="chief", task_id=0)
        out["fixed_task"] = [fixed.task_type, fixed.task_id, _ask(lambda: fixed.master())]
        s = tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec({"worker": ["a:1"]}), task_type="worker", task_id=0)
        out["simple"] = [_ask(lambda: s.cluster_spec().as_dict()), s.master(), s.task_type, s.task_id,
                         s.master("worker", 0), s.master("worker", 0, "grpc")]
    finally:
        os.environ.pop("TF_CONFIG", None)
        if saved is not None:
            os.environ["TF_CONFIG"] = saved
    return out
