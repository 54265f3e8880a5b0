"""Keras 3's ``keras.utils.FeatureSpace``: one object that preprocesses and encodes a dict of
structured features (numbers, integer and string categories, hashed values, feature crosses)
into one vector or a dict of encoded features, following Keras's
``keras/src/layers/preprocessing/feature_space.py``."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._engine import Tensor, convert_to_tensor
from .. import backend
from ... import sparse as _sparse
from ...ops.array import concat, expand_dims, reshape, squeeze
from ...ops.math import cast
from .._keras_tensor import KerasTensor
from .._tree import flatten
from .input_layer import Input
from .layer import Layer

__all__ = ["FeatureSpace", "Feature", "Cross"]

_FEATURE_MODULE = "keras.src.layers.preprocessing.feature_space"


def _layers() -> Any:
    from .. import layers
    return layers


class Cross:
    """A feature cross of FeatureSpace: the features named, hashed into ``crossing_dim`` bins
    (``output_mode`` ``"one_hot"`` or ``"int"``). Made by :meth:`FeatureSpace.cross`."""

    _keras_module = _FEATURE_MODULE

    def __init__(self, feature_names: Any, crossing_dim: int, output_mode: str = "one_hot") -> None:
        if output_mode not in {"int", "one_hot"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot'}. "
                             f"Received: output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self) -> str:
        """The cross's name: its features' names joined by ``"_X_"``."""
        return "_X_".join(self.feature_names)

    def get_config(self) -> dict:
        """The constructor's arguments."""
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config: dict) -> "Cross":
        """The cross of ``config``."""
        return cls(**config)


