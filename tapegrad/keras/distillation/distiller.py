"""Keras 3's ``Distiller``: a model whose ``fit`` trains a student on the labels and on a frozen
teacher's outputs or features, through distillation losses."""
from __future__ import annotations

from typing import Any

from .. import ops
from .. import tree
from ..metrics import Mean
from ..models.model import Model
from ..models.sequential import Sequential
from ..saving import deserialize_keras_object, serialize_keras_object
from .distillation_loss import loss_function


class Distiller(Model):
    """Trains ``student`` from ``teacher`` (frozen: ``trainable = False``, called with
    ``training=False``): ``compile(optimizer, loss, metrics)`` names the student's supervised
    loss; a step's loss is ``student_loss_weight * student_loss + (1 - student_loss_weight) *
    sum(weight * distillation_loss)`` over ``distillation_losses`` (one or a list, weighted by
    ``distillation_loss_weights``). ``fit`` reports ``student_loss``, ``distillation_loss`` and
    ``total_loss`` beside ``loss``; calling the distiller calls the student.

    >>> import numpy as np
    >>> from tapegrad import keras
    >>> teacher = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])
    >>> student = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax")])
    >>> d = keras.distillation.Distiller(teacher, student, keras.distillation.LogitsDistillation())
    >>> d.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    >>> h = d.fit(np.ones((8, 4), "float32"), np.zeros((8,), "int32"), epochs=1, verbose=0)
    >>> sorted(h.history)
    ['distillation_loss', 'loss', 'student_loss', 'total_loss']
    """

    def __init__(self, teacher: Any, student: Any, distillation_losses: Any, distillation_loss_weights: Any = None,
                 student_loss_weight: float = 0.5, name: str = "distiller", **kwargs: Any) -> None:
        super().__init__(name=name, **kwargs)
        self._validate_models(teacher, student)
        self.teacher = teacher
        self.student = student
        if not isinstance(student_loss_weight, (int, float)):
            raise ValueError(f"student_loss_weight must be a number, got {type(student_loss_weight)}")
        if student_loss_weight < 0.0 or student_loss_weight > 1.0:
            raise ValueError(f"student_loss_weight must be between 0.0 and 1.0, got {student_loss_weight}")
        self.student_loss_weight = student_loss_weight
        if distillation_losses is None:
            raise ValueError("'distillation_losses' cannot be `None`. Provide a distillation loss (e.g., "
                             "LogitsDistillation or FeatureDistillation) or a list of distillation losses.")
        if not isinstance(distillation_losses, (list, tuple)):
            self.distillation_losses = [distillation_losses]
            self.distillation_loss_weights = [1.0]
        else:
            self.distillation_losses = distillation_losses
            if distillation_loss_weights is None:
                self.distillation_loss_weights = [1.0] * len(distillation_losses)
            elif len(distillation_loss_weights) != len(distillation_losses):
                raise ValueError(f"Number of distillation_loss_weights ({len(distillation_loss_weights)}) must "
                                 f"match number of distillation_losses ({len(distillation_losses)})")
            else:
                self.distillation_loss_weights = distillation_loss_weights
        for d in self.distillation_losses:
            d.validate_model_compatibility(teacher, student)
        self._teacher_feature_extractor = self._extractor(teacher, "teacher_layer_name")
        self._student_feature_extractor = self._extractor(student, "student_layer_name")
        self.teacher.trainable = False
        self.student_loss_tracker = Mean(name="student_loss")
        self.distillation_loss_tracker = Mean(name="distillation_loss")
        self.total_loss_tracker = Mean(name="total_loss")

    # ---- checks ------------------------------------------------------------------------------

    def _validate_models(self, teacher: Any, student: Any) -> None:
        for role, m in (("Teacher", teacher), ("Student", student)):
            if not isinstance(m, Model):
                raise ValueError(f"{role} must be a keras.Model, got {type(m)}")
        t_in, s_in = getattr(teacher, "inputs", None), getattr(student, "inputs", None)
        t_out, s_out = getattr(teacher, "outputs", None), getattr(student, "outputs", None)
        if t_in is not None and s_in is not None:
            tree.map_structure(lambda a, b: self._same_shape(a.shape, b.shape, "input"), t_in, s_in)
        if t_out is not None and s_out is not None:
            tree.map_structure(lambda a, b: self._same_shape(a.shape, b.shape, "output"), t_out, s_out)
        if t_in is not None and s_in is not None:
            tree.map_structure(lambda a, b: self._same_dtype(a.dtype, b.dtype, "input"), t_in, s_in)
            if t_out is not None and s_out is not None:
                tree.map_structure(lambda a, b: self._same_dtype(a.dtype, b.dtype, "output"), t_out, s_out)

    @staticmethod
    def _same_shape(a: Any, b: Any, context: str) -> None:
        a, b = tuple(a), tuple(b)
        if len(a) != len(b):
            raise ValueError(f"Teacher and student {context} shapes have different dimensions. Teacher: {a}, "
                             f"Student: {b}.")
        if any(x is not None and y is not None and x != y for x, y in zip(a, b)):
            raise ValueError(f"Teacher and student {context} shapes are incompatible. Teacher: {a}, Student: {b}. "
                             "All dimensions must match.")

    @staticmethod
    def _same_dtype(a: Any, b: Any, context: str) -> None:
        if a != b:
            raise ValueError(f"Teacher and student {context} dtypes must match. Teacher: {a}, Student: {b}.")

    def _extractor(self, model: Any, attr: str) -> Any:
        """Keras's multi-feature extractor: one functional model giving the final output and
        each named layer's output (``None`` when no loss names a layer)."""
        names: list = []
        for d in self.distillation_losses:
            n = getattr(d, attr, None)
            if n and n not in names:
                names.append(n)
        if not names:
            return None
        if getattr(model, "inputs", None) is None:
            raise ValueError(f"Cannot create feature extractor for {model.name}. The model has no symbolic inputs "
                             "attribute.")
        final = model.layers[-1].output if isinstance(model, Sequential) else model.output
        outputs = {"final_output": final}
        for n in names:
            outputs[n] = model.get_layer(name=n).output
        return Model(inputs=model.inputs, outputs=outputs, name=f"{model.name}_multi_feature_extractor")

    # ---- training ----------------------------------------------------------------------------

    def compile(self, optimizer: Any = "adam", loss: Any = None, metrics: Any = None, **kwargs: Any) -> None:
        """``loss`` (required) is the student's supervised loss; ``metrics`` a list or tuple."""
        if loss is None:
            raise ValueError("'loss' cannot be `None`.")
        self._student_loss = tree.map_structure(loss_function, loss)
        self._student_loss_for_serialization = loss
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(f"metrics must be a list or tuple, got {type(metrics)}")
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)

    def call(self, inputs: Any, training: Any = None, **kwargs: Any) -> Any:
        return self.student(inputs, training=training, **kwargs)

    def _features(self, d: Any, features: dict, teacher: bool) -> Any:
        name = (d.teacher_layer_name if teacher else d.student_layer_name) or "final_output"
        if name not in features:
            raise ValueError(f"Layer '{name}' not found in extracted features. Available: {list(features.keys())}")
        return features[name]

    def compute_loss(self, x: Any = None, y: Any = None, y_pred: Any = None, sample_weight: Any = None,
                     training: bool = True) -> Any:
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss: Any = 0.0
        if self.student_loss_weight > 0.0 and y is not None:
            flat = tree.flatten(tree.map_structure(lambda fn, o, p: fn(o, p), self._student_loss, y, y_pred))
            student_loss = ops.sum(ops.stack(flat)) if len(flat) > 1 else flat[0]
            if len(getattr(student_loss, "shape", ())) > 0:
                student_loss = ops.mean(student_loss)
        distillation_loss: Any = 0.0
        if self.student_loss_weight < 1.0:
            if self._teacher_feature_extractor is not None:
                teacher_features = self._teacher_feature_extractor(x, training=False)
            else:
                teacher_features = {"final_output": self.teacher(x, training=False)}
            if self._student_feature_extractor is not None:
                student_features = self._student_feature_extractor(x, training=True)
            else:
                student_features = {"final_output": y_pred}
            for d, weight in zip(self.distillation_losses, self.distillation_loss_weights):
                if getattr(d, "teacher_layer_name", None) is not None:
                    try:
                        t_out = self._features(d, teacher_features, True)
                        s_out = self._features(d, student_features, False)
                    except ValueError as e:
                        raise RuntimeError(
                            f"Failed to extract features for {type(d).__name__} targeting teacher layer "
                            f"'{d.teacher_layer_name}' and student layer '{d.student_layer_name}'. "
                            f"Original error: {e}") from e
                else:
                    t_out, s_out = teacher_features["final_output"], y_pred
                d.validate_outputs(t_out, s_out)
                value = d.compute_loss(t_out, s_out)
                if len(getattr(value, "shape", ())) > 0:
                    raise ValueError(f"Distillation loss {type(d).__name__} returned a non-scalar loss with shape "
                                     f"{value.shape}. The compute_loss method must return a scalar tensor.")
                distillation_loss = ops.add(distillation_loss, ops.multiply(weight, value))
        total = ops.add(ops.multiply(self.student_loss_weight, student_loss),
                        ops.multiply(ops.subtract(1.0, self.student_loss_weight), distillation_loss))
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total)
        return total

    def reset_metrics(self) -> None:
        super().reset_metrics()
        self.student_loss_tracker.reset_state()
        self.distillation_loss_tracker.reset_state()
        self.total_loss_tracker.reset_state()

    def get_config(self) -> dict:
        return {**super().get_config(), "teacher": serialize_keras_object(self.teacher),
                "student": serialize_keras_object(self.student),
                "distillation_losses": [serialize_keras_object(d) for d in self.distillation_losses],
                "distillation_loss_weights": self.distillation_loss_weights,
                "student_loss_weight": self.student_loss_weight}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Any = None) -> "Distiller":
        config = dict(config)
        for k in ("teacher", "student"):
            config[k] = deserialize_keras_object(config[k])
        config["distillation_losses"] = [deserialize_keras_object(d) for d in config["distillation_losses"]]
        return cls(**config)
