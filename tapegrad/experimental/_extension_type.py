"""``tf.experimental.ExtensionType``: user classes of typed, immutable fields that tapegrad's
functions take as composite tensors (their tensor fields are the components), as TensorFlow's
``tensorflow/python/framework/extension_type.py`` defines them; and ``dispatch_for_api`` and its
elementwise forms, which route a public function's call with such a value to a handler.

A class's fields come from its annotations (``tf.Tensor``, ``tf.TensorShape``, ``tf.DType``,
Python scalars and strings, ``None``, ``Tuple``/``Mapping``/``Union``/``Optional`` of these,
composite tensors and other extension types); its constructor, ``__repr__``, ``__eq__`` and a
nested ``Spec`` class (an :class:`ExtensionTypeSpec`) are generated. Dispatch wraps the public
function where the tapegrad namespaces hold it (TensorFlow's functions carry their dispatcher
from the start); a function without a registered handler runs as before.
"""
# (no postponed annotations: the doctests' classes are defined here, their annotations evaluated)
import abc
import collections.abc
import functools
import inspect
import sys
import types
import typing
from typing import Any, Callable

from .. import _nest, dtypes as _dt
from .._convert import convert_to_tensor
from .._spec import TensorSpec, TypeSpec
from ..ops import array as _array, math as _math, reduction as _reduction
from .._tensor import CompositeConversionError, CompositeTensor, Tensor, TensorShape

__all__ = ["ExtensionType", "BatchableExtensionType", "ExtensionTypeSpec", "BatchableExtensionTypeSpec",
           "ExtensionTypeBatchEncoder", "dispatch_for_api", "dispatch_for_unary_elementwise_apis",
           "dispatch_for_binary_elementwise_apis", "unregister_dispatch_for", "ImmutableDict"]

_IN_CONSTRUCTOR = "_tf_extension_type_in_constructor"
_MUTABLE = ("_keras_mask",)
_RESERVED = frozenset([
    "self", "Spec", "_type_spec", "_shape_invariant_to_type_spec", "_consumers", "value_type",
    "is_compatible_with", "most_specific_compatible_type", "_with_tensor_ranks_only", "_to_components",
    "_from_components", "_component_specs", "_to_tensor_list", "_from_tensor_list",
    "_from_compatible_tensor_list", "_flat_tensor_specs", "_serialize", "_deserialize",
    "_to_legacy_output_types", "_to_legacy_output_shapes", "_to_legacy_output_classes", "_keras_mask"])
_NO_DEFAULT = inspect.Parameter.empty


def _reserved(name: str) -> bool:
    return name in _RESERVED or name.lower().startswith("_tf_extension_type")


