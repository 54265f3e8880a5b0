"""tf.distribute: N replicas on Dask workers train exactly as one process on the global batch;
reduce, gather, all_reduce and dataset splitting match TF 2.21's MirroredStrategy (cases in
tests/fixtures/tf_distribute.json, recorded on 2 and 4 logical CPUs by
tools/record_tf_distribute.py); a worker that dies mid-step leaves every variable at the last
completed step, and training resumes from a checkpoint on a new strategy.

The mirrored strategies need dask and distributed (``pip install 'tapegrad[dask]'``); those
tests skip without them.
"""
from __future__ import annotations

import json
import os
import sys
import threading

import numpy as np
import pytest

import tapegrad as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools"))
from record_tf_data import encode  # noqa: E402

with open(os.path.join(HERE, "fixtures", "tf_distribute.json"), encoding="utf-8") as _fh:
    FIXTURE = json.load(_fh)["cases"]

_strategies: dict = {}


def mirrored(n: int) -> tf.distribute.Strategy:
    """One embedded strategy per replica count for the whole module (a cluster takes seconds)."""
    pytest.importorskip("distributed")
    if n not in _strategies:
        _strategies[n] = tf.distribute.MirroredStrategy(num_replicas=n)
    return _strategies[n]


@pytest.fixture(scope="module", autouse=True)
def _close_strategies():
    yield
    for s in _strategies.values():
        s.close()
    _strategies.clear()


# ---------------------------------------------------------------- same parameters as one process
def _model(dtype):
    rng = np.random.default_rng(0)
    return [tf.Variable(rng.normal(size=(6, 8)).astype(dtype), name="w1"),
            tf.Variable(np.zeros(8, dtype), name="b1"),
            tf.Variable(rng.normal(size=(8, 3)).astype(dtype), name="w2")]


def _loss(params, x, y, global_batch):
    w1, b1, w2 = params
    h = tf.tanh(tf.matmul(x, w1) + b1)
    return tf.reduce_sum((tf.matmul(h, w2) - y) ** 2) / global_batch


def _data(dtype, steps=20, batch=8):
    rng = np.random.default_rng(1)
    return rng.normal(size=(steps * batch, 6)).astype(dtype), rng.normal(size=(steps * batch, 3)).astype(dtype)


def _optimizer(name):
    return tf.optimizers.SGD(0.05) if name == "sgd" else tf.optimizers.Adam(0.01)


COMBOS = [("sgd", np.float64, 1e-10), ("adam", np.float64, 1e-10), ("sgd", np.float32, 1e-5),
          ("adam", np.float32, 1e-5)]


@pytest.mark.parametrize("n", [1, 2, 4])
def test_n_replicas_match_one_process(n):
    """20 steps of SGD and of Adam, in float64 and float32 (four models trained by one step)."""
    x, y = _data(np.float64)
    batch = 8
    refs = []
    for opt_name, dtype, _ in COMBOS:
        ref, ref_opt = _model(dtype), _optimizer(opt_name)
        for i in range(20):
            xb, yb = (tf.constant(a[i * batch:(i + 1) * batch].astype(dtype)) for a in (x, y))
            with tf.GradientTape() as tape:
                loss = _loss(ref, xb, yb, batch)
            ref_opt.apply_gradients(zip(tape.gradient(loss, ref), ref))
        refs.append((ref, ref_opt))

    strategy = mirrored(n)
    with strategy.scope():
        models = [(_model(dtype), _optimizer(opt_name)) for opt_name, dtype, _ in COMBOS]

    def step(xb, yb):
        losses = []
        for (params, opt), (_, dtype, _) in zip(models, COMBOS):
            with tf.GradientTape() as tape:
                loss = _loss(params, tf.cast(xb, dtype), tf.cast(yb, dtype), batch)
            opt.apply_gradients(zip(tape.gradient(loss, params), params))
            losses.append(tf.cast(loss, tf.float64))
        return tf.stack(losses)

    dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(batch))
    losses = [strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(step, args=(xb, yb)), axis=None)
              for xb, yb in dataset]
    assert len(losses) == 20 and np.isfinite(np.asarray([v.numpy() for v in losses])).all()
    for (params, opt), (ref, ref_opt), (_, _, tol) in zip(models, refs, COMBOS):
        for p, r in zip(params, ref):
            np.testing.assert_allclose(p.numpy(), r.numpy(), rtol=tol, atol=tol)
        assert int(opt.iterations.numpy()) == 20
        for a, b in zip(opt.variables, ref_opt.variables):  # the driver's optimizer state too
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol)


