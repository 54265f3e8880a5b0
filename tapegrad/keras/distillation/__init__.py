"""Keras 3's ``keras.distillation``: :class:`Distiller` (a model training a student from a
frozen teacher) and its losses, :class:`DistillationLoss`, :class:`LogitsDistillation` and
:class:`FeatureDistillation`."""
from .distillation_loss import DistillationLoss, FeatureDistillation, LogitsDistillation
from .distiller import Distiller

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
