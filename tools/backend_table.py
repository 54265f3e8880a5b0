"""Which ops of the op table (tests/optable) run on non-NumPy array backends, and which raise.

For every op-table case (its first argument-shape variant, float64 inputs) and every backend
(``array_api_strict``, Dask), the case runs on tensors holding that backend's arrays; the forward
value and the reverse-mode gradient of the sum of the outputs are compared with the same case
run on NumPy. Each case gets one status:

  runs       forward and gradient match NumPy (nondiff cases: forward)
  forward    the forward matches; the gradient raises (the reason is given)
  raises     the forward raises (the reason is given)
  differs    a value differs from NumPy's (a bug: the tests fail on it)

Random ops (two NumPy runs differ) are compared by their outputs' shapes only.

    python tools/backend_table.py           # rewrite the table in docs/backends.md
    python tools/backend_table.py --print   # print it only
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from optable import OpCase, all_cases

import tapegrad as tf

DOC = ROOT / "docs" / "backends.md"
BEGIN, END = "<!-- backend table: begin -->", "<!-- backend table: end -->"


def backends() -> dict:
    """Backend name -> function making that backend's array from a NumPy array."""
    import array_api_strict
    import dask.array as da
    return {"array_api_strict": array_api_strict.asarray,
            "dask": lambda a: da.from_array(a, chunks=tuple(max(1, (n + 1) // 2) for n in a.shape))}


def _args(case: OpCase) -> list:
    rng = np.random.default_rng(abs(hash(case.name)) % 2**32)
    shapes = case.shapes[0]
    if case.make is not None:
        return [np.asarray(a) for a in case.make(rng, shapes)]
    doms = case.domain if isinstance(case.domain, list) else [case.domain] * len(shapes)
    return [np.asarray(rng.uniform(lo, hi, size=s) + (1j * rng.uniform(lo, hi, size=s) if case.complex else 0))
            for s, (lo, hi) in zip(shapes, doms)]


def _outputs(case: OpCase, ts: list) -> list:
    y = case.fn(*ts)
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _grads_of(case: OpCase, ts: list) -> list:
    """The gradients (NumPy arrays or None) of the sum of the case's float outputs."""
    with tf.GradientTape() as tape:
        tape.watch(ts)
        flat = _outputs(case, ts)
        loss = tf.add_n([tf.reduce_sum(tf.math.real(o)) for o in flat if o.dtype.is_floating or o.dtype.is_complex])
    return [None if g is None else np.asarray(tf.convert_to_tensor(g)) for g in tape.gradient(loss, ts)]


def _close(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        (x is None) == (y is None) and (x is None or (np.shape(x) == np.shape(y) and
                                                        np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True)))
        for x, y in zip(a, b))


def _reason(e: BaseException) -> str:
    msg = str(e).split("\n")[0]
    m = re.match(r"The op (\S+) has no \S+ form in tapegrad(.*?)\. Run it on NumPy", msg)
    if m:
        why = m.group(2).replace(": its NumPy forward ", "").replace(f" the {m.group(1)}", "")
        return f"no form of {m.group(1)}" + (f" (forward {why[:80]})" if why else "")
    if msg.startswith("This tapegrad function"):
        return "NumPy outside the ops (" + msg[len("This tapegrad function "):].split(" with NumPy")[0] + ")"
    msg = re.sub(r" \(inputs of shapes .*", "", msg)
    return f"{type(e).__name__}: {msg[:90]}"


def status(case: OpCase, make: object) -> tuple[str, str]:
    """(status, reason) of one case on one backend."""
    args = _args(case)
    ref = [tf.constant(a) for a in args]
    ts = [tf.convert_to_tensor(make(a)) for a in args]  # type: ignore[operator]
    try:
        outs = [np.asarray(o) for o in _outputs(case, ts)]
    except Exception as e:  # noqa: BLE001 (the table reports every failure)
        return "raises", _reason(e)
    want = [np.asarray(o) for o in _outputs(case, ref)]
    if not _close(want, [np.asarray(o) for o in _outputs(case, ref)]):  # a random op: shapes only
        if [np.shape(o) for o in outs] != [np.shape(o) for o in want]:
            return "differs", "forward shape"
        return "runs", "random: shapes compared" if case.nondiff else "random: gradient not compared"
    if not _close(outs, want):
        return "differs", "forward value"
    if case.nondiff:
        return "runs", ""
    try:
        g = _grads_of(case, ts)
    except Exception as e:  # noqa: BLE001
        return "forward", _reason(e)
    if not _close(g, _grads_of(case, ref)):
        return "differs", "gradient"
    return "runs", ""


def table(names: list[str] | None = None) -> list[tuple]:
    """Rows ``(case, op names, {backend: (status, reason)})``."""
    makers = backends()
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for case in all_cases():
            if names is not None and case.name not in names:
                continue
            rows.append((case.name, ", ".join(case.covers), {b: status(case, m) for b, m in makers.items()}))
    return rows


def markdown(rows: list[tuple]) -> str:
    bs = list(rows[0][2]) if rows else []
    lines = ["| case | ops | " + " | ".join(bs) + " |", "|---|---|" + "---|" * len(bs)]
    for name, ops, st in rows:
        cells = [s if not r else f"{s}: {r}" for s, r in (st[b] for b in bs)]
        lines.append(f"| {name} | {ops} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    counts = []
    for b in bs:
        n = {k: sum(1 for _, _, st in rows if st[b][0] == k) for k in ("runs", "forward", "raises", "differs")}
        counts.append(f"**{b}**: " + ", ".join(f"{v} {k}" for k, v in n.items()))
    return "\n".join(counts) + "\n\n" + "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--print", action="store_true", help="print the table; leave the docs alone")
    a = ap.parse_args()
    text = markdown(table())
    if a.print:
        print(text)
        return
    doc = DOC.read_text()
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:start] + "\n" + text + "\n" + doc[end:])
    print(f"wrote {DOC.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
