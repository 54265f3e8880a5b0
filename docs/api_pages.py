"""The API reference pages: ``{api-page} tapegrad.math`` writes a namespace's summary table (name
and one-line summary) and documents each of its objects, once in the whole reference.

An object reachable under several names (``tf.exp`` and ``tf.math.exp``) is documented on its
*home* page, the first namespace of ``HOMES`` that has it, and listed everywhere else as an alias
of that entry.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
import types
from typing import Any

# Where an object lives when several namespaces export it (earlier wins), then the other pages.
HOMES = ["tapegrad.math", "tapegrad.math.special", "tapegrad.linalg", "tapegrad.nn", "tapegrad.nn.experimental", "tapegrad.random", "tapegrad.dtypes",
         "tapegrad.module", "tapegrad", "tapegrad.autodiff", "tapegrad.errors", "tapegrad.test",
         "tapegrad.diagnosis", "tapegrad.visualize", "tapegrad.optimizers",
         "tapegrad.optimizers.schedules", "tapegrad.saving", "tapegrad.experimental.numpy",
         "tapegrad.experimental.dtensor",
         "tapegrad.experimental", "tapegrad.data", "tapegrad.data.experimental", "tapegrad.distribute",
         "tapegrad.distribute.experimental", "tapegrad.distribute.cluster_resolver", "tapegrad.io",
         "tapegrad.io.gfile", "tapegrad.ragged", "tapegrad.sparse", "tapegrad.sets", "tapegrad.bitwise", "tapegrad.queue", "tapegrad.quantization", "tapegrad.lookup",
         "tapegrad.lookup.experimental", "tapegrad.strings", "tapegrad.signal",
         "tapegrad.image", "tapegrad.audio", "tapegrad.train", "tapegrad.saved_model", "tapegrad.lite", "tapegrad.config",
         "tapegrad.debugging", "tapegrad.nest", "tapegrad.summary", "tapegrad.autograph", "tapegrad.version",
         "tapegrad.compat", "tapegrad.compat.v1",
         "tapegrad.keras.layers", "tapegrad.keras.models", "tapegrad.keras.optimizers",
         "tapegrad.keras.losses", "tapegrad.keras.metrics", "tapegrad.keras.callbacks", "tapegrad.keras.ops",
         "tapegrad.keras.activations", "tapegrad.keras.initializers", "tapegrad.keras.regularizers",
         "tapegrad.keras.constraints", "tapegrad.keras.utils", "tapegrad.keras.saving",
         "tapegrad.keras.mixed_precision", "tapegrad.keras.quantizers", "tapegrad.keras.dtype_policies", "tapegrad.keras.backend", "tapegrad.keras.config",
         "tapegrad.keras.random", "tapegrad.keras.tree", "tapegrad.keras.distribution", "tapegrad.keras.legacy", "tapegrad.keras.legacy.saving", "tapegrad.keras.wrappers",
         "tapegrad.keras.distillation",
         "tapegrad.keras.preprocessing", "tapegrad.keras.preprocessing.sequence",
         "tapegrad.keras.preprocessing.image", "tapegrad.keras.preprocessing.text",
         "tapegrad.keras.applications", *(
             f"tapegrad.keras.applications.{name}" for name in (
                 "convnext", "densenet", "efficientnet", "efficientnet_v2", "imagenet_utils",
                 "inception_resnet_v2", "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3",
                 "nasnet", "resnet", "resnet50", "resnet_v2", "vgg16", "vgg19", "xception")),
         "tapegrad.keras.export", "tapegrad.keras.datasets", "tapegrad.keras", *(
             f"tapegrad.keras.datasets.{name}" for name in (
                 "boston_housing", "california_housing", "cifar10", "cifar100", "fashion_mnist", "imdb",
                 "mnist", "reuters"))]
# Namespaces with no page: implementations whose objects are documented under their public names
# (the ops; Keras's trainer mixin, shown on Model) and submodules a package leaks by importing them.
NO_PAGE = ("tapegrad.ops", "tapegrad.keras.layers.", "tapegrad.keras.trainers")
API_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api")


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


@functools.lru_cache(maxsize=None)
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


def namespaces() -> dict[str, str]:
    """``module name -> first public name`` (``tf.keras.layers``) of every public namespace that
    ought to have a page, found by walking the public names from ``tapegrad``."""
    found: dict[str, str] = {"tapegrad": "tf"}
    todo = ["tapegrad"]
    while todo:
        modname = todo.pop(0)
        for name, obj in sorted(public(modname).items()):
            sub = getattr(obj, "__name__", "")
            if (isinstance(obj, types.ModuleType) and sub.startswith("tapegrad.") and sub not in found
                    and not sub.startswith(NO_PAGE)):
                found[sub] = f"{found[modname]}.{name}"
                todo.append(sub)
    return found


@functools.lru_cache(maxsize=None)
def pages() -> dict[str, str]:
    """``module name -> page`` (``api/keras_layers``'s ``keras_layers``) where it is documented."""
    out: dict[str, str] = {}
    for fname in sorted(os.listdir(API_DIR)):
        if fname.endswith(".md"):
            with open(os.path.join(API_DIR, fname), encoding="utf-8") as f:
                for modname in re.findall(r"^\.\. api-page:: (\S+)$", f.read(), re.M):
                    out.setdefault(modname, fname[:-3])
    return out


def _inherited(obj: Any, home: dict[int, tuple[str, str]]) -> str:
    """The ``:inherited-members:`` option that shows what a class gets from undocumented bases
    (``Model.fit`` from the trainer mixin) and stops at its first documented base."""
    if not inspect.isclass(obj):
        return ""
    for base in obj.__mro__[1:]:
        if id(base) in home or base is object:
            return ""
        if base.__module__.startswith("tapegrad"):
            stop = next((b for b in obj.__mro__[1:] if id(b) in home or b is object), object)
            # (and none from other packages' bases: scikit-learn's estimators behind keras.wrappers)
            outside = [b.__name__ for b in obj.__mro__[1:] if b is not object and b is not stop
                       and not b.__module__.startswith("tapegrad")]
            return f"\n   :inherited-members: {','.join([stop.__name__] + outside)}"
    return ""


def _not_ours(obj: Any) -> str:
    """``:exclude-members:`` for what another package put in a class's own namespace (scikit-learn
    adds ``set_fit_request``-style descriptors to its estimators' subclasses: keras.wrappers)."""
    if not inspect.isclass(obj):
        return ""
    names = sorted(n for n, v in vars(obj).items() if not n.startswith("_")
                   and not getattr(getattr(v, "__func__", v), "__module__", "tapegrad").startswith("tapegrad"))
    return f"\n   :exclude-members: {', '.join(names)}" if names else ""


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
            if obj.__name__ not in pages():  # tapegrad.ops: the implementation, no page
                continue
            rows.append((f":doc:`{name} <{pages()[obj.__name__]}>`", summary(obj)))
        elif not _documented(obj):
            rows.append((f"``{name}``", f"``{name} = {obj!r}``"))
        elif _foreign(obj):
            rows.append((f"``{name}``", f"``{_foreign(obj)}``, re-exported"))
        elif home[id(obj)] == (modname, name):
            rows.append((f":py:obj:`{name} <{modname}.{name}>`", summary(obj)))
            kind = "autoclass" if inspect.isclass(obj) else "autofunction"
            entries.append(f".. {kind}:: {modname}.{name}" + _inherited(obj, home) + _not_ours(obj))
        else:
            target = ".".join(home[id(obj)])
            rows.append((f"``{name}``", f"Alias of :py:obj:`{target}`: {summary(obj)}"))
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
             "   * - name", "     - summary"]
    for name, text in rows:
        lines += [f"   * - {name}", f"     - {text}" if text else "     -"]
    return "\n".join(lines + [""] + [e + "\n" for e in entries])


