"""Record Keras 3's text and category preprocessing: TextVectorization, StringLookup,
IntegerLookup, Hashing, CategoryEncoding, Discretization and text_dataset_from_directory.

Run with a Python that has TensorFlow 2.21 and Keras 3 (the tests only read what it writes):

    $TAPEGRAD_TF_PYTHON tools/record_keras_text.py

Writes ``tests/fixtures/keras_text.json``:

- ``layers``: per case the class, constructor arguments, ``adapt`` data (or none), the call's
  input (and ``count_weights``), Keras's output (values and dtype), ``get_vocabulary()`` and
  ``vocabulary_size()`` for lookups, ``bin_boundaries`` for Discretization;
- ``errors``: per case the class, arguments (and call input) and the exception type and message
  Keras raises;
- ``directory``: the files of a small folder and, per case, the arguments to
  ``text_dataset_from_directory`` with every batch (texts, labels) in order and ``class_names``.
"""
import json
import os
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, "tests", "fixtures", "keras_text.json")

TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog: friends?",
         "dog dog DOG", "Über café naïve", ""]
WORDS = [["a", "b", "c", "a"], ["d", "a", "z", ""]]


def C(cls, args=None, adapt=None, x=None, **extra):
    return {"class": cls, "args": args or {}, "adapt": adapt, "x": x, **extra}