class ImmutableDict(collections.abc.Mapping):
    """The read-only mapping a ``Mapping`` field holds (TensorFlow's ``ImmutableDict``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._d = dict(*args, **kwargs)

    def __getitem__(self, key: Any) -> Any:
        return self._d[key]

    def __iter__(self) -> Any:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __repr__(self) -> str:
        return f"ImmutableDict({self._d!r})"


# --------------------------------------------------------------------------- field types
def _origin(t: Any) -> Any:
    return typing.get_origin(t)


def _is_tuple(t: Any) -> bool:
    return _origin(t) is tuple


def _is_mapping(t: Any) -> bool:
    return _origin(t) in (collections.abc.Mapping, dict)


def _is_union(t: Any) -> bool:
    return _origin(t) in (typing.Union, types.UnionType)


def _check_type(t: Any, in_key: bool = False) -> None:
    """Raise TypeError unless ``t`` is an annotation a field may have (forward references pass)."""
    if isinstance(t, (str, typing.ForwardRef)):
        return
    if t in (int, float, str, bytes, bool, None, type(None), _dt.DType):
        return
    if t in (Tensor, TensorShape) or isinstance(t, type) and issubclass(t, CompositeTensor):
        if in_key:
            raise TypeError(f"Mapping had a key {t.__name__!r} with type {type(t).__name__!r}")
    elif _is_tuple(t) or _is_union(t):
        args = typing.get_args(t)
        for a in (args[:1] if _is_tuple(t) and len(args) == 2 and args[1] is Ellipsis else args):
            _check_type(a, in_key)
    elif _is_mapping(t):
        k, v = typing.get_args(t)
        _check_type(k, True)
        _check_type(v, in_key)
    else:
        raise TypeError(f"Unsupported type annotation {getattr(t, '__name__', t)!r}")


def _convert(value: Any, t: Any, path: str, spec: bool = False, default: bool = False) -> Any:
    """``value`` type-checked against annotation ``t`` and converted (tensors converted;
    ``spec``: a TypeSpec where ``t`` is a tensor type; ``default``: a default value, kept as given)."""
    if t is None:
        t = type(None)
    if t is Tensor:
        if spec:
            if not isinstance(value, TensorSpec):
                raise TypeError(f"{path}: expected a TensorSpec, got {type(value).__name__!r}")
            return value
        if isinstance(value, Tensor) or default:
            return value
        try:
            return convert_to_tensor(value)
        except (ValueError, TypeError) as e:
            raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}") from e
    if isinstance(t, type) and issubclass(t, CompositeTensor):
        if spec:
            vt = getattr(value, "value_type", None)
            if not (isinstance(vt, type) and issubclass(vt, t)):
                raise TypeError(f"{path}: expected a TypeSpec for {t.__name__!r}, got {type(value).__name__!r}")
            return value
        if not isinstance(value, t):
            raise TypeError(f"{path}: expected {t.__name__!r}, got {type(value).__name__!r}")
        return value
    if t is TensorShape:
        try:
            return value if isinstance(value, TensorShape) else TensorShape(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{path}: expected 'tf.TensorShape', got {type(value).__name__!r}") from e
    if t is _dt.DType:
        try:
            return _dt.as_dtype(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{path}: expected 'tf.DType', got {type(value).__name__!r}") from e
    if t in (int, float, bool, str, bytes, type(None)):
        if not isinstance(value, t):
            raise TypeError(f"{path}: expected {t.__name__!r}, got {type(value).__name__!r}")
        return value
    if _is_tuple(t):
        if not isinstance(value, collections.abc.Sequence) or isinstance(value, (str, bytes)):
            raise TypeError(f"{path}: expected tuple, got {type(value).__name__!r}")
        args = typing.get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(v, args[0], f"{path}[{i}]", spec, default) for i, v in enumerate(value))
        if len(value) != len(args):
            raise TypeError(f"{path}: expected tuple with length {len(args)}, got {type(value).__name__!r})")
        return tuple(_convert(v, a, f"{path}[{i}]", spec, default) for i, (v, a) in enumerate(zip(value, args)))
    if _is_mapping(t):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{path}: expected mapping, got {type(value).__name__!r}")
        kt, vt = typing.get_args(t)
        return ImmutableDict([(_convert(k, kt, f"{path}[<key>]", spec, default),
                               _convert(v, vt, f"{path}[{k!r}]", spec, default)) for k, v in value.items()])
    if _is_union(t):
        for option in typing.get_args(t):
            try:
                return _convert(value, option, path, spec, default)
            except TypeError:
                pass
        raise TypeError(f"{path}: expected {t!r}, got {type(value).__name__!r}")
    raise TypeError(f"{path}: Unsupported type annotation {t!r}")


class _Field(typing.NamedTuple):
    name: str
    value_type: Any
    default: Any


def _fields_of(cls: type) -> tuple:
    """``cls``'s fields in annotation order (base classes' first); cached once every forward
    reference resolves."""
    cached = cls.__dict__.get("_tf_extension_type_cached_fields")
    if cached is not None:
        return cached
    own: dict = {}  # (the annotations of the user's classes, not of tapegrad's bases)
    for base in reversed(cls.__mro__):
        if isinstance(base, ExtensionTypeMetaclass) and \
                not base.__dict__.get("_tf_extension_type_do_not_transform_this_class", False):
            own.update(base.__dict__.get("__annotations__", {}))
    try:
        resolved = typing.get_type_hints(cls)
        hints, ok = {k: resolved[k] for k in own}, True
    except (NameError, AttributeError):
        hints, ok = own, False
    fields = []
    for name, t in hints.items():
        try:
            _check_type(t)
        except TypeError as e:
            raise TypeError(f"In field {name!r}: {e}") from None
        default = getattr(cls, name, _NO_DEFAULT)
        if default is not _NO_DEFAULT:
            default = _convert(default, t, f"default value for {name}", default=True)
        fields.append(_Field(name, t, default))
    fields = tuple(fields)
    if ok:
        type.__setattr__(cls, "_tf_extension_type_cached_fields", fields)
    return fields


def _convert_fields(obj: Any, spec: bool) -> None:
    fields = obj._tf_extension_type_fields()
    d = obj.__dict__
    names = {f.name for f in fields}
    have = {k for k in d if not _reserved(k)}
    if not names <= have:
        raise ValueError(f"Missing required fields: {names - have}")
    if have - names:
        raise ValueError(f"Got unexpected fields: {have - names}")
    for f in fields:
        d[f.name] = _convert(d[f.name], f.value_type, f.name, spec=spec)


def _new(cls: type, fields: Any) -> Any:
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


# --------------------------------------------------------------------------- class construction
def _check_annotations(cls: type) -> None:
    annotations = cls.__dict__.get("__annotations__", {})
    for name, value in cls.__dict__.items():
        if name == "Spec":
            if not isinstance(value, type):
                raise ValueError(f"{cls.__qualname__}.Spec must be a nested class; got {value}.")
            if value.__bases__ != (object,):
                raise ValueError(f"{cls.__qualname__}.Spec must be a plain nested class (its base is made "
                                 "ExtensionTypeSpec).")
        elif _reserved(name):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field '{name}' is reserved.")
    for name in annotations:
        if _reserved(name):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field '{name}' is reserved.")
    for key, value in cls.__dict__.items():
        if not (key in annotations or callable(value) or key.startswith("_abc_")
                or key.startswith("__") and key.endswith("__")
                or isinstance(value, (property, classmethod, staticmethod))):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. Field {key} is "
                             "missing a type annotation.")


def _wrap_user_init(cls: type) -> None:
    user = cls.__init__

    @functools.wraps(user)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        self.__dict__[_IN_CONSTRUCTOR] = True
        try:
            user(self, *args, **kwargs)
        finally:
            del self.__dict__[_IN_CONSTRUCTOR]
        self._tf_extension_type_convert_fields()
        self.__validate__()

    cls.__init__ = __init__


def _build_init(cls: type, spec: bool) -> None:
    fields = cls._tf_extension_type_fields()
    params, got_default, kw_only = [], False, False
    for f in fields:
        has_default = not spec and f.default is not _NO_DEFAULT
        kw_only = kw_only or (got_default and not has_default)
        got_default = got_default or has_default
        params.append(inspect.Parameter(
            f.name, inspect.Parameter.KEYWORD_ONLY if kw_only else inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=f.default if has_default else _NO_DEFAULT, annotation=f.value_type if not spec else _NO_DEFAULT))
    signature = inspect.Signature(params)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self.__dict__.update(bound.arguments)
        self._tf_extension_type_convert_fields()
        self.__validate__()

    __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params)
    cls.__init__ = __init__


def _add_spec(cls: type) -> None:
    spec_dict: dict = {"value_type": cls, "__module__": cls.__module__}
    user = cls.__dict__.get("Spec")
    qual = cls.__qualname__ + ".Spec"
    if user is not None:
        for name, value in user.__dict__.items():
            if _reserved(name):
                raise ValueError(f"TypeSpec {qual} uses reserved name '{name}'.")
            if cls._tf_extension_type_has_field(name):
                raise ValueError(f"TypeSpec {qual} defines a variable '{name}' which shadows a field in "
                                 f"{cls.__qualname__}")
            if name not in ("__module__", "__dict__", "__weakref__"):
                spec_dict[name] = value
    if issubclass(cls, BatchableExtensionType):
        base: type = BatchableExtensionTypeSpec
        if hasattr(cls, "__batch_encoder__") and "__batch_encoder__" not in spec_dict:
            spec_dict["__batch_encoder__"] = cls.__batch_encoder__
    else:
        base = ExtensionTypeSpec
        if hasattr(cls, "__batch_encoder__") or "__batch_encoder__" in spec_dict:
            raise ValueError("__batch_encoder__ should only be defined for BatchableExtensionType classes.")
    spec = type(cls.__name__ + ".Spec", (base,), spec_dict)
    spec.__qualname__ = qual
    type.__setattr__(cls, "Spec", spec)
    if "__init__" in spec.__dict__:
        _wrap_user_init(spec)
    else:
        _build_init(spec, spec=True)
    if "__name__" in cls.__dict__:  # (the name a SavedModel knows the type by)
        name = cls.__dict__["__name__"] + ".Spec"
        if name in _REGISTERED:
            raise ValueError(f"Name {name} has already been registered for class "
                             f"{_REGISTERED[name].__module__}.{_REGISTERED[name].__qualname__}.")
        _REGISTERED[name] = spec


_REGISTERED: dict[str, type] = {}  # registered name -> Spec class


def registered_name(spec_class: type) -> str | None:
    """The name a Spec class is registered under (its value type's ``__name__``), or None."""
    return next((k for k, v in _REGISTERED.items() if v is spec_class), None)


def spec_from_fields(name: str, fields: dict) -> "ExtensionTypeSpec":
    """The spec registered as ``name`` with ``fields`` (as ``_serialize`` gave them)."""
    cls = _REGISTERED.get(name)
    if cls is None:
        raise LookupError(f"no extension type is registered as {name!r}: define its class (with that "
                          "`__name__`) before loading.")
    spec = _new(cls, fields)
    spec._tf_extension_type_convert_fields()
    return spec


class ExtensionTypeMetaclass(abc.ABCMeta):
    """The metaclass of extension types: a class's fields, constructor and ``Spec`` are made
    when the class is defined."""

    def __init__(cls, name: str, bases: tuple, namespace: dict) -> None:
        super().__init__(name, bases, namespace)
        if not namespace.get("_tf_extension_type_do_not_transform_this_class", False):
            _check_annotations(cls)
            if "__init__" in cls.__dict__:
                _wrap_user_init(cls)
            else:
                _build_init(cls, spec=False)
            _add_spec(cls)


class ExtensionConversionError(ValueError, CompositeConversionError):
    """An extension type where a Tensor is needed and no dispatch handler takes it (a ValueError,
    as TensorFlow's conversion raises; a TypeError, as tapegrad's composites raise)."""


class _Fields:
    """What extension types and their specs share: fields converted on construction, then
    immutable (but for ``_MUTABLE_NAMES``)."""

    _SPEC, _MUTABLE_NAMES = False, _MUTABLE

    @classmethod
    def _tf_extension_type_has_field(cls, name: str) -> bool:
        return any(name == f.name for f in cls._tf_extension_type_fields())

    def _tf_extension_type_convert_fields(self) -> None:
        _convert_fields(self, spec=self._SPEC)

    def __validate__(self) -> None:
        """Check the fields after construction (override it; the default checks nothing)."""

    def _mutable(self, name: str) -> None:
        if not (name in self._MUTABLE_NAMES or
                _IN_CONSTRUCTOR in self.__dict__ and self._tf_extension_type_has_field(name)):
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor of "
                                 f"{'ExtensionTypeSpec' if self._SPEC else 'ExtensionType'}.")

    def __setattr__(self, name: str, value: Any) -> None:
        self._mutable(name)
        self.__dict__[name] = value

    def __delattr__(self, name: str) -> None:
        self._mutable(name)
        del self.__dict__[name]


