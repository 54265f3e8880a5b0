"""``keras.applications.mobilenet_v3``: ``preprocess_input`` does nothing: the network preprocesses inside the model; ``decode_predictions`` raises
(it needs a download)."""
from .imagenet_utils import _preprocess_identity as preprocess_input, decode_predictions

__all__ = ["preprocess_input", "decode_predictions"]