class Feature:
    """A feature of FeatureSpace: its input ``dtype``, the ``preprocessor`` layer that turns it
    into numbers and how those are encoded (``output_mode`` ``"float"``, ``"int"`` or
    ``"one_hot"``). Made by :meth:`FeatureSpace.feature` and its siblings."""

    _keras_module = _FEATURE_MODULE

    def __init__(self, dtype: str, preprocessor: Any, output_mode: str) -> None:
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot', "
                             f"'float'}}. Received: output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            from ..saving import deserialize_keras_object
            preprocessor = deserialize_keras_object(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self) -> dict:
        """The constructor's arguments, the preprocessor serialized."""
        from ..saving import serialize_keras_object
        return {"dtype": self.dtype, "preprocessor": serialize_keras_object(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config: dict) -> "Feature":
        """The feature of ``config``."""
        return cls(**config)


def _lookup_feature(kind: str, dtype: str, layer: str, max_tokens: int | None, num_oov_indices: int,
                    output_mode: str, name: str | None) -> Feature:
    name = name or backend.unique_name(kind)
    return Feature(dtype, getattr(_layers(), layer)(name=f"{name}_preprocessor", max_tokens=max_tokens,
                                                    num_oov_indices=num_oov_indices), output_mode)


class TFDConcat(Layer):
    """Concatenates its inputs along ``axis`` (FeatureSpace's last step in ``"concat"`` mode)."""

    _keras_module = _FEATURE_MODULE

    def __init__(self, axis: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, xs: Any) -> Any:
        return concat(list(xs), axis=self.axis)

    def compute_output_spec(self, xs: Any, *args: Any, **kwargs: Any) -> Any:
        shapes = [tuple(x.shape) for x in xs]
        out = list(shapes[0])
        out[self.axis] = None if any(s[self.axis] is None for s in shapes) else sum(s[self.axis] for s in shapes)
        return KerasTensor(tuple(out), xs[0].dtype)

    def get_config(self) -> dict:
        return {**super().get_config(), "axis": self.axis}


class TFDIdentity(Layer):
    """Returns its input as numbers of its dtype (the preprocessor of a plain ``"float"``
    feature: Keras's converts integers too)."""

    _keras_module = _FEATURE_MODULE

    def call(self, x: Any) -> Any:
        return cast(x, self.compute_dtype) if x.dtype.name not in (self.compute_dtype, "string") else x

    def compute_output_spec(self, x: Any, *args: Any, **kwargs: Any) -> Any:
        return KerasTensor(x.shape, self.compute_dtype if x.dtype != "string" else x.dtype)


class FeatureSpace(Layer):
    """Preprocesses and encodes structured data given as a dict of features (Keras 3's
    ``keras.utils.FeatureSpace``).

    ``features`` maps each feature's name to its type: a name (``"float"``,
    ``"float_rescaled"``, ``"float_normalized"``, ``"float_discretized"``,
    ``"integer_categorical"``, ``"string_categorical"``, ``"integer_hashed"``,
    ``"string_hashed"``, with the default arguments) or a :class:`Feature` from
    ``FeatureSpace.float_normalized()``, ``FeatureSpace.integer_categorical(max_tokens=...)``,
    ..., or ``FeatureSpace.feature(dtype, preprocessor, output_mode)`` with any preprocessing
    layer. ``crosses`` lists features to cross (tuples of names, hashed into ``crossing_dim``
    bins, or ``FeatureSpace.cross(...)``). Call :meth:`adapt` on a ``tf.data.Dataset`` of
    dicts (or a dict of arrays) first; then calling the space on a dict of arrays or tensors
    gives one float32 vector per sample (``output_mode="concat"``: the features in sorted name
    order, then the crosses; categories one-hot) or a dict of encoded features (``"dict"``).
    :meth:`get_inputs` and :meth:`get_encoded_features` give the same as a Keras functional
    graph, for a model.

    >>> from tapegrad import keras
    >>> data = {"x": [0.0, 1.0, 2.0, 3.0], "c": ["a", "b", "a", "c"]}
    >>> space = keras.utils.FeatureSpace({"x": "float_normalized", "c": "string_categorical"})
    >>> space.adapt(data)
    >>> space({"x": [1.5], "c": ["a"]}).numpy()  # "c" one-hot ([UNK], a, c, b), then "x"
    array([[0., 1., 0., 0., 0.]], dtype=float32)
    """

    _keras_module = "keras.utils"

    # -- feature types --------------------------------------------------------------------------
    @classmethod
    def cross(cls, feature_names: Any, crossing_dim: int, output_mode: str = "one_hot") -> Cross:
        """A cross of the features named, hashed into ``crossing_dim`` bins."""
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype: str, preprocessor: Any, output_mode: str) -> Feature:
        """A feature of input ``dtype`` preprocessed by the layer ``preprocessor``, its output
        used as it is (``"float"``, ``"int"``) or one-hot encoded (``"one_hot"``)."""
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name: str | None = None) -> Feature:
        """Float values as they are."""
        name = name or backend.unique_name("float")
        return Feature("float32", TFDIdentity(dtype="float32", name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale: float = 1.0, offset: float = 0.0, name: str | None = None) -> Feature:
        """Float values times ``scale`` plus ``offset`` (a ``Rescaling`` layer)."""
        name = name or backend.unique_name("float_rescaled")
        return Feature("float32", _layers().Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_normalized(cls, name: str | None = None) -> Feature:
        """Float values standardized by the mean and variance :meth:`adapt` finds (a
        ``Normalization`` layer)."""
        name = name or backend.unique_name("float_normalized")
        return Feature("float32", _layers().Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins: int, bin_boundaries: Any = None, output_mode: str = "one_hot",
                          name: str | None = None) -> Feature:
        """Float values bucketed (a ``Discretization`` layer: ``num_bins`` quantile bins that
        :meth:`adapt` finds, or the ``bin_boundaries`` given), one-hot by default."""
        name = name or backend.unique_name("float_discretized")
        return Feature("float32", _layers().Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries,
                                                           name=f"{name}_preprocessor"), output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens: int | None = None, num_oov_indices: int = 1,
                            output_mode: str = "one_hot", name: str | None = None) -> Feature:
        """Integer categories indexed by a vocabulary :meth:`adapt` learns (an ``IntegerLookup``
        layer), one-hot by default."""
        return _lookup_feature("integer_categorical", "int32", "IntegerLookup", max_tokens, num_oov_indices,
                               output_mode, name)

    @classmethod
    def string_categorical(cls, max_tokens: int | None = None, num_oov_indices: int = 1,
                           output_mode: str = "one_hot", name: str | None = None) -> Feature:
        """String categories indexed by a vocabulary :meth:`adapt` learns (a ``StringLookup``
        layer), one-hot by default."""
        return _lookup_feature("string_categorical", "string", "StringLookup", max_tokens, num_oov_indices,
                               output_mode, name)

    @classmethod
    def string_hashed(cls, num_bins: int, output_mode: str = "one_hot", name: str | None = None) -> Feature:
        """Strings hashed into ``num_bins`` bins (a ``Hashing`` layer), one-hot by default."""
        name = name or backend.unique_name("string_hashed")
        return Feature("string", _layers().Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins: int, output_mode: str = "one_hot", name: str | None = None) -> Feature:
        """Integers hashed into ``num_bins`` bins (a ``Hashing`` layer), one-hot by default."""
        name = name or backend.unique_name("integer_hashed")
        return Feature("int32", _layers().Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    # -- construction ---------------------------------------------------------------------------
    def __init__(self, features: dict, output_mode: str = "concat", crosses: Any = None, crossing_dim: int = 32,
                 hashing_dim: int = 32, num_discretization_bins: int = 32, name: str | None = None) -> None:
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {name: self._standardize_feature(name, value) for name, value in features.items()}
        self.crosses: list = []
        for cross in crosses or ():
            if isinstance(cross, dict):
                from ..saving import deserialize_keras_object
                cross = deserialize_keras_object(cross)
            if isinstance(cross, Cross):
                self.crosses.append(cross)
                continue
            if not crossing_dim:
                raise ValueError("When specifying `crosses`, the argument `crossing_dim` (dimensionality of "
                                 "the crossing space) should be specified as well.")
            if any(key not in features for key in cross):
                raise ValueError("All features referenced in the `crosses` argument should be present in the "
                                 f"`features` dict. Received unknown features: {cross}")
            self.crosses.append(Cross(cross, crossing_dim=crossing_dim))
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'dict', 'concat'}. "
                             f"Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {name: Input(shape=(1,), dtype=value.dtype, name=name) for name, value in self.features.items()}
        self.preprocessors = {name: value.preprocessor for name, value in self.features.items()}
        self.encoded_features = None
        self.crossers = {cross.name: _layers().HashedCrossing(cross.crossing_dim, name=cross.name)
                         for cross in self.crosses}
        self.one_hot_encoders: dict = {}
        self._is_adapted = False
        self.concat = None
        self._preprocessed_features_names: list | None = None
        self._crossed_features_names: list | None = None
        self._sublayers_built = False

    def _standardize_feature(self, name: str, feature: Any) -> Feature:
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            from ..saving import deserialize_keras_object
            return deserialize_keras_object(feature)
        makers = {"float": lambda: self.float(name=name),
                  "float_normalized": lambda: self.float_normalized(name=name),
                  "float_rescaled": lambda: self.float_rescaled(name=name),
                  "float_discretized": lambda: self.float_discretized(name=name,
                                                                      num_bins=self.num_discretization_bins),
                  "integer_categorical": lambda: self.integer_categorical(name=name),
                  "string_categorical": lambda: self.string_categorical(name=name),
                  "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
                  "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name)}
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(f"Invalid feature type: {feature}")
        return makers[feature]()

    # -- adapt ----------------------------------------------------------------------------------
    def _list_adaptable_preprocessors(self) -> list:
        layers = _layers()
        names = []
        for name in self.features:
            preprocessor = self.preprocessors[name]
            if isinstance(preprocessor, layers.Normalization) and preprocessor.input_mean is not None:
                continue  # (given mean and variance: nothing to learn)
            if isinstance(preprocessor, layers.TextVectorization) and preprocessor._lookup_layer._has_input_vocabulary:
                continue
            if hasattr(preprocessor, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset: Any) -> None:
        """Learn each preprocessor's state (vocabularies, means and variances, bin boundaries)
        from ``dataset``: a ``tf.data.Dataset`` of dicts of features (batched or not; an
        unbatched one is batched by 32) or a dict of arrays or lists. As Keras 3.15, each
        adaptable preprocessor adapts on its own pass over the dataset (after one element is
        drawn to see its rank), so an unseeded shuffle draws its order anew for each."""
        from ...data import Dataset
        if not isinstance(dataset, Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict of arrays/lists. "
                                 f"Received instead: {dataset} (of type {type(dataset)})")
            dataset = Dataset.from_tensor_slices(dataset)
        for name in self._list_adaptable_preprocessors():
            feature_dataset = dataset.map(lambda x, name=name: x[name])
            x = next(iter(feature_dataset))
            if len(x.shape) == 0:
                feature_dataset = feature_dataset.batch(32)
            if len(x.shape) in {0, 1}:
                feature_dataset = feature_dataset.map(lambda x: expand_dims(x, -1))
            self.preprocessors[name].adapt(feature_dataset)
        self._is_adapted = True
        self.get_encoded_features()  # (builds the encoders and the concatenation)
        self.built = True
        self._sublayers_built = True

    # -- the functional graph ---------------------------------------------------------------------
    def get_inputs(self) -> dict:
        """The ``keras.Input`` of each feature (shape ``(None, 1)``), by name."""
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self) -> Any:
        """The encoded features as KerasTensors computed from :meth:`get_inputs`: one vector
        (``"concat"``) or a dict, for a functional model."""
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess_features(self.inputs)
            crossed = self._cross_features(preprocessed)
            self.encoded_features = self._merge_features(preprocessed, crossed)
        return self.encoded_features

    def _preprocess_features(self, features: dict) -> dict:
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross_features(self, features: dict) -> dict:
        return {cross.name: self.crossers[cross.name]([features[n] for n in cross.feature_names])
                for cross in self.crosses}

    def _merge_features(self, preprocessed: dict, crossed: dict) -> Any:
        if not self._preprocessed_features_names:
            self._preprocessed_features_names = sorted(preprocessed)
            self._crossed_features_names = sorted(crossed)
        names = self._preprocessed_features_names + self._crossed_features_names
        values = [preprocessed[n] for n in self._preprocessed_features_names] + \
            [crossed[n] for n in self._crossed_features_names]
        if self._sublayers_built:
            encoded = []
            for name, feature in zip(names, values):
                encoder = self.one_hot_encoders.get(name)
                encoded.append(encoder(feature) if encoder else feature)
            return dict(zip(names, encoded)) if self.output_mode == "dict" else self.concat(encoded)
        specs = [self.features[n] for n in self._preprocessed_features_names] + \
            [self.crosses_by_name[n] for n in self._crossed_features_names]
        out: dict = {}
        for name, feature, spec in zip(names, values, specs):
            dtype = backend.standardize_dtype(flatten(feature)[0].dtype)
            if spec.output_mode == "one_hot":
                feature = self._one_hot(name, feature, dtype)
            if self.output_mode == "concat":
                dtype = backend.standardize_dtype(feature.dtype)
                if dtype.startswith("int") or dtype == "string":
                    raise ValueError(f"Cannot concatenate features because feature '{name}' has not been "
                                     f"encoded (it has dtype {dtype}). Consider using `output_mode='dict'`.")
            out[name] = feature
        if self.output_mode == "dict":
            return out
        self.concat = TFDConcat(axis=-1)
        return self.concat(list(out.values()))

    def _one_hot(self, name: str, feature: Any, dtype: str) -> Any:
        layers = _layers()
        preprocessor = self.preprocessors.get(name) or self.crossers.get(name)
        if not dtype.startswith("int"):
            raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should return "
                             f"an integer dtype. Instead it returns a {dtype} dtype.")
        if isinstance(preprocessor, (layers.IntegerLookup, layers.StringLookup)):
            cardinality = preprocessor.vocabulary_size()
        elif isinstance(preprocessor, layers.CategoryEncoding):
            cardinality = preprocessor.num_tokens
        elif isinstance(preprocessor, (layers.Discretization, layers.HashedCrossing, layers.Hashing)):
            cardinality = preprocessor.num_bins
        else:
            raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard feature "
                             "and the dimensionality of its output space is not known, thus it cannot be one-hot "
                             "encoded. Try using `output_mode='int'`.")
        encoder = layers.CategoryEncoding(num_tokens=cardinality, output_mode="multi_hot")
        self.one_hot_encoders[name] = encoder
        return encoder(feature)

    def _check_if_adapted(self) -> None:
        if not self._is_adapted:
            if self._list_adaptable_preprocessors():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before you can start "
                                 "using it.")
            self._is_adapted = True

    def _check_if_built(self) -> None:
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    # -- calling ----------------------------------------------------------------------------------
    @staticmethod
    def _convert_input(x: Any) -> Any:
        from ...ragged import RaggedTensor
        if isinstance(x, (Tensor, _sparse.SparseTensor, RaggedTensor)):
            return x
        if not isinstance(x, (list, tuple, int, float, str, bytes)):
            x = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
        a = np.asarray(x)
        if a.dtype.kind in "USO":
            from .._engine import to_bytes
            return convert_to_tensor(to_bytes(a))
        return convert_to_tensor(x)

    def __call__(self, data: Any) -> Any:
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: data={data} (of type "
                             f"{type(data)}")
        data = {key: self._convert_input(value) for key, value in data.items()}
        rebatched = False
        for name, x in data.items():
            if len(x.shape) == 0:
                data[name] = reshape(x, (1, 1))
                rebatched = True
            elif len(x.shape) == 1:
                data[name] = expand_dims(x, -1)
        preprocessed = {k: self._convert_input(v) for k, v in self._preprocess_features(data).items()}
        crossed = {k: self._convert_input(v) for k, v in self._cross_features(preprocessed).items()}
        merged = self._merge_features(preprocessed, crossed)
        if rebatched:
            if self.output_mode == "concat":
                if merged.shape[0] != 1:
                    raise ValueError(f"Expected rebatched data to have batch size 1. Received: shape={merged.shape}")
                merged = squeeze(merged, axis=0)
            else:
                merged = {k: squeeze(x, axis=0) if len(x.shape) == 2 and x.shape[0] == 1 else x
                          for k, x in merged.items()}
        return merged

    # -- saving -----------------------------------------------------------------------------------
    def get_config(self) -> dict:
        from ..saving import serialize_keras_object
        return {"features": serialize_keras_object(self.features), "output_mode": self.output_mode,
                "crosses": serialize_keras_object(self.crosses), "crossing_dim": self.crossing_dim,
                "hashing_dim": self.hashing_dim, "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config: dict) -> "FeatureSpace":
        return cls(**config)

    def get_build_config(self) -> dict:
        """Each preprocessor's build config (the input shape it was built for), by feature name."""
        def build_config(layer: Layer) -> dict | None:
            shape = layer.__dict__.get("_build_input_shape") or getattr(layer, "_input_shape", None)
            return {"input_shape": [None, *shape[1:]]} if layer.built and shape is not None else None
        return {name: build_config(feature.preprocessor) for name, feature in self.features.items()}

    def build_from_config(self, config: dict) -> None:
        """Build the preprocessors as saved; the space counts as adapted."""
        for name, build in config.items():
            preprocessor = self.features[name].preprocessor
            if not preprocessor.built and build is not None:
                preprocessor.build(tuple(build["input_shape"]))
        self._is_adapted = True

    def save(self, filepath: Any) -> None:
        """Save the FeatureSpace to a ``.keras`` file; ``keras.models.load_model`` reads it back."""
        from ..saving import save_model
        save_model(self, filepath)

    def save_own_variables(self, store: dict) -> None:
        return

    def load_own_variables(self, store: dict) -> None:
        return
