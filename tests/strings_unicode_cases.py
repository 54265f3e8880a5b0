"""The cases of tools/record_tf_unicode.py, shared with tests/test_strings_unicode.py: TensorFlow's
Unicode string ops (decode, split, encode, transcode, script, and the UTF8_CHAR unit of length and
substr) on valid and invalid text in UTF-8, UTF-16-BE, UTF-32-BE and other input encodings, with
every ``errors`` mode, ``replacement_char`` and ``replace_control_characters``, on scalar, vector,
matrix and ragged inputs. Each is a Python expression run with ``tf`` bound to TensorFlow there and
to tapegrad here; ``encode`` turns its result (or the exception raised) into JSON-able data."""
import strings_cases as sc

BAD = repr([b"a\xffb", b"\xe2\x82", b"\xe2\x82x", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80",
            b"\x01a\x7f\xc2\x85b", b"\xf4\x90\x80\x80", b"", "h\u00e9llo \U0001F600".encode()])
U16 = repr(["h\u00e9llo\U0001F600".encode("utf-16-be"), b"\x00a\xd8\x00\x00b", b"\x00a\x00", b"\xdc\x00\x00c"])
U32 = repr(["h\u00e9\U0001F600".encode("utf-32-be"), b"\x00\x00\x00a\x00\x11\x00\x00",
            b"\x00\x00\xd8\x00\x00\x00\x00b", b"\x00\x00\x00a\x00"])
CTRL = repr([bytes(range(0, 40)), "\u0080\u009f\u00a0\u2028".encode()])
M = "[['ab', 'c'], ['d', '\u00e9f']]"
R = "tf.ragged.constant([['ab', 'c'], ['d']])"
CPS = "[[104, -1, 0x110000, 0xD800, 233, 128512, 0]]"

CASES = {}
for _e in ("replace", "ignore", "strict"):
    CASES[f"decode_{_e}"] = f"tf.strings.unicode_decode({BAD}, 'UTF-8', errors='{_e}')"
    CASES[f"decode16_{_e}"] = f"tf.strings.unicode_decode({U16}, 'UTF-16-BE', errors='{_e}')"
    CASES[f"decode32_{_e}"] = f"tf.strings.unicode_decode({U32}, 'UTF-32-BE', errors='{_e}')"
    CASES[f"encode_{_e}"] = f"tf.strings.unicode_encode({CPS}, 'UTF-8', errors='{_e}')"
    CASES[f"transcode_{_e}"] = f"tf.strings.unicode_transcode({BAD}, 'UTF-8', 'UTF-16-BE', errors='{_e}')"
    CASES[f"decode_ctrl_{_e}"] = f"tf.strings.unicode_decode([b'\\x01a\\xff'], 'UTF-8', errors='{_e}', " \
                                 "replace_control_characters=True)"