LAYERS = {
    # ------------------------------------------------------------------ TextVectorization
    "tv_default": C("TextVectorization", {}, TEXTS, ["the cat ate a bird", "Dog, DOG!"]),
    "tv_seq_len": C("TextVectorization", {"output_sequence_length": 4}, TEXTS, ["the cat ate a bird", "dog"]),
    "tv_max_tokens": C("TextVectorization", {"max_tokens": 6}, TEXTS, ["the cat ate a bird dog"]),
    "tv_lower": C("TextVectorization", {"standardize": "lower"}, TEXTS, ["The cat, sat."]),
    "tv_strip": C("TextVectorization", {"standardize": "strip_punctuation"}, TEXTS, ["The cat, sat. the"]),
    "tv_no_standardize": C("TextVectorization", {"standardize": None}, TEXTS, ["The cat, sat."]),
    "tv_character": C("TextVectorization", {"split": "character", "output_sequence_length": 8}, TEXTS,
                      ["cat", "dog é"]),
    "tv_split_none": C("TextVectorization", {"split": None}, ["a b", "c", "a b", "d"], [["a b"], ["c"], ["x"]]),
    "tv_bigrams": C("TextVectorization", {"ngrams": 2}, TEXTS, ["the cat sat"]),
    "tv_ngrams_tuple": C("TextVectorization", {"ngrams": (2,), "output_mode": "count"}, TEXTS,
                         ["the cat the cat"]),
    "tv_multi_hot": C("TextVectorization", {"output_mode": "multi_hot"}, TEXTS, ["the cat the cat", "dog x"]),
    "tv_count": C("TextVectorization", {"output_mode": "count"}, TEXTS, ["the cat the cat", "dog x"]),
    "tv_tf_idf": C("TextVectorization", {"output_mode": "tf_idf"}, TEXTS, ["the cat the cat", "dog x"]),
    "tv_pad_to_max": C("TextVectorization", {"output_mode": "multi_hot", "max_tokens": 20,
                                             "pad_to_max_tokens": True}, TEXTS, ["the cat"]),
    "tv_tf_idf_pad": C("TextVectorization", {"output_mode": "tf_idf", "max_tokens": 12,
                                             "pad_to_max_tokens": True}, TEXTS, ["the cat the"]),
    "tv_vocabulary": C("TextVectorization", {"vocabulary": ["the", "cat", "dog"]}, None, ["The dog ate the cat"]),
    "tv_vocab_tf_idf": C("TextVectorization", {"vocabulary": ["the", "cat"], "idf_weights": [0.5, 1.5],
                                               "output_mode": "tf_idf"}, None, ["the cat the x"]),
    "tv_column_input": C("TextVectorization", {"output_sequence_length": 3}, TEXTS, [["the cat"], ["a dog"]]),
    "tv_ties": C("TextVectorization", {}, ["b a c", "c a b", "e d"], ["a b c d e"]),
    # ------------------------------------------------------------------ StringLookup
    "sl_vocab": C("StringLookup", {"vocabulary": ["a", "b", "c"]}, None, WORDS),
    "sl_adapt": C("StringLookup", {}, ["c", "a", "b", "a", "c", "c", "d"], WORDS),
    "sl_adapt_max": C("StringLookup", {"max_tokens": 3}, ["c", "a", "b", "a", "c", "c", "d"], WORDS),
    "sl_mask": C("StringLookup", {"vocabulary": ["a", "b", "c"], "mask_token": ""}, None, WORDS),
    "sl_two_oov": C("StringLookup", {"vocabulary": ["a", "b"], "num_oov_indices": 2}, None,
                    [["a", "q", "r", "s", "t", "b"]]),
    "sl_salt": C("StringLookup", {"vocabulary": ["a"], "num_oov_indices": 3, "salt": 7}, None,
                 [["a", "q", "r", "s", "t"]]),
    "sl_zero_oov": C("StringLookup", {"vocabulary": ["a", "b"], "num_oov_indices": 0}, None, [["a", "b"]]),
    "sl_invert": C("StringLookup", {"vocabulary": ["a", "b", "c"], "invert": True}, None, [[1, 3], [0, 2]]),
    "sl_invert_mask": C("StringLookup", {"vocabulary": ["a", "b"], "invert": True, "mask_token": "[M]"}, None,
                        [[0, 1, 2, 3, 9]]),
    "sl_one_hot": C("StringLookup", {"vocabulary": ["a", "b", "c"], "output_mode": "one_hot"}, None,
                    ["a", "z", "c"]),
    "sl_multi_hot": C("StringLookup", {"vocabulary": ["a", "b", "c"], "output_mode": "multi_hot"}, None, WORDS),
    "sl_multi_hot_mask": C("StringLookup", {"vocabulary": ["a", "b", "c"], "output_mode": "multi_hot",
                                            "mask_token": ""}, None, WORDS),
    "sl_count": C("StringLookup", {"vocabulary": ["a", "b", "c"], "output_mode": "count"}, None, WORDS),
    "sl_count_vector": C("StringLookup", {"vocabulary": ["a", "b", "c"], "output_mode": "count"}, None,
                         ["a", "a", "c", "q"]),
    "sl_tf_idf": C("StringLookup", {"output_mode": "tf_idf"}, [["a", "b"], ["a", "a"], ["c", "a"]], WORDS),
    "sl_vocab_with_specials": C("StringLookup", {"vocabulary": ["[UNK]", "a", "b"]}, None, WORDS),
    "sl_scalar": C("StringLookup", {"vocabulary": ["a", "b"]}, None, "b"),
    # ------------------------------------------------------------------ IntegerLookup
    "il_vocab": C("IntegerLookup", {"vocabulary": [12, 36, 1138, 42]}, None, [[12, 1138, 42], [42, 1000, 36]]),
    "il_adapt": C("IntegerLookup", {}, [42, 1138, 1138, 36, 12, 36, 36], [[12, 1138], [7, 36]]),
    "il_mask": C("IntegerLookup", {"vocabulary": [12, 36], "mask_token": 0}, None, [[12, 0, 36, 5]]),
    "il_floormod": C("IntegerLookup", {"vocabulary": [12, 36], "num_oov_indices": 3}, None,
                     [[12, 5, 6, 7, -8, 36]]),
    "il_farmhash": C("IntegerLookup", {"vocabulary": [12, 36], "num_oov_indices": 3, "oov_method": "farmhash"},
                     None, [[12, 5, 6, 7, 8, 36]]),
    "il_invert": C("IntegerLookup", {"vocabulary": [12, 36, 1138], "invert": True}, None, [[1, 3, 0, 2]]),
    "il_multi_hot": C("IntegerLookup", {"vocabulary": [12, 36, 1138], "output_mode": "multi_hot"}, None,
                      [[12, 1138, 5], [36, 36, 36]]),
    "il_count": C("IntegerLookup", {"vocabulary": [12, 36], "output_mode": "count", "max_tokens": 5,
                                    "pad_to_max_tokens": True}, None, [[12, 12, 5], [36, 36, 36]]),
    # ------------------------------------------------------------------ Hashing
    "h_strings": C("Hashing", {"num_bins": 3}, None, [["A"], ["B"], ["C"], ["D"], ["E"]]),
    "h_many": C("Hashing", {"num_bins": 1000}, None, [["hello world", "x", "", "tapegrad"]]),
    "h_ints": C("Hashing", {"num_bins": 7}, None, [[0, 1, 2, 300, -5]]),
    "h_floats": C("Hashing", {"num_bins": 7}, None, [[0.5, 1.7, 2.0, -3.2]]),
    "h_mask": C("Hashing", {"num_bins": 3, "mask_value": ""}, None, [["A"], ["B"], [""], ["C"], ["D"]]),
    "h_mask_int": C("Hashing", {"num_bins": 4, "mask_value": 0}, None, [[0, 1, 2, 3]]),
    "h_salt": C("Hashing", {"num_bins": 3, "salt": 133}, None, [["A"], ["B"], ["C"], ["D"], ["E"]]),
    "h_salt_pair": C("Hashing", {"num_bins": 5, "salt": [1, 2]}, None, [["A", "B", "C"]]),
    "h_one_hot": C("Hashing", {"num_bins": 4, "output_mode": "one_hot"}, None, ["A", "B", "C"]),
    "h_multi_hot": C("Hashing", {"num_bins": 4, "output_mode": "multi_hot"}, None, [["A", "B"], ["C", "C"]]),
    "h_count": C("Hashing", {"num_bins": 4, "output_mode": "count"}, None, [["A", "B", "A"], ["C", "C", "D"]]),
    "h_int32": C("Hashing", {"num_bins": 5, "dtype": "int32"}, None, [["a", "b"]]),
    # ------------------------------------------------------------------ CategoryEncoding
    "ce_one_hot": C("CategoryEncoding", {"num_tokens": 4, "output_mode": "one_hot"}, None, [3, 2, 0, 1]),
    "ce_one_hot_column": C("CategoryEncoding", {"num_tokens": 4, "output_mode": "one_hot"}, None,
                           [[3], [2], [0]]),
    "ce_multi_hot": C("CategoryEncoding", {"num_tokens": 4}, None, [[0, 1], [0, 0], [1, 2], [3, 1]]),
    "ce_multi_hot_vector": C("CategoryEncoding", {"num_tokens": 5}, None, [0, 3, 3]),
    "ce_count": C("CategoryEncoding", {"num_tokens": 4, "output_mode": "count"}, None,
                  [[0, 1], [0, 0], [1, 2], [3, 1]]),
    "ce_count_weights": C("CategoryEncoding", {"num_tokens": 4, "output_mode": "count"}, None,
                          [[0, 1], [0, 0], [1, 2], [3, 1]],
                          count_weights=[[0.1, 0.2], [0.1, 0.1], [0.2, 0.3], [0.4, 0.2]]),
    "ce_scalar": C("CategoryEncoding", {"num_tokens": 3, "output_mode": "one_hot"}, None, 2),
    # ------------------------------------------------------------------ Discretization
    "d_boundaries": C("Discretization", {"bin_boundaries": [0.0, 1.0, 2.0]}, None, [[-1.5, 1.0, 3.4, 0.5]]),
    "d_one_hot": C("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "one_hot"}, None,
                   [-1.0, 0.5, 2.0]),
    "d_multi_hot": C("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "multi_hot"}, None,
                     [[-1.0, 0.5], [2.0, 2.0]]),
    "d_count": C("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "count"}, None,
                 [[-1.0, 0.5], [2.0, 2.0]]),
    "d_adapt": C("Discretization", {"num_bins": 4, "epsilon": 0.01}, [[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.5, 2.0]],
                 [[-1.5, 1.0, 3.4, 0.5]]),
    "d_adapt_large": C("Discretization", {"num_bins": 5},
                       np.random.default_rng(0).normal(size=(50, 4)).round(3).tolist(),
                       [[-1.0, -0.2, 0.0, 0.3, 2.0]]),
    "d_adapt_eps": C("Discretization", {"num_bins": 3, "epsilon": 0.2},
                     np.random.default_rng(1).uniform(size=(30,)).round(3).tolist(), [[0.1, 0.5, 0.9]]),
}

