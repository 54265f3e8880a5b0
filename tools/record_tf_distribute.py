"""Record TensorFlow 2.21's tf.distribute semantics for tests/test_distribute.py.

Run with a Python that has TensorFlow 2.21 (never needed by tapegrad or by CI; the tests read
only the JSON this script writes)::

    $TAPEGRAD_TF_PYTHON tools/record_tf_distribute.py

TensorFlow gets four logical CPU devices (``tf.config.set_logical_device_configuration``) and
each case runs under ``tf.distribute.MirroredStrategy`` on the first 2 and the first 4 of them.
A case is a snippet of Python that uses ``tf``, ``np``, ``S`` (the strategy), ``N`` (its number
of replicas) and ``local`` (a distributed value's per-replica results as NumPy arrays) and sets
``out``; tests/test_distribute.py runs the same snippet under tapegrad's MirroredStrategy.
"""
import argparse
import json
import os
import sys

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURE = os.path.join(REPO, "tests", "fixtures", "tf_distribute.json")
sys.path.insert(0, os.path.join(REPO, "tools"))
from record_tf_data import encode  # noqa: E402  (the same JSON encoding as the tf.data fixture)

_VALUE = ("def value():\n"
          "    r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)\n"
          "    return tf.stack([[r + 1.0, 2.0 * r, 3.0], [4.0, r * r, -r]])\n"
          "v = S.run(value)\n")

CASES = {
    "num_replicas": "out = S.num_replicas_in_sync",
    "replica_ids": "out = local(S.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group))",
    "replica_num_in_sync": "out = local(S.run(lambda: tf.constant(tf.distribute.get_replica_context().num_replicas_in_sync)))",
    "local_results": _VALUE + "out = local(v)",
    "reduce_sum_none": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.SUM, v, axis=None)",
    "reduce_mean_none": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.MEAN, v, axis=None)",
    "reduce_sum_axis0": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.SUM, v, axis=0)",
    "reduce_mean_axis0": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.MEAN, v, axis=0)",
    "reduce_sum_axis1": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.SUM, v, axis=1)",
    "reduce_mean_axis1": _VALUE + "out = S.reduce(tf.distribute.ReduceOp.MEAN, v, axis=1)",
    "reduce_plain_mean": "out = S.reduce(tf.distribute.ReduceOp.MEAN, tf.constant([1.0, 5.0]), axis=None)",
    "reduce_plain_sum": "out = S.reduce(tf.distribute.ReduceOp.SUM, tf.constant([1.0, 5.0]), axis=None)",
    "reduce_string_op": _VALUE + "out = S.reduce('SUM', v, axis=None)",
    "gather_axis0": _VALUE + "out = S.gather(v, axis=0)",
    "gather_axis1": _VALUE + "out = S.gather(v, axis=1)",
    "all_reduce_sum": (
        "def f():\n"
        "    ctx = tf.distribute.get_replica_context()\n"
        "    r = tf.cast(ctx.replica_id_in_sync_group, tf.float32)\n"
        "    return ctx.all_reduce(tf.distribute.ReduceOp.SUM, tf.stack([r, 1.0]))\n"
        "out = local(S.run(f))"),
    "all_reduce_mean": (
        "def f():\n"
        "    ctx = tf.distribute.get_replica_context()\n"
        "    r = tf.cast(ctx.replica_id_in_sync_group, tf.float32)\n"
        "    return ctx.all_reduce(tf.distribute.ReduceOp.MEAN, tf.stack([r, 1.0]))\n"
        "out = local(S.run(f))"),
    "run_args": (
        "x = tf.constant([1.0, 2.0])\n"
        "out = local(S.run(lambda a, b=1.0: a * b, args=(x,), kwargs={'b': 3.0}))"),
    "contexts": (
        "a = [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context()]\n"
        "with S.scope():\n"
        "    a += [tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(),\n"
        "          tf.distribute.get_strategy().num_replicas_in_sync]\n"
        "out = a"),
    "default_strategy": (
        "d = tf.distribute.get_strategy()\n"
        "out = [d.num_replicas_in_sync, local(d.run(lambda x: x * 2.0, args=(tf.constant(3.0),))),\n"
        "       d.reduce('SUM', tf.constant([1.0, 2.0]), axis=None)]"),
}
for _n, _b, _d in ((10, 4, False), (7, 3, False), (5, 4, False), (10, 4, True), (9, 6, False), (3, 4, False)):
    CASES[f"dataset_{_n}_batch{_b}" + ("_drop" if _d else "")] = (
        f"ds = tf.data.Dataset.range({_n}).batch({_b}, drop_remainder={_d})\n"
        "out = [local(e) for e in S.experimental_distribute_dataset(ds)]")
CASES["dataset_tuple"] = (
    "ds = tf.data.Dataset.from_tensor_slices((np.arange(8.0).reshape(4, 2), np.arange(4))).batch(4)\n"
    "out = [[local(x), local(y)] for x, y in S.experimental_distribute_dataset(ds)]")
