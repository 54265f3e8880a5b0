"""``keras.applications.resnet50``: ``ResNet50`` (see ``keras.applications.resnet``),
``preprocess_input`` (``mode="caffe"``) and ``decode_predictions``."""
from .resnet import ResNet50, decode_predictions, preprocess_input

__all__ = ["ResNet50", "preprocess_input", "decode_predictions"]
