"""The API reference pages: ``{api-page} tapegrad.math`` writes a namespace's summary table (name
and one-line summary) and documents each of its objects, once in the whole reference.

An object reachable under several names (``tf.exp`` and ``tf.math.exp``) is documented on its
*home* page, the first namespace of ``HOMES`` that has it, and listed everywhere else as an alias
of that entry.
"""
from __future__ import annotations

import importlib
import inspect
import os
import types
from typing import Any

# Where an object lives when several namespaces export it (earlier wins), then the other pages.
HOMES = ["tapegrad.math", "tapegrad.math.special", "tapegrad.linalg", "tapegrad.nn", "tapegrad.random", "tapegrad.dtypes",
         "tapegrad.module", "tapegrad", "tapegrad.autodiff", "tapegrad.errors", "tapegrad.test",
         "tapegrad.diagnosis", "tapegrad.visualize", "tapegrad.optimizers",
         "tapegrad.optimizers.schedules", "tapegrad.saving", "tapegrad.experimental.numpy"]


def public(modname: str) -> dict[str, Any]:
    """The public names of a namespace and their objects (names loaded on first use included)."""
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None) or [
        n for n in dir(mod) if not n.startswith("_") and n != "annotations"]
    return {n: getattr(mod, n) for n in names}


def _documented(obj: Any) -> bool:
    return inspect.isclass(obj) or callable(obj) and not isinstance(obj, types.ModuleType)


def _foreign(obj: Any) -> str:
    """``module.name`` of an object re-exported from another library (NumPy's ``finfo`` in
    ``tf.experimental.numpy``): listed, not documented again; "" for tapegrad's own."""
    mod = getattr(obj, "__module__", None) or ""
    if not _documented(obj) or mod.split(".")[0] in ("tapegrad", "builtins"):
        return ""
    return f"{mod}.{getattr(obj, '__qualname__', getattr(obj, '__name__', ''))}"


def homes() -> dict[int, tuple[str, str]]:
    """``id(object) -> (namespace, name)`` of its documented entry, for every documented object."""
    out: dict[int, tuple[str, str]] = {}
    for modname in HOMES:
        names = public(modname)
        # a second name for the same object in one namespace is an alias of the object's own name
        for name, obj in sorted(names.items(), key=lambda kv: kv[0] != getattr(kv[1], "__name__", "")):
            if _documented(obj) and not _foreign(obj) and id(obj) not in out:
                out[id(obj)] = (modname, name)
    return out


def summary(obj: Any) -> str:
    """The first paragraph of the docstring, on one line."""
    doc = inspect.getdoc(obj) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    return text[:-1] if text.endswith("::") else text


def page_rst(modname: str) -> str:
    """The reStructuredText of a namespace's page: the summary table, then the entries."""
    home = homes()
    rows, entries = [], []
    for name, obj in sorted(public(modname).items(), key=lambda kv: kv[0].lower()):
        if isinstance(obj, types.ModuleType):
            if obj.__name__ not in HOMES:  # tapegrad.ops: the implementation, no page
                continue
            page = obj.__name__.split(".", 1)[1].replace(".", "/") if "." in obj.__name__ else ""
            own = page.replace("/", "_")  # (a page of its own, api/math_special.md, or its parent's)
            has_own = os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "api", own + ".md"))
            rows.append((f":doc:`{name} <{own if has_own else page.split('/')[0]}>`", summary(obj)))
        elif not _documented(obj):
            rows.append((f"``{name}``", f"``{name} = {obj!r}``"))
        elif _foreign(obj):
            rows.append((f"``{name}``", f"``{_foreign(obj)}``, re-exported"))
        elif home[id(obj)] == (modname, name):
            rows.append((f":py:obj:`{name} <{modname}.{name}>`", summary(obj)))
            kind = "autoclass" if inspect.isclass(obj) else "autofunction"
            entries.append(f".. {kind}:: {modname}.{name}")
        else:
            target = ".".join(home[id(obj)])
            rows.append((f"``{name}``", f"Alias of :py:obj:`{target}`: {summary(obj)}"))
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
             "   * - name", "     - summary"]
    for name, text in rows:
        lines += [f"   * - {name}", f"     - {text}" if text else "     -"]
    return "\n".join(lines + [""] + [e + "\n" for e in entries])


def setup(app: Any) -> dict:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ApiPage(SphinxDirective):
        required_arguments = 1

        def run(self) -> list:
            container = nodes.section()
            container.document = self.state.document
            self.state.nested_parse(StringList(page_rst(self.arguments[0]).splitlines(), "api_pages"),
                                    self.content_offset, container)
            return container.children

    app.add_directive("api-page", ApiPage)
    return {"parallel_read_safe": True}
