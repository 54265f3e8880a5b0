"""Pass rate of the real-program corpus on tapegrad, and each failing program's first failure.

    python tools/real_programs_report.py [--markdown] [--write-expectations] [NAME ...]

runs every program of tests/real_programs/ (or the NAMEs) with ``tensorflow``/``keras`` mapped to
tapegrad, compares with the recorded TensorFlow results, and prints the pass rate and the failures
grouped by their first missing name or difference. ``--markdown`` prints the corpus table of
docs/real_programs.md; ``--write-expectations`` stores each program's outcome as its ``expect``
in tests/fixtures/real_programs.json ("pass", or the first failure: the xfail reason).
"""
import collections
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "real_programs"))
import _runner  # noqa: E402


def cause(failure: str) -> str:
    """A routing key: the missing name, or the kind of difference."""
    m = re.search(r"has no attribute '([^']+)'", failure)
    if m:
        mod = re.search(r"module '([^']+)'", failure)
        return f"missing {mod.group(1) + '.' if mod else ''}{m.group(1)}"
    m = re.search(r"No module named '([^']+)'", failure)
    if m:
        return f"missing module {m.group(1)}"
    if failure.startswith("result "):
        return "numbers differ"
    return failure.split(":")[0]


def main(argv: list) -> None:
    markdown = "--markdown" in argv
    write = "--write-expectations" in argv
    names = [a for a in argv if not a.startswith("--")]
    manifest, arrays = _runner.load_fixture()
    names = names or list(manifest["programs"])
    outcomes = {}
    for name in names:
        outcomes[name] = _runner.check_program(name, _runner.recorded_results(arrays, name))
        if not markdown:
            print(f"{name:40s} {'pass' if outcomes[name] is None else 'FAIL  ' + outcomes[name]}", flush=True)
    passed = sum(v is None for v in outcomes.values())
    if markdown:
        print("| Program | Source | Status | First failure |\n|---|---|---|---|")
        for name, failure in outcomes.items():
            entry = manifest["programs"][name]
            status = "runs, TF's numbers" if failure is None else "fails"
            reason = (failure or "").replace("|", "\\|")
            print(f"| `{name}`: {entry['title']} | {entry['source']} | {status} | {reason} |")
    print(f"\n{passed} of {len(outcomes)} programs run with TensorFlow's numbers "
          f"({100.0 * passed / max(1, len(outcomes)):.0f}%)")
    groups = collections.defaultdict(list)
    for name, failure in outcomes.items():
        if failure is not None:
            groups[cause(failure)].append(name)
    for key, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {key} ({len(members)}): {', '.join(members)}")
    if write:
        for name, failure in outcomes.items():
            manifest["programs"][name]["expect"] = "pass" if failure is None else failure
        with open(_runner.MANIFEST_PATH, "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, indent=1, sort_keys=True)
            fh.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
