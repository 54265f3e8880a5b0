"""Write the tables of docs/numpy.md that list the NumPy and SciPy functions which stay on the
tape, from tapegrad/_numpy_interop.py's mapping tables (so the page cannot drift from the code;
tests/test_numpy_scipy_tape.py checks that the page holds what :func:`render` gives).

    python tools/numpy_interop_table.py          # rewrite the tables in docs/numpy.md
"""
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(REPO, "docs", "numpy.md")
START = "<!-- numpy-interop-table: start (written by tools/numpy_interop_table.py) -->"
END = "<!-- numpy-interop-table: end -->"


def _target(target) -> str:
    """A string target: the tapegrad function; an adapter: its docstring (reST to Markdown)."""
    if isinstance(target, str):
        return f"`tf.{target}`"
    doc = " ".join((target.__doc__ or "").split())
    if not doc:
        raise ValueError(f"adapter {target.__qualname__} has no docstring to show in docs/numpy.md")
    return doc.replace("``", "`").rstrip(".")


def _rows(pairs) -> list:
    return [f"| `{name}` | {_target(target)} |" for name, target in sorted(pairs)]


def render() -> str:
    """The Markdown between the markers: three tables and the NumPy ufuncs left off the tape."""
    import numpy as np
    from tapegrad import _numpy_interop as interop
    scipy_names = {"psi": "psi` / `digamma", "_zeta": "zeta(x, q)"}
    out = ["| NumPy ufunc | on the tape as |", "| --- | --- |"]
    out += _rows((interop._name(u), t) for u, t in interop.UFUNCS.items())
    out += ["", "| NumPy function | on the tape as |", "| --- | --- |"]
    out += _rows((interop._name(f), t) for f, t in interop.FUNCTIONS.items()
                 if not (getattr(np, "amax", None) is f or getattr(np, "amin", None) is f) or f is np.max)
    out += ["", "| SciPy (`scipy.special`) | on the tape as |", "| --- | --- |"]
    out += _rows((f"scipy.special.{scipy_names.get(n, n)}", t) for n, t in interop.SCIPY_UFUNCS.items())
    out += ["", "| NumPy ufunc left off the tape | why |", "| --- | --- |"]
    out += [f"| `np.{n}` | {why} |" for n, why in sorted(interop.UFUNCS_OFF_TAPE.items()) if hasattr(np, n)]
    return "\n".join(out)


def main() -> None:
    sys.path.insert(0, REPO)
    with open(PAGE, encoding="utf-8") as f:
        text = f.read()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(head + START + "\n" + render() + "\n" + END + tail)
    print(f"wrote the tables of {PAGE}")


if __name__ == "__main__":
    main()