# --------------------------------------------------------------------------- values
class ExtensionType(_Fields, CompositeTensor, metaclass=ExtensionTypeMetaclass):
    """The base class of user-defined extension types (``tf.experimental.ExtensionType``): a
    class whose annotated fields are its data, checked and converted on construction (a
    ``tf.Tensor`` field takes anything ``tf.convert_to_tensor`` does), immutable after it.

    >>> import tapegrad as tf
    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...     values: tf.Tensor
    ...     mask: tf.Tensor
    ...     def __validate__(self):
    ...         self.values.shape.assert_is_compatible_with(self.mask.shape)
    >>> mt = MaskedTensor([1, 2, 3], [True, False, True])
    >>> mt.values.dtype, mt.mask.dtype
    (tf.int32, tf.bool)
    >>> mt.values = [0]
    Traceback (most recent call last):
    ...
    AttributeError: Cannot mutate attribute `values` outside the custom constructor of ExtensionType.
    >>> tf.type_spec_from_value(mt)
    MaskedTensor.Spec(values=TensorSpec(shape=(3,), dtype=tf.int32, name=None), mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None))
    >>> [t.numpy().tolist() for t in tf.nest.flatten(mt, expand_composites=True)]
    [[1, 2, 3], [True, False, True]]
    """

    _tf_extension_type_do_not_transform_this_class = True
    _CONVERT_ERROR = ExtensionConversionError
    _CONVERT_HINT = "read its tensor fields, or register a handler with tf.experimental.dispatch_for_api"
    _UNARY = frozenset()
    _TRACED_BY_COMPONENTS = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if type(self) is ExtensionType:
            raise AssertionError("Cannot create an instance of ExtensionType because ExtensionType is "
                                 "an abstract base class.")

    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        return _fields_of(cls)

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in self._tf_extension_type_fields())
        return f"{type(self).__qualname__}({fields})"

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __eq__(self, other: Any) -> Any:
        if type(self) is not type(other) or self._type_spec != other._type_spec:
            return False
        conds = []
        for t1, t2 in zip(self._components(), other._components()):
            if t1.shape != t2.shape:
                conds.append(convert_to_tensor(False))
            else:
                conds.append(_reduction.reduce_all(_math.equal(t1, t2)))
        return _reduction.reduce_all(_array.stack(conds)) if conds else convert_to_tensor(True)

    def __ne__(self, other: Any) -> Any:
        eq = self.__eq__(other)
        if isinstance(eq, Tensor):
            return _math.logical_not(eq)
        return not eq

    __hash__ = None  # type: ignore[assignment]

    @property
    def _type_spec(self) -> "ExtensionTypeSpec":
        spec = self.__dict__.get("_tf_extension_type_cached_type_spec")
        if spec is None:
            spec = self.__dict__["_tf_extension_type_cached_type_spec"] = type(self).Spec.from_value(self)
        return spec

    # the CompositeTensor protocol: every tensor of the fields, depth first
    def _components(self) -> list:
        return [c for c in _nest.flatten(_field_values(self), expand_composites=True) if isinstance(c, Tensor)]

    def _from_components(self, parts: list) -> "ExtensionType":
        return self._type_spec._from_components(parts)

    def _flat(self) -> Tensor:  # (what a tape watches of a composite: TensorFlow takes no extension type)
        raise ExtensionConversionError(f"Type {type(self).__name__} is not supported as a gradient source or "
                                       "gradient target: watch and differentiate its tensor fields.")

    def _with_flat(self, t: Tensor) -> "ExtensionType":
        return self._flat()

    def _print_text(self, summarize: int) -> str:
        return repr(self)


