"""Keras 3's preprocessing layers for text and categories: TextVectorization, StringLookup,
IntegerLookup, Hashing, CategoryEncoding, Discretization.

They compute no gradients. A vocabulary lookup and the bincount encoding are registered ops
whose parameters are the layer's table at the call (so a traced call is data, and an exported
model keeps its table, as TensorFlow's saves its lookup tables); the inverse lookup, a lookup
with several OOV indices and bucketing run through ``tf.numpy_function``; the string steps are
``tf.strings`` ops. All run inside ``tf.function`` and ``Dataset.map`` as well as eagerly.
"""
from __future__ import annotations

import collections
import functools
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._engine import _strings
from .._engine import convert_to_tensor
from .._engine import apply, numpy_function
from .._engine import Tensor, VariableBase
from ... import strings as tfs
from ...errors import FailedPreconditionError, InvalidArgumentError
from ...ops.array import squeeze
from ...ops import strings as _str_ops
from ...ops.indexing import gather
from ...ops.math import cast, clip_by_value, logical_and, where
from .._keras_tensor import KerasTensor
from ...sparse import SparseTensor
from .layer import Layer

__all__ = [
    "CategoryEncoding",
    "Discretization",
    "Hashing",
    "IntegerLookup",
    "StringLookup",
    "TextVectorization",
]

_PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_I64_MAX = np.iinfo(np.int64).max


def _choice(layer: str, arg: str, value: Any, allowed: tuple, none: bool = False, call: bool = False) -> None:
    if (none and value is None) or (call and callable(value)) or (isinstance(value, str) and value in allowed):
        return
    raise ValueError(f"Unknown value for `{arg}` argument of {layer}. Allowed values are: {allowed}"
                     f"{' (or None)' if none else ''}{' (or a callable)' if call else ''}. Received: {arg}={value}")


