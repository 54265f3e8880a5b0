"""``tf.compat.v1``: TensorFlow 1's API as TF2 keeps it. Graphs, sessions and placeholders
(``Graph``, ``Session.run(fetches, feed_dict)``, ``placeholder``, ``disable_eager_execution``,
``gradients``, ``group``, ``control_dependencies``: :mod:`tapegrad.compat._program`), variable
scopes, collections and name-based checkpoints (``get_variable``, ``variable_scope``,
``get_collection``, ``train.Saver``: :mod:`tapegrad.compat._graph`), ``train``'s optimizers,
global step and decays (:mod:`tapegrad.compat._train`), ``losses`` (:mod:`tapegrad.compat._losses`),
``nn``, ``initializers``, ``make_template``, ``ConfigProto`` (:mod:`tapegrad.compat._v1names`),
``logging`` and ``set_random_seed``. The rest of TF1 (estimators, queues, ``layers``) is not
provided: reading it raises an ``AttributeError`` that says so.

>>> import tapegrad.compat.v1 as tf1
>>> tf1.executing_eagerly(), tf1.logging.ERROR
(True, 40)
"""
from __future__ import annotations

import logging as _logging
import types
from typing import Any

from . import dimension_at_index, dimension_value  # noqa: F401
from .._dimension import Dimension
from .._tensor import Tensor, TensorShape
from .. import _trace
from .._control_flow import control_dependencies, group, no_op
from .._graph_api import gradients
from .._variable import variable_creator_scope
from . import _graph
from ._v1names import (TF1_ALIASES, ConfigProto, GPUOptions, constant_initializer, glorot_normal_initializer,
                       glorot_uniform_initializer, initializers, layers, make_template, nn, ones_initializer,
                       orthogonal_initializer, random_normal_initializer, random_uniform_initializer,
                       truncated_normal_initializer, variance_scaling_initializer, zeros_initializer)
from ._meta_graph import WrappedFunction, wrap_function
from ._graph import (AUTO_REUSE, Graph, GraphKeys, InteractiveSession, Saver, Session, VariableScope,
                     get_default_graph, get_variable, get_variable_scope, global_variables,
                     global_variables_initializer, init_from_checkpoint, placeholder, placeholder_with_default,
                     reset_default_graph, trainable_variables, variable_scope, variables_initializer)

__all__ = ["AUTO_REUSE", "Dimension", "Graph", "GraphKeys", "InteractiveSession", "Session", "TensorShape",
           "VariableScope", "constant_initializer", "dimension_at_index", "dimension_value",
           "ConfigProto", "GPUOptions", "glorot_normal_initializer", "glorot_uniform_initializer", "initializers",
           "layers", "losses", "make_template", "nn", "orthogonal_initializer", "random_normal_initializer",
           "random_uniform_initializer", "truncated_normal_initializer", "variance_scaling_initializer",
           "add_to_collection", "add_to_collections", "control_dependencies", "disable_eager_execution",
           "get_collection", "get_collection_ref", "gradients", "group", "no_op", "placeholder",
           "placeholder_with_default", "variable_creator_scope", "disable_v2_behavior", "enable_v2_behavior",
           "local_variables_initializer", "tables_initializer", "initialize_all_variables", "initialize_variables",
           "all_variables", "local_variables", "model_variables",
           "disable_tensor_equality", "enable_eager_execution", "enable_tensor_equality", "executing_eagerly",
           "get_default_graph", "get_variable", "get_variable_scope", "global_variables",
           "global_variables_initializer", "logging", "ones_initializer", "random", "reset_default_graph",
           "saved_model", "set_random_seed", "train", "wrap_function", "WrappedFunction", "trainable_variables", "variable_scope", "variables_initializer",
           "zeros_initializer"]


def enable_eager_execution(config: Any = None, device_policy: Any = None, execution_mode: Any = None) -> None:
    """Execute eagerly again (the default): undoes :func:`disable_eager_execution`."""
    if not _graph._eager[0]:
        if _graph._state.graphs:
            raise ValueError("tf.enable_eager_execution must be called at program startup.")
        _graph._eager[0] = True
        _graph._switch(_graph._global_graph[0], None)


def disable_eager_execution() -> None:
    """TF1's graph mode: ops built outside any ``tf.Graph().as_default()`` go into the global
    default graph and run in ``Session.run`` (see ``tf.compat.v1.Session``).

    >>> import tapegrad as tf
    >>> tf.compat.v1.disable_eager_execution()
    >>> x = tf.compat.v1.placeholder(tf.float32, [])
    >>> y = x * 3.0
    >>> tf.executing_eagerly(), tf.compat.v1.Session().run(y, {x: 2.0})
    (False, np.float32(6.0))
    >>> tf.compat.v1.enable_eager_execution()
    """
    if _graph._eager[0]:
        _graph._eager[0] = False
        if not _graph._state.graphs:
            _graph._switch(None, _graph._global_graph[0])


def executing_eagerly() -> bool:
    """Whether ops run as they are called: False in a TF1 graph and while a ``tf.function`` is
    traced."""
    return _trace.current() is None