class BatchableExtensionType(ExtensionType):
    """An extension type that can be batched and unbatched (``tf.data``, ``tf.map_fn``): by
    default every tensor field stacks along a new first axis and every ``TensorShape`` field
    gains that dimension.

    >>> import tapegrad as tf
    >>> class Vehicle(tf.experimental.BatchableExtensionType):
    ...     top_speed: tf.Tensor
    ...     mpg: tf.Tensor
    >>> batch = Vehicle([120, 150, 80], [30, 40, 12])
    >>> tf.map_fn(lambda v: v.top_speed * v.mpg, batch, fn_output_signature=tf.int32).numpy()
    array([3600, 6000,  960], dtype=int32)
    """

    _tf_extension_type_do_not_transform_this_class = True


def _field_values(value: Any) -> tuple:
    return tuple(value.__dict__[f.name] for f in value._tf_extension_type_fields())


# --------------------------------------------------------------------------- specs
def _spec_of_leaf(x: Any) -> Any:
    if isinstance(x, Tensor):
        return TensorSpec(x.shape, x.dtype)
    if isinstance(x, ExtensionType):
        return x._type_spec
    if isinstance(x, CompositeTensor):
        spec = getattr(x, "_type_spec", None)
        if spec is None:
            raise TypeError(f"tapegrad has no spec for a {type(x).__name__} field of an extension type.")
        return spec() if callable(spec) else spec
    return x


