"""``keras.applications.resnet50``: ``preprocess_input`` is `imagenet_utils.preprocess_input` with `mode="caffe"`; ``decode_predictions`` raises
(it needs a download)."""
from .imagenet_utils import _preprocess_caffe as preprocess_input, decode_predictions

__all__ = ["preprocess_input", "decode_predictions"]
