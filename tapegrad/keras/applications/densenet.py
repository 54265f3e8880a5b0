"""``keras.applications.densenet``: ``preprocess_input`` is `imagenet_utils.preprocess_input` with `mode="torch"`; ``decode_predictions`` raises
(it needs a download)."""
from .imagenet_utils import _preprocess_torch as preprocess_input, decode_predictions

__all__ = ["preprocess_input", "decode_predictions"]