def _is_spec(x: Any) -> bool:
    return isinstance(x, (TensorSpec, ExtensionTypeSpec)) or hasattr(x, "value_type") and not isinstance(x, type)


def _plain_mappings(x: Any) -> Any:
    """``x`` with its (immutable) mappings made dicts, as a spec's serialization holds them."""
    if isinstance(x, collections.abc.Mapping):
        return {k: _plain_mappings(v) for k, v in x.items()}
    if type(x) is tuple:
        return tuple(_plain_mappings(v) for v in x)
    return x


def _key(x: Any) -> Any:
    """A hashable, comparable form of a spec's field value."""
    if isinstance(x, TensorShape):
        return ("shape", None if x.rank is None else tuple(x.as_list()))
    if isinstance(x, collections.abc.Mapping):
        return ("map", tuple(sorted((k, _key(v)) for k, v in x.items())))
    if isinstance(x, (tuple, list)):
        return tuple(_key(v) for v in x)
    return x


class ExtensionTypeSpec(_Fields, TypeSpec):
    """The type of an extension type's values (``tf.experimental.ExtensionTypeSpec``): its fields
    with each tensor replaced by its ``TensorSpec`` (each extension type by its spec); every
    extension type ``T`` has its own subclass ``T.Spec``. ``tf.function`` traces once per spec,
    and takes specs in ``input_signature`` and ``get_concrete_function``.
    """

    value_type: type = ExtensionType

    _SPEC, _MUTABLE_NAMES = True, ()

    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        return cls.value_type._tf_extension_type_fields()

    @classmethod
    def from_value(cls, value: Any) -> "ExtensionTypeSpec":
        """The spec of ``value``."""
        cached = value.__dict__.get("_tf_extension_type_cached_type_spec")
        if cached is not None:
            return cached
        fields = {f.name: _nest.map_structure(_spec_of_leaf, value.__dict__[f.name])
                  for f in value._tf_extension_type_fields()}
        return _new(cls, fields)

    def _serialize(self) -> tuple:
        return tuple((f.name, _plain_mappings(self.__dict__[f.name])) for f in self._tf_extension_type_fields())

    def _field_specs(self) -> tuple:
        return tuple(self.__dict__[f.name] for f in self._tf_extension_type_fields())

    @property
    def _component_specs(self) -> list:
        """The TensorSpec of each component, in the order of ``_to_components``."""
        out: list = []
        for x in _nest.flatten(self._field_specs()):
            if isinstance(x, ExtensionTypeSpec):
                out += x._component_specs
            elif isinstance(x, TensorSpec):
                out.append(x)
            elif _is_spec(x):
                raise TypeError(f"tapegrad cannot take the components of a {type(x).__name__} field of "
                                f"{self.value_type.__name__} here (tensor and extension type fields can).")
        return out

    def _to_components(self, value: Any) -> list:
        return value._components()

    def _from_components(self, components: Any) -> Any:
        it = iter(components)

        def fill(s: Any) -> Any:
            if isinstance(s, ExtensionTypeSpec):
                return s._from_components([next(it) for _ in s._component_specs])
            if isinstance(s, TensorSpec):
                return next(it)
            return s

        values = [_nest.map_structure(fill, v) for v in self._field_specs()]
        if next(it, None) is not None:
            raise ValueError("Cannot build an ExtensionType instance from components because more "
                             "components are provided than the number expected by the type spec.")
        names = [f.name for f in self._tf_extension_type_fields()]
        return _new(self.value_type, dict(zip(names, values)))

    def _shapeless(self) -> "ExtensionTypeSpec":
        """This spec with its tensors' shapes unknown (what rebuilding a value from components
        needs: a saved function's output, whatever the sizes)."""
        return _respec(self, lambda x: TensorSpec(None, x.dtype) if isinstance(x, TensorSpec) else
                       x._shapeless() if isinstance(x, ExtensionTypeSpec) else x)

    def _placeholder(self, sample: Callable) -> Any:
        """A value of this spec whose tensors are ``sample(tensor_spec)``."""
        return self._from_components([sample(s) for s in self._component_specs])

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether a value or spec has this type, its tensors' shapes compatible with this one's."""
        other = spec_or_value._type_spec if isinstance(spec_or_value, ExtensionType) else spec_or_value
        if type(other) is not type(self):
            return False
        a, b = _nest.flatten(self._field_specs()), _nest.flatten(other._field_specs())
        if len(a) != len(b) or not _nest.same_structure(self._field_specs(), other._field_specs()):
            return False
        for x, y in zip(a, b):
            if isinstance(x, (TensorSpec, ExtensionTypeSpec)):
                if not x.is_compatible_with(y):
                    return False
            elif isinstance(x, TensorShape):
                if not isinstance(y, TensorShape) or not x.is_compatible_with(y):
                    return False
            elif _key(x) != _key(y):
                return False
        return True

    def most_specific_common_supertype(self, others: list) -> "ExtensionTypeSpec | None":
        """The most specific spec of this type that describes this and every spec in ``others``."""
        fields = list(self._field_specs())
        for o in others:
            if type(o) is not type(self) or not _nest.same_structure(self._field_specs(), o._field_specs()):
                return None
            merged = []
            for x, y in zip(_nest.flatten(fields), _nest.flatten(o._field_specs())):
                if isinstance(x, (TensorSpec, ExtensionTypeSpec)):
                    x = x.most_specific_common_supertype([y])
                    if x is None:
                        return None
                elif isinstance(x, TensorShape):
                    x = x.most_specific_compatible_shape(y)
                elif _key(x) != _key(y):
                    return None
                merged.append(x)
            fields = _nest.pack_sequence_as(fields, merged)
        names = [f.name for f in self._tf_extension_type_fields()]
        return _new(type(self), dict(zip(names, fields)))

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and _key(self._serialize()) == _key(other._serialize())

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((type(self), _key(self._serialize())))

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self._serialize())
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(self) -> Any:
        return _new, (type(self), {f.name: self.__dict__[f.name] for f in self._tf_extension_type_fields()})


class ExtensionTypeBatchEncoder:
    """How a batchable extension type's values batch and unbatch
    (``tf.experimental.ExtensionTypeBatchEncoder``): by default every nested spec and
    ``TensorShape`` field gains (``batch``) or loses (``unbatch``) a first dimension, and a value
    is encoded as its components."""

    def batch(self, spec: Any, batch_size: Any) -> Any:
        """The spec of a batch of ``batch_size`` values of ``spec`` (None: unknown size)."""
        def f(x: Any) -> Any:
            if isinstance(x, BatchableExtensionTypeSpec):
                return x.__batch_encoder__.batch(x, batch_size)
            if isinstance(x, TensorSpec):
                return TensorSpec(TensorShape([batch_size]).concatenate(x.shape), x.dtype, x.name)
            if isinstance(x, TensorShape):
                return TensorShape([batch_size]).concatenate(x)
            return x
        return _respec(spec, f)

    def unbatch(self, spec: Any) -> Any:
        """The spec of one value of a batch of spec ``spec``."""
        def f(x: Any) -> Any:
            if isinstance(x, BatchableExtensionTypeSpec):
                return x.__batch_encoder__.unbatch(x)
            if isinstance(x, TensorSpec):
                return TensorSpec(x.shape[1:], x.dtype, x.name)
            if isinstance(x, TensorShape):
                return x[1:]
            return x
        return _respec(spec, f)

    def encode(self, spec: Any, value: Any, minimum_rank: int = 0) -> list:
        """``value`` as the tensors that batch (its components)."""
        return spec._to_components(value)

    def decode(self, spec: Any, encoded_value: Any) -> Any:
        """The value of ``spec`` that ``encoded_value`` (batched or unbatched) encodes."""
        return spec._from_components(encoded_value)

    def encoding_specs(self, spec: Any) -> list:
        """The specs of what ``encode`` returns."""
        return spec._component_specs


def _respec(spec: Any, f: Callable) -> Any:
    """``spec`` with ``f`` applied to every leaf of its fields."""
    names = [fl.name for fl in spec._tf_extension_type_fields()]
    return _new(type(spec), {k: _nest.map_structure(f, spec.__dict__[k]) for k in names})


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The spec of a :class:`BatchableExtensionType`."""

    __batch_encoder__ = ExtensionTypeBatchEncoder()

    def _batch(self, batch_size: Any) -> Any:
        return self.__batch_encoder__.batch(self, batch_size)

    def _unbatch(self) -> Any:
        return self.__batch_encoder__.unbatch(self)