ERRORS = {
    "tv_bad_standardize": C("TextVectorization", {"standardize": "upper"}),
    "tv_bad_split": C("TextVectorization", {"split": "comma"}),
    "tv_bad_mode": C("TextVectorization", {"output_mode": "words"}),
    "tv_seq_len_not_int": C("TextVectorization", {"output_mode": "multi_hot", "output_sequence_length": 3}),
    "tv_bad_ngrams": C("TextVectorization", {"ngrams": "2"}),
    "tv_wide_input": C("TextVectorization", {"vocabulary": ["a"]}, x=[["a", "b"]]),
    "sl_max_tokens": C("StringLookup", {"max_tokens": 1}),
    "sl_pad_no_max": C("StringLookup", {"pad_to_max_tokens": True}),
    "sl_neg_oov": C("StringLookup", {"num_oov_indices": -1}),
    "sl_invert_mode": C("StringLookup", {"invert": True, "output_mode": "multi_hot"}),
    "sl_repeated": C("StringLookup", {"vocabulary": ["a", "b", "a"]}),
    "sl_oov_in_vocab": C("StringLookup", {"vocabulary": ["a", "[UNK]"], "invert": True}),
    "sl_mask_in_vocab": C("StringLookup", {"vocabulary": ["a", "", "b"], "mask_token": ""}),
    "sl_too_large": C("StringLookup", {"vocabulary": ["a", "b", "c"], "max_tokens": 3}),
    "sl_idf_wrong_mode": C("StringLookup", {"vocabulary": ["a"], "idf_weights": [1.0]}),
    "sl_tf_idf_no_weights": C("StringLookup", {"vocabulary": ["a"], "output_mode": "tf_idf"}),
    "sl_empty_vocab": C("StringLookup", {"vocabulary": []}),
    "sl_unadapted_multi_hot": C("StringLookup", {"output_mode": "multi_hot"}, x=[["a"]]),
    "sl_zero_oov_unknown": C("StringLookup", {"vocabulary": ["a"], "num_oov_indices": 0}, x=[["a", "b"]]),
    "sl_adapt_after_vocab": C("StringLookup", {"vocabulary": ["a"]}, adapt=["a", "b"]),
    "il_salt_floormod": C("IntegerLookup", {"salt": 3}),
    "h_bins": C("Hashing", {"num_bins": 0}),
    "h_mode": C("Hashing", {"num_bins": 3, "output_mode": "tf_idf"}),
    "h_salt": C("Hashing", {"num_bins": 3, "salt": "x"}),
    "h_dtype": C("Hashing", {"num_bins": 3, "dtype": "float32"}),
    "ce_no_tokens": C("CategoryEncoding", {}),
    "ce_zero_tokens": C("CategoryEncoding", {"num_tokens": 0}),
    "ce_mode": C("CategoryEncoding", {"num_tokens": 3, "output_mode": "tf_idf"}),
    "ce_weights_mode": C("CategoryEncoding", {"num_tokens": 3}, x=[[0, 1]], count_weights=[[1.0, 1.0]]),
    "d_both": C("Discretization", {"bin_boundaries": [0.0], "num_bins": 3}),
    "d_neither": C("Discretization", {}),
    "d_neg_bins": C("Discretization", {"num_bins": -1}),
    "d_mode": C("Discretization", {"bin_boundaries": [0.0], "output_mode": "tf_idf"}),
    "d_adapt_boundaries": C("Discretization", {"bin_boundaries": [0.0]}, adapt=[1.0, 2.0]),
}