CASES["dataset_from_function"] = (
    "seen = []\n"
    "def fn(ctx):\n"
    "    seen.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,\n"
    "                 ctx.get_per_replica_batch_size(8)])\n"
    "    return tf.data.Dataset.range(12).batch(2)\n"
    "els = [local(e) for e in S.distribute_datasets_from_function(fn)]\n"
    "out = [seen, els]")
CASES["per_replica_batch_size_error"] = (
    "out = []\n"
    "def fn(ctx):\n"
    "    out.append(ctx.get_per_replica_batch_size(7))\n"
    "    return tf.data.Dataset.range(4)\n"
    "S.distribute_datasets_from_function(fn)")

# (issue #15, part 2: what the distributed-input, save-and-load and guide programs found)
CASES["aggregated_variables"] = (
    "with S.scope():\n"
    "    a = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)\n"
    "    b = tf.Variable([1.0, 1.0], aggregation=tf.VariableAggregation.MEAN)\n"
    "    c = tf.Variable(5, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)\n"
    "    d = tf.Variable(0.0)\n"
    "def f():\n"
    "    r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)\n"
    "    a.assign(r + 1.0)\n"
    "    b.assign_add(tf.stack([r, 2.0 * r]))\n"
    "    b.assign_sub(tf.stack([1.0, 0.0]))\n"
    "    c.assign_add(1)\n"
    "    d.assign_add(1.0)\n"
    "    return a.read_value() + tf.reduce_sum(b)\n"
    "o = S.run(f)\n"
    "S.run(f)\n"
    "out = [local(o), a.numpy(), b.numpy(), c.numpy(), d.numpy()]")
CASES["keras_variable_aggregation"] = (
    "class Count(tf.keras.layers.Layer):\n"
    "    def build(self, shape):\n"
    "        self.total = self.add_weight(shape=(), initializer='zeros', trainable=False, aggregation='sum')\n"
    "        self.avg = self.add_weight(shape=(), initializer='zeros', trainable=False, aggregation='mean')\n"
    "    def call(self, x):\n"
    "        self.total.assign_add(tf.reduce_sum(x))\n"
    "        self.avg.assign(tf.reduce_sum(x))\n"
    "        return x\n"
    "with S.scope():\n"
    "    layer = Count()\n"
    "    layer.build((None,))\n"
    "dd = S.experimental_distribute_dataset(tf.data.Dataset.range(8, output_type=tf.float32).batch(4))\n"
    "for x in dd:\n"
    "    S.run(layer, args=(x,))\n"
    "out = [layer.total.numpy(), layer.avg.numpy()]")
CASES["reduce_nest"] = (
    _VALUE + "out = S.reduce('MEAN', {'v': v, 'pair': (v, tf.constant(2.0))}, axis=None)")
CASES["run_regroups_python_values"] = (
    "out = [S.run(lambda: None), S.run(lambda: 3), S.run(lambda: 'x'),\n"
    "       local(S.run(lambda x: tf.constant(hasattr(x, 'numpy')), args=(tf.constant(1.0),))),\n"
    "       local(S.run(lambda x: tf.constant(hasattr(x, 'numpy')), args=(tf.constant([1.0]),)))]")
CASES["element_spec"] = (
    "specs = [S.experimental_distribute_dataset(tf.data.Dataset.range(9).batch(b, drop_remainder=d)).element_spec\n"
    "         for b, d in ((4, False), (4, True), (3, True))]\n"
    "ds = tf.data.Dataset.from_tensors(([1.0], [2])).repeat(8).batch(4)\n"
    "specs.append(S.experimental_distribute_dataset(ds).element_spec)\n"
    "specs.append(S.distribute_datasets_from_function(lambda c: tf.data.Dataset.range(9).batch(2)).element_spec)\n"
    "out = [repr(s) for s in specs]")
CASES["input_signature_element_spec"] = (
    "dd = S.experimental_distribute_dataset(tf.data.Dataset.range(10).batch(4))\n"
    "@tf.function(input_signature=[dd.element_spec])\n"
    "def f(x):\n"
    "    return S.run(lambda y: y * 2, args=(x,))\n"
    "it = iter(dd)\n"
    "out = [local(f(next(it))), local(f(next(it))), local(f(next(it)))]")
CASES["get_next_as_optional"] = (
    "it = iter(S.experimental_distribute_dataset(tf.data.Dataset.range(9).batch(4)))\n"
    "out = []\n"
    "while True:\n"
    "    o = it.get_next_as_optional()\n"
    "    if not o.has_value():\n"
    "        break\n"
    "    out.append(local(o.get_value()))\n"
    "try:\n"
    "    o.get_value()\n"
    "except tf.errors.InvalidArgumentError:\n"
    "    out.append('no value')")
CASES["iterator_get_next"] = (
    "it = iter(S.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(2)))\n"
    "out = [local(it.get_next()), local(next(it)), [local(x) for x in it]]")