# --------------------------------------------------------------------------- dispatch
_TARGETS: dict[Callable, list] = {}  # original public function -> [(matcher, handler)]
_WRAPPERS: dict[Callable, Callable] = {}  # original -> its dispatching wrapper
_ORIGINALS: dict[Callable, Callable] = {}  # wrapper -> original
_ELEMENTWISE: dict[tuple, list] = {}  # (types) -> [(api, target)], to unregister an elementwise handler
_HANDLER_TARGETS: dict[Callable, list] = {}  # a user's elementwise handler -> its targets

_UNARY_APIS = (
    "bitwise.invert cast clip_by_value debugging.check_numerics dtypes.saturate_cast image.adjust_brightness "
    "image.adjust_gamma image.convert_image_dtype math.abs math.acos math.acosh math.angle math.asin math.asinh "
    "math.atan math.atanh math.bessel_i0 math.bessel_i0e math.bessel_i1 math.bessel_i1e math.ceil math.conj "
    "math.cos math.cosh math.digamma math.erf math.erfc math.erfcinv math.erfinv math.exp math.expm1 math.floor "
    "math.imag math.is_finite math.is_inf math.is_nan math.lgamma math.log math.log1p math.log_sigmoid "
    "math.logical_not math.ndtri math.negative math.real math.reciprocal math.reciprocal_no_nan math.rint "
    "math.round math.rsqrt math.sigmoid math.sign math.sin math.sinh math.softplus math.sqrt math.square math.tan "
    "math.tanh nn.elu nn.gelu nn.leaky_relu nn.log_softmax nn.relu nn.relu6 nn.selu nn.silu nn.softsign "
    "ones_like strings.as_string strings.length strings.lower strings.regex_full_match strings.regex_replace "
    "strings.strip strings.substr strings.to_hash_bucket strings.to_hash_bucket_fast strings.to_hash_bucket_strong "
    "strings.to_number strings.upper zeros_like").split()