def test_multi_worker_strategy_on_a_running_cluster_over_dask_comms():
    distributed = pytest.importorskip("distributed")
    x, y = _data(np.float64, steps=5, batch=4)
    ref, ref_opt = _model(np.float64), tf.optimizers.Adam(0.01)
    for i in range(5):
        with tf.GradientTape() as tape:
            loss = _loss(ref, x[4 * i:4 * i + 4], y[4 * i:4 * i + 4], 4)
        ref_opt.apply_gradients(zip(tape.gradient(loss, ref), ref))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster.scheduler_address)
        try:
            assert strategy.num_replicas_in_sync == 2
            assert (strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id) == ("chief", 0)
            strategy._group.use_dask_comms()  # as between machines
            with strategy.scope():
                params, opt = _model(np.float64), tf.optimizers.Adam(0.01)

            def step(xb, yb):
                with tf.GradientTape() as tape:
                    loss = _loss(params, xb, yb, 4)
                opt.apply_gradients(zip(tape.gradient(loss, params), params))

            for xb, yb in strategy.experimental_distribute_dataset(
                    tf.data.Dataset.from_tensor_slices((x, y)).batch(4)):
                strategy.run(step, args=(xb, yb))
        finally:
            strategy.close()
        assert len(cluster.scheduler_info["workers"]) == 2  # the cluster is not ours to close
    for p, r in zip(params, ref):
        np.testing.assert_allclose(p.numpy(), r.numpy(), rtol=1e-10, atol=1e-10)


# ---------------------------------------------------------------- TF's semantics, recorded
def _local(strategy):
    def local(v):
        return [np.asarray(x.numpy() if hasattr(x, "numpy") else x)
                for x in strategy.experimental_local_results(v)]
    return local


def _run_fixture_case(strategy, n, code):
    env = {"tf": tf, "np": np, "S": strategy, "N": n, "local": _local(strategy)}
    try:
        exec(code, env)  # noqa: S102  (the snippet recorded under TF)
    except Exception as e:  # noqa: BLE001
        return encode(e)
    return encode(env["out"])


def _same(got, want):
    if isinstance(want, dict) and want.get("t") in ("np", "tensor"):
        assert isinstance(got, dict) and got["t"] == want["t"], (got, want)
        assert got["dtype"] == want["dtype"] and got["shape"] == want["shape"], (got, want)
        np.testing.assert_allclose(np.asarray(got["v"], float), np.asarray(want["v"], float), rtol=1e-6)
    elif isinstance(want, dict) and want.get("t") in ("list", "tuple", "dict"):
        assert isinstance(got, dict) and got["t"] == want["t"] and len(got["v"]) == len(want["v"]), (got, want)
        pairs = zip(got["v"], want["v"]) if want["t"] != "dict" else ((got["v"][k], want["v"][k]) for k in want["v"])
        for g, w in pairs:
            _same(g, w)
    else:
        assert got == want


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("name", sorted(FIXTURE))
def test_matches_tensorflow(name, n):
    want = FIXTURE[name][str(n)]
    if want == {"t": "error", "type": "InternalError"}:
        pytest.skip("TF 2.21's collectives fail on 4 logical CPU devices (InternalError); nothing to compare")
    _same(_run_fixture_case(mirrored(n), n, FIXTURE[name]["code"]), want)


# ---------------------------------------------------------------- faults and resuming
def _squares(strategy):
    """A mirrored variable [1, 2], an SGD(0.5) and the loss sum(v * v) under a tape."""
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
        opt = tf.optimizers.SGD(0.5)

    def grads():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v)
        return loss, tape.gradient(loss, v)
    return v, opt, grads


