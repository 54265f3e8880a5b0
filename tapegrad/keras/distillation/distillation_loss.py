"""Keras 3's distillation losses: how a :class:`~tapegrad.keras.distillation.Distiller`
compares the teacher's outputs (or features) with the student's."""
from __future__ import annotations

from typing import Any

from .. import losses as _losses
from .. import ops
from .. import tree
from ..saving import serialize_keras_object


def loss_function(item: Any) -> Any:
    """Keras's ``_convert_loss_to_function``: a name looked up in ``keras.losses``."""
    if isinstance(item, str):
        fn = _losses.get(item)
        if fn is None:
            raise ValueError(f"Unknown loss function: '{item}'.")
        return fn
    return item


def _total(values: Any) -> Any:
    return ops.sum(ops.stack([ops.convert_to_tensor(v, "float32") if isinstance(v, float) else v
                              for v in tree.flatten(values)]))


class DistillationLoss:
    """The base of the distillation losses: a subclass defines ``compute_loss(teacher_outputs,
    student_outputs)``, a scalar.

    >>> from tapegrad import keras
    >>> class Mse(keras.distillation.DistillationLoss):
    ...     def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
    ...         return keras.ops.mean((teacher_outputs - student_outputs) ** 2)
    >>> float(Mse().compute_loss(keras.ops.ones((2,)), keras.ops.zeros((2,))))
    1.0
    """

    def compute_loss(self, teacher_outputs: Any, student_outputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("Subclasses must implement compute_loss")

    def validate_outputs(self, teacher_outputs: Any, student_outputs: Any) -> None:
        """Raises ``ValueError`` unless the two outputs have the same structure."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher: Any, student: Any) -> None:
        """Raises ``ValueError`` when this loss cannot compare the two models (here: never)."""


class FeatureDistillation(DistillationLoss):
    """The mean of ``loss`` (a name, a loss, a nest of them with ``None`` to skip an output)
    between the teacher's and the student's outputs of the layers named ``teacher_layer_name``
    and ``student_layer_name`` (``None``: the models' outputs).

    >>> from tapegrad import keras
    >>> d = keras.distillation.FeatureDistillation(loss="mse")
    >>> float(d.compute_loss(keras.ops.ones((2, 3)), keras.ops.zeros((2, 3))))
    1.0
    """

    def __init__(self, loss: Any = "mse", teacher_layer_name: str | None = None,
                 student_layer_name: str | None = None) -> None:
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss = tree.map_structure(loss_function, loss)
        if all(fn is None for fn in tree.flatten(self.loss)):
            raise ValueError("The `loss` argument in `FeatureDistillation` must contain at least one non-`None` "
                             "value.")

    def validate_model_compatibility(self, teacher: Any, student: Any) -> None:
        if self.teacher_layer_name is not None or self.student_layer_name is not None:
            subclassed = [role for role, m in (("teacher", teacher), ("student", student))
                          if getattr(m, "inputs", None) is None]
            if subclassed:
                raise ValueError(
                    f"FeatureDistillation with specific layer names requires Functional or Sequential models. The "
                    f"{' and '.join(subclassed)} model(s) appear to be subclassed (no symbolic inputs/outputs). "
                    "Either use Functional/Sequential models, or use FeatureDistillation without layer names (to "
                    "distill final outputs only), or use LogitsDistillation instead.")
        for role, model, name in (("teacher", teacher, self.teacher_layer_name),
                                  ("student", student, self.student_layer_name)):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as e:
                    raise ValueError(f"In {role} model: {e}") from None

    def validate_outputs(self, teacher_outputs: Any, student_outputs: Any) -> None:
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except ValueError as e:
            raise ValueError(f"Loss structure mismatch. Loss structure: {self.loss}, Output structure: "
                             f"{teacher_outputs}. Error: {e}") from None

    def compute_loss(self, teacher_outputs: Any, student_outputs: Any, **kwargs: Any) -> Any:
        def apply(fn: Any, t: Any, s: Any) -> Any:
            return 0.0 if fn is None else ops.mean(fn(t, s))
        return _total(tree.map_structure(apply, self.loss, teacher_outputs, student_outputs))

    def get_config(self) -> dict:
        return {"loss": _losses.serialize(self.loss), "teacher_layer_name": self.teacher_layer_name,
                "student_layer_name": self.student_layer_name}

    @classmethod
    def from_config(cls, config: dict) -> "FeatureDistillation":
        return cls(**{**config, "loss": _losses.deserialize(config["loss"])})


class LogitsDistillation(DistillationLoss):
    """``loss`` (default ``"kl_divergence"``; a nest with ``None`` to skip an output) between the
    teacher's and the student's logits divided by ``temperature``: the KL divergence compares
    their softmaxes and is scaled by ``temperature ** 2``, any other loss takes the scaled logits.

    >>> from tapegrad import keras
    >>> d = keras.distillation.LogitsDistillation(temperature=2.0)
    >>> float(d.compute_loss(keras.ops.ones((1, 3)), keras.ops.ones((1, 3))))
    0.0
    """

    def __init__(self, temperature: float = 3.0, loss: Any = "kl_divergence") -> None:
        self.temperature = temperature
        self.loss = tree.map_structure(loss_function, loss)
        if all(fn is None for fn in tree.flatten(self.loss)):
            raise ValueError("At least one loss must be non-`None`.")
        if not isinstance(temperature, (int, float)):
            raise ValueError(f"temperature must be a number, got {type(temperature)}")
        if temperature <= 0.0:
            raise ValueError("temperature must be positive.")

    def compute_loss(self, teacher_outputs: Any, student_outputs: Any, **kwargs: Any) -> Any:
        t = self.temperature
        teacher = tree.map_structure(lambda x: ops.divide(x, t), teacher_outputs)
        student = tree.map_structure(lambda x: ops.divide(x, t), student_outputs)

        def apply(fn: Any, tl: Any, sl: Any) -> Any:
            if fn is None:
                return 0.0
            if isinstance(fn, _losses.KLDivergence):
                kl = ops.mean(fn(ops.softmax(tl, axis=-1), ops.softmax(sl, axis=-1)))
                return kl * (t ** 2)
            return ops.mean(fn(tl, sl))
        return _total(tree.map_structure(apply, self.loss, teacher, student))

    def get_config(self) -> dict:
        return {"temperature": self.temperature, "loss": serialize_keras_object(self.loss)}

    @classmethod
    def from_config(cls, config: dict) -> "LogitsDistillation":
        return cls(**{**config, "loss": _losses.deserialize(config["loss"])})