def _mode(mode: str) -> str:
    return {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(mode, mode)




def _digitize(x: np.ndarray, boundaries: tuple) -> np.ndarray:
    """Bucket ``i`` for ``boundaries[i-1] <= x < boundaries[i]`` (TF's ``Bucketize``), int32."""
    x = x if x.dtype.kind == "f" else x.astype(np.float32)
    return np.digitize(x, np.asarray(boundaries, x.dtype)).astype(np.int32)


def _sparse_rows(sp: Any, mode: str) -> Any:
    """A rank-2 SparseTensor of ids as the ragged rows of its stored values (Keras counts them so)."""
    if mode == "one_hot":
        raise ValueError("`output_mode='one_hot'` takes dense inputs; a SparseTensor has no one-hot form "
                         "(Keras: 'Attempt to convert a value (SparseTensor...)'). Use 'multi_hot' or 'count', or "
                         "tf.sparse.to_dense the input first.")
    idx, shape = _as_numpy(sp.indices), _as_numpy(sp.dense_shape)
    if len(shape) != 2:
        raise ValueError(f"A SparseTensor of ids must be rank 2 ([batch, ids]); got dense_shape {shape.tolist()}.")
    order = np.argsort(idx[:, 0], kind="stable")
    splits = np.searchsorted(idx[order, 0], np.arange(int(shape[0]) + 1)).astype(np.int64)
    values = _as_numpy(sp.values)[order]
    return tfs.RaggedTensor.from_row_splits(convert_to_tensor(values), convert_to_tensor(splits))


def _encode(ids: Any, mode: str, depth: int, dtype: str, weights: Any = None, sparse: bool = False) -> Any:
    if isinstance(ids, SparseTensor):
        ids = _sparse_rows(ids, mode)
    if isinstance(ids, tfs.RaggedTensor):
        if mode == "one_hot":
            raise NotImplementedError("output_mode='one_hot' of split text gives a ragged 3-D result, which "
                                      "tapegrad does not have; use split=None (one token per text) or "
                                      "output_mode='multi_hot'.")
        xs: tuple = (ids.values, ids.row_splits)
    else:
        xs = (convert_to_tensor(ids),)
    if weights is not None:
        xs += (weights.values if isinstance(weights, tfs.RaggedTensor) else convert_to_tensor(weights),)
    attrs = {"mode": mode, "depth": int(depth), "dtype": dtype, "ragged": isinstance(ids, tfs.RaggedTensor)}
    if sparse:
        return _sparse_encoding(xs, attrs)
    return apply(_str_ops.encode_categorical_op, xs, attrs)


def _sparse_encoding(xs: tuple, attrs: dict) -> Any:
    """The encoding as a ``tf.SparseTensor`` (Keras's ``sparse=True``): an entry at each (row, id)
    the input holds, in row-major order; a count whose weights sum to 0 is kept as a stored 0,
    as ``tf.sparse.bincount`` keeps it."""
    parts = [_as_numpy(x) for x in xs]
    dense = _str_ops._encode_fwd(*parts, **attrs)
    ids = parts[0]
    if attrs["mode"] == "one_hot":
        index = np.argwhere(dense != 0)
    else:
        if attrs["ragged"]:
            rows = np.repeat(np.arange(parts[1].size - 1), np.diff(parts[1]))
        elif ids.ndim == 2:
            rows = np.repeat(np.arange(ids.shape[0]), ids.shape[1])
        else:
            rows = None
        flat = ids.reshape(-1).astype(np.int64)
        keep = flat < attrs["depth"]
        pairs = flat[keep][:, None] if rows is None else np.stack([rows[keep], flat[keep]], 1)
        index = np.unique(pairs, axis=0) if pairs.size else pairs.reshape(0, dense.ndim)
    values = dense[tuple(index.T)] if index.size else np.zeros(0, dense.dtype)
    return SparseTensor(index.astype(np.int64), convert_to_tensor(values), np.asarray(dense.shape, np.int64))


def _as_numpy(x: Any) -> np.ndarray:
    if isinstance(x, (Tensor, VariableBase)):
        return x.numpy()
    return np.asarray(x)


def _policy_config(config: dict, layer: Layer) -> dict:
    # (a layer whose dtype is its vocabulary's saves its policy, floatx, as Keras does)
    config["dtype"]["config"]["name"] = layer.dtype_policy.name
    return config


class _Preprocessing(Layer):
    """Takes strings and integers as they are (tapegrad's Layer refuses NumPy string arrays)."""

    _string_inputs = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args and not isinstance(args[0], (Tensor, tfs.RaggedTensor, SparseTensor)) and \
                type(args[0]).__name__ != "KerasTensor":
            args = (self._to_tensor(args[0]),) + args[1:]
        return super().__call__(*args, **kwargs)

    def compute_output_spec(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return KerasTensor(self.compute_output_shape(inputs.shape), self._output_dtype(),
                           sparse=bool(getattr(self, "sparse", False)) and self._output_mode_name() != "int")

    def _output_mode_name(self) -> str:
        return getattr(self, "output_mode", "int")

    def _output_dtype(self) -> str:
        return self.compute_dtype

    def _to_tensor(self, x: Any) -> Any:
        if not isinstance(x, (Tensor, VariableBase)):
            a = np.asarray(x)
            if a.dtype.kind in "USO":
                return convert_to_tensor(_strings.to_bytes(a))
        return convert_to_tensor(x)


# --------------------------------------------------------------------------- IndexLookup
class _IndexLookup(_Preprocessing):
    """What StringLookup and IntegerLookup share (Keras's ``IndexLookup``): a vocabulary learnt by
    :meth:`adapt` (most frequent first, ties by the larger token first) or given, mapped to
    indices after ``[mask] + [oov] * num_oov_indices``."""

    _strings = True

    def __init__(self, max_tokens: int | None, num_oov_indices: int, mask_token: Any, oov_token: Any,
                 vocabulary: Any = None, idf_weights: Any = None, invert: bool = False,
                 output_mode: str = "int", sparse: bool = False, pad_to_max_tokens: bool = False,
                 oov_method: str = "floormod", salt: Any = None, name: str | None = None,
                 **kwargs: Any) -> None:
        kind = type(self).__name__
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        _choice(kind, "oov_method", oov_method, ("floormod", "farmhash"))
        if salt is not None:
            if not self._strings and oov_method != "farmhash":
                raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: oov_method={oov_method}")
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                salt = [int(s) for s in salt]
            elif isinstance(salt, int):
                salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `IndexLookup` can only be a tuple of 2 integers, "
                                 f"or a single integer. Received: salt={salt}.")
        output_mode = _mode(output_mode)
        _choice(kind, "output_mode", output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"))
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, "
                             f"`'count'` or `'tf_idf'`. Received: sparse={sparse} and output_mode={output_mode}")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError("`idf_weights` should only be set if `output_mode` is `'tf_idf'`. "
                             f"Received: idf_weights={idf_weights} and output_mode={output_mode}")
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        has_vocab = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name)
        self.trainable = False
        self.invert, self.max_tokens, self.num_oov_indices = bool(invert), max_tokens, int(num_oov_indices)
        self.mask_token, self.oov_token, self.output_mode = mask_token, oov_token, output_mode
        self.sparse, self.pad_to_max_tokens, self.oov_method, self.salt = sparse, pad_to_max_tokens, oov_method, salt
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self._has_input_vocabulary = has_vocab
        self._tokens: list = []
        self._index: dict = {}
        self.idf_weights: np.ndarray | None = None
        if output_mode == "tf_idf" and has_vocab and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, the "
                             "`idf_weights` argument must also be provided.")
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.reset_state()
        self.built = True

    # -- keys ---------------------------------------------------------------------------------------
    def _key(self, t: Any) -> Any:
        """A token as the table's key: bytes for strings, int for integers."""
        if t is None:
            return None
        if self._strings:
            return _strings.to_bytes(t).item() if not isinstance(t, bytes) else t
        return int(t)

    def _shown(self, t: Any) -> Any:
        return t.decode("utf-8") if isinstance(t, bytes) else t

    def _oov_start_index(self) -> int:
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self) -> int:
        return self._oov_start_index() + self.num_oov_indices

    # -- vocabulary -----------------------------------------------------------------------------------
    def vocabulary_size(self) -> int:
        """The vocabulary's size, mask and OOV indices included."""
        return len(self._tokens) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        """The vocabulary, index order: with ``include_special_tokens`` the mask and OOV tokens
        first, so a token's position is its index."""
        vocab = [self.oov_token] * self._token_start_index() + [self._shown(t) for t in self._tokens]
        if self.mask_token is not None and self.output_mode == "int":
            vocab[0] = self.mask_token
        return vocab if include_special_tokens else vocab[self._token_start_index():]

    def set_vocabulary(self, vocabulary: Any, idf_weights: Any = None) -> None:
        """Set the vocabulary (a list, array, 1-D tensor, or a text file's path: one token a
        line) and, for ``output_mode="tf_idf"``, the IDF weights, replacing any there is."""
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            import os

            from ..saving import _UnsafeLoad, _in_safe_mode
            if _in_safe_mode():  # (a config being loaded names a file: Keras refuses it too)
                raise _UnsafeLoad(
                    "Requested the loading of a vocabulary file outside of the model archive. This "
                    "carries a potential risk of loading arbitrary and sensitive files and thus it is "
                    "disallowed by default. If you trust the source of the artifact, you can override "
                    "this error by passing `safe_mode=False` to the loading function. Vocabulary file: "
                    f"'{vocabulary}'")
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if not os.path.isfile(vocabulary):  # (a device or a pipe: /dev/zero never ends)
                raise ValueError(f"Vocabulary file {vocabulary} is not a regular file.")
            if self.output_mode == "tf_idf":
                raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary from file.")
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = f.read().splitlines()
        vocab = [self._key(t) for t in _as_numpy(vocabulary).reshape(-1)]
        if not vocab:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        start = self._token_start_index()
        special = [self._key(self.mask_token)] * self._oov_start_index() + \
            [self._key(self.oov_token)] * self.num_oov_indices
        found = vocab[:start] == special
        tokens = vocab[start:] if found else vocab
        repeated = [self._shown(t) for t, c in collections.Counter(tokens).items() if c > 1]
        if repeated:
            raise ValueError("The passed vocabulary has at least one repeated term. Please uniquify "
                             f"your dataset. The repeated terms are: {repeated}")
        for what, tok in (("mask", self.mask_token), ("OOV", self.oov_token if self.invert else None)):
            if tok is not None and self._key(tok) in tokens:
                raise ValueError(
                    f"Found reserved {what} token at unexpected location in `vocabulary`. Note that "
                    "passed `vocabulary` does not need to include the OOV and mask tokens. Either "
                    "remove all mask and OOV tokens, or include them only at the start of the "
                    f"vocabulary in precisely this order: {[self._shown(t) for t in special]}. "
                    f"Received: {what.lower()}_token={tok} at vocabulary index "
                    f"[{len(vocab) - 1 - vocab[::-1].index(self._key(tok))}]")
        if self.max_tokens is not None and start + len(tokens) > self.max_tokens:
            raise ValueError("Attempted to set a vocabulary larger than the maximum vocab size. Received "
                             f"vocabulary size is {start + len(tokens)}; `max_tokens` is {self.max_tokens}.")
        self._set_tokens(tokens)
        if self.output_mode == "tf_idf":
            w = np.asarray(_as_numpy(idf_weights), np.float64)
            if len(vocab) != len(w):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. len(idf_weights) "
                                 f"is {len(w)}; len(vocabulary) is {len(vocab)}")
            if w.ndim != 1:
                raise ValueError(f"TF-IDF data must be a 1-index array. Received: type(idf_weights)={type(idf_weights)}")
            front = 0 if found else start
            self._set_idf(np.pad(w, (front, 0), constant_values=w.mean() if front else 0))

    def _set_tokens(self, tokens: list) -> None:
        if self._frozen_vocab_size is not None and self.output_mode != "int" and not self.pad_to_max_tokens \
                and self.built and getattr(self, "_called", False) \
                and len(tokens) + self._token_start_index() != self._frozen_vocab_size:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, the vocabulary "
                f"size cannot be changed after the layer is called. Old vocab size is {self._frozen_vocab_size}, "
                f"new vocab size is {len(tokens) + self._token_start_index()}")
        self._tokens = list(tokens)
        start = self._token_start_index()
        self._index = {t: i + start for i, t in enumerate(self._tokens)}
        # the table sorted, for the registered lookup (bytes as an S array: a key ending in a NUL
        # byte would read as without it, so such vocabularies keep the dict lookup)
        keys = np.array(self._tokens, dtype="S" if self._strings else np.int64) if self._tokens \
            else np.zeros(0, "S1" if self._strings else np.int64)
        order = np.argsort(keys, kind="stable")
        nul = self._strings and any(t.endswith(b"\0") for t in self._tokens)
        self._sorted = None if nul else (keys[order], (order + start).astype(np.int64))
        self._frozen_vocab_size = self.vocabulary_size()

    def _assets(self) -> dict | None:
        """What a ``.keras`` file keeps beside the config: the vocabulary (and IDF weights) when
        the config has none, as after :meth:`adapt` or from a file (Keras saves it as an asset)."""
        if self.input_vocabulary is not None or not self._tokens:
            return None
        tokens = [t.decode("utf-8", "surrogateescape") if isinstance(t, bytes) else t for t in self._tokens]
        idf = None if self.idf_weights is None else self.idf_weights.tolist()
        return {"vocabulary": tokens, "idf_weights": idf}

    def _load_assets(self, assets: dict) -> None:
        if not isinstance(assets, dict) or not isinstance(assets.get("vocabulary"), list):
            raise ValueError(f"{type(self).__name__} {self.name!r}: its saved assets must be a dict "
                             f"with a 'vocabulary' list; got {str(assets)[:200]}.")
        self._set_tokens([t.encode("utf-8", "surrogateescape") if isinstance(t, str) else int(t)
                          for t in assets["vocabulary"]])
        if assets.get("idf_weights") is not None:
            self.idf_weights = np.asarray(assets["idf_weights"], np.float32)

    def _set_idf(self, w: np.ndarray) -> None:
        if self.pad_to_max_tokens and self.max_tokens is not None:
            w = np.pad(w, (0, self.max_tokens - w.size))
        self.idf_weights = w.astype(np.float32)

    # -- adapt ----------------------------------------------------------------------------------------
    def reset_state(self) -> None:
        """Forget what :meth:`update_state` has counted."""
        self._counts: collections.Counter = collections.Counter()
        self._doc_counts: collections.Counter = collections.Counter()
        self._num_docs = 0

    def _rows(self, data: Any) -> list:
        """``data`` (tokens) as a list of rows, each a list of keys (Keras's documents)."""
        if isinstance(data, tfs.RaggedTensor):
            v, s = _as_numpy(data.values), _as_numpy(data.row_splits)
            return [[self._key(t) for t in v[a:b]] for a, b in itertools.pairwise(s)]
        a = _as_numpy(data) if self._strings else np.asarray(_as_numpy(data), np.int64)
        if a.dtype.kind in "US":
            a = _strings.to_bytes(a)
        if a.ndim <= 1:
            a = a.reshape(1, -1)
        return [[self._key(t) for t in row.reshape(-1)] for row in a]

    def update_state(self, data: Any) -> None:
        """Count the tokens of one batch (see :meth:`adapt`)."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static vocabulary via "
                             "`vocabulary` argument or `set_vocabulary()` method.")
        rows = self._rows(data)
        for row in rows:
            self._counts.update(row)
            if self.output_mode == "tf_idf":
                self._doc_counts.update(set(row))
        self._num_docs += len(rows)

    def finalize_state(self) -> None:
        """Set the vocabulary from the counts: most frequent first, ties by the larger token."""
        if self._has_input_vocabulary or not self._counts:
            return
        for tok in (self.mask_token, self.oov_token):
            if tok is not None:
                self._counts.pop(self._key(tok), None)
        tokens = sorted(self._counts, key=lambda t: (self._counts[t], t), reverse=True)
        if self.max_tokens:
            tokens = tokens[:self.max_tokens - self._token_start_index()]
        self._set_tokens(tokens)
        if self.output_mode == "tf_idf":
            df = np.array([self._doc_counts[t] for t in tokens], np.float64)
            idf = np.log(1 + self._num_docs / (1 + df)).astype(np.float32)
            self._set_idf(np.pad(idf, (self._token_start_index(), 0), constant_values=idf.mean(dtype=np.float32)))
        self.reset_state()

    def adapt(self, data: Any, steps: int | None = None) -> None:
        """Learn the vocabulary from ``data``: an array, list or tensor (each element of a vector
        one document), a batched ``tf.data.Dataset`` or any iterable of batches (``steps``:
        how many batches at most)."""
        self.reset_state()
        if isinstance(data, (list, tuple, np.ndarray, Tensor)):
            data = self._to_tensor(data)
            if data.ndim == 1:
                data = data[:, None]
            self.update_state(self._adapt_batch(data))
        else:
            for i, batch in enumerate(data):
                if steps is not None and i >= steps:
                    break
                self.update_state(self._adapt_batch(batch))
        self.finalize_state()

    def _adapt_batch(self, batch: Any) -> Any:
        return batch

    # -- call -----------------------------------------------------------------------------------------
    def _lookup_np(self, x: np.ndarray) -> np.ndarray:
        flat = x.reshape(-1)
        keys = flat if self._strings else flat.astype(np.int64)
        index = self._index
        out = np.fromiter((index.get(k, -1) for k in keys.tolist()), np.int64, flat.size)
        miss = out == -1
        if self.mask_token is not None:
            mask = keys == self._key(self.mask_token)
            out[mask] = 0 if self.output_mode == "int" else _I64_MAX
            miss &= ~mask
        if miss.any():
            n = self.num_oov_indices
            if n == 0:
                shown = " ".join(repr(self._shown(k)) if self._strings else str(k) for k in keys[miss][:3])
                raise InvalidArgumentError("When `num_oov_indices=0` all inputs should be in vocabulary, "
                                           f"found OOV values [{shown}], consider setting `num_oov_indices=1`.")
            if n == 1:
                out[miss] = self._oov_start_index()
            else:
                out[miss] = self._oov_hash(keys[miss], n) + self._oov_start_index()
        return out.reshape(x.shape)

    def _oov_hash(self, keys: np.ndarray, n: int) -> np.ndarray:
        if not self._strings and self.oov_method != "farmhash":
            return np.mod(keys, n)
        text = keys if self._strings else np.array([str(k).encode() for k in keys], object)
        if self.salt is not None:
            return tfs.to_hash_bucket_strong(text, n, self.salt).numpy()
        return tfs.to_hash_bucket_fast(text, n).numpy()

    def _depth(self) -> int:
        if self.pad_to_max_tokens:
            return self.max_tokens
        if not self._tokens and not self._has_input_vocabulary and self.output_mode != "int":
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you must set "
                "the layer's vocabulary before calling it. Either pass a `vocabulary` argument to the layer, "
                "or call `adapt` with some sample data.")
        return self.vocabulary_size()

    def _lookup(self, x: Any) -> Any:
        if isinstance(x, tfs.RaggedTensor):
            return tfs.RaggedTensor.from_row_splits(self._lookup(x.values), x.row_splits)
        if isinstance(x, SparseTensor):  # (the stored values looked up, as Keras's IndexLookup)
            return SparseTensor(x.indices, self._lookup(x.values), x.dense_shape)
        if self.invert:
            return self._inverse(convert_to_tensor(x))
        table = getattr(self, "_sorted", None)
        if self.num_oov_indices <= 1 and table is not None and \
                (self.mask_token is None or not self._strings or not self._key(self.mask_token).endswith(b"\0")):
            return apply(_str_ops.table_lookup_op, (convert_to_tensor(x),), {
                "keys": table[0], "ids": table[1], "mask_key": self._key(self.mask_token),
                "mask_id": 0 if self.output_mode == "int" else int(_I64_MAX),
                "oov_id": self._oov_start_index() if self.num_oov_indices == 1 else -1})
        return numpy_function(self._lookup_np, [x], Tout="int64", stateful=False)

    def _inverse(self, ids: Tensor) -> Tensor:
        """Indices to tokens with ops (a ``tf.function`` calling the layer can be saved): indices
        out of the table give the OOV token; with a mask token, 0 gives it."""
        default = self._key(self.oov_token)
        values = [default] * self._token_start_index() + self._tokens
        if self.mask_token is not None:
            values[:1] = [self._key(self.mask_token)]
        dtype = object if self._strings else np.dtype(self.vocabulary_dtype)
        n = len(values)
        inside = logical_and(ids >= 0, ids < n)
        return where(inside, gather(convert_to_tensor(np.array(values, dtype)), clip_by_value(ids, 0, n - 1)),
                     convert_to_tensor(np.array(default, dtype)))

    def call(self, inputs: Any) -> Any:
        if self.output_mode != "int":
            depth = self._depth()
        if not self._tokens:  # (Keras: its lookup table is not initialized)
            raise FailedPreconditionError(
                f"Table not initialized: {type(self).__name__} {self.name!r} has no vocabulary yet, so "
                "it cannot map tokens to indices. Call `adapt()` on sample data, or pass a "
                "`vocabulary` argument (or call `set_vocabulary()`), before calling it.")
        if isinstance(inputs, SparseTensor) and not self._strings:  # (Keras's IntegerLookup densifies it)
            from ...sparse import to_dense
            inputs = to_dense(inputs)
        if not self.invert:
            self._check_keys(inputs)
        ids = self._lookup(inputs)
        self._called = True
        if self.output_mode == "int":
            return ids
        if self.output_mode == "tf_idf":
            counts = _encode(ids, "count", depth, "float32", sparse=self.sparse)
            if self.sparse:  # (each stored count times its token's weight)
                at = _as_numpy(counts.indices)[:, -1]
                return counts.with_values(counts.values * convert_to_tensor(self.idf_weights[at]))
            return counts * convert_to_tensor(self.idf_weights)
        return _encode(ids, self.output_mode, depth, "int64", sparse=self.sparse)

    def _check_keys(self, inputs: Any) -> None:
        pass

    # (Keras: a lookup layer computes in its vocabulary's dtype, so a Sequential model built from
    # a shape, and the signature it exports, take strings (or integers); its policy stays floatx)
    @property
    def compute_dtype(self) -> str:
        return self.vocabulary_dtype

    @property
    def variable_dtype(self) -> str:
        return self.vocabulary_dtype

    dtype = variable_dtype

    def _output_dtype(self) -> str:
        if self.invert:
            return self.vocabulary_dtype
        return "float32" if self.output_mode == "tf_idf" else "int64"

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            return (shape[:-1] if len(shape) > 1 and shape[-1] == 1 else shape) + (depth,)
        return shape[:-1] + (depth,)

    def get_config(self) -> dict:
        listed = (lambda v: _as_numpy(v).tolist() if isinstance(v, (np.ndarray, Tensor)) else v)
        return {**_policy_config(super().get_config(), self), "invert": self.invert, "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                "mask_token": self.mask_token, "output_mode": self.output_mode, "sparse": self.sparse,
                "pad_to_max_tokens": self.pad_to_max_tokens, "vocabulary_dtype": self.vocabulary_dtype,
                "idf_weights": listed(self.input_idf_weights), "vocabulary": listed(self.input_vocabulary),
                "vocabulary_size": self._frozen_vocab_size, "oov_method": self.oov_method, "salt": self.salt}


class StringLookup(_IndexLookup):
    """Maps strings to integer indices from a vocabulary (Keras 3's ``StringLookup``), or back
    with ``invert=True``; ``output_mode`` ``"int"`` (int64 indices), ``"one_hot"``,
    ``"multi_hot"``, ``"count"`` (int64) or ``"tf_idf"`` (float32).

    Index 0 is the mask (``mask_token``, only when set), then ``num_oov_indices`` indices for
    out-of-vocabulary tokens (several: FarmHash buckets, or SipHash with ``salt``, as TF), then
    the vocabulary given or learnt by :meth:`adapt` (most frequent first, ties by the larger
    token first, as Keras).

    >>> from tapegrad import keras
    >>> layer = keras.layers.StringLookup(vocabulary=["a", "b", "c"])
    >>> layer([["a", "c"], ["d", "b"]]).numpy()
    array([[1, 3],
           [0, 2]])
    >>> layer.get_vocabulary()
    ['[UNK]', 'a', 'b', 'c']
    """

    def __init__(self, max_tokens: int | None = None, num_oov_indices: int = 1, mask_token: str | None = None,
                 oov_token: str = "[UNK]", vocabulary: Any = None, idf_weights: Any = None,
                 invert: bool = False, output_mode: str = "int", pad_to_max_tokens: bool = False,
                 sparse: bool = False, encoding: str = "utf-8", name: str | None = None,
                 salt: Any = None, **kwargs: Any) -> None:
        if kwargs.pop("vocabulary_dtype", "string") != "string":
            raise ValueError("StringLookup: `vocabulary_dtype` can only be 'string'; use IntegerLookup for integers.")
        self.vocabulary_dtype, self.encoding = "string", encoding
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
                         output_mode, sparse, pad_to_max_tokens, "farmhash", salt, name, **kwargs)

    def _check_keys(self, inputs: Any) -> None:
        v = inputs.values if isinstance(inputs, (tfs.RaggedTensor, SparseTensor)) else inputs
        if v.dtype.name != "string":
            raise ValueError(f"StringLookup {self.name!r} takes strings; got a {v.dtype.name} tensor. "
                             "Use IntegerLookup for integers.")

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("oov_method")
        return {**config, "encoding": self.encoding}


class IntegerLookup(_IndexLookup):
    """Maps integers to contiguous indices from a vocabulary (Keras 3's ``IntegerLookup``), or
    back with ``invert=True``. As :class:`StringLookup`, with ``oov_token=-1`` and, for several
    OOV indices, ``x mod num_oov_indices`` (``oov_method="floormod"``) or FarmHash of the
    decimal text (``"farmhash"``).

    >>> from tapegrad import keras
    >>> layer = keras.layers.IntegerLookup(vocabulary=[12, 36, 1138])
    >>> layer([[12, 1138], [42, 36]]).numpy()
    array([[1, 3],
           [0, 2]])
    """

    _strings = False

    def __init__(self, max_tokens: int | None = None, num_oov_indices: int = 1, mask_token: int | None = None,
                 oov_token: int = -1, vocabulary: Any = None, vocabulary_dtype: str = "int64",
                 idf_weights: Any = None, invert: bool = False, output_mode: str = "int",
                 sparse: bool = False, pad_to_max_tokens: bool = False, oov_method: str = "floormod",
                 salt: Any = None, name: str | None = None, **kwargs: Any) -> None:
        if vocabulary_dtype != "int64":
            raise ValueError(f"IntegerLookup: only `vocabulary_dtype='int64'` is supported. "
                             f"Received: vocabulary_dtype={vocabulary_dtype}")
        if max_tokens is not None and max_tokens <= 0:
            raise ValueError(f"If `max_tokens` is set for `IntegerLookup`, it must be greater than 0. "
                             f"Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("The value of `num_oov_indices` argument for `IntegerLookup` must >= 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        self.vocabulary_dtype = "int64"
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
                         output_mode, sparse, pad_to_max_tokens, oov_method, salt, name, **kwargs)

    def _to_tensor(self, x: Any) -> Any:
        t = convert_to_tensor(x)
        return cast(t, "int64") if t.dtype.is_integer and t.dtype.name != "int64" else t

    def _check_keys(self, inputs: Any) -> None:
        v = inputs.values if isinstance(inputs, tfs.RaggedTensor) else inputs
        if not v.dtype.is_integer:
            raise ValueError(f"IntegerLookup {self.name!r} takes integers; got a {v.dtype.name} tensor. "
                             "Cast floats to int64 first, or use StringLookup for strings.")


# --------------------------------------------------------------------------- TextVectorization
class TextVectorization(_Preprocessing):
    """Turns text into token indices or token counts (Keras 3's ``TextVectorization``):
    standardize (``"lower_and_strip_punctuation"``, ``"lower"``, ``"strip_punctuation"``,
    ``None`` or a callable on a string tensor), split (``"whitespace"``, ``"character"``,
    ``None`` or a callable), optional ``ngrams``, then a :class:`StringLookup` with mask ``""``
    and one OOV token ``"[UNK]"``.

    ``output_mode="int"`` gives int64 indices, rows padded with 0 to the longest (or cut and
    padded to ``output_sequence_length``; with ``ragged=True`` a ``tf.RaggedTensor`` of the
    rows, cut to ``output_sequence_length`` but not padded); ``"multi_hot"``, ``"count"`` (int64) and
    ``"tf_idf"`` (float32) give one row of ``vocabulary_size()`` (or ``max_tokens`` with
    ``pad_to_max_tokens``) per text.

    >>> from tapegrad import keras
    >>> vec = keras.layers.TextVectorization(output_sequence_length=4)
    >>> vec.adapt(["The cat sat.", "The dog!"])
    >>> vec.get_vocabulary()
    ['', '[UNK]', 'the', 'sat', 'dog', 'cat']
    >>> vec(["the bird sat"]).numpy()
    array([[2, 1, 3, 0]])
    """

    def __init__(self, max_tokens: int | None = None, standardize: Any = "lower_and_strip_punctuation",
                 split: Any = "whitespace", ngrams: int | tuple | None = None, output_mode: str = "int",
                 output_sequence_length: int | None = None, pad_to_max_tokens: bool = False,
                 vocabulary: Any = None, idf_weights: Any = None, sparse: bool = False, ragged: bool = False,
                 encoding: str = "utf-8", name: str | None = None, **kwargs: Any) -> None:
        _choice("TextVectorization", "standardize", standardize,
                ("lower_and_strip_punctuation", "lower", "strip_punctuation"), none=True, call=True)
        _choice("TextVectorization", "split", split, ("whitespace", "character"), none=True, call=True)
        output_mode = _mode(output_mode)
        _choice("TextVectorization", "output_mode", output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"))
        if not (ngrams is None or isinstance(ngrams, int)
                or isinstance(ngrams, tuple) and all(isinstance(i, int) for i in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        if output_mode == "int" and not (output_sequence_length is None or isinstance(output_sequence_length, int)):
            raise ValueError("`output_sequence_length` must be either None or an integer when `output_mode` is "
                             f"'int'. Received: output_sequence_length={output_sequence_length}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is not 'int'. "
                             f"Received output_sequence_length={output_sequence_length}.")
        if ragged and output_mode != "int":
            raise ValueError("`ragged` must not be true if `output_mode` is `'int'`. Received: "
                             f"ragged={ragged} and output_mode={output_mode}")
        has_vocab = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        super().__init__(name=name, **kwargs)
        self.trainable = False
        self._standardize, self._split, self._ngrams_arg = standardize, split, ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._output_mode, self._output_sequence_length = output_mode, output_sequence_length
        self._encoding, self._ragged = encoding, ragged
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="", output_mode=output_mode, sparse=sparse,
            has_input_vocabulary=has_vocab, encoding=encoding, vocabulary_size=vocabulary_size)
        self._lookup_layer._adapt_batch = self._preprocess
        self.built = True

    def _to_tensor(self, x: Any) -> Any:
        return self._lookup_layer._to_tensor(x)

    @property
    def sparse(self) -> bool:
        """Whether a non-``"int"`` output is a ``tf.SparseTensor``."""
        return self._lookup_layer.sparse

    def _output_mode_name(self) -> str:
        return self._output_mode

    @property
    def compute_dtype(self) -> str:
        return "string"

    @property
    def variable_dtype(self) -> str:
        return "string"

    dtype = variable_dtype

    def _output_dtype(self) -> str:
        return self._lookup_layer._output_dtype()

    def _preprocess(self, inputs: Any) -> Any:
        x = self._to_tensor(inputs) if not isinstance(inputs, Tensor) else inputs
        if x.dtype.name != "string":
            raise ValueError(f"TextVectorization {self.name!r} takes strings; got a {x.dtype.name} tensor.")
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            x = tfs.lower(x)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            x = tfs.regex_replace(x, _PUNCTUATION, "")
        if callable(self._standardize):
            x = self._standardize(x)
        if self._split is not None:
            if x.ndim > 1:
                if x.shape[-1] != 1:
                    raise ValueError("When using `TextVectorization` to tokenize strings, the input rank must "
                                     "be 1 or the last shape dimension must be 1. Received: "
                                     f"inputs.shape={x.shape} with rank={x.ndim}")
                x = squeeze(x, axis=-1)
            if self._split == "whitespace":
                x = tfs.split(x)
            elif self._split == "character":
                x = tfs.unicode_split(x, "UTF-8")
            else:
                x = self._split(x)
        if self._ngrams is not None:
            x = tfs.ngrams(x, ngram_width=self._ngrams, separator=" ")
        return x

    def adapt(self, data: Any, batch_size: int | None = None, steps: int | None = None) -> None:
        """Learn the vocabulary (and IDF weights for ``"tf_idf"``) from ``data``: a list or array
        of strings, a batched ``tf.data.Dataset`` of strings, or any iterable of batches. Tokens
        are ordered by count, ties by the larger token first (Keras's order); ``max_tokens``
        keeps the most frequent."""
        self._lookup_layer.adapt(data, steps=steps)

    def update_state(self, data: Any) -> None:
        """Count the tokens of one batch of text."""
        self._lookup_layer.update_state(self._preprocess(data))

    def finalize_state(self) -> None:
        """Set the vocabulary from the counts."""
        self._lookup_layer.finalize_state()

    def reset_state(self) -> None:
        """Forget the counts."""
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        """The vocabulary in index order (``""`` and ``"[UNK]"`` first unless
        ``include_special_tokens=False``)."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self) -> int:
        """The vocabulary's size, padding and OOV tokens included."""
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary: Any, idf_weights: Any = None) -> None:
        """Set the vocabulary (and IDF weights for ``"tf_idf"``) directly."""
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    def _assets(self) -> dict | None:
        return self._lookup_layer._assets()

    def _load_assets(self, assets: dict) -> None:
        self._lookup_layer._load_assets(assets)

    def call(self, inputs: Any) -> Any:
        if not self._lookup_layer._tokens and self._lookup_layer.output_mode == "int":
            raise FailedPreconditionError(
                f"Table not initialized: TextVectorization {self.name!r} has no vocabulary yet, so it "
                "cannot map tokens to indices. Call `adapt()` on sample texts, or pass a `vocabulary` "
                "argument (or call `set_vocabulary()`), before calling it.")
        ids = self._lookup_layer(self._preprocess(inputs))
        if self._output_mode != "int":
            return ids
        n = self._output_sequence_length
        if isinstance(ids, tfs.RaggedTensor) and not self._ragged:
            return ids.to_tensor(default_value=0, shape=[None, n])
        if n is not None:
            ids = ids[..., :n]
            short = 0 if self._ragged else n - ids.shape[-1]
            if short > 0:
                from ...ops.array import pad
                ids = pad(ids, [[0, 0]] * (ids.ndim - 1) + [[0, short]])
        return ids

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self._output_mode == "int":
            return (input_shape[0], self._output_sequence_length)
        shape = tuple(input_shape)
        if self._split is None:
            shape = shape + (1,) if len(shape) <= 1 else shape
        else:
            shape = shape + (None,)
        return self._lookup_layer.compute_output_shape(shape)

    def get_config(self) -> dict:
        lk = self._lookup_layer
        listed = (lambda v: _as_numpy(v).tolist() if isinstance(v, (np.ndarray, Tensor)) else v)
        return {**_policy_config(super().get_config(), self), "max_tokens": lk.max_tokens, "standardize": self._standardize,
                "split": self._split, "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
                "output_sequence_length": self._output_sequence_length, "pad_to_max_tokens": lk.pad_to_max_tokens,
                "sparse": lk.sparse, "ragged": self._ragged, "vocabulary": listed(lk.input_vocabulary),
                "idf_weights": listed(lk.input_idf_weights), "encoding": self._encoding,
                "vocabulary_size": self.vocabulary_size()}


# --------------------------------------------------------------------------- Hashing
class Hashing(_Preprocessing):
    """Hashes strings or integers into ``num_bins`` bins (Keras 3's ``Hashing``): FarmHash
    ``Fingerprint64`` (SipHash-2-4 with ``salt``) of the text (integers as decimal text, floats
    cast to int64 first), exactly TensorFlow's bins. With ``mask_value``, that value goes to
    bin 0 and the others to bins ``1..num_bins-1``. ``output_mode`` ``"one_hot"``,
    ``"multi_hot"`` or ``"count"`` encode the bins (float32).

    >>> from tapegrad import keras
    >>> keras.layers.Hashing(num_bins=3)([["A"], ["B"], ["C"], ["D"], ["E"]]).numpy().ravel()
    array([1, 0, 1, 1, 2])
    """

    def __init__(self, num_bins: int, mask_value: Any = None, salt: Any = None, output_mode: str = "int",
                 sparse: bool = False, **kwargs: Any) -> None:
        dtype = kwargs.pop("dtype", None) or ("int64" if output_mode == "int" else "float32")
        super().__init__(**kwargs)
        self.trainable = False
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive values. "
                             f"Received: num_bins={num_bins}.")
        if output_mode == "int" and dtype not in ("int32", "int64"):
            raise ValueError("When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or 'in64'. "
                             f"Received: dtype={dtype}")
        modes = ("int", "one_hot", "multi_hot", "count")
        if output_mode not in modes:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {modes}. "
                             f"Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `\"one_hot\"`, `\"multi_hot\"`, or "
                             f"`\"count\"`. Received: sparse={sparse} and output_mode={output_mode}")
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                salt = [int(s) for s in salt]
            elif isinstance(salt, int):
                salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 integers, "
                                 f"or a single integer. Received: salt={salt}.")
        self.num_bins, self.mask_value, self.salt = int(num_bins), mask_value, salt
        self.strong_hash, self.output_mode, self.sparse, self._out_dtype = salt is not None, output_mode, sparse, dtype
        self.built = True

    def call(self, inputs: Any) -> Any:
        if isinstance(inputs, SparseTensor):  # (the stored values hashed, as Keras's Hashing)
            h = SparseTensor(inputs.indices, self._bins(inputs.values), inputs.dense_shape)
            if self.output_mode == "int":
                return h.with_values(cast(h.values, self._out_dtype)) if self._out_dtype != "int64" else h
            return _encode(h, self.output_mode, self.num_bins, self._out_dtype, sparse=self.sparse)
        x = inputs
        if self.output_mode == "one_hot" and x.ndim and x.shape[-1] == 1:
            x = squeeze(x, axis=-1)
        h = self._bins(x)
        if self.output_mode == "int":
            return cast(h, self._out_dtype) if self._out_dtype != "int64" else h
        return _encode(h, self.output_mode, self.num_bins, self._out_dtype, sparse=self.sparse)

    def _bins(self, x: Any) -> Any:
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = x == convert_to_tensor(self.mask_value, dtype=x.dtype) if x.dtype.name != "string" \
                else x == convert_to_tensor(_strings.to_bytes(self.mask_value))
        if x.dtype.is_floating:
            x = cast(x, "int64")
        if x.dtype.name != "string":
            x = tfs.as_string(x)
        h = tfs.to_hash_bucket_strong(x, bins, self.salt) if self.strong_hash else tfs.to_hash_bucket_fast(x, bins)
        if mask is not None:
            from ...ops.math import where
            h = where(mask, np.int64(0), h + 1)
        return h

    def _output_dtype(self) -> str:
        return self._out_dtype

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self.output_mode == "int":
            return tuple(input_shape)
        return tuple(input_shape[:-1]) + (self.num_bins,) if len(input_shape) else (self.num_bins,)

    def get_config(self) -> dict:
        return {**super().get_config(), "dtype": self._out_dtype, "num_bins": self.num_bins, "salt": self.salt,
                "mask_value": self.mask_value, "output_mode": self.output_mode, "sparse": self.sparse}


