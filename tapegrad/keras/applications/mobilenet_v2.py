"""``keras.applications.mobilenet_v2``: ``preprocess_input`` is `imagenet_utils.preprocess_input` with `mode="tf"`; ``decode_predictions`` raises
(it needs a download)."""
from .imagenet_utils import _preprocess_tf as preprocess_input, decode_predictions

__all__ = ["preprocess_input", "decode_predictions"]
