"""Optional compiled build: Cython compiles the modules listed in ``tapegrad/_compiled.py``
(``MODULES``) from their unchanged ``.py`` sources, when Cython and a C compiler are present.

Without either, or when a module fails to compile, tapegrad installs as pure Python and one line
says why. Each compiled source's checksum goes into the generated ``tapegrad/_build_info.txt``,
which ``tapegrad._compiled`` compares at import so that an edited source is never shadowed by its
old compiled module. The record also names what else the compiled modules depend on (Python's ABI,
Cython's version, the directives and macros): an editable build (``pip install -e .``) whose
record matches and whose compiled modules are in place compiles nothing. pip shows these messages
only with ``pip install -v``. Everything else is in ``pyproject.toml``.
"""
import json
import os
import sys
import sysconfig
from importlib.util import module_from_spec, spec_from_file_location

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
# binding: functions keep their Python metadata (signatures, __module__, docstrings for doctest and
# autodoc); annotation_typing off: annotations stay hints, as in pure Python; autotestdict off: no
# second copy of every docstring example in a __test__ dict (doctest would run them twice)
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True, "autotestdict": False}
# CYTHON_USE_TYPE_SPECS: the C types declared in the .pxd files (Tensor, Op, ...) are heap types,
# which stay open to the attributes that other modules set on them (Tensor's operators)
MACROS = [("CYTHON_USE_TYPE_SPECS", "1")]


def _compiled_module():
    """``tapegrad/_compiled.py`` alone (standard library only), without importing tapegrad."""
    spec = spec_from_file_location("_tapegrad_compiled", os.path.join(HERE, "tapegrad", "_compiled.py"))
    mod = module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


COMPILED = _compiled_module()


def _say(message):
    print(f"tapegrad: {message}", file=sys.stderr)


class OptionalBuildExt(build_ext):
    """Cythonizes at build time; any failure leaves that module pure Python."""

    def run(self):
        self._failed = set()
        settings = _settings()
        if self.inplace and not self.force and self._up_to_date(settings):
            _say(f"nothing to compile: the compiled modules in place match their sources, this Python, "
                 f"Cython {settings['cython']} and the build options (recorded in tapegrad/_build_info.txt; "
                 "delete it to force a rebuild)")
            return
        try:
            from Cython.Build import cythonize
            _say(f"compiling {len(self.extensions)} modules with Cython {settings['cython']} and the C "
                 "compiler (about a minute; `TAPEGRAD_PURE=1` at run time uses the .py sources instead)")
            c_files = {e.name: e.sources for e in cythonize(  # force: directives may have changed
                self.extensions, compiler_directives=DIRECTIVES, quiet=True, force=True,
                build_dir=os.path.join("build", "cython"))}
            for ext in self.extensions:  # keep setuptools' Extension objects, now built from C
                ext.sources = c_files[ext.name]
        except Exception as e:  # Cython missing, or it could not translate a module
            _say(f"not compiled, installing as pure Python ({type(e).__name__}: {e})")
            self._failed = {ext.name for ext in self.extensions}
            self.extensions = []
        self._error = None
        super().run()
        if self._error:
            names = ", ".join(sorted(self._failed))
            _say(f"not compiled, pure Python: {names} ({self._error})")
        if self.inplace:  # a module compiled by an earlier build must not outlive a failed one
            for name in self._failed:
                if os.path.exists(self.get_ext_fullpath(name)):
                    os.remove(self.get_ext_fullpath(name))
        built = len(COMPILED.MODULES) - len(self._failed)
        if built:
            _say(f"compiled {built} of {len(COMPILED.MODULES)} modules")
        self._write_build_info(settings)

    def _up_to_date(self, settings):
        """Whether the in-place compiled modules were built from the current sources, with the
        same Python ABI, Cython version, directives and macros (then nothing needs compiling)."""
        recorded = COMPILED._recorded()
        return (settings["cython"] is not None
                and all(recorded.get(k) == v for k, v in settings.items())
                and all(os.path.exists(self.get_ext_fullpath(_ext_name(rel)))
                        and recorded.get(name) == COMPILED.checksum(COMPILED.source_path(name))
                        for name, rel in COMPILED.MODULES.items()))

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # no C compiler, or it failed
            self._failed.add(ext.name)
            self._error = self._error or f"{type(e).__name__}: {e}"

    def _write_build_info(self, settings):
        built = {name: COMPILED.checksum(COMPILED.source_path(name)) for name, rel in COMPILED.MODULES.items()
                 if _ext_name(rel) not in self._failed}
        folder = os.path.join(HERE if self.inplace else self.build_lib, "tapegrad")
        os.makedirs(folder, exist_ok=True)
        lines = ["# Generated by setup.py: the checksum of each source it compiled, compared at import by",
                 "# tapegrad._compiled (a changed source is imported instead of its compiled module), and",
                 "# the build's settings (an editable rebuild with the same ones compiles nothing)."]
        with open(os.path.join(folder, "_build_info.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines + [f"{k} {v}" for k, v in {**settings, **built}.items()]) + "\n")


def _settings():
    """What a compiled module depends on besides its source, as build-record entries (no spaces)."""
    try:
        import Cython
        cython = Cython.__version__
    except ImportError:
        cython = None
    return {"python": sysconfig.get_config_var("EXT_SUFFIX"), "cython": cython,
            "options": json.dumps({"directives": DIRECTIVES, "macros": MACROS}, sort_keys=True,
                                  separators=(",", ":"))}


def _ext_name(rel):
    """``ops/__init__.py`` -> ``tapegrad.ops.__init__`` (Cython names the package's module)."""
    return "tapegrad." + rel[:-len(".py")].replace("/", ".")


EXTENSIONS = [Extension(_ext_name(rel), [os.path.join("tapegrad", *rel.split("/"))], optional=True,
                        define_macros=MACROS) for rel in COMPILED.MODULES.values()]

if __name__ == "__main__":  # as pip's build backend runs it (tests load the classes above alone)
    setup(ext_modules=EXTENSIONS, cmdclass={"build_ext": OptionalBuildExt})