FILES = {
    "neg/a.txt": "awful film", "neg/b.txt": "bad, boring", "neg/c.txt": "not good at all",
    "neg/sub/d.txt": "dull plot", "neg/e.md": "not text", "neg/f.TXT": "upper case ext",
    "pos/a.txt": "great film", "pos/b.txt": "good fun", "pos/c.txt": "loved it, really",
    "pos/g.txt": "fine", "pos/h.txt": "superb", ".hidden/x.txt": "hidden",
}

DIRECTORY = {
    "no_shuffle": {"batch_size": 4, "shuffle": False},
    "seed_shuffle": {"batch_size": 3, "seed": 1337},
    "seed_shuffle_other": {"batch_size": 32, "seed": 7},
    "binary": {"batch_size": 5, "seed": 2, "label_mode": "binary"},
    "categorical": {"batch_size": 5, "shuffle": False, "label_mode": "categorical"},
    "no_labels": {"batch_size": 4, "shuffle": False, "labels": None},
    "max_length": {"batch_size": 20, "shuffle": False, "max_length": 4},
    "training": {"batch_size": 2, "seed": 1337, "validation_split": 0.3, "subset": "training"},
    "validation": {"batch_size": 2, "seed": 1337, "validation_split": 0.3, "subset": "validation"},
    "class_names": {"batch_size": 20, "shuffle": False, "class_names": ["pos", "neg"]},
    "no_batch": {"batch_size": None, "shuffle": False},
}

