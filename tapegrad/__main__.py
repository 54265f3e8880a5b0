"""``python -m tapegrad script.py [args]``: run an unmodified TensorFlow or Keras program on tapegrad.

The program runs as ``python script.py [args]`` would run it — ``sys.argv`` (its first item the
script's absolute path, as ``__file__`` is), ``__name__ == "__main__"``, ``sys.path[0]`` (the
script's folder), its exit code and a traceback that starts in the program — with ``tensorflow``, ``keras`` and ``tf_keras`` imported as
tapegrad's modules (``tapegrad/_import_hook.py``). ``python -m tapegrad -m module [args]`` runs
a module the same way (as ``python -m module``). Nothing is installed: the hook lives in this
process only.
"""
from __future__ import annotations

import os
import runpy
import signal
import sys

from ._import_hook import install_as_tensorflow

USAGE = """usage: python -m tapegrad script.py [args ...]
       python -m tapegrad -m module [args ...]

Runs a TensorFlow/Keras program with tapegrad standing in for `tensorflow`, `keras` and
`tf_keras`, without editing a line of it (only in this process: nothing is installed)."""


def _report(exc: BaseException, skip: int) -> None:
    """Print the traceback as Python does for an uncaught exception, without this runner's
    frames (``skip``: how many there are above the program's)."""
    tb = exc.__traceback__
    for _ in range(skip):
        if tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
    sys.excepthook(type(exc), exc.with_traceback(tb), tb)


def _frames_before(exc: BaseException, filename: str | None) -> int:
    """The number of runner frames (this module, runpy) above the first frame of ``filename``
    (the first frame of another file when ``filename`` is None: ``-m module``)."""
    n, tb = 0, exc.__traceback__
    here = (os.path.abspath(__file__), runpy.__file__)
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if (filename is not None and os.path.abspath(name) == filename) or \
                (filename is None and os.path.abspath(name) not in here and "<frozen" not in name):
            return n
        n, tb = n + 1, tb.tb_next
    return 0


def main(argv: list | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    as_module = args[0] == "-m"
    if as_module:
        if len(args) < 2:
            print(USAGE, file=sys.stderr)
            return 2
        target, filename = args[1], None
        sys.argv = [target] + args[2:]   # (runpy sets argv[0] to the module's file)
        sys.path[0] = os.getcwd()
    else:
        target = args[0]
        filename = os.path.abspath(target)
        if not os.path.exists(target):
            print(f"{sys.executable}: can't open file {filename!r}: [Errno 2] No such file or directory",
                  file=sys.stderr)
            return 2
        sys.argv = args
        sys.path[0] = os.path.dirname(filename)
    with install_as_tensorflow():
        try:
            if as_module:
                runpy.run_module(target, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(filename, run_name="__main__")
        except SystemExit:
            raise
        except KeyboardInterrupt as e:  # as Python: the traceback, then die of SIGINT
            _report(e, _frames_before(e, filename))
            sys.stderr.flush()
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
            return 130
        except BaseException as e:  # noqa: BLE001 (reported as Python reports it)
            _report(e, _frames_before(e, filename))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())  # (the program's own sys.exit(...) passes through main with its code)
