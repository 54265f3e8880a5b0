"""``tapegrad.keras.preprocessing.text``: tf.keras's legacy text helpers, as Keras 3 keeps them
(deprecated there in favour of ``TextVectorization``): ``Tokenizer``, ``tokenizer_from_json``,
``text_to_word_sequence``, ``one_hot`` and ``hashing_trick``. Pure Python on strings and lists.

>>> from tapegrad import keras
>>> tok = keras.preprocessing.text.Tokenizer(oov_token="<unk>")
>>> tok.fit_on_texts(["The cat sat.", "The dog sat on the cat!"])
>>> tok.word_index
{'<unk>': 1, 'the': 2, 'cat': 3, 'sat': 4, 'dog': 5, 'on': 6}
>>> tok.texts_to_sequences(["the bird sat"])
[[2, 1, 4]]
"""
from __future__ import annotations

import collections
import hashlib
import json
import warnings
from typing import Any, Callable, Iterable, Iterator

import numpy as np

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence", "tokenizer_from_json"]

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text: str, filters: str = _FILTERS, lower: bool = True,
                          split: str = " ") -> list:
    """The words of ``input_text``: lowercased (``lower``), each character of ``filters`` made a
    separator, split on ``split``, empty pieces dropped.

    >>> from tapegrad import keras
    >>> keras.preprocessing.text.text_to_word_sequence("Hello, world!  Hi")
    ['hello', 'world', 'hi']
    """
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate({ord(c): split for c in filters})
    return [w for w in input_text.split(split) if w]


def hashing_trick(text: str, n: int, hash_function: Any = None, filters: str = _FILTERS, lower: bool = True,
                  split: str = " ", analyzer: Callable | None = None) -> list:
    """Each word of ``text`` as ``hash_function(word) % (n - 1) + 1`` (1 to ``n - 1``).
    ``hash_function``: Python's ``hash`` (``None``, which varies between processes unless
    ``PYTHONHASHSEED`` is set), ``"md5"`` (stable) or a function of a string.

    >>> from tapegrad import keras
    >>> keras.preprocessing.text.hashing_trick("a b a", 10, hash_function="md5")
    [2, 5, 2]
    """
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = (lambda w: int(hashlib.md5(w.encode()).hexdigest(), 16))
    seq = analyzer(text) if analyzer is not None else \
        text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    return [hash_function(w) % (n - 1) + 1 for w in seq]


