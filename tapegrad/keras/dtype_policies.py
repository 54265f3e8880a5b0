"""``tapegrad.keras.dtype_policies``: Keras 3's dtype policies, the quantized ones included.

A quantized policy is named ``"<mode>_from_<source>"`` (``"int8_from_float32"``): the layer
computes in the source policy's dtypes and keeps its kernel quantized in ``mode``.
``Layer.quantize(mode)`` (and ``Model.quantize``) gives a layer such a policy, and a layer made
with one (``Dense(4, dtype="int8_from_float32")``, or a quantized model loaded from a file)
builds its quantized variables at once.

>>> from tapegrad import keras
>>> policy = keras.dtype_policies.get("int8_from_float32")
>>> type(policy).__name__, policy.quantization_mode, policy.compute_dtype
('QuantizedDTypePolicy', 'int8', 'float32')
>>> keras.dtype_policies.serialize(policy)["config"]
{'mode': 'int8', 'source_name': 'float32'}
"""
from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Iterator

from . import backend
from .mixed_precision import DTypePolicy, global_policy

__all__ = ["DTypePolicy", "FloatDTypePolicy", "QuantizedDTypePolicy", "QuantizedFloat8DTypePolicy",
           "Int4DTypePolicy", "QUANTIZATION_MODES", "get", "serialize", "deserialize"]

QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")

FloatDTypePolicy = DTypePolicy  # (Keras 3 keeps the name as a deprecated alias)


class QuantizedDTypePolicy(DTypePolicy):
    """The policy of a layer quantized in ``mode`` (``"int8"``, ``"int4"``, ``"float8"``) from
    the policy ``source_name`` (the global policy's name when ``None``), whose compute and
    variable dtypes it keeps.

    >>> from tapegrad import keras
    >>> keras.dtype_policies.QuantizedDTypePolicy("int8", "float32")
    <QuantizedDTypePolicy "int8_from_float32">
    """

    def __init__(self, mode: str, source_name: str | None = None) -> None:
        source_name = global_policy().name if source_name is None else source_name
        super().__init__(source_name)
        if mode not in QUANTIZATION_MODES:
            raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. "
                             f"Received: mode={mode}")
        if self.compute_dtype == "float16" and mode == "int8":
            raise ValueError(f"Quantization mode='{mode}' doesn't work well with compute_dtype='float16'.")
        self._name = f"{mode}_from_{source_name}"
        self._source_name = source_name
        self._quantization_mode = mode

    @property
    def quantization_mode(self) -> str:  # type: ignore[override]
        return self._quantization_mode

    def get_config(self) -> dict:
        return {"mode": self._quantization_mode, "source_name": self._source_name}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.get_config() == self.get_config()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._name)

    def __repr__(self) -> str:
        return f'<{type(self).__name__} "{self._name}">'


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """The ``"float8_from_<source>"`` policy, with the length of the amax history that float8
    training scales with (1024 by default).

    >>> from tapegrad import keras
    >>> keras.dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=16).get_config()
    {'mode': 'float8', 'source_name': 'float32', 'amax_history_length': 16}
    """

    default_amax_history_length = 1024

    def __init__(self, mode: str, source_name: str | None = None, amax_history_length: int = 1024) -> None:
        super().__init__(mode, source_name)
        if not isinstance(amax_history_length, int) or isinstance(amax_history_length, bool):
            raise TypeError("`amax_history_length` must be an integer. "
                            f"Received: amax_history_length={amax_history_length}")
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self) -> int:
        return self._amax_history_length

    def get_config(self) -> dict:
        return {**super().get_config(), "amax_history_length": self._amax_history_length}


class Int4DTypePolicy(QuantizedDTypePolicy):
    """The ``"int4/<block_size>_from_<source>"`` policy: int4 with ``block_size`` rows of the kernel
    per scale (-1: one scale per output channel).

    >>> from tapegrad import keras
    >>> policy = keras.dtype_policies.get("int4/64_from_float32")
    >>> type(policy).__name__, policy.block_size, policy.quantization_mode
    ('Int4DTypePolicy', 64, 'int4')
    """

    def __init__(self, mode: str, source_name: str | None = None) -> None:
        parts = mode.split("/")
        expected = "'int4/<block_size>'"
        if len(parts) != 2 or parts[0] != "int4":
            raise ValueError(f"Invalid mode for Int4DTypePolicy. Expected format {expected}, but got '{mode}'.")
        try:
            block_size = int(parts[1])
        except ValueError:
            raise ValueError("Invalid mode for Int4DTypePolicy. <block_size> must be an integer. Expected "
                             f"format {expected}, but got '{mode}'.") from None
        if block_size < -1 or block_size == 0:
            raise ValueError("Invalid block_size in mode. Supported values are -1 (per-channel) or a positive "
                             f"integer (sub-channel), but got {block_size} from '{mode}'.")
        super().__init__("int4", source_name)
        self._name = f"{mode}_from_{self._source_name}"
        self.block_size = block_size

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": f"int4/{self.block_size}"}


ALL_OBJECTS_DICT = {c.__name__: c for c in (DTypePolicy, QuantizedDTypePolicy, QuantizedFloat8DTypePolicy,
                                             Int4DTypePolicy)}
ALL_OBJECTS_DICT["FloatDTypePolicy"] = DTypePolicy