_BINARY_APIS = (
    "bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift bitwise.right_shift "
    "dtypes.complex math.add math.atan2 math.divide math.divide_no_nan math.equal math.floordiv math.floormod "
    "math.greater math.greater_equal math.less math.less_equal math.logical_and math.logical_or math.logical_xor "
    "math.maximum math.minimum math.multiply math.multiply_no_nan math.not_equal math.pow math.scalar_mul "
    "math.squared_difference math.subtract math.truediv math.xdivy math.xlog1py math.xlogy math.zeta "
    "nn.sigmoid_cross_entropy_with_logits truncatediv truncatemod").split()


def _public(path: str) -> Callable | None:
    obj: Any = sys.modules["tapegrad"]  # (loaded: its namespaces are where the functions are)
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return None
    return obj


def _check_dispatch_type(t: Any) -> None:
    """Raise ValueError unless ``t`` is an annotation dispatch takes: a type, ``List[...]`` or
    ``Union[...]`` (``Optional[...]``) of them, as TensorFlow's."""
    if _is_union(t) or _origin(t) is list:
        for a in typing.get_args(t):
            _check_dispatch_type(a)
    elif not (isinstance(t, type) or t is None):
        raise ValueError(f"Type annotation {t} is not currently supported by dispatch.  Supported "
                         "annotations: type objects,  List[...], and Union[...]")


def _matches(value: Any, t: Any) -> bool:
    """Whether ``value`` has annotated type ``t`` (TensorFlow's dispatch type checks)."""
    if _is_union(t):
        return any(_matches(value, a) for a in typing.get_args(t))
    if _origin(t) is list:
        (a,) = typing.get_args(t)
        return isinstance(value, (list, tuple)) and all(_matches(v, a) for v in value)
    if t is None or t is type(None):
        return value is None
    return isinstance(value, t)


def _dispatchable(value: Any) -> bool:
    if isinstance(value, CompositeTensor):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(v, CompositeTensor) for v in value)


def _matcher(api: Callable, signature: dict) -> Callable:
    sig = inspect.signature(api)
    for name, t in signature.items():
        _check_dispatch_type(t)
        if name not in sig.parameters:
            raise ValueError(f"Dispatch function's signature {signature} does not match API's signature "
                             f"{sig}: {name!r} is not a parameter of {api.__name__}.")

    def match(args: tuple, kwargs: dict) -> bool:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return False
        vals = [bound.arguments.get(n) for n in signature]
        return all(_matches(v, signature[n]) for v, n in zip(vals, signature)) and any(map(_dispatchable, vals))
    return match


def _install(api: Callable) -> Callable:
    """The dispatching wrapper of public function ``api``, put wherever tapegrad's modules hold it."""
    wrapper = _WRAPPERS.get(api)
    if wrapper is not None:
        return wrapper

    @functools.wraps(api)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for match, handler in reversed(_TARGETS.get(api, ())):
            if match(args, kwargs):
                return handler(*args, **kwargs)
        return api(*args, **kwargs)

    _WRAPPERS[api], _ORIGINALS[wrapper] = wrapper, api
    _swap(api, wrapper)
    return wrapper


def _swap(old: Callable, new: Callable) -> None:
    """Put ``new`` wherever tapegrad's modules hold ``old`` (but the defining module's own name,
    by which the function's composite handlers are found)."""
    api = _ORIGINALS.get(old, old)
    for mod in list(sys.modules.values()):
        if mod is None or not getattr(mod, "__name__", "").startswith("tapegrad"):
            continue
        d = getattr(mod, "__dict__", {})
        own = mod.__name__ == getattr(api, "__module__", None)
        for k, v in list(d.items()):
            if v is old and not (own and k == api.__name__):
                d[k] = new


def _uninstall(api: Callable) -> None:
    """The original function back everywhere once no handler of ``api`` is left."""
    wrapper = _WRAPPERS.pop(api, None)
    if wrapper is not None:
        _swap(wrapper, api)
        del _ORIGINALS[wrapper]