def test_an_exception_in_one_replica_changes_nothing():
    strategy = mirrored(2)
    v, opt, grads = _squares(strategy)

    def step(fail):
        loss, g = grads()
        opt.apply_gradients([(g, v)])
        if fail and int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            raise ValueError("bad batch on replica 1")
        return loss

    strategy.run(step, args=(False,))
    np.testing.assert_allclose(v.numpy(), [-1.0, -2.0])  # each replica's gradient 2v, summed
    with pytest.raises(ValueError, match="bad batch on replica 1") as info:
        strategy.run(step, args=(True,))
    assert "replica 1 of 2" in str(info.value.__cause__) and "ValueError: bad batch" in str(info.value.__cause__)
    np.testing.assert_allclose(v.numpy(), [-1.0, -2.0])
    assert int(opt.iterations.numpy()) == 1
    with pytest.raises(RuntimeError, match=r"replica \d failed to answer 'step': TypeError: cannot pickle"):
        strategy.run(lambda: threading.Lock())  # an output that cannot travel back
    out = strategy.run(step, args=(False,))  # the replicas were rolled back: still in step
    np.testing.assert_allclose([float(t) for t in strategy.experimental_local_results(out)], [5.0, 5.0])
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])


@pytest.mark.parametrize("n", [2, 4])
def test_a_step_aborted_before_the_all_reduce_leaves_the_next_steps_exact(n):
    """Replica 1 raises before its all-reduce while the others wait in it: they are aborted,
    and the steps after it all-reduce the right gradients (rounds are not confused)."""
    strategy = mirrored(n)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0], dtype=tf.float64)
        opt = tf.optimizers.SGD(0.125)

    def step(fail):
        rid = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * v) * float(rid + 1)
        grads = tape.gradient(loss, v)
        if fail and rid == 1:
            raise ValueError("replica 1 fails before the all-reduce")
        opt.apply_gradients([(grads, v)])
        tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(float(rid)))  # a second round

    want = np.array([1.0, 2.0])
    scale = sum(range(1, n + 1))  # the gradients 2v(r+1), summed over replicas
    for fail in (False, True, False, True, False):
        if fail:
            with pytest.raises(ValueError, match="before the all-reduce"):
                strategy.run(step, args=(True,))
        else:
            strategy.run(step, args=(False,))
            want = want - 0.125 * 2 * scale * want
        np.testing.assert_allclose(v.numpy(), want, rtol=1e-12)


def test_an_interrupted_step_changes_nothing():
    """Ctrl-C while the replicas run a step: they stop, roll back, and the strategy goes on."""
    import signal
    import time

    strategy = mirrored(2)
    v, opt, grads = _squares(strategy)

    def step(wait):
        loss, g = grads()
        if int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
            time.sleep(wait)  # replica 0 waits for it in the all-reduce
        opt.apply_gradients([(g, v)])
        return loss

    def interrupt(*_):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            strategy.run(step, args=(3.0,))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    np.testing.assert_allclose(v.numpy(), [1.0, 2.0])
    strategy.run(step, args=(0.0,))
    np.testing.assert_allclose(v.numpy(), [-1.0, -2.0])
    assert int(opt.iterations.numpy()) == 1


