"""What a MirroredStrategy opens to others, and what it leaves behind.

The embedded Dask cluster listens on the loopback interface only and takes only TLS connections
that show its own certificate: a plain TCP peer, a Dask client without TLS and a Dask client with
another certificate (another user's) are all turned away. The lanes and shared memory live in a
folder of mode 0700. A driver ended by SIGTERM removes its folder and its workers' log; what a
driver killed by SIGKILL left, the next strategy removes.
"""
from __future__ import annotations

import ipaddress
import os
import signal
import socket
import stat
import subprocess
import sys
import time

import pytest

import tapegrad as tf

pytest.importorskip("distributed")
pytest.importorskip("cryptography")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _socket_inodes(pid: int) -> set:
    out = set()
    fd_dir = f"/proc/{pid}/fd"
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            out.add(int(target[8:-1]))
    return out


def _address(hex_addr: str) -> str:
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:  # (each 32-bit word is in the host's byte order)
        ip = ipaddress.IPv4Address(raw[::-1] if sys.byteorder == "little" else raw)
    else:
        words = [raw[i:i + 4][::-1] if sys.byteorder == "little" else raw[i:i + 4] for i in range(0, 16, 4)]
        ip = ipaddress.IPv6Address(b"".join(words))
        ip = ip.ipv4_mapped or ip
    return f"{ip}:{int(port, 16)}"


def listening(pids: list) -> list:
    """The TCP sockets in the LISTEN state that the processes ``pids`` hold: (ip, port)."""
    inodes = set().union(*(_socket_inodes(p) for p in pids))
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as fh:
            for line in fh.readlines()[1:]:
                f = line.split()
                if f[3] == "0A" and int(f[9]) in inodes:  # 0A: LISTEN
                    host, port = _address(f[1]).rsplit(":", 1)
                    out.append((ipaddress.ip_address(host), int(port)))
    return out


def abstract_unix_sockets(pids: list) -> list:
    inodes = set().union(*(_socket_inodes(p) for p in pids))
    with open("/proc/net/unix") as fh:
        rows = [line.split() for line in fh.readlines()[1:]]
    return [r[7] for r in rows if len(r) > 7 and int(r[6]) in inodes and r[7].startswith("@")]


@pytest.fixture(scope="module")
def strategy():
    s = tf.distribute.MirroredStrategy(num_replicas=2)
    yield s
    s.close()


def _pids(strategy) -> list:
    return [os.getpid()] + [p.pid for p in strategy._group.cluster.processes]


def test_only_loopback_listens(strategy):
    socks = listening(_pids(strategy))
    assert len(socks) == 3, socks  # the scheduler and two workers, nothing else (no HTTP server)
    assert all(ip.is_loopback for ip, _ in socks), socks
    assert abstract_unix_sockets(_pids(strategy)) == []
    assert strategy.dask_client.scheduler.address.startswith("tls://127.0.0.1:")