# --------------------------------------------------------------------------- CategoryEncoding
class CategoryEncoding(_Preprocessing):
    """Encodes integer ids in ``[0, num_tokens)`` (Keras 3's ``CategoryEncoding``):
    ``"one_hot"`` (each id a row), ``"multi_hot"`` (default; which ids a row holds) or
    ``"count"`` (how often, weighted by ``count_weights`` when given), float32.

    >>> from tapegrad import keras
    >>> keras.layers.CategoryEncoding(num_tokens=4, output_mode="count")([[0, 1, 1], [3, 3, 2]]).numpy()
    array([[1., 2., 0., 0.],
           [0., 0., 1., 2.]], dtype=float32)
    """

    def __init__(self, num_tokens: int | None = None, output_mode: str = "multi_hot", sparse: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.trainable = False
        output_mode = _mode(output_mode)
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode, self.sparse = int(num_tokens), output_mode, sparse
        self.built = True

    def call(self, inputs: Any, count_weights: Any = None) -> Any:
        if count_weights is not None:
            if self.output_mode != "count":
                raise ValueError("`count_weights` is not used when `output_mode` is not `'count'`. "
                                 f"Received `count_weights={count_weights}`.")
            count_weights = cast(convert_to_tensor(count_weights), self.compute_dtype)
        if inputs.dtype.is_floating:
            inputs = cast(inputs, "int64")
        if isinstance(count_weights, SparseTensor):
            count_weights = count_weights.values
        return _encode(inputs, self.output_mode, self.num_tokens, self.compute_dtype, count_weights, self.sparse)

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        shape = tuple(input_shape)
        if not shape:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and (shape[-1] != 1 or len(shape) == 1):
            return shape + (self.num_tokens,)
        return shape[:-1] + (self.num_tokens,)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode}