def test_a_dead_worker_changes_nothing_and_training_resumes_from_a_checkpoint(tmp_path):
    pytest.importorskip("distributed")
    x, y = _data(np.float64, steps=6, batch=4)

    def build(strategy):
        with strategy.scope():
            params, opt = _model(np.float64), tf.optimizers.Adam(0.01)

        def step(xb, yb, die=False):
            with tf.GradientTape() as tape:
                loss = _loss(params, xb, yb, 4)
            grads = tape.gradient(loss, params)
            if die and int(tf.distribute.get_replica_context().replica_id_in_sync_group) == 1:
                os._exit(3)
            opt.apply_gradients(zip(grads, params))
            return loss
        return params, opt, step

    def _checkpoint(params, opt):
        return tf.train.Checkpoint(optimizer=opt, **{f"p{i}": p for i, p in enumerate(params)})

    batches = list(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
    first = tf.distribute.MirroredStrategy(num_replicas=2)
    try:
        params, opt, step = build(first)
        for i, (xb, yb) in enumerate(first.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))):
            if i == 3:
                path = _checkpoint(params, opt).save(str(tmp_path / "ckpt"))
            if i == 5:
                before = [p.numpy() for p in params] + [v.numpy() for v in opt.variables]
                with pytest.raises(tf.errors.UnavailableError, match=r"(?s)Replica 1 of 2 .* died .*exited with status 3.*No variable was changed"):
                    first.run(step, args=(xb, yb), kwargs={"die": True})
                after = [p.numpy() for p in params] + [v.numpy() for v in opt.variables]
                for a, b in zip(after, before):
                    np.testing.assert_array_equal(a, b)
                with pytest.raises(tf.errors.UnavailableError, match="build a new strategy"):
                    first.run(step, args=(xb, yb))
                break
            first.run(step, args=(xb, yb))
    finally:
        first.close()

    ref, ref_opt = _model(np.float64), tf.optimizers.Adam(0.01)
    for xb, yb in batches:
        with tf.GradientTape() as tape:
            loss = _loss(ref, xb, yb, 4)
        ref_opt.apply_gradients(zip(tape.gradient(loss, ref), ref))

    second = mirrored(2)
    params, opt, step = build(second)
    opt.build(params)
    _checkpoint(params, opt).restore(path)
    assert int(opt.iterations.numpy()) == 3
    for i, (xb, yb) in enumerate(second.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))):
        if i >= 3:
            second.run(step, args=(xb, yb))
    for p, r in zip(params, ref):
        np.testing.assert_allclose(p.numpy(), r.numpy(), rtol=1e-10, atol=1e-10)


def test_a_lone_replica_that_dies_says_what_this_process_kept():
    pytest.importorskip("distributed")
    strategy = tf.distribute.MirroredStrategy(num_replicas=1)
    try:
        with strategy.scope():
            v = tf.Variable(1.0)

        def step(die):
            v.assign_add(1.0)
            if die:
                os._exit(1)

        strategy.run(step, args=(False,))
        assert float(v) == 2.0  # read: this process has step 1
        strategy.run(step, args=(False,))  # not read
        with pytest.raises(tf.errors.UnavailableError, match="No replica survived: this process's "
                                                            "variables keep the values it last read"):
            strategy.run(step, args=(True,))
        assert float(v) == 2.0
    finally:
        strategy.close()


def test_a_program_may_make_its_strategy_at_module_level(tmp_path):
    """As TF programs do: no ``if __name__ == "__main__":`` (the workers never import the
    program), and a tf.function around strategy.run runs without a warning."""
    pytest.importorskip("distributed")
    import subprocess

    script = tmp_path / "train.py"
    script.write_text(
        "import warnings\n"
        "warnings.filterwarnings('error', message='tf.function')\n"
        "import tapegrad as tf\n"
        "strategy = tf.distribute.MirroredStrategy(num_replicas=2)\n"
        "with strategy.scope():\n"
        "    w = tf.Variable([1.0, 2.0])\n"
        "    opt = tf.optimizers.SGD(0.25)\n"
        "    acc = tf.keras.metrics.Mean()\n"
        "def step(x):\n"
        "    with tf.GradientTape() as tape:\n"
        "        loss = tf.reduce_sum(w * w) * x\n"
        "    opt.apply_gradients([(tape.gradient(loss, w), w)])\n"
        "    acc.update_state(x)\n"
        "    return loss\n"
        "@tf.function\n"
        "def train(x):\n"
        "    return strategy.reduce('SUM', strategy.run(step, args=(x,)), axis=None)\n"
        "xs = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group + 1)))\n"
        "print(float(train(xs)), w.numpy().tolist(), float(acc.result()))\n"
        "strategy.close()\n")
    root = os.path.dirname(HERE)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    # losses 5 and 10; gradients 2w and 4w summed: w - 0.25 * 6w = -0.5w; the metric's mean over
    # both replicas' values (1 and 2), as TF's synchronized-on-read metric variables give
    assert done.stdout.split() == ["15.0", "[-0.5,", "-1.0]", "1.5"], done.stdout


