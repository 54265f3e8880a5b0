"""The benchmark suite runs: every workload once at tiny sizes (no timing assertions)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from benchmarks import run  # noqa: E402


def test_every_workload_runs_and_the_report_is_written(tmp_path):
    out = tmp_path / "benchmarks.md"
    res = run.run(smoke=True, inprocess=True, libs=["tapegrad"], out=str(out))
    assert set(res) == set(run.WORKLOADS)
    for name, r in res.items():
        assert not r["errors"], (name, r["errors"])
        if any(s.startswith("this workload") for s in r["skipped"]):  # (an optional extra is missing)
            continue
        assert [row for row in r["rows"] if row["lib"] == "tapegrad"], name
        for row in r["rows"]:
            assert all(v > 0 for k, v in row.items() if k in ("ratio", "us_per_op", "ms")), row
    text = out.read_text(encoding="utf-8")
    for mod in run.WORKLOADS.values():
        assert f"## {mod.TITLE}" in text
    assert "| tapegrad |" in text and "NumPy" in text


def test_a_workload_runs_in_its_own_process():
    rows, err = run._run_pair("per_op", "tapegrad", smoke=True, inprocess=False, timeout=600)
    assert err is None and rows[0]["lib"] == "tapegrad" and rows[0]["ratio"] > 0


def test_an_absent_peer_is_skipped_and_an_unknown_workload_rejected(tmp_path, monkeypatch):
    monkeypatch.setattr(run, "available", lambda lib: False)
    res = run.run(only=["import"], libs=["tapegrad", "torch"], smoke=True, inprocess=True,
                  out=str(tmp_path / "b.md"))
    assert res["import"]["skipped"] == ["torch"]
    assert "Not installed here (skipped): torch" in (tmp_path / "b.md").read_text(encoding="utf-8")
    try:
        run.run(only=["nope"], smoke=True, inprocess=True)
    except SystemExit as e:
        assert "unknown workload 'nope'" in str(e)
    else:
        raise AssertionError("an unknown workload was accepted")


def test_the_jacobian_is_also_timed_in_fresh_processes(tmp_path):
    from benchmarks import bench_jacobian
    r = bench_jacobian.fresh("tapegrad", n=8, samples=2, calls=2)   # two children, quick
    assert r["fresh_ratio"] > 0 and r["first_ratio"] > 0 and r["fresh_jac_us"] > 0
    res = run.run(only=["jacobian"], libs=["tapegrad"], smoke=True, inprocess=True,
                  out=str(tmp_path / "b.md"))
    (row,) = [r for r in res["jacobian"]["rows"] if r["lib"] == "tapegrad"]
    assert row["ratio"] > 0 and row["fresh_ratio"] > 0
    text = (tmp_path / "b.md").read_text(encoding="utf-8")
    assert "Jacobian / VJP, fresh process" in text and "(fresh process)" in text
