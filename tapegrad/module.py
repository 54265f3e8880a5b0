"""``tapegrad.Module``: a named container of Variables and other Modules (TensorFlow's ``tf.Module``).

A Module finds its variables by reflection: it walks its attributes in sorted name order,
looks inside lists, tuples and dicts (dicts by sorted key) and, after all of its own attributes,
walks each submodule it found in the same way. Every object is reported once.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterator

from ._scope import name_scope as _name_scope, prefixed as _prefixed
from ._variable import Variable

__all__ = ["Module"]

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _camel_to_snake(name: str) -> str:
    return _CAMEL_TO_SNAKE.sub(r"_\1", name).lower()


def _is_variable(x: Any) -> bool:
    return isinstance(x, Variable)


def _is_trainable_variable(x: Any) -> bool:
    return isinstance(x, Variable) and x.trainable


def _is_non_trainable_variable(x: Any) -> bool:
    return isinstance(x, Variable) and not x.trainable


def _is_module(x: Any) -> bool:
    return isinstance(x, Module)


def _leaves(value: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    """(path, leaf) pairs of a nest of lists, tuples and dicts; dicts in sorted key order."""
    if isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            raise TypeError("only dicts with sortable keys can be walked: the keys "
                            f"{list(value)!r} cannot be sorted") from None
        for k in keys:
            yield from _leaves(value[k], path + (k,))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, path + (i,))
    else:
        yield path, value


def _walk(module: "Module", recursive: bool, predicate: Callable[[Any], bool],
          key: Callable | None, with_path: bool, path: tuple, seen: set,
          stack: list) -> Iterator[Any]:
    if id(module) in stack:  # a cycle back to a module being walked: do not follow it again
        recursive = False
    found = []
    attrs = vars(module)
    for name in sorted(attrs, key=key):
        try:
            leaves = list(_leaves(attrs[name], (name,)))
        except (TypeError, RecursionError) as e:
            raise ValueError(f"Error processing property {name!r} of {module!r}: {e}") from None
        for leaf_path, leaf in leaves:
            if isinstance(leaf, Module) and not leaf._tf_module and module._tf_module:
                continue  # (a Keras layer is no tf.Module: a tf.Module's walk does not see it)
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (path + leaf_path, leaf) if with_path else leaf
            if recursive and isinstance(leaf, Module):
                found.append((path + leaf_path, leaf))
    stack.append(id(module))
    for sub_path, sub in found:
        yield from _walk(sub, recursive, predicate, key, with_path, sub_path, seen, stack)
    stack.pop()


class Module:
    """A named container for Variables, other Modules and the functions that use them.

    Subclass it and assign Variables and Modules to attributes (directly or inside lists,
    tuples and dicts); ``variables``, ``trainable_variables`` and ``submodules`` find them.

    >>> import tapegrad as tf
    >>> class Dense(tf.Module):
    ...     def __init__(self, n_in, n_out, name=None):
    ...         super().__init__(name=name)
    ...         self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
    ...         self.b = tf.Variable(tf.zeros([n_out]), name="b")
    ...     def __call__(self, x):
    ...         return tf.nn.relu(x @ self.w + self.b)
    >>> class MLP(tf.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.layers = [Dense(3, 4), Dense(4, 1)]
    ...     def __call__(self, x):
    ...         for layer in self.layers:
    ...             x = layer(x)
    ...         return x
    >>> mlp = MLP()
    >>> mlp.name, [v.name for v in mlp.variables]
    ('mlp', ['b:0', 'w:0', 'b:0', 'w:0'])
    >>> mlp(tf.ones([2, 3])).numpy().ravel()
    array([12., 12.], dtype=float32)

    The order is TensorFlow's: a module's own attributes sorted by name, then each submodule
    found there, walked the same way in turn. As in TensorFlow, only Variables created inside
    ``with self.name_scope:`` get the module's name as a prefix. A Keras layer held by a module
    is not walked (Keras 3's layers are no ``tf.Module``s): track its ``variables`` yourself.
    """

    _tf_module = True  # (False: a Keras layer, which Keras 3 makes no tf.Module)

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        self._scope_name = _prefixed(name) + "/"

    @property
    def name(self) -> str:
        """The name given to the constructor, or the class name in snake_case."""
        try:
            return self._name
        except AttributeError:
            raise AttributeError(f"{type(self).__name__} has no name: its __init__ did not call "
                                 "super().__init__().") from None

    @property
    def name_scope(self) -> _name_scope:
        """The module's name scope (the scope it was created in, then its name), as a context
        manager: Variables created inside it are named ``"<scope>/<name>:0"``."""
        return _name_scope(getattr(self, "_scope_name", None) or self.name + "/")

    @property
    def variables(self) -> tuple:
        """Every Variable of this module (attributes sorted by name), then of its submodules."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self) -> tuple:
        """The trainable Variables, in the order of :attr:`variables`."""
        return tuple(self._flatten(predicate=_is_trainable_variable))

    @property
    def non_trainable_variables(self) -> tuple:
        """The non-trainable Variables, in the order of :attr:`variables`."""
        return tuple(self._flatten(predicate=_is_non_trainable_variable))

    @property
    def submodules(self) -> tuple:
        """Every Module reachable from this one's attributes (not this one), in walk order.

        >>> import tapegrad as tf
        >>> a, b, c = tf.Module(), tf.Module(), tf.Module()
        >>> a.b = b
        >>> b.c = c
        >>> list(a.submodules) == [b, c]
        True
        """
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive: bool = True, predicate: Callable[[Any], bool] | None = None,
                 attribute_traversal_key: Callable | None = None, with_path: bool = False,
                 expand_composites: bool = False) -> Iterator[Any]:
        """Attribute values (leaves of lists, tuples and dicts) in TensorFlow's walking order.

        ``predicate`` selects the leaves to yield; ``recursive`` walks into submodules;
        ``attribute_traversal_key`` re-keys attribute names before sorting; ``with_path``
        yields ``(path, leaf)`` pairs, where the path is a tuple of attribute names, list
        indices and dict keys, and does not de-duplicate leaves reached by several paths.
        """
        if predicate is None:
            predicate = _always
        return _walk(self, recursive, predicate, attribute_traversal_key, with_path, (),
                     {id(self)}, [])

    @classmethod
    def with_name_scope(cls, method: Callable) -> Callable:
        """Decorator: run ``method`` inside the module's :attr:`name_scope`."""

        @functools.wraps(method)
        def method_with_name_scope(self: Any, *args: Any, **kwargs: Any) -> Any:
            with self.name_scope:
                return method(self, *args, **kwargs)

        return method_with_name_scope


def _always(_: Any) -> bool:
    return True