# --------------------------------------------------------------------------- Discretization
def _summary(values: np.ndarray, epsilon: float) -> np.ndarray:
    """Every ``step``-th sorted value with weight ``step`` (2 x k): a coarse quantile sketch."""
    v = np.sort(values.reshape(-1))
    step = max(v.size * epsilon, 1)
    picked = v[int(step - 1)::int(step)]
    return np.stack([picked, np.full_like(picked, step)])


def _compress(summary: np.ndarray, epsilon: float) -> np.ndarray:
    """Re-sample a sketch at the quantiles ``epsilon, 2 epsilon, ..., 1`` by interpolation."""
    if summary.shape[1] * epsilon < 1:
        return summary
    q = np.arange(0.0, 1.0, epsilon) + epsilon
    cum = summary[1].cumsum()
    at = np.interp(q, cum / cum[-1], summary[0])
    w = np.interp(q, cum / cum[-1], cum)
    return np.stack([at, np.diff(w, prepend=0.0)]).astype("float32")


class Discretization(_Preprocessing):
    """Buckets numbers by boundaries (Keras 3's ``Discretization``): bucket ``i`` holds
    ``bin_boundaries[i-1] <= x < bin_boundaries[i]`` (int32), or ``"one_hot"``/
    ``"multi_hot"``/``"count"`` of the buckets (float32). With ``num_bins`` instead,
    :meth:`adapt` sets ``num_bins - 1`` boundaries at the data's quantiles (Keras's sketch, with
    its ``epsilon``).

    >>> from tapegrad import keras
    >>> keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0])([[-1.5, 1.0, 3.4, 0.5]]).numpy()
    array([[0, 2, 3, 1]], dtype=int32)
    """

    def __init__(self, bin_boundaries: Sequence[float] | None = None, num_bins: int | None = None,
                 epsilon: float = 0.01, output_mode: str = "int", sparse: bool = False, dtype: Any = None,
                 name: str | None = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.trainable = False
        _choice("Discretization", "output_mode", output_mode, ("int", "one_hot", "multi_hot", "count"))
        if sparse and output_mode == "int":
            raise ValueError("`sparse=True` may only be used if `output_mode` is `'one_hot'`, `'multi_hot'`, or "
                             f"`'count'`. Received: sparse={sparse} and output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and `bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = list(bin_boundaries) if bin_boundaries is not None else None
        self.num_bins, self.epsilon, self.output_mode, self.sparse = num_bins, epsilon, output_mode, sparse
        self.reset_state()
        self.built = True

    def _to_tensor(self, x: Any) -> Any:
        return convert_to_tensor(np.asarray(_as_numpy(x), np.float32) if not isinstance(x, Tensor) else x)

    def adapt(self, data: Any, steps: int | None = None) -> None:
        """Set ``num_bins - 1`` boundaries from ``data``: an array or tensor, or an iterable of
        batches (a list is a list of batches, as in Keras)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with "
                             "`bin_boundaries`, use `num_bins` instead.")
        self.reset_state()
        if isinstance(data, (np.ndarray, Tensor)):  # (as Keras: a list is a list of batches)
            self.update_state(data)
        else:
            for i, batch in enumerate(data):
                if steps is not None and i >= steps:
                    break
                self.update_state(batch)
        self.finalize_state()

    def update_state(self, data: Any) -> None:
        """Merge one batch into the quantile sketch."""
        s = _summary(np.asarray(_as_numpy(data), np.float32), self.epsilon)
        merged = np.concatenate([s, self._sketch], axis=1)
        self._sketch = _compress(merged[:, np.argsort(merged[0])], self.epsilon)

    def finalize_state(self) -> None:
        """Set the boundaries from the sketch."""
        if self.num_bins is not None:
            self.bin_boundaries = _compress(self._sketch, 1.0 / self.num_bins)[0, :-1].tolist()

    def reset_state(self) -> None:
        """Forget the sketch."""
        self._sketch = np.zeros((2, 0), np.float32)

    def call(self, inputs: Any) -> Any:
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or "
                             "call `adapt(dataset)` before you can start using the `Discretization` layer.")
        bucket = functools.partial(_digitize, boundaries=tuple(float(b) for b in self.bin_boundaries))
        if isinstance(inputs, SparseTensor):  # (the stored values bucketed, as Keras's Discretization)
            ids = SparseTensor(inputs.indices, numpy_function(bucket, [inputs.values], Tout="int32", stateful=False),
                               inputs.dense_shape)
        else:
            ids = numpy_function(bucket, [inputs], Tout="int32", stateful=False)
        if self.output_mode == "int":
            return ids
        return _encode(ids, self.output_mode, len(self.bin_boundaries) + 1, self.compute_dtype, sparse=self.sparse)

    def _output_dtype(self) -> str:
        return "int32" if self.output_mode == "int" else self.compute_dtype

    def compute_output_shape(self, input_shape: Sequence) -> tuple:
        if self.output_mode == "int":
            return tuple(input_shape)
        depth = len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins
        shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            return (shape[:-1] if shape and shape[-1] == 1 and len(shape) > 1 else shape) + (depth,)
        return ((shape[0],) + shape[2:] if len(shape) >= 2 else ()) + (depth,)

    @classmethod
    def from_config(cls, config: dict) -> "Discretization":
        """The layer of ``config``; an adapted layer's has both ``num_bins`` and the boundaries
        it learnt, which are set after construction (as Keras does)."""
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            config = dict(config)
            bounds = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = list(bounds)
            return layer
        return cls(**config)

    def get_config(self) -> dict:
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self.dtype if isinstance(self.dtype, str) else getattr(self.dtype, "name", None)}