def _quantized_by_name(name: str) -> QuantizedDTypePolicy:
    parts = name.split("_from_")
    if len(parts) != 2:
        raise ValueError("Cannot convert `policy` into a valid pair (`mode`, `source_name`) to instantiate "
                         f"`QuantizedDTypePolicy`. Received: policy={name}")
    mode, source = parts
    if mode.startswith(("gptq", "awq")):
        raise NotImplementedError(f"The dtype policy {name!r} needs GPTQ/AWQ calibration, which tapegrad does "
                                  "not implement (docs/differences.md). Use 'int8' or 'int4'.")
    if mode.startswith("float8"):
        return QuantizedFloat8DTypePolicy(mode, source)
    if mode.startswith("int4") and "/" in mode:
        return Int4DTypePolicy(mode, source)
    return QuantizedDTypePolicy(mode, source)


def serialize(dtype_policy: DTypePolicy) -> dict:
    """The config Keras saves for ``dtype_policy`` (``{"module", "class_name", "config", ...}``)."""
    cls = type(dtype_policy).__name__
    module = "keras" if cls == "DTypePolicy" else "keras.dtype_policies"
    return {"module": module, "class_name": cls, "config": dtype_policy.get_config(), "registered_name": None}


def deserialize(config: dict, custom_objects: dict | None = None) -> DTypePolicy:
    """The policy a :func:`serialize` config describes."""
    name = config.get("class_name") if isinstance(config, dict) else None
    cls = (custom_objects or {}).get(name) or ALL_OBJECTS_DICT.get(name)
    if cls is None or not isinstance(config.get("config"), dict):
        raise ValueError(f"Cannot deserialize a dtype policy from {config!r}: expected "
                         f"{{'class_name': one of {sorted(ALL_OBJECTS_DICT)}, 'config': {{...}}}}.")
    return cls.from_config(config["config"])


def get(identifier: Any) -> DTypePolicy:
    """A :class:`DTypePolicy` from a policy, a name (``"mixed_float16"``, ``"int8_from_float32"``),
    a :func:`serialize` config, a dtype, or ``None`` (the global policy)."""
    if identifier is None:
        return global_policy()
    if isinstance(identifier, DTypePolicy):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        if identifier.startswith(QUANTIZATION_MODES):
            return _quantized_by_name(identifier)
        return DTypePolicy(identifier)
    try:
        return DTypePolicy(backend.standardize_dtype(identifier))
    except (TypeError, ValueError):
        raise ValueError("Cannot interpret `dtype` argument. Expected a string or an instance of DTypePolicy. "
                         f"Received: dtype={identifier}") from None


class DTypePolicyMap(DTypePolicy, MutableMapping):
    """Dtype policies by layer path: an exact key first, else the one key that
    ``re.fullmatch``-es the path (more than one: ``ValueError``), else ``default_policy``
    (``keras.config.dtype_policy()`` when ``None``), whose dtypes the map reports as its own. (A
    layer given a map takes the default policy's dtypes: docs/differences.md.)

    >>> from tapegrad import keras
    >>> m = keras.dtype_policies.DTypePolicyMap(keras.dtype_policies.DTypePolicy("float32"))
    >>> m["encoder/.*"] = "float16"
    >>> m["encoder/dense"].name, m["decoder"].name, m.name
    ('float16', 'float32', 'map_float32')
    """

    def __init__(self, default_policy: Any = None, policy_map: dict | None = None) -> None:
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError("If specified, `policy_map` must be a dict. "
                            f"Received: policy_map={policy_map} of type {type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = get(default_policy)
        self._policy_map = policy_map or {}

    @property
    def _name(self) -> str:  # type: ignore[override]
        return f"map_{self.default_policy.name}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def default_policy(self) -> DTypePolicy:
        return get(self._default_policy)

    @property
    def variable_dtype(self) -> str:
        return self.default_policy.variable_dtype

    @property
    def compute_dtype(self) -> str:
        return self.default_policy.compute_dtype

    @property
    def quantization_mode(self) -> Any:
        return self.default_policy.quantization_mode

    def __getitem__(self, key: str) -> DTypePolicy:
        return backend.by_path(self._policy_map, key, self.default_policy, "dtype policy")

    def __setitem__(self, key: str, policy: Any) -> None:
        if key in self._policy_map:
            raise ValueError(f"{key} already exist in the DTypePolicyMap with value {self._policy_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        try:
            policy = get(policy)
        except Exception:
            raise ValueError("Cannot interpret the assigned value by `keras.dtype_policies.get`. "
                             f"Received: {policy} of type {type(policy)}") from None
        self._policy_map[key] = policy

    def __delitem__(self, key: str) -> Any:
        return self._policy_map.pop(key)

    def __contains__(self, key: object) -> bool:
        return key in self._policy_map

    def __len__(self) -> int:
        return len(self._policy_map)

    def __iter__(self) -> Iterator:
        return iter(self._policy_map)

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def get_config(self) -> dict:
        policy_map = {k: serialize(v) for k, v in self._policy_map.items()}
        if self._default_policy_arg is None:   # (Keras's: the policies follow the global policy when loaded)
            for v in policy_map.values():
                if v["class_name"] == "DTypePolicy":
                    v["config"]["name"] = None
                elif "source_name" in v["config"]:
                    v["config"]["source_name"] = None
        return {"default_policy": self._default_policy_arg, "policy_map": policy_map}

    @classmethod
    def from_config(cls, config: dict, custom_objects: dict | None = None) -> "DTypePolicyMap":
        mapping = {k: (deserialize(v, custom_objects) if isinstance(v, dict) else get(v))
                   for k, v in (config.get("policy_map") or {}).items()}
        return cls(config.get("default_policy"), mapping)

    def __repr__(self) -> str:
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return (f"<DTypePolicyMap at {hex(id(self))} default_policy={self._default_policy.name}, "
                f"mapping={mapping}>")


ALL_OBJECTS_DICT["DTypePolicyMap"] = DTypePolicyMap
__all__.append("DTypePolicyMap")