def _public_bases(app: Any, name: str, obj: Any, options: Any, bases: list) -> None:
    """``Bases:`` names public classes: a private base (``_Monitor``) is replaced by its own
    nearest public base."""
    out = []
    for base in bases:
        while base.__name__.startswith("_") and base is not object:
            base = base.__bases__[0]
        if base not in out:
            out.append(base)
    bases[:] = out


def namespaces_rst() -> str:
    """A table of every namespace (``tf.keras.layers``), linked to its page, with its summary."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
             "   * - namespace", "     - summary"]
    for modname in sorted(namespaces()):
        if modname in pages():   # (named by its module: tf.keras.losses, also reachable as tf.losses)
            tf_name = "tf" + modname[len("tapegrad"):]
            mod = importlib.import_module(modname)
            lines += [f"   * - :doc:`{tf_name} <{pages()[modname]}>`", f"     - {summary(mod)}"]
    return "\n".join(lines) + "\n"


def setup(app: Any) -> dict:
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective

    class ApiPage(SphinxDirective):
        required_arguments = 1

        def run(self) -> list:
            container = nodes.section()
            container.document = self.state.document
            modname = self.arguments[0]
            text = summary(importlib.import_module(modname)) + "\n\n" + page_rst(modname)
            self.state.nested_parse(StringList(text.splitlines(), "api_pages"),
                                    self.content_offset, container)
            return container.children

    class ApiNamespaces(SphinxDirective):
        def run(self) -> list:
            container = nodes.section()
            container.document = self.state.document
            self.state.nested_parse(StringList(namespaces_rst().splitlines(), "api_pages"),
                                    self.content_offset, container)
            return container.children

    app.add_directive("api-page", ApiPage)
    app.add_directive("api-namespaces", ApiNamespaces)
    app.connect("autodoc-process-bases", _public_bases)
    return {"parallel_read_safe": True}