def _turned_away(port: int) -> bool:
    """A plain TCP peer sends a Dask handshake: the server closes the connection unanswered."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"\x00" * 8 + b"\x81\xa2op\xa8identity" + b"\x00" * 64)
        got = b""
        try:
            while chunk := s.recv(4096):
                got += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return b"identity" not in got and b"type" not in got  # (a TLS alert at most)


def test_a_peer_without_the_certificate_is_refused(strategy):
    import distributed

    ports = [port for _, port in listening(_pids(strategy))]
    assert ports
    for port in ports:
        assert _turned_away(port)

    async def ask(address, **kw):
        comm = await distributed.comm.connect(address, timeout="3s", **kw)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    for port in ports:
        with pytest.raises((OSError, TimeoutError)):  # plain Dask comms: no TLS
            distributed.utils.sync(strategy.dask_client.loop, ask, f"tcp://127.0.0.1:{port}")
        other = distributed.Security.temporary()  # TLS, but another certificate: another user's
        with pytest.raises((OSError, TimeoutError)):
            distributed.utils.sync(strategy.dask_client.loop, ask, f"tls://127.0.0.1:{port}",
                                   **other.get_connection_args("client"))
    address = strategy.dask_client.scheduler.address
    with pytest.raises((OSError, TimeoutError)):
        distributed.Client(address.replace("tls://", "tcp://"), timeout=3, set_as_default=False)
    with pytest.raises((OSError, TimeoutError)):
        distributed.Client(address, timeout=3, set_as_default=False,
                           security=distributed.Security.temporary())


def test_the_lanes_and_shared_memory_are_this_users_only(strategy):
    folder = strategy._group.folder
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert os.stat(folder).st_uid == os.getuid()
    log = strategy._group.cluster.log.name
    assert stat.S_IMODE(os.stat(log).st_mode) == 0o600
    assert strategy._group.lanes  # (the steps do go through them)
    assert float(strategy.run(lambda: tf.constant(1.0)).values[1]) == 1.0


def test_a_dashboard_only_when_asked_for_and_on_loopback():
    before = set(listening([os.getpid()]))  # (another strategy's, in this process)
    s = tf.distribute.MirroredStrategy(num_replicas=1, dashboard=True)
    try:
        socks = set(listening(_pids(s))) - before
        assert len(socks) == 3 and all(ip.is_loopback for ip, _ in socks), socks
        link = s.dask_client.dashboard_link
        assert link.startswith("http://127.0.0.1:")
        assert int(link.split(":")[2].split("/")[0]) in [port for _, port in socks]
    finally:
        s.close()


def test_a_remote_plain_cluster_draws_a_warning_and_tls_needs_security():
    from tapegrad.distribute import _dask
    import distributed

    with pytest.raises(ValueError, match="speaks TLS: pass security="):
        _dask._connect(distributed, "tls://192.0.2.1:8786", None)
    with pytest.raises(TypeError, match="distributed.Security"):
        _dask._connect(distributed, "tls://192.0.2.1:8786", "ca.pem")
    with pytest.warns(UserWarning, match="without TLS"), pytest.raises((OSError, TimeoutError)):
        tf.distribute.MultiWorkerMirroredStrategy("tcp://192.0.2.1:8786")  # (TEST-NET: unreachable)


def test_multi_worker_strategy_on_a_tls_cluster():
    import distributed

    security = distributed.Security.temporary()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None,
                                  security=security) as cluster:
        assert cluster.scheduler_address.startswith("tls://")
        s = tf.distribute.MultiWorkerMirroredStrategy(cluster.scheduler_address, security=security)
        try:
            with s.scope():
                v = tf.Variable(1.0)

            def step():
                v.assign_add(2.0)

            s.run(step)
            assert float(v.numpy()) == 3.0
        finally:
            s.close()


_DRIVER = """
import os, sys, time
import tapegrad as tf
s = tf.distribute.MirroredStrategy(num_replicas=1)
s.run(lambda: 0)
g = s._group
print(g.folder, g.cluster.log.name, *[p.pid for p in g.cluster.processes], flush=True)
time.sleep(600)
"""


def _start_driver():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    p = subprocess.Popen([sys.executable, "-c", _DRIVER], stdout=subprocess.PIPE, env=env, text=True)
    line = p.stdout.readline().split()
    assert line, "the driver did not start"
    return p, line[0], line[1], [int(x) for x in line[2:]]


def _gone(pid: int, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().split(")")[-1].split()[0] == "Z":  # (a zombie: ended)
                    return True
        except OSError:
            return True
        time.sleep(0.05)
    return False


def test_sigterm_removes_the_folder_and_the_log():
    p, folder, log, workers = _start_driver()
    assert os.path.isdir(folder) and os.path.isfile(log)
    p.send_signal(signal.SIGTERM)
    assert p.wait(30) == -signal.SIGTERM  # (it still dies of SIGTERM, as without a strategy)
    assert not os.path.exists(folder) and not os.path.exists(log)
    assert all(_gone(w) for w in workers)


def test_the_next_strategy_reclaims_what_a_killed_driver_left():
    p, folder, log, workers = _start_driver()
    p.kill()
    p.wait(30)
    try:
        assert os.path.isdir(folder) and os.path.isfile(log)  # (SIGKILL cannot be caught)
        assert all(_gone(w) for w in workers)  # (they end with their driver)
        s = tf.distribute.MirroredStrategy(num_replicas=1)
        try:
            assert not os.path.exists(folder) and not os.path.exists(log)
            assert os.path.isdir(s._group.folder)  # (its own, of a live process, is kept)
        finally:
            s.close()
    finally:
        for w in workers:  # (they would end by themselves once the scheduler is gone 60 s)
            try:
                os.kill(w, signal.SIGKILL)
            except ProcessLookupError:
                pass
