"""Differential fuzzing of tf.data pipelines and tf.function/random semantics against TF 2.21.

``tools/record_data_fuzz.py`` generated the programs (``tests/data_fuzz/generator.py``), ran them
under TensorFlow with ``tests/data_fuzz/interpreter.py`` (twice, dropping those whose two runs
disagree) and stored programs and results in ``tests/fixtures/data_fuzz.json.gz``. Here the same
interpreter runs each program with ``import tapegrad as tf`` and the events are compared:

* the sequence of events exactly: which elements each epoch or ``next`` yields, in which order,
  ``element_spec`` (structure, spec classes, dtypes, shapes), ``cardinality``, errors by the
  stage they happen at and TensorFlow's exception type name;
* integer, boolean and string tensors exactly; float tensors: dtype and shape exactly, values
  within 4e-6 times ``max(1, |value|)`` (float32 normals are TF's to the last bit or two after a
  few float32 operations; docs/differences.md, "Random numbers").

Programs on which tapegrad deliberately differs are matched by a rule of ``DIFFERENCES`` (the
reason is in docs/differences.md or docs/data.md); ``PENDING`` lists the seeds of divergences
not fixed yet, run as strict xfails so that a fix shows as an XPASS.

TensorFlow is not needed (nor imported) here.
"""

import gzip
import json
import os
import sys
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import tapegrad as tf  # noqa: E402

from data_fuzz.generator import generate  # noqa: E402
from data_fuzz.interpreter import run  # noqa: E402

FIXTURE_PATH = os.path.join(HERE, "fixtures", "data_fuzz.json.gz")
with gzip.open(FIXTURE_PATH, "rt", encoding="ascii") as _fh:
    FIXTURE = json.load(_fh)
PROGRAMS = FIXTURE["programs"]
FLOAT_RTOL = 4e-6
CHUNK = 50


# --------------------------------------------------------------------------- comparison
def _close(e, a):
    if isinstance(e, list):
        return isinstance(a, list) and len(e) == len(a) and all(map(_close, e, a))
    if isinstance(e, str) or isinstance(a, str):
        return e == a
    return abs(e - a) <= FLOAT_RTOL * max(1.0, abs(e))


def _same_tensor(e, a):
    if e[0] == "ragged" or a[0] == "ragged":
        if e[:2] != a[:2]:
            return False
        return _close(e[2], a[2]) if e[1].startswith("float") else e[2] == a[2]
    if e[0] != a[0] or e[1] != a[1]:
        return False
    return _close(e[2], a[2]) if e[0].startswith(("float", "bfloat")) else e[2] == a[2]


def _same(e, a):
    """Events compare exactly but for tensors (lists whose head is a dtype name)."""
    if _is_tensor(e) and _is_tensor(a):
        return _same_tensor(e, a)
    if isinstance(e, list):
        return isinstance(a, list) and len(e) == len(a) and all(map(_same, e, a))
    return e == a


def _is_tensor(v):
    return (isinstance(v, list) and len(v) in (3,) and isinstance(v[0], str)
            and (v[0] == "ragged" or isinstance(v[1], list)) and v[0] not in ("error",))


def compare(expected, actual):
    """The differences between two event lists (empty when they agree)."""
    problems = []
    if len(expected) != len(actual):
        problems.append(f"{len(expected)} events expected, got {len(actual)}")
    for i, (e, a) in enumerate(zip(expected, actual)):
        if not _same(e, a):
            problems.append(f"event {i}: expected {json.dumps(e)[:300]}, got {json.dumps(a)[:300]}")
    return problems


# --------------------------------------------------------------------------- rules
def _ops(program):
    def walk(p):
        yield from p["ops"]
        for part in p["src"].get("parts", ()):
            yield from walk(part)
    return list(walk(program["pipeline"])) if program["kind"] == "data" else []


DIFFERENCES = {}
PENDING = {}


def _run(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(program, tf)


def test_generator_is_pure():
    for entry in PROGRAMS[:20]:
        assert generate(entry["seed"]) == entry["program"]


_SEEDS = [p["seed"] for p in PROGRAMS]
_BY_SEED = {p["seed"]: p for p in PROGRAMS}
_PLAIN = [s for s in _SEEDS if s not in PENDING]


@pytest.mark.parametrize("start", range(0, len(_PLAIN), CHUNK))
def test_programs(start):
    failures = []
    for seed in _PLAIN[start:start + CHUNK]:
        entry = _BY_SEED[seed]
        problems = compare(entry["result"], _run(entry["program"]))
        if problems:
            failures.append(f"seed {seed}: " + "; ".join(problems[:3]))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("seed", sorted(PENDING))
def test_pending(seed):
    if seed in _BY_SEED and compare(_BY_SEED[seed]["result"], _run(_BY_SEED[seed]["program"])):
        pytest.xfail(PENDING[seed])