# ---------------------------------------------------------------- this process's copies
def test_the_drivers_variables_are_brought_up_to_date_when_read(tmp_path):
    """The driver fetches the replicas' values when it reads a variable (not after every step):
    reads, copies and pickles see the last completed step; an assignment here (a checkpoint
    restore) reaches the replicas with the next step; Variable subclasses (Keras's) are mirrored
    by key as tf.Variable is; closing the strategy brings every value home."""
    import copy
    import pickle

    from tapegrad import keras

    strategy = mirrored(2)
    with strategy.scope():
        w = keras.Variable(initializer=np.array([1.0, 2.0]), name="w")
        v = tf.Variable([3.0], name="v")
        frozen = tf.Variable([5.0], name="frozen")
        opt = tf.optimizers.SGD(0.5)

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) + tf.reduce_sum(v) + tf.reduce_sum(frozen) * 0.0
        opt.apply_gradients(zip(tape.gradient(loss, [w, v]), [w, v]))
        return loss

    strategy.run(step)  # each replica's gradients 2w and 1, summed: w -> -w, v -> 3 - 1
    np.testing.assert_allclose(copy.deepcopy(w).numpy(), [-1.0, -2.0])
    np.testing.assert_allclose(pickle.loads(pickle.dumps(v)).numpy(), [2.0])
    assert isinstance(w, keras.Variable) and type(w).__name__ == "KerasVariable" and w.path == "w"
    strategy.run(step)
    strategy.run(step)
    np.testing.assert_allclose(w.numpy(), [-1.0, -2.0])
    np.testing.assert_allclose(v.numpy(), [0.0])
    np.testing.assert_allclose(frozen.numpy(), [5.0])
    assert int(opt.iterations.numpy()) == 3
    w.assign([10.0, 20.0])  # assigned here: the replicas get it with the next step
    np.testing.assert_allclose(w.numpy(), [10.0, 20.0])
    ckpt = tf.train.Checkpoint(v=v)
    path = ckpt.write(str(tmp_path / "v"))
    strategy.run(step)
    np.testing.assert_allclose(w.numpy(), [-10.0, -20.0])
    np.testing.assert_allclose(v.numpy(), [-1.0])
    ckpt.read(path)  # as a restore in the middle of training
    strategy.run(step)
    np.testing.assert_allclose(v.numpy(), [-1.0])
    np.testing.assert_allclose(w.numpy(), [10.0, 20.0])

    one = tf.distribute.MirroredStrategy(num_replicas=1)
    with one.scope():
        u = tf.Variable(3.0)
        sgd = tf.optimizers.SGD(0.25)

    def halve():
        with tf.GradientTape() as tape:
            loss = u * u
        sgd.apply_gradients([(tape.gradient(loss, u), u)])

    one.run(halve)
    one.run(halve)
    one.close()
    assert float(u) == 0.75


# ---------------------------------------------------------------- in-process strategies (no Dask)
def test_default_and_one_device_strategies():
    assert not tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()
    assert tf.distribute.get_replica_context().num_replicas_in_sync == 1
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    with s.scope():
        assert tf.distribute.get_strategy() is s and tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        v = tf.Variable(3.0)
        opt = tf.optimizers.SGD(0.5)

    def step():
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as tape:
            loss = v * v
        opt.apply_gradients([(tape.gradient(loss, v), v)])
        return ctx.all_reduce("SUM", loss)

    assert float(s.run(step)) == 9.0 and float(v) == 0.0
    assert float(s.reduce("SUM", tf.constant(2.0), axis=None)) == 2.0
    batches = [[b.numpy().tolist() for b in s.experimental_local_results(e)]
               for e in s.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(2))]
    assert batches == [[[0, 1]], [[2, 3]], [[4]]]
    with pytest.raises(ValueError, match="not divisible"):
        tf.distribute.InputContext(1, 0, 2).get_per_replica_batch_size(3)
    with pytest.raises(ValueError, match="ReduceOp"):
        s.reduce("MAX", tf.constant(1.0), axis=None)