def get_collection(key: str, scope: str | None = None) -> list:
    """The default graph's collection ``key`` (a copy; ``scope``: names starting with it)."""
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key: str) -> list:
    """The default graph's collection ``key`` itself."""
    return get_default_graph().get_collection_ref(key)


def add_to_collection(name: str, value: Any) -> None:
    """Add ``value`` to the default graph's collection ``name``."""
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names: Any, value: Any) -> None:
    """Add ``value`` to each of the default graph's collections ``names``."""
    get_default_graph().add_to_collections(names, value)


def disable_tensor_equality() -> None:
    """TF1's ``==``: tensors and variables compare by identity and hash by ``id`` (usable as dict
    keys), until :func:`enable_tensor_equality`.

    >>> import tapegrad as tf
    >>> tf.compat.v1.disable_tensor_equality()
    >>> x = tf.Variable(0.0)
    >>> x == tf.Variable(0.0), x == x, len({x, x})
    (False, True, 1)
    >>> tf.compat.v1.enable_tensor_equality()
    """
    Tensor._USE_EQUALITY = False


def enable_tensor_equality() -> None:
    """TF2's ``==`` (the default): elementwise, and tensors are unhashable (``t.ref()`` is the key)."""
    Tensor._USE_EQUALITY = True


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
class _Random(types.ModuleType):
    """``tf.compat.v1.random``: ``tf.random`` and ``set_random_seed``."""

    def __getattr__(self, name: str) -> Any:
        from .. import random as _random
        return getattr(_random, name)


random = _Random("tf.compat.v1.random")
random.set_random_seed = set_random_seed


def _losses_namespace() -> types.SimpleNamespace:
    from . import _losses
    return types.SimpleNamespace(**{n: getattr(_losses, n) for n in _losses.__all__})


losses = _losses_namespace()


class _Train(types.SimpleNamespace):
    """``tf.compat.v1.train``: TF2's ``tf.train``, TF1's optimizers, global step and decays,
    ``Saver`` and ``init_from_checkpoint``."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"tf.compat.v1.train.{name} is TensorFlow 1's API, which tapegrad does not provide: "
                             "tapegrad has TF1's optimizers, global step, decays, Saver and init_from_checkpoint, "
                             "and TF2's tf.train (no hooks, queues or MonitoredSession; the TF2 migration guide "
                             "maps each TF1 name).")


def _train_namespace() -> _Train:
    from .. import train as _train
    from . import _train as _train1
    from ._meta_graph import export_meta_graph, import_meta_graph
    return _Train(**{n: getattr(_train, n) for n in _train.__all__}, Saver=Saver,
                  init_from_checkpoint=init_from_checkpoint, export_meta_graph=export_meta_graph,
                  import_meta_graph=import_meta_graph,
                  **{n: getattr(_train1, n) for n in _train1.__all__})


train = _train_namespace()


def _saved_model_namespace() -> types.SimpleNamespace:
    from .. import saved_model as _sm2
    from . import _saved_model as _sm1
    return types.SimpleNamespace(
        **{n: getattr(_sm2, n) for n in _sm2.__all__ if n != "load"}, load_v2=_sm2.load,
        **{n: getattr(_sm1, n) for n in ("Builder", "SavedModelBuilder", "simple_save", "load", "loader",
                                          "predict_signature_def", "build_signature_def", "build_tensor_info",
                                          "tag_constants", "signature_constants")})  # (SERVING, ...: _sm2's)


saved_model = _saved_model_namespace()


def disable_v2_behavior() -> None:
    """TF1's behaviour where tapegrad has it: :func:`disable_eager_execution`."""
    disable_eager_execution()


def enable_v2_behavior() -> None:
    """TF2's behaviour: :func:`enable_eager_execution`."""
    enable_eager_execution()


def local_variables_initializer() -> Any:
    """An operation that does nothing: tapegrad's graphs have no local variables."""
    return no_op()


tables_initializer = local_variables_initializer
initialize_all_variables = global_variables_initializer
initialize_variables = variables_initializer
all_variables = global_variables


def local_variables(scope: str | None = None) -> list:
    """The default graph's ``LOCAL_VARIABLES`` collection."""
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope: str | None = None) -> list:
    """The default graph's ``MODEL_VARIABLES`` collection."""
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def __getattr__(name: str) -> Any:
    """TF1's renamed names (``random_normal``, ``to_float``, ``reduce_sum(keep_dims=)``), then
    TF2's names, which ``tf.compat.v1`` keeps (``matmul``, ``float32``, ``Variable``)."""
    import sys
    if name in TF1_ALIASES:
        return TF1_ALIASES[name]
    top = sys.modules[__name__.split(".")[0]]  # (tapegrad itself, loaded before its compat module)
    if not name.startswith("_") and name in getattr(top, "__all__", dir(top)):
        return getattr(top, name)
    raise AttributeError(
        f"tf.compat.v1.{name} is TensorFlow 1's API, which tapegrad does not provide: tapegrad runs "
        "TensorFlow 2 code, and of TF1 graphs, sessions, placeholders, variable scopes, train's optimizers, "
        "losses and nn (no estimators or queues). Write it "
        "with TF2's names (the TF2 migration guide maps each TF1 name).")