DIRECTORY_ERRORS = {
    "bad_label_mode": {"label_mode": "sparse"},
    "split_without_seed": {"validation_split": 0.2, "subset": "training"},
    "split_without_subset": {"validation_split": 0.2, "seed": 1},
    "bad_subset": {"validation_split": 0.2, "subset": "test", "seed": 1},
    "bad_split": {"validation_split": 1.5, "subset": "training", "seed": 1},
    "bad_class_names": {"class_names": ["pos", "meh"]},
    "labels_list_with_class_names": {"labels": [0, 1], "class_names": ["a"]},
    "labels_not_list": {"labels": "given"},
}


def _value(v):
    a = v.numpy() if hasattr(v, "numpy") else np.asarray(v)
    if isinstance(a, bytes):
        a = np.array(a, dtype=object)
    if a.dtype.kind == "O":
        return {"dtype": "string", "value": np.vectorize(lambda b: b.decode("utf-8"), otypes=[object])(a).tolist()
                if a.size else a.tolist()}
    return {"dtype": str(a.dtype), "value": a.tolist()}


def _message(e):
    """The error's own first line (inside Keras's "Exception encountered when calling" wrapper)."""
    lines = [ln.strip() for ln in str(e).replace("\x1b[1m", "").replace("\x1b[0m", "").split("\n") if ln.strip()]
    return lines[1] if lines[0].startswith("Exception encountered") else lines[0]


def _plain(x):
    if isinstance(x, (list, tuple)):
        return [_plain(e) for e in x]
    if isinstance(x, np.generic):
        return x.item()
    return x


def main():
    import keras
    import tensorflow as tf

    out = {"versions": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "layers": {}, "errors": {}, "directory": {"files": FILES, "cases": {}, "errors": {}}}
    for name, case in LAYERS.items():
        args = dict(case["args"])
        if isinstance(args.get("ngrams"), list):
            args["ngrams"] = tuple(args["ngrams"])
        layer = getattr(keras.layers, case["class"])(**args)
        if case["adapt"] is not None:
            layer.adapt(case["adapt"] if case["class"] == "Discretization" else np.array(case["adapt"]))
        x = np.array(case["x"])
        kw = {"count_weights": np.array(case["count_weights"])} if case.get("count_weights") else {}
        rec = {**case, "args": case["args"], "out": _value(layer(x, **kw))}
        if hasattr(layer, "get_vocabulary"):
            rec["vocabulary"] = _plain(layer.get_vocabulary())
            rec["vocabulary_size"] = int(layer.vocabulary_size())
        if case["class"] == "Discretization":
            rec["bin_boundaries"] = [float(b) for b in layer.bin_boundaries]
        out["layers"][name] = rec
    for name, case in ERRORS.items():
        try:
            layer = getattr(keras.layers, case["class"])(**case["args"])
            if case["adapt"] is not None:
                layer.adapt(np.array(case["adapt"]))
            if case["x"] is not None:
                kw = {"count_weights": np.array(case["count_weights"])} if case.get("count_weights") else {}
                layer(np.array(case["x"]), **kw)
        except Exception as e:  # noqa: BLE001 (recording what Keras raises)
            out["errors"][name] = {**case, "type": type(e).__name__, "message": _message(e)}
        else:
            raise SystemExit(f"{name}: Keras raised nothing")
    with tempfile.TemporaryDirectory() as d:
        for rel, text in FILES.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        for name, kw in DIRECTORY.items():
            ds = keras.utils.text_dataset_from_directory(d, verbose=False, **kw)
            batches = []
            for b in ds:
                parts = b if isinstance(b, tuple) else (b,)
                batches.append([_value(p) for p in parts])
            out["directory"]["cases"][name] = {"args": kw, "batches": batches, "class_names": ds.class_names,
                                               "element_spec": str(ds.element_spec)}
        for name, kw in DIRECTORY_ERRORS.items():
            try:
                keras.utils.text_dataset_from_directory(d, verbose=False, **kw)
            except Exception as e:  # noqa: BLE001
                out["directory"]["errors"][name] = {"args": kw, "type": type(e).__name__,
                                                    "message": str(e).replace(d, "<dir>").split("\n")[0]}
            else:
                raise SystemExit(f"{name}: Keras raised nothing")
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {len(out['layers'])} layer cases, {len(out['errors'])} errors, "
          f"{len(out['directory']['cases'])} directory cases", file=sys.stderr)


if __name__ == "__main__":
    main()