CASES.update({
    # decode
    "decode_replacement_char": f"tf.strings.unicode_decode({BAD}, 'UTF-8', replacement_char=63)",
    "decode_control": f"tf.strings.unicode_decode({CTRL}, 'UTF-8', replace_control_characters=True)",
    "decode_scalar": "tf.strings.unicode_decode('a\u00e9\u65e5', 'UTF-8')",
    "decode_matrix": f"tf.strings.unicode_decode({M}, 'UTF-8')",
    "decode_ragged": f"tf.strings.unicode_decode({R}, 'UTF-8')",
    "decode_empty_vector": "tf.strings.unicode_decode(tf.constant([], tf.string), 'UTF-8')",
    "decode_names": "[tf.strings.unicode_decode([b'ab\\xc3\\xa9'], e) for e in "
                    "('utf-8', 'UTF8', 'UTF-16-LE', 'ISO-8859-1', 'UTF-16', 'UTF-32', 'US-ASCII', 'latin1')]",
    "decode_utf16_bom": "tf.strings.unicode_decode_with_offsets([b'\\xff\\xfea\\x00', b'\\xfe\\xff\\x00a', b'\\x00a'], "
                        "'UTF-16')",
    "decode_keeps_utf8_bom": "tf.strings.unicode_decode([b'\\xef\\xbb\\xbfa'], 'UTF-8')",
    "decode_unknown_encoding": "tf.strings.unicode_decode(['a'], 'no-such-encoding')",
    "decode_bad_errors": "tf.strings.unicode_decode(['a'], 'UTF-8', errors='Replace')",
    "decode_replacement_too_big": "tf.strings.unicode_decode([b'\\xff'], 'UTF-8', replacement_char=0x110000)",
    "decode_replacement_negative": "tf.strings.unicode_decode([b'\\xff'], 'UTF-8', replacement_char=-1)",
    "decode_replacement_surrogate": "tf.strings.unicode_decode([b'\\xff'], 'UTF-8', replacement_char=0xD800)",
    "decode_numbers": "tf.strings.unicode_decode([1], 'UTF-8')",
    # with offsets
    "decode_offsets": f"tf.strings.unicode_decode_with_offsets({BAD}, 'UTF-8')",
    "decode_offsets_ignore": f"tf.strings.unicode_decode_with_offsets({BAD}, 'UTF-8', errors='ignore')",
    "decode_offsets16": f"tf.strings.unicode_decode_with_offsets({U16}, 'UTF-16-BE')",
    "decode_offsets32": f"tf.strings.unicode_decode_with_offsets({U32}, 'UTF-32-BE')",
    "decode_offsets_scalar": "tf.strings.unicode_decode_with_offsets('a\u00e9!', 'UTF-8')",
    "decode_offsets_matrix": f"tf.strings.unicode_decode_with_offsets({M}, 'UTF-8')",
    "decode_offsets_control": "tf.strings.unicode_decode_with_offsets([b'\\x01\\xff'], 'UTF-8', replacement_char=63, "
                              "replace_control_characters=True)",
    "decode_offsets_ascii": "tf.strings.unicode_decode_with_offsets([b'a\\xe9b'], 'US-ASCII')",
    # split
    "split": f"tf.strings.unicode_split({BAD}, 'UTF-8')",
    "split_ignore": f"tf.strings.unicode_split({BAD}, 'UTF-8', errors='ignore')",
    "split_replacement_char": f"tf.strings.unicode_split({BAD}, 'UTF-8', replacement_char=63)",
    "split16": f"tf.strings.unicode_split({U16}, 'UTF-16-BE')",
    "split_scalar": "tf.strings.unicode_split('a\u00e9', 'UTF-8')",
    "split_matrix": f"tf.strings.unicode_split({M}, 'UTF-8')",
    "split_ragged": f"tf.strings.unicode_split({R}, 'UTF-8')",
    "split_surrogate_replacement": "tf.strings.unicode_split([b'\\xff'], 'UTF-8', replacement_char=0xD800)",
    "split_latin1": "tf.strings.unicode_split([b'\\xe9a'], 'ISO-8859-1')",
    "split_offsets": f"tf.strings.unicode_split_with_offsets({BAD}, 'UTF-8')",
    "split_offsets16": f"tf.strings.unicode_split_with_offsets({U16}, 'UTF-16-BE')",
    "split_offsets_scalar": "tf.strings.unicode_split_with_offsets('a\u00e9', 'UTF-8')",
    # encode
    "encode_replacement_char": f"tf.strings.unicode_encode({CPS}, 'UTF-8', replacement_char=63)",
    "encode_replacement_bad": f"tf.strings.unicode_encode({CPS}, 'UTF-8', replacement_char=-5)",
    "encode_replacement_surrogate": "tf.strings.unicode_encode([[0x110000]], 'UTF-8', replacement_char=0xD800)",
    "encode_utf16": "tf.strings.unicode_encode([[104, 233, 128512]], 'UTF-16-BE')",
    "encode_utf32": "tf.strings.unicode_encode([[104, 233, 128512]], 'UTF-32-BE')",
    "encode_lowercase_name": "tf.strings.unicode_encode([[104]], 'utf-8')",
    "encode_other_encoding": "tf.strings.unicode_encode([[104]], 'ISO-8859-1')",
    "encode_scalar": "tf.strings.unicode_encode(104, 'UTF-8')",
    "encode_empty_rows": "tf.strings.unicode_encode(tf.zeros([2, 0], tf.int32), 'UTF-8')",
    "encode_int64": "tf.strings.unicode_encode(tf.constant([104, 105], tf.int64), 'UTF-8')",
    "encode_float": "tf.strings.unicode_encode(tf.constant([104.0]), 'UTF-8')",
    "encode_rank3": "tf.strings.unicode_encode([[[104, 105]], [[106, 107]]], 'UTF-8')",
    "encode_ragged": "tf.strings.unicode_encode(tf.ragged.constant([[104, 105], []]), 'UTF-8')",
    "encode_ragged3": "tf.strings.unicode_encode(tf.ragged.constant([[[104], [105, 106]], [[107]]]), 'UTF-8')",
    "encode_roundtrip16": f"tf.strings.unicode_encode(tf.strings.unicode_decode({U16}, 'UTF-16-BE'), 'UTF-16-BE')",
    # transcode
    "transcode_control": f"tf.strings.unicode_transcode({BAD}, 'UTF-8', 'UTF-8', replace_control_characters=True)",
    "transcode_control_ignore": f"tf.strings.unicode_transcode({BAD}, 'UTF-8', 'UTF-8', errors='ignore', "
                                "replace_control_characters=True)",
    "transcode_replacement_char": f"tf.strings.unicode_transcode({BAD}, 'UTF-8', 'UTF-8', replacement_char=63)",
    "transcode_to32": "tf.strings.unicode_transcode(['h\u00e9\U0001F600'], 'UTF-8', 'UTF-32-BE')",
    "transcode_16to8": f"tf.strings.unicode_transcode({U16}, 'UTF-16-BE', 'UTF-8')",
    "transcode_bad_output": "tf.strings.unicode_transcode(['a'], 'UTF-8', 'UTF-16-LE')",
    "transcode_latin1": "tf.strings.unicode_transcode([b'\\xe9'], 'ISO-8859-1', 'UTF-8')",
    "transcode_scalar": "tf.strings.unicode_transcode('\u00e9', 'UTF-8', 'UTF-16-BE')",
    "transcode_matrix": "tf.strings.unicode_transcode([['abc'], ['\u00e9']], 'UTF-8', 'UTF-16-BE')",
    "transcode_ragged": f"tf.strings.unicode_transcode({R}, 'UTF-8', 'UTF-32-BE')",
    "transcode_keeps_bom": "tf.strings.unicode_transcode([b'\\xfe\\xff\\x00a'], 'UTF-16-BE', 'UTF-16-BE')",
    "transcode_surrogate_replacement": "tf.strings.unicode_transcode([b'\\xff'], 'UTF-8', 'UTF-8', "
                                       "replacement_char=0xD800)",
    "transcode_replacement_negative": "tf.strings.unicode_transcode([b'\\xff'], 'UTF-8', 'UTF-8', replacement_char=-1)",
    "transcode_unknown_encoding": "tf.strings.unicode_transcode(['a'], 'no-such-encoding', 'UTF-8')",
    # script
    "script": "tf.strings.unicode_script([33464, 1041, 65, 48, -1, 0x110000, 0x300, 0x10FFFF, 0xE000, 0x0E01, "
              "0x05D0, 0x0627, 0x3042, 0x30A2, 0xAC00, 0x1F600, 0x0915])",
    "script_every_1009th": "tf.strings.unicode_script(tf.range(0, 0x110000, 1009))",
    "script_ragged": "tf.strings.unicode_script(tf.ragged.constant([[65], [1041, 33464]]))",
    "script_scalar": "tf.strings.unicode_script(65)",
    "script_matrix": "tf.strings.unicode_script([[65, 1041], [33464, 48]])",
    "script_int64": "tf.strings.unicode_script(tf.constant([65], tf.int64))",
    # the UTF8_CHAR unit
    "length_invalid": f"tf.strings.length({BAD}, unit='UTF8_CHAR')",
    "length_ragged": f"tf.strings.length({R}, unit='UTF8_CHAR')",
    "length_bad_unit": "tf.strings.length(['a'], unit='CHAR')",
    "substr_char": "tf.strings.substr(['Thanks \U0001F60A', 'h\u00e9llo'], pos=[7, 1], len=[1, 1], unit='UTF8_CHAR')",
    "substr_pos_len_shapes": "tf.strings.substr(['ab', 'cd'], [0, 1], 1)",
    "substr_char_negative": "tf.strings.substr(['h\u00e9llo'], -2, 5, unit='UTF8_CHAR')",
    "substr_char_past_end": "tf.strings.substr(['h\u00e9llo'], 6, 1, unit='UTF8_CHAR')",
    "substr_char_negative_past": "tf.strings.substr(['h\u00e9llo'], -6, 1, unit='UTF8_CHAR')",
    "substr_char_negative_len": "tf.strings.substr(['h\u00e9llo'], 1, -1, unit='UTF8_CHAR')",
    "substr_bad_unit": "tf.strings.substr(['a'], 0, 1, unit='utf8_char')",
    # RaggedTensor <-> SparseTensor (the guide's round trip)
    "to_sparse": "(lambda s: (s.indices, s.values, s.dense_shape))(tf.ragged.constant([[3, 1], [], [4]]).to_sparse())",
    "to_sparse_rank3": "(lambda s: (s.indices, s.values, s.dense_shape))("
                       "tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6]]]).to_sparse())",
    "to_sparse_inner_dims": "(lambda s: (s.indices, s.values, s.dense_shape))(tf.RaggedTensor.from_row_splits("
                            "tf.reshape(tf.range(6), [3, 2]), [0, 2, 3]).to_sparse())",
    "from_sparse": "tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0], [0, 1], [2, 0]], [3, 1, 4], [4, 2]))",
    "from_sparse_splits": "tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0], [2, 0]], [3, 4], [3, 2]))"
                          ".row_splits",
    "from_sparse_not_right_ragged": "tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 1]], [3], [2, 2]))",
    "from_sparse_rank3": "tf.RaggedTensor.from_sparse(tf.sparse.SparseTensor([[0, 0, 0]], [3], [1, 1, 1]))",
    # reduce_join of a RaggedTensor (TF's ragged dispatch)
    "reduce_join_ragged": "[tf.strings.reduce_join(tf.ragged.constant([['a', 'b', 'c'], [], ['d']]), axis=a, "
                          "separator='-') for a in (None, 0, 1, -1)]",
    "reduce_join_ragged_keepdims": "tf.strings.reduce_join(tf.ragged.constant([['a', 'b'], []]), axis=1, "
                                   "keepdims=True)",
    "reduce_join_ragged3": "[tf.strings.reduce_join(tf.ragged.constant([[['a', 'b'], ['c']], [['d', 'e', 'f']]]), "
                           "axis=a, separator=',') for a in (1, 2, [1, 2])]",
})


def encode(x, np):
    """``x`` as JSON-able data (tests/strings_cases.py's form; a RaggedTensor also gives its
    dtype and ragged rank)."""
    if isinstance(x, (list, tuple)):
        return [encode(v, np) for v in x]
    if hasattr(x, "row_splits"):
        return {"ragged": sc.encode(x.to_list(), np), "dtype": x.dtype.name, "ragged_rank": x.ragged_rank}
    return sc.encode(x, np)


def run(expr, tf, np):
    """The encoded result of ``expr`` (or of the exception it raised)."""
    try:
        return encode(eval(expr, {"tf": tf, "np": np}), np)
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return encode(e, np)
