"""``tapegrad.keras.wrappers``: scikit-learn estimators around a Keras model (Keras 3's
``keras.wrappers``): ``SKLearnClassifier``, ``SKLearnRegressor`` and ``SKLearnTransformer``.
They need scikit-learn (``pip install scikit-learn``, or tapegrad's ``examples`` extra); without
it, making one raises an ImportError that says so.

``model`` is a compiled ``keras.Model`` (cloned at each ``fit``) or a callable
``model(X=X, y=y, **model_kwargs)`` that returns one; ``fit_kwargs`` go to ``Model.fit``.
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np

from .models.model import Model
from .saving import clone_model

try:  # (scikit-learn is optional: the estimators subclass its base classes when it is there)
    import sklearn
    import sklearn.pipeline
    import sklearn.preprocessing
    from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, TransformerMixin
    from sklearn.utils.multiclass import type_of_target as _sk_type_of_target
    from sklearn.utils.validation import check_is_fitted
    try:
        from sklearn.utils.validation import validate_data as _validate_data
    except ImportError:  # (scikit-learn before 1.6: the estimator's own method)
        def _validate_data(estimator: Any, *args: Any, **kwargs: Any) -> Any:
            return estimator._validate_data(*args, **kwargs)
except ImportError:
    sklearn = None

    class BaseEstimator:  # type: ignore[no-redef]
        pass

    class ClassifierMixin:  # type: ignore[no-redef]
        pass

    class RegressorMixin:  # type: ignore[no-redef]
        pass

    class TransformerMixin:  # type: ignore[no-redef]
        pass

__all__ = ["SKLearnClassifier", "SKLearnRegressor", "SKLearnTransformer"]


def _require_sklearn(name: str) -> None:
    if sklearn is None:
        raise ImportError(f"{name} requires `scikit-learn` to be installed. Run `pip install scikit-learn` to "
                          "install it (or `pip install 'tapegrad[examples]'`).")


def _type_of_target(y: Any) -> str:
    target_type = _sk_type_of_target(y, input_name="")
    if target_type == "unknown":
        raise ValueError(f"Unknown label type for data: {y!r}")
    return target_type


def _check_model(model: Any) -> None:
    if not model.compiled or not model.loss or not model.optimizer:
        raise RuntimeError("Given model needs to be compiled, and have a loss and an optimizer.")


class TargetReshaper(TransformerMixin, BaseEstimator):
    """Makes a 1-D target a column (and back), as Keras's wrappers do."""

    def fit(self, y: Any) -> "TargetReshaper":
        self.ndim_ = y.ndim
        return self

    def transform(self, y: Any) -> Any:
        return y.reshape(-1, 1) if y.ndim == 1 else y

    def inverse_transform(self, y: Any) -> Any:
        check_is_fitted(self)
        return np.squeeze(y, axis=1) if self.ndim_ == 1 and y.ndim == 2 else y


class SKLBase(BaseEstimator):
    """What the three estimators share: ``fit`` (a fresh model each time), ``predict``."""

    def __init__(self, model: Any, warm_start: bool = False, model_kwargs: dict | None = None,
                 fit_kwargs: dict | None = None) -> None:
        _require_sklearn(type(self).__name__)
        self.model = model
        self.warm_start = warm_start
        self.model_kwargs = model_kwargs
        self.fit_kwargs = fit_kwargs

    def _more_tags(self) -> dict:
        return {"non_deterministic": True}

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.non_deterministic = True
        return tags

    def __sklearn_clone__(self) -> "SKLBase":
        model = self.model if callable(self.model) else copy.deepcopy(self.model)
        return type(self)(model=model, warm_start=self.warm_start, model_kwargs=self.model_kwargs)

    @property
    def epoch_(self) -> int:
        return getattr(self, "history_", {}).get("epoch", 0)

    def _get_model(self, X: Any, y: Any) -> Any:  # noqa: N803 (scikit-learn's names)
        if isinstance(self.model, Model):
            return clone_model(self.model)
        return self.model(X=X, y=y, **(self.model_kwargs or {}))

    def fit(self, X: Any, y: Any, **kwargs: Any) -> "SKLBase":  # noqa: N803
        """Validate ``X`` and ``y``, make the model and fit it (``fit_kwargs`` and ``kwargs``)."""
        X, y = _validate_data(self, X, y)
        y = self._process_target(y, reset=True)
        model = self._get_model(X, y)
        _check_model(model)
        fit_kwargs = self.fit_kwargs or {}
        fit_kwargs.update(kwargs)
        self.history_ = model.fit(X, y, **fit_kwargs)
        self.model_ = model
        return self

    def predict(self, X: Any) -> Any:  # noqa: N803
        """The model's predictions, the target's encoding undone."""
        check_is_fitted(self)
        X = _validate_data(self, X, reset=False)
        return self._reverse_process_target(self.model_.predict(X))

    def _process_target(self, y: Any, reset: bool = False) -> Any:
        _type_of_target(y)
        if reset:
            self._target_encoder = TargetReshaper().fit(y)
        return self._target_encoder.transform(y)

    def _reverse_process_target(self, y: Any) -> Any:
        return self._target_encoder.inverse_transform(y)


class SKLearnClassifier(ClassifierMixin, SKLBase):
    """A scikit-learn classifier: targets (binary or multiclass labels) are one-hot encoded for
    the model, predictions decoded back to labels; ``classes_`` after ``fit``."""

    def decision_function(self, X: Any) -> Any:  # noqa: N803
        """The model's raw outputs."""
        check_is_fitted(self)
        X = _validate_data(self, X, reset=False)
        return self.model_.predict(X)

    def _process_target(self, y: Any, reset: bool = False) -> Any:
        target_type = _type_of_target(y)
        if target_type not in ["binary", "multiclass"]:
            raise ValueError(f"Only binary and multiclass target types are supported. Target type: {target_type}")
        if reset:
            self._target_encoder = sklearn.pipeline.make_pipeline(
                TargetReshaper(), sklearn.preprocessing.OneHotEncoder(sparse_output=False)).fit(y)
            self.classes_ = np.unique(y)
            if len(self.classes_) == 1:
                raise ValueError("Classifier can't train when only one class is present.")
        return self._target_encoder.transform(y)

    def _more_tags(self) -> dict:
        return {"poor_score": True}

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.poor_score = True
        return tags


class SKLearnRegressor(RegressorMixin, SKLBase):
    """A scikit-learn regressor around a Keras model."""

    def _more_tags(self) -> dict:
        return {"poor_score": True}

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.regressor_tags.poor_score = True
        return tags


class SKLearnTransformer(TransformerMixin, SKLBase):
    """A scikit-learn transformer: ``transform`` is the fitted model's prediction."""

    def transform(self, X: Any) -> Any:  # noqa: N803
        """The model's outputs for ``X``."""
        check_is_fitted(self)
        X = _validate_data(self, X, reset=False)
        return self.model_.predict(X)

    def _more_tags(self) -> dict:
        return {"preserves_dtype": []}

    def __sklearn_tags__(self) -> Any:
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []
        return tags
