"""tapegrad's own spread across OpenBLAS kernels, on the real-program corpus (docs/reliability.md).

    python tools/blas_spread.py [--coretypes Haswell,SkylakeX,Prescott] [--set SET] [NAME ...]
    python tools/blas_spread.py --supported

NumPy's OpenBLAS picks its kernels for the CPU (SkylakeX with AVX-512, Haswell with AVX2, ...);
the kernels block matmuls differently, so tapegrad's float32 results change in their last bits from
one CPU to another. ``OPENBLAS_CORETYPE`` forces a kernel set, and must be set before NumPy loads:
this script runs every corpus program that is expected to pass (or the NAMEs) on tapegrad once per
core type, each core type in a fresh process, and prints, per result with a difference: tapegrad's
spread across the core types, its largest difference from TensorFlow's recording, TensorFlow's
own spread (tests/fixtures/tf_spread.json) and the multiple of it that the difference needs
beyond the floor (tests/tf_compare.py). ``--supported`` prints the core types this CPU can run
(read from /proc/cpuinfo; .ci/run uses it). ``--set holdout6`` (any set of
tools/holdout_report.py) measures a holdout set's programs instead. TensorFlow is not needed.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTS = os.path.join(ROOT, "tests")
sys.path.insert(0, os.path.join(TESTS, "real_programs"))
sys.path.insert(0, TESTS)

# core type -> the /proc/cpuinfo flags its kernels need (x86-64 OpenBLAS names)
CORETYPES = {"SkylakeX": ("avx512f", "avx512bw", "avx512dq", "avx512vl"), "Haswell": ("avx2", "fma"),
             "Prescott": ("pni",)}  # (pni: SSE3)

_CHILD = """
import contextlib, io, sys
import numpy as np
sys.path.insert(0, {programs!r}); sys.path.insert(0, {root!r})
import _runner
if {chosen!r}:
    sys.path.insert(0, {tools!r})
    from record_real_programs import use_holdout
    use_holdout({chosen!r})
out = {{}}
for name in {names!r}:
    with _runner.tapegrad_imports(), contextlib.redirect_stdout(io.StringIO()):
        try:
            got = _runner.run_program(name)
        except Exception as exc:
            print(name, "failed:", _runner.describe_exception(exc), file=sys.stderr)
            continue
    out.update({{f"{{name}}/{{k}}": v for k, v in got.items()}})
np.savez({out!r}, **out)
"""


def supported() -> list:
    """The core types of ``CORETYPES`` whose instructions this CPU has (none off x86 Linux)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            flags = set()
            for line in fh:
                if line.startswith("flags"):
                    flags.update(line.split(":", 1)[1].split())
    except OSError:
        return []
    return [name for name, needs in CORETYPES.items() if set(needs) <= flags]


def run_corpus(coretype: str, names: list, workdir: str, chosen: str | None = None) -> dict:
    out = os.path.join(workdir, coretype + ".npz")
    code = _CHILD.format(programs=os.path.join(TESTS, "real_programs"), root=ROOT, names=names, out=out,
                         chosen=chosen, tools=os.path.join(ROOT, "tools"))
    env = {**os.environ, "OPENBLAS_CORETYPE": coretype, "PYTHONPATH": ROOT}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=workdir)
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coretypes", help="comma-separated (default: every supported one)")
    parser.add_argument("--supported", action="store_true", help="print the supported core types")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--runs", help="keep each core type's results in this folder, and reuse them")
    parser.add_argument("names", nargs="*")
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    from record_real_programs import holdout_args, use_holdout
    chosen, argv = holdout_args(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.supported:
        print(" ".join(supported()))
        return
    import _runner
    import tf_compare

    if chosen:
        use_holdout(chosen)

    manifest, arrays = _runner.load_fixture()
    names = args.names or [n for n, e in manifest["programs"].items() if e["expect"] == "pass"]
    coretypes = args.coretypes.split(",") if args.coretypes else supported()
    with tempfile.TemporaryDirectory() as workdir:
        runs = {}
        for c in coretypes:
            kept = os.path.join(args.runs or "", c + ".npz")
            if args.runs and os.path.exists(kept):
                with np.load(kept) as data:
                    runs[c] = {k: data[k] for k in data.files}
            else:
                runs[c] = run_corpus(c, names, workdir, chosen)
                if args.runs:
                    np.savez(kept, **runs[c])
    rows = []
    for key, want in sorted(arrays.items()):
        if key.split("/")[0] not in names or want.dtype.kind not in "fc":
            continue
        got = [runs[c][key].astype(np.float64) for c in coretypes if key in runs[c]]
        if len(got) != len(coretypes) or any(g.shape != want.shape for g in got):
            continue
        w = want.astype(np.float64)
        with np.errstate(invalid="ignore"):
            own = max(float(np.nanmax(np.abs(a - b), initial=0.0)) for a in got for b in got)
            dev = max(float(np.nanmax(np.abs(g - w), initial=0.0)) for g in got)
        scale = max(1.0, float(np.nanmax(np.abs(w), initial=0.0)))
        spread = tf_compare.program_spread(*key.split("/", 1))
        floor = tf_compare.floor(tf_compare.computed_in(want))
        limit = tf_compare.allowed(w, spread=0.0, rtol=floor, atol=floor * tf_compare.ATOL_FRACTION).real
        # the K this result needs: the largest (|h - w| - floor) / spread over its elements
        need = 0.0
        for g in got:
            excess = np.abs(g - w) - limit
            excess = excess[np.isfinite(excess)]
            if excess.size and excess.max() > 0:
                need = max(need, float(excess.max()) / spread if spread else float("inf"))
        rows.append({"result": key, "tapegrad_spread": own, "tf_difference": dev, "tf_spread": spread,
                     "scale": scale, "k_needed": need})
    print(f"core types: {', '.join(coretypes)}; {len(names)} programs, {len(rows)} float results")
    print(f"{'result':58} {'tapegrad spread':>15} {'|tapegrad-TF|':>13} {'TF spread':>10} {'K needed':>8}")
    for r in rows:
        if r["tapegrad_spread"] or r["tf_difference"] > tf_compare.floor(np.float32) * r["scale"] / 8:
            print(f"{r['result'][:58]:58} {r['tapegrad_spread']:15.3g} {r['tf_difference']:13.3g} "
                  f"{r['tf_spread']:10.3g} {r['k_needed']:8.3g}")
    worst = max(rows, key=lambda r: r["k_needed"], default=None)
    if worst:
        print(f"largest K needed: {worst['k_needed']:.3g} ({worst['result']}); K = {tf_compare.K}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"coretypes": coretypes, "results": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
