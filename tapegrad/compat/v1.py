"""``tf.compat.v1``: the TF1 names that mean something in eager TF2 code (``logging``,
``enable_eager_execution``, ``executing_eagerly``, ``set_random_seed``, ``random.set_random_seed``);
everything else of TF1 (sessions, placeholders, graphs, estimators, ``disable_eager_execution``)
is not provided: reading it raises an ``AttributeError`` that says so. Importing the module (the
migration guides' ``import tensorflow.compat.v1 as tf1``) works.

>>> import tapegrad.compat.v1 as tf1
>>> tf1.executing_eagerly(), tf1.logging.ERROR
(True, 40)
"""
from __future__ import annotations

import logging as _logging
import types
from typing import Any

__all__ = ["enable_eager_execution", "executing_eagerly", "logging", "random", "set_random_seed"]


def enable_eager_execution(config: Any = None, device_policy: Any = None, execution_mode: Any = None) -> None:
    """Nothing to do: tapegrad always executes eagerly."""


def executing_eagerly() -> bool:
    """True: tapegrad always executes eagerly."""
    return True


def set_random_seed(seed: Any) -> None:
    """TF1's name of ``tf.random.set_seed``."""
    from .. import random as _random
    _random.set_seed(seed)


def _log(level: int) -> Any:
    def log(msg: Any, *args: Any, **kwargs: Any) -> None:
        _logging.getLogger("tensorflow").log(level, msg, *args, **kwargs)
    return log


logging = types.SimpleNamespace(
    DEBUG=_logging.DEBUG, INFO=_logging.INFO, WARN=_logging.WARNING, ERROR=_logging.ERROR, FATAL=_logging.FATAL,
    set_verbosity=lambda v: _logging.getLogger("tensorflow").setLevel(v),
    get_verbosity=lambda: _logging.getLogger("tensorflow").getEffectiveLevel(),
    debug=_log(_logging.DEBUG), info=_log(_logging.INFO), warning=_log(_logging.WARNING), warn=_log(_logging.WARNING),
    error=_log(_logging.ERROR), fatal=_log(_logging.FATAL))
random = types.SimpleNamespace(set_random_seed=set_random_seed)


def __getattr__(name: str) -> Any:
    raise AttributeError(
        f"tf.compat.v1.{name} is TensorFlow 1's API, which tapegrad does not provide: tapegrad runs "
        "TensorFlow 2 code, executed eagerly (no sessions, placeholders, graphs or estimators). Write it "
        "with TF2's names (the TF2 migration guide maps each TF1 name), e.g. tf.function for a graph.")