def test_the_default_strategy_is_tfs_default_distribution_strategy():
    # TF 2.21: type _DefaultDistributionStrategy (a tf.distribute.Strategy); entering its scope
    # leaves the default replica context (in_cross_replica_context() False, a replica context).
    d = tf.distribute.get_strategy()
    assert type(d).__name__ == "_DefaultDistributionStrategy" and isinstance(d, tf.distribute.Strategy)
    assert "_DefaultDistributionStrategy object" in repr(d)
    with d.scope() as entered:
        assert entered is d and tf.distribute.get_strategy() is d
        assert not tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context().num_replicas_in_sync == 1
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        with pytest.raises(ValueError, match="Mixing different"):
            with d.scope():
                pass

# ---------------------------------------------------------------- unseen TF programs (issue #15, part 2)
# What porting the distributed-input and save-and-load tutorials and the distributed-training
# guide found (tests/real_programs/tut_distributed_input.py, tut_distributed_save_and_load.py,
# guide_distributed_training.py); the cases checked against TensorFlow are in the fixture above.
def test_mirrored_strategy_takes_one_replica_per_logical_cpu():
    pytest.importorskip("distributed")
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
    try:
        s = tf.distribute.MirroredStrategy()
    finally:
        tf.config.set_logical_device_configuration(cpu, None)
    try:
        assert s.num_replicas_in_sync == 3
        assert s.extended.worker_devices[-1] == "/job:localhost/replica:0/task:0/device:CPU:2"
    finally:
        s.close()


@pytest.mark.parametrize("args, replicas", [((), 1), (([],), 1), ((None,), 1), ((["/cpu:0"],), 1),
                                             ((["/cpu:0", "/cpu:1"],), 2)])
def test_mirrored_strategy_replica_counts_are_tensorflows(args, replicas):
    # TF 2.21 on a machine without GPUs: MirroredStrategy() -> ('.../device:CPU:0',); a list -> one each
    pytest.importorskip("distributed")
    s = tf.distribute.MirroredStrategy(*args)
    try:
        assert s.num_replicas_in_sync == replicas
        assert s.extended.worker_devices[0] == "/job:localhost/replica:0/task:0/device:CPU:0"
    finally:
        s.close()


def test_multi_worker_strategy_without_a_cluster_is_one_local_replica(monkeypatch):
    pytest.importorskip("distributed")
    s = tf.distribute.MultiWorkerMirroredStrategy(
        communication_options=tf.distribute.experimental.CommunicationOptions(
            implementation=tf.distribute.experimental.CommunicationImplementation.NCCL))
    try:
        with s.scope():
            v = tf.Variable(2.0)
        assert s.num_replicas_in_sync == 1
        assert float(s.run(lambda: v * 3.0)) == 6.0
        assert (s.cluster_resolver.task_type, s.cluster_resolver.task_id) == (None, None)
    finally:
        s.close()
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"worker": ["host:2222", "host:2223"]}}')
    with pytest.raises(ValueError, match="Dask scheduler"):   # (one worker runs: tests/test_cluster.py)
        tf.distribute.MultiWorkerMirroredStrategy()


def test_closing_one_of_two_strategies_leaves_dasks_logs_quiet(capfd):
    pytest.importorskip("distributed")
    first = tf.distribute.MirroredStrategy(num_replicas=1)
    second = tf.distribute.MirroredStrategy(num_replicas=1)
    first.close()
    assert float(second.run(lambda: tf.constant(1.0))) == 1.0
    second.close()
    assert " INFO " not in capfd.readouterr().err


def test_a_step_function_gets_tensors_and_numpy_arrays_as_given():
    s = mirrored(2)
    kinds = s.run(lambda t, a: (isinstance(t, tf.Tensor), isinstance(a, np.ndarray)),
                  args=(tf.constant([1.0]), np.ones(2)))
    assert kinds == (True, True)  # (as TF's regroup, one value for the replicas' identical ones)


