"""How well tapegrad generalizes: the unseen programs of tests/real_programs_holdout/ on tapegrad.

    python tools/holdout_report.py [--set SET] [NAME ...]

runs each holdout program (transcribed from public TF2/Keras 3 programs without looking at
tapegrad's code, and kept out of the corpus) with ``tensorflow``/``keras`` mapped to tapegrad,
compares with TensorFlow's results recorded by ``tools/record_real_programs.py --holdout``
(tests/fixtures/real_programs_holdout.*), and prints one line per program: ``pass`` (TensorFlow's
numbers), ``DIFF`` (runs, other numbers: the first difference) or ``FAIL`` (the exception's type
and message), then the rate "N of M run unchanged with TensorFlow's numbers". ``--set holdout2``
(``holdout3``, ``holdout4``) measures the second (third, fourth) holdout set
(tests/real_programs_holdout2/, tests/real_programs_holdout3/, tests/real_programs_holdout4/) instead;
``holdout5`` and ``holdout6`` are the two halves of the fifth, ``holdout7`` and ``holdout8`` of the
sixth, ``holdout9`` and ``holdout10`` of the seventh, ``holdout11`` and ``holdout12`` of the eighth,
``holdout13`` and ``holdout14`` of the ninth, ``holdout15`` and ``holdout16`` of the tenth.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "real_programs"))
import _runner  # noqa: E402
from record_real_programs import holdout_args, use_holdout  # noqa: E402


def outcome(failure) -> str:
    if failure is None:
        return "pass"
    return ("DIFF  " if failure.startswith("result ") else "FAIL  ") + failure


def main(argv: list) -> None:
    chosen, argv = holdout_args(argv)
    use_holdout(chosen or "holdout")
    sys.path.insert(0, _runner.HERE)
    manifest, arrays = _runner.load_fixture()
    names = argv or list(manifest["programs"])
    unrecorded = sorted(set(_runner.program_names()) - set(manifest["programs"]))
    if unrecorded and not argv:
        print(f"not recorded under TensorFlow (left out): {', '.join(unrecorded)}")
    counts = {"pass": 0, "DIFF": 0, "FAIL": 0}
    home = os.getcwd()
    for name in names:
        line = outcome(_runner.check_program(name, _runner.recorded_results(arrays, name)))
        os.chdir(home)  # a program that failed after changing into its temporary directory
        counts[line.split()[0]] += 1
        print(f"{name:40s} {line}", flush=True)
    print(f"\n{counts['pass']} of {len(names)} run unchanged with TensorFlow's numbers; "
          f"{counts['DIFF']} run with other numbers; {counts['FAIL']} fail")


if __name__ == "__main__":
    main(sys.argv[1:])