def dispatch_for_api(api: Callable, *signatures: dict) -> Callable:
    """Decorator: the decorated function handles calls of the public function ``api`` whose
    arguments match its type annotations (or the ``signatures`` given, each a dict of parameter
    name to type) and include a composite value (``tf.experimental.dispatch_for_api``).

    >>> import tapegrad as tf
    >>> from typing import List
    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...     values: tf.Tensor
    ...     mask: tf.Tensor
    >>> @tf.experimental.dispatch_for_api(tf.stack)
    ... def masked_stack(values: List[MaskedTensor], axis=0):
    ...     return MaskedTensor(tf.stack([v.values for v in values], axis),
    ...                         tf.stack([v.mask for v in values], axis))
    >>> tf.stack([MaskedTensor([1], [True]), MaskedTensor([2], [False])]).mask.numpy()
    array([[ True],
           [False]])
    >>> tf.experimental.unregister_dispatch_for(masked_stack)
    """
    api = _ORIGINALS.get(api, api)
    if not callable(api):
        raise ValueError(f"Dispatch is not supported for api {api!r}.")

    given = [_matcher(api, s) for s in signatures]

    def decorator(fn: Callable) -> Callable:
        matchers = given
        if not matchers:
            hints = typing.get_type_hints(fn)
            sig = {k: v for k, v in hints.items() if k != "return"}
            if not sig:
                raise ValueError("must specify at least one signature (or annotate the dispatch "
                                 "target's parameters).")
            matchers = [_matcher(api, sig)]
        _install(api)
        _TARGETS.setdefault(api, []).extend((m, fn) for m in matchers)
        return fn
    return decorator


def _elementwise(paths: list, types_: tuple, make: Callable) -> Callable:
    def decorator(handler: Callable) -> Callable:
        done = []
        for path in paths:
            api = _public(path)
            if api is None:
                continue
            api = _ORIGINALS.get(api, api)
            if api in done:
                continue
            done.append(api)
            names = list(inspect.signature(api).parameters)
            target = make(api, handler)
            dispatch_for_api(api, dict(zip(names, types_)))(target)
            _ELEMENTWISE.setdefault(types_, []).append((api, target))
            _HANDLER_TARGETS.setdefault(handler, []).append((api, target))
        return handler
    return decorator


def dispatch_for_unary_elementwise_apis(x_type: Any) -> Callable:
    """Decorator: ``handler(api_func, x)`` handles every unary elementwise function
    (``tf.abs``, ``tf.ones_like``, ...) called with ``x`` of type ``x_type``; ``api_func`` is the
    function with the call's other arguments bound
    (``tf.experimental.dispatch_for_unary_elementwise_apis``).

    >>> import tapegrad as tf
    >>> class MaskedTensor(tf.experimental.ExtensionType):
    ...     values: tf.Tensor
    ...     mask: tf.Tensor
    >>> @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    ... def handler(api_func, x):
    ...     return MaskedTensor(api_func(x.values), x.mask)
    >>> tf.abs(MaskedTensor([1, -2], [True, False])).values.numpy()
    array([1, 2], dtype=int32)
    >>> tf.experimental.unregister_dispatch_for(handler)
    """
    def make(api: Callable, handler: Callable) -> Callable:
        def target(x: Any, *args: Any, **kwargs: Any) -> Any:
            kwargs.pop("name", None)
            return handler(lambda v: api(v, *args, **kwargs), x)
        return target
    return _elementwise(_UNARY_APIS, (x_type,), make)


def dispatch_for_binary_elementwise_apis(x_type: Any, y_type: Any) -> Callable:
    """Decorator: ``handler(api_func, x, y)`` handles every binary elementwise function
    (``tf.math.add``, ``tf.maximum``, ...) called with ``x`` of type ``x_type`` and ``y`` of
    type ``y_type`` (``tf.experimental.dispatch_for_binary_elementwise_apis``)."""
    def make(api: Callable, handler: Callable) -> Callable:
        def target(x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
            kwargs.pop("name", None)
            return handler(lambda a, b: api(a, b, *args, **kwargs), x, y)
        return target
    return _elementwise(_BINARY_APIS, (x_type, y_type), make)


def unregister_dispatch_for(dispatch_target: Callable) -> None:
    """Remove a handler registered with ``dispatch_for_api`` or an elementwise decorator
    (``tf.experimental.unregister_dispatch_for``); ValueError if it was not registered."""
    found = False
    pairs = _HANDLER_TARGETS.pop(dispatch_target, None)
    targets = [t for _, t in pairs] if pairs else [dispatch_target]
    for api, entries in _TARGETS.items():
        keep = [(m, h) for m, h in entries if h not in targets]
        found = found or len(keep) != len(entries)
        entries[:] = keep
    for lst in _ELEMENTWISE.values():
        lst[:] = [(a, t) for a, t in lst if t not in targets]
    for api in [a for a, entries in _TARGETS.items() if not entries]:
        del _TARGETS[api]
        _uninstall(api)
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a `@dispatch` decorator.")