def test_cross_device_ops_options_and_central_storage_are_accepted():
    for ops in (tf.distribute.HierarchicalCopyAllReduce(), tf.distribute.NcclAllReduce(num_packs=2),
                tf.distribute.ReductionToOneDevice()):
        assert isinstance(ops, tf.distribute.CrossDeviceOps)
    assert tf.distribute.InputOptions().experimental_replication_mode is tf.distribute.InputReplicationMode.PER_WORKER
    assert tf.distribute.RunOptions().experimental_enable_dynamic_batch_size
    css = tf.distribute.experimental.CentralStorageStrategy()
    assert css.num_replicas_in_sync == 1 and float(css.run(lambda: tf.constant(2.0))) == 2.0
    with pytest.raises(ValueError, match="MirroredStrategy"):
        tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    tf.distribute.experimental_set_strategy(css)
    try:
        assert tf.distribute.get_strategy() is css
    finally:
        tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()
    assert tf.data.experimental.AutoShardPolicy.DATA == 2


def test_one_replica_datasets_give_tensors_and_optionals():
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(3).batch(2))
    assert repr(dd.element_spec) == "TensorSpec(shape=(None,), dtype=tf.int64, name=None)"
    it = iter(dd)
    assert it.get_next().numpy().tolist() == [0, 1]
    first = it.get_next_as_optional()
    assert bool(first.has_value()) and first.get_value().numpy().tolist() == [2]
    empty = it.get_next_as_optional()
    assert not bool(empty.has_value()) and empty.element_spec == dd.element_spec
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        empty.get_value()
    plain = iter(tf.data.Dataset.range(1))
    assert int(plain.get_next_as_optional().get_value()) == 0
    assert not bool(plain.get_next_as_optional().has_value())
    assert float(tf.experimental.Optional.from_value(tf.constant(1.5)).get_value()) == 1.5


def test_cluster_resolvers_and_strategies_for_other_hardware():
    try:  # the usual TPU detection falls back
        tf.distribute.cluster_resolver.TPUClusterResolver()
        raise AssertionError("a TPUClusterResolver was made")
    except ValueError as e:
        assert "TPU" in str(e)
    with pytest.raises(AttributeError, match="MirroredStrategy"):
        tf.distribute.TPUStrategy
    with pytest.raises(AttributeError, match="synchronously"):
        tf.distribute.experimental.ParameterServerStrategy
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    assert (r.task_type, r.task_id, r.master()) == (None, None, "")
    os.environ["TF_CONFIG"] = '{"cluster": {"worker": ["a:1", "b:2"]}, "task": {"type": "worker", "index": 1}}'
    try:
        r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        assert (r.task_type, r.task_id) == ("worker", 1)   # (read at each question, as TF reads it)
    finally:
        del os.environ["TF_CONFIG"]
    assert (r.task_type, r.task_id) == (None, None)


def test_a_tf_function_that_iterates_a_distributed_dataset_runs_eagerly_without_a_warning():
    import warnings

    s = mirrored(2)
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(8, output_type=tf.float32).batch(4))

    @tf.function
    def epoch(dataset):
        total = 0.0
        for x in dataset:
            total += s.reduce("SUM", s.run(lambda b: tf.reduce_sum(b), args=(x,)), axis=None)
        return total

    @tf.function
    def until_empty(iterator):
        n = 0
        while True:
            optional = iterator.get_next_as_optional()
            if not optional.has_value():
                return n
            n += 1

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(epoch(dd)) == 28.0 and float(epoch(dd)) == 28.0
        assert int(until_empty(iter(dd))) == 2


def test_replicas_import_the_modules_this_process_imports_not_those_of_its_folder(tmp_path, monkeypatch):
    """A program run from a folder holding another version of a module the steps use (another
    tapegrad checkout, say): the replicas import this process's, as they share its sys.path."""
    pytest.importorskip("distributed")
    mine, other = tmp_path / "mine", tmp_path / "cwd"
    for folder, value in ((mine, "mine"), (other, "the folder's")):
        folder.mkdir()
        (folder / "tapegrad_probe_module.py").write_text(f"VALUE = {value!r}\n")
    monkeypatch.chdir(other)
    monkeypatch.syspath_prepend(str(mine))
    import tapegrad_probe_module
    s = tf.distribute.MirroredStrategy(num_replicas=1)
    try:
        assert s.run(lambda: __import__("tapegrad_probe_module").VALUE) == tapegrad_probe_module.VALUE == "mine"
    finally:
        s.close()
        sys.modules.pop("tapegrad_probe_module", None)