CASES["from_function_empty_replicas"] = (
    "def fn(ctx):\n"
    "    return tf.data.Dataset.from_tensors([[1.0]]).repeat(12).batch(4).batch(2)\n"
    "out = [[list(x.shape) for x in S.experimental_local_results(e)]\n"
    "       for e in S.distribute_datasets_from_function(fn)]")
CASES["cardinality"] = (
    "ds = tf.data.Dataset.range(10).batch(4)\n"
    "out = [S.experimental_distribute_dataset(ds).cardinality,\n"
    "       S.distribute_datasets_from_function(lambda c: ds).cardinality]")
CASES["local_results_nest"] = (
    "r = S.experimental_local_results((S.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group),\n"
    "                                  tf.constant(7)))\n"
    "out = [[np.asarray(a), np.asarray(b)] for a, b in r]")
CASES["all_gather"] = (
    "def f():\n"
    "    ctx = tf.distribute.get_replica_context()\n"
    "    r = ctx.replica_id_in_sync_group\n"
    "    x = tf.cast(r, tf.float32)\n"
    "    return (ctx.all_gather(tf.stack([[x, 1.0], [2.0 * x, 3.0]]), axis=1),\n"
    "            ctx.all_gather({'rows': tf.range(r + 1), 'n': tf.reshape(r, [1])}, axis=0))\n"
    "out = [[np.asarray(a), np.asarray(b['rows']), np.asarray(b['n'])] for a, b in S.experimental_local_results(S.run(f))]")
CASES["global_seed_in_replicas"] = (
    "tf.random.set_seed(5)\n"
    "draw = lambda: tf.random.uniform([2], seed=3)\n"
    "out = [local(S.run(draw)), local(S.run(draw))]\n"
    "tf.random.set_seed(5)\n"
    "out.append(local(S.run(draw)))\n"
    "tf.random.set_seed(None)")
CASES["extended_devices"] = "out = [S.extended.worker_devices, S.extended.parameter_devices]"
CASES["tf_function_per_replica_argument"] = (
    "with S.scope():\n"
    "    w = tf.Variable(2.0)\n"
    "@tf.function\n"
    "def f(x):\n"
    "    return S.reduce('SUM', S.run(lambda y: tf.reduce_sum(y) * w, args=(x,)), axis=None)\n"
    "dd = S.experimental_distribute_dataset(tf.data.Dataset.range(10, output_type=tf.float32).batch(4))\n"
    "out = [[f(x) for x in dd], [f(x) for x in dd], f.experimental_get_tracing_count()]")

# (issue #24: the random-numbers guide) a Generator made under a strategy draws apart in each
# replica (its key hashed with the replica id); a tf.function run only in the replicas is saved
# (traced again when saving, outside replica context: its draws are not hashed)
CASES["generator_made_in_scope"] = (
    "with S.scope():\n"
    "    g = tf.random.Generator.from_seed(1)\n"
    "    a = local(S.run(lambda: g.normal([])))\n"
    "    b = local(S.run(lambda: g.normal([2])))\n"
    "out = [a, b, g.state.numpy(), g.normal([])]")
CASES["generator_saved_from_replicas"] = (
    "import os, tempfile\n"
    "class M(tf.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.g = tf.random.Generator.from_seed(0)\n"
    "    @tf.function\n"
    "    def __call__(self):\n"
    "        return self.g.normal([])\n"
    "path = os.path.join(tempfile.mkdtemp(), 'm')\n"
    "with S.scope():\n"
    "    m = M()\n"
    "    a = local(S.run(m))\n"
    "    tf.saved_model.save(m, path)\n"
    "    b = local(S.run(m))\n"
    "imported = tf.saved_model.load(path)\n"
    "out = [a, b, imported(), imported()]")


def local_results(strategy):
    def local(v):
        return [np.asarray(x) for x in strategy.experimental_local_results(v)]
    return local


def run_case(tf, strategy, n, code):
    env = {"tf": tf, "np": np, "S": strategy, "N": n, "local": local_results(strategy)}
    try:
        exec(code, env)
    except Exception as e:  # noqa: BLE001  (the error is the recorded result)
        return encode(e)
    return encode(env["out"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="print the results of cases whose name contains this")
    args = parser.parse_args(argv)
    from _tf import quiet_tensorflow
    tf = quiet_tensorflow()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    devices = [d.name for d in tf.config.list_logical_devices("CPU")]
    results = {}
    for n in (2, 4):
        strategy = tf.distribute.MirroredStrategy(devices[:n])
        for name, code in CASES.items():
            if args.only is not None and args.only not in name:
                continue
            got = run_case(tf, strategy, n, code)
            results.setdefault(name, {"code": code})[str(n)] = got
            if args.only is not None:
                print(n, name, json.dumps(got)[:1500])
    if args.only is None:
        with open(FIXTURE, "w", encoding="utf-8") as fh:
            json.dump({"tensorflow": tf.__version__, "cases": results}, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(f"wrote {len(results)} cases to {FIXTURE}")


if __name__ == "__main__":
    main()