def one_hot(input_text: str, n: int, filters: str = _FILTERS, lower: bool = True, split: str = " ",
            analyzer: Callable | None = None) -> list:
    """:func:`hashing_trick` with Python's ``hash``: word indices in ``[1, n)`` (not one-hot
    vectors, despite the name)."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split,
                         analyzer=analyzer)


class Tokenizer:
    """Turns texts into sequences of word indices, or into count/TF-IDF matrices, with a
    vocabulary learned by :meth:`fit_on_texts` (indices from 1 by falling count, ties in first
    appearance order; ``oov_token`` takes index 1). ``num_words`` keeps only indices below it
    when converting; ``char_level`` uses characters as words; a text given as a list is taken
    as its words.

    >>> from tapegrad import keras
    >>> tok = keras.preprocessing.text.Tokenizer(num_words=3)
    >>> tok.fit_on_texts(["a a b c", "a b"])
    >>> tok.texts_to_matrix(["a c c"], mode="count").tolist()
    [[0.0, 1.0, 0.0]]
    """

    def __init__(self, num_words: int | None = None, filters: str = _FILTERS, lower: bool = True,
                 split: str = " ", char_level: bool = False, oov_token: str | None = None,
                 analyzer: Callable | None = None, **kwargs: Any) -> None:
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed `num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts: dict = collections.OrderedDict()
        self.word_docs: dict = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.index_docs: dict = collections.defaultdict(int)
        self.word_index: dict = {}
        self.index_word: dict = {}

    def _words(self, text: Any) -> Any:
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)

    def fit_on_texts(self, texts: Iterable) -> None:
        """Count the words of ``texts`` (strings, or lists of words) and rebuild the index."""
        for text in texts:
            self.document_count += 1
            seq = self._words(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        ranked = sorted(self.word_counts.items(), key=lambda wc: wc[1], reverse=True)  # (stable)
        vocab = ([] if self.oov_token is None else [self.oov_token]) + [w for w, _ in ranked]
        self.word_index = {w: i for i, w in enumerate(vocab, start=1)}
        self.index_word = {i: w for w, i in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences: Iterable) -> None:
        """Count, per index, the sequences it appears in (for ``"tfidf"``)."""
        sequences = list(sequences)
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts: Iterable) -> list:
        """Each text as a list of word indices (unknown words dropped, or ``oov_token``'s index)."""
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts: Iterable) -> Iterator[list]:
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            out = []
            for w in self._words(text):
                i = self.word_index.get(w)
                if i is None:
                    if self.oov_token is not None:
                        out.append(oov)
                elif not (self.num_words and i >= self.num_words):
                    out.append(i)
                elif oov is not None:
                    out.append(oov)
            yield out

    def sequences_to_texts(self, sequences: Iterable) -> list:
        """Each sequence of indices back as a string of words joined by spaces."""
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences: Iterable) -> Iterator[str]:
        oov = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for num in seq:
                word = self.index_word.get(num)
                if word is None:
                    if self.oov_token is not None:
                        words.append(self.index_word[oov])
                elif not (self.num_words and num >= self.num_words):
                    words.append(word)
                elif oov is not None:
                    words.append(self.index_word[oov])
            yield " ".join(words)

    def texts_to_matrix(self, texts: Iterable, mode: str = "binary") -> np.ndarray:
        """:meth:`sequences_to_matrix` of :meth:`texts_to_sequences`."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences: list, mode: str = "binary") -> np.ndarray:
        """One float64 row per sequence, ``num_words`` (or vocabulary size + 1) columns:
        ``"binary"`` (presence), ``"count"``, ``"freq"`` (count over length) or ``"tfidf"``
        (``(1 + log(count)) * log(1 + documents / (1 + documents with the word))``)."""
        if self.num_words:
            width = self.num_words
        elif self.word_index:
            width = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "freq", "tfidf"):
            raise ValueError(f"Unknown vectorization mode: {mode!r} (use 'binary', 'count', 'freq' or 'tfidf').")
        x = np.zeros((len(sequences), width))
        for i, seq in enumerate(sequences):
            counts = collections.Counter(j for j in seq if j < width)
            for j, c in counts.items():
                if mode == "count":
                    x[i, j] = c
                elif mode == "freq":
                    x[i, j] = c / len(seq)
                elif mode == "binary":
                    x[i, j] = 1
                else:
                    x[i, j] = (1 + np.log(c)) * np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
        return x

    def get_config(self) -> dict:
        """The settings and the learned tables (the tables as JSON strings, as Keras writes them)."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs: Any) -> str:
        """The tokenizer as JSON (``tokenizer_from_json`` reads it); ``kwargs`` go to ``json.dumps``."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string: str) -> Tokenizer:
    """The :class:`Tokenizer` that ``Tokenizer.to_json`` wrote (data only: nothing is run)."""
    config = dict(json.loads(json_string).get("config"))
    tables = {k: json.loads(config.pop(k)) for k in ("word_counts", "word_docs", "index_docs", "index_word",
                                                        "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts, tokenizer.word_docs = tables["word_counts"], tables["word_docs"]
    tokenizer.index_docs = {int(k): v for k, v in tables["index_docs"].items()}
    tokenizer.index_word = {int(k): v for k, v in tables["index_word"].items()}
    tokenizer.word_index = tables["word_index"]
    return tokenizer
