"""The optional compiled build's guard (tapegrad/_compiled.py): TAPEGRAD_PURE=1 loads the .py
sources, a source edited after it was compiled is never shadowed by its compiled module, and a
fresh build is used. Each case imports tapegrad in a new interpreter."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from tapegrad import _compiled

REPORT = ("import json, tapegrad, sys\n"
          "print(json.dumps({'files': {n: sys.modules[n].__file__ for n in tapegrad._compiled.MODULES},"
          " 'status': tapegrad._compiled.status(), 'summary': tapegrad._compiled.summary(),"
          " 'package': tapegrad.__file__}))\n")


def _import(env: dict, path: str | None = None) -> tuple[dict, str]:
    """Import tapegrad in a new interpreter (from ``path`` when given): its report and stderr."""
    env = dict(os.environ, **env)
    if path is not None:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", REPORT], env=env, cwd=path or os.getcwd(),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


@pytest.fixture
def package_copy(tmp_path):
    """A copy of the tapegrad sources in which _core was 'compiled' (a dummy compiled module that
    fails if Python ever loads it) and recorded by a build record, as setup.py writes one."""
    src = os.path.dirname(_compiled.__file__)
    dst = tmp_path / "tapegrad"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(
        "__pycache__", "_build_info.txt", *("*" + s for s in EXTENSION_SUFFIXES)))
    (dst / ("_core" + EXTENSION_SUFFIXES[0])).write_bytes(b"not a compiled module")
    core = dst / "_core.py"
    (dst / "_build_info.txt").write_text(f"tapegrad._core {_compiled.checksum(str(core))}\n")
    return tmp_path


def test_pure_env_loads_every_module_from_source():
    report, _ = _import({"TAPEGRAD_PURE": "1"})
    assert all(f.endswith(".py") for f in report["files"].values()), report["files"]
    assert set(report["status"].values()) == {"pure: TAPEGRAD_PURE is set"}
    assert report["summary"].startswith("pure Python")


def test_pure_env_skips_a_compiled_module(package_copy):
    report, stderr = _import({"TAPEGRAD_PURE": "1"}, str(package_copy))
    assert report["package"].startswith(str(package_copy))
    assert report["files"]["tapegrad._core"].endswith("_core.py")
    assert "RuntimeWarning" not in stderr


def test_source_changed_after_build_is_imported_with_one_warning(package_copy):
    core = package_copy / "tapegrad" / "_core.py"
    core.write_text(core.read_text() + "\n# edited after the build\n")
    report, stderr = _import({"TAPEGRAD_PURE": ""}, str(package_copy))
    assert report["files"]["tapegrad._core"] == str(core)
    assert report["status"]["tapegrad._core"] == "pure: tapegrad/_core.py changed after it was compiled"
    assert stderr.count("RuntimeWarning") == 1
    assert "tapegrad/_core.py changed after it was compiled" in stderr
    assert "Run `pip install -e .` again to recompile" in stderr


def test_compiled_module_without_build_record_is_not_used(package_copy):
    os.remove(package_copy / "tapegrad" / "_build_info.txt")
    report, stderr = _import({"TAPEGRAD_PURE": ""}, str(package_copy))
    assert report["files"]["tapegrad._core"].endswith("_core.py")
    assert "has a compiled module but no build record" in stderr


def test_a_fresh_build_is_used():
    built = [n for n in _compiled.MODULES if _compiled.extension_path(n)]
    if not built:
        pytest.skip("not compiled (pure-Python install)")
    recorded = _compiled._recorded()
    changed = [n for n in built if recorded.get(n) != _compiled.checksum(_compiled.source_path(n))]
    if changed:
        pytest.skip(f"sources changed since the build ({', '.join(changed)}): run `pip install -e .`")
    report, stderr = _import({"TAPEGRAD_PURE": ""})
    for name in built:
        assert report["status"][name] == "compiled"
        assert report["files"][name] == _compiled.extension_path(name)
    assert "RuntimeWarning" not in stderr


def test_warn_outside_points_at_the_first_frame_outside_tapegrad():
    with pytest.warns(UserWarning, match="here") as rec:
        _compiled.warn_outside("here")
    assert rec[0].filename == __file__


def test_a_warning_from_a_compiled_module_points_at_the_users_line():
    import tapegrad as tf
    with tf.GradientTape() as tape:
        with pytest.warns(UserWarning, match="must be floating") as rec:
            tape.watch(tf.constant([1, 2])); line = sys._getframe().f_lineno  # noqa: E702
    assert (rec[0].filename, rec[0].lineno) == (__file__, line)


@pytest.mark.parametrize("pure", ["0", "1"])
def test_numpy_floating_point_warnings_stay_silenced_in_both_builds(pure):
    # NumPy attributes them to the innermost Python frame; compiled code has none (see _framed.py)
    code = textwrap.dedent("""
        import numpy as np, tapegrad as tf
        x = tf.constant([0.0, 3e38])
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.math.log(x) + x * 10.0 + tf.sin(x / 0.0)
        t.gradient(y, x)
        v = tf.Variable([3e38]); v.assign_add([3e38])
        np.log(np.array([0.0]))  # the user's own NumPy call still warns
    """)
    env = dict(os.environ, TAPEGRAD_PURE=pure, PYTHONWARNINGS="default")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    warned = [line for line in p.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(warned) == 1 and "divide by zero encountered in log" in warned[0], p.stderr


# -- setup.py: an editable rebuild compiles nothing when nothing changed

@pytest.fixture
def setup_copy(tmp_path, monkeypatch):
    """setup.py and the sources in a scratch folder (the current directory), loaded as a module:
    its build command, without running setup() itself."""
    pytest.importorskip("setuptools")
    from importlib.util import module_from_spec, spec_from_file_location
    root = os.path.dirname(os.path.dirname(_compiled.__file__))
    shutil.copy(os.path.join(root, "setup.py"), tmp_path)
    shutil.copytree(os.path.join(root, "tapegrad"), tmp_path / "tapegrad", ignore=shutil.ignore_patterns(
        "__pycache__", "_build_info.txt", "*.c", *("*" + s for s in EXTENSION_SUFFIXES)))
    monkeypatch.chdir(tmp_path)
    spec = spec_from_file_location("_tapegrad_setup", tmp_path / "setup.py")
    setup = module_from_spec(spec)
    spec.loader.exec_module(setup)
    return setup


def _inplace_build_ext(setup):
    """The build_ext command as `pip install -e .` runs it (in place), with every module's compiled
    file present (a dummy) and a build record written for ``settings``."""
    from setuptools import Distribution
    dist = Distribution({"name": "tapegrad", "packages": ["tapegrad", "tapegrad.ops"],
                         "ext_modules": setup.EXTENSIONS, "cmdclass": {"build_ext": setup.OptionalBuildExt}})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.ensure_finalized()
    return cmd


SETTINGS = {"python": ".cpython-3x-fake.so", "cython": "3.0.0", "options": '{"directives":{}}'}


def _built(setup, settings=SETTINGS):
    cmd = _inplace_build_ext(setup)
    for ext in cmd.extensions:
        with open(cmd.get_ext_fullpath(ext.name), "wb") as f:
            f.write(b"compiled")
    cmd._failed = set()
    cmd._write_build_info(settings)
    return cmd


def test_setup_skips_an_editable_rebuild_when_nothing_changed(setup_copy, monkeypatch, capsys):
    cmd = _built(setup_copy)
    assert cmd._up_to_date(dict(SETTINGS))
    # run() returns before Cython (not installed here, or it would compile) and the C compiler
    monkeypatch.setattr(setup_copy, "_settings", lambda: dict(SETTINGS))
    monkeypatch.setattr(setup_copy.build_ext, "run", lambda self: pytest.fail("compiled again"))
    cmd.run()
    assert "nothing to compile" in capsys.readouterr().err
    assert all(open(cmd.get_ext_fullpath(e.name), "rb").read() == b"compiled" for e in cmd.extensions)


@pytest.mark.parametrize("change", ["python", "cython", "options"])
def test_setup_rebuilds_for_another_python_cython_or_options(setup_copy, change):
    cmd = _built(setup_copy)
    assert not cmd._up_to_date({**SETTINGS, change: "other"})


@pytest.mark.parametrize("path", ["_core.py", "_core.pxd", "ops/math.py", "ops/__init__.py"])
def test_setup_rebuilds_after_a_source_or_declaration_changed(setup_copy, path):
    cmd = _built(setup_copy)
    with open(os.path.join("tapegrad", *path.split("/")), "a") as f:
        f.write("\n# edited\n")
    assert not cmd._up_to_date(SETTINGS)


def test_setup_rebuilds_when_a_compiled_module_or_the_record_is_missing(setup_copy):
    cmd = _built(setup_copy)
    os.remove(cmd.get_ext_fullpath(cmd.extensions[1].name))
    assert not cmd._up_to_date(SETTINGS)
    cmd = _built(setup_copy)
    os.remove(os.path.join("tapegrad", "_build_info.txt"))
    assert not cmd._up_to_date(SETTINGS)


def test_setup_rebuilds_without_cython_and_after_a_partly_failed_build(setup_copy):
    cmd = _built(setup_copy)
    assert not cmd._up_to_date({**SETTINGS, "cython": None})
    cmd._failed = {cmd.extensions[0].name}
    cmd._write_build_info(SETTINGS)  # that module compiled no more: try it again next time
    assert not cmd._up_to_date(SETTINGS)
