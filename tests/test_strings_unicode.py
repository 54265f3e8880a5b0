"""TensorFlow's Unicode string ops: every case of tests/strings_unicode_cases.py against
TensorFlow's recorded results (tests/fixtures/tf_unicode.json, from tools/record_tf_unicode.py),
plus what the fixture cannot show (the error messages, no gradient, the script table's edges)."""
import json
import pathlib
import sys

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import tapegrad as tf  # noqa: E402
import strings_unicode_cases as uc  # noqa: E402

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "tf_unicode.json").read_text())


@pytest.mark.parametrize("name", sorted(uc.CASES))
def test_matches_tensorflow(name):
    assert uc.run(uc.CASES[name], tf, np) == FIXTURE["cases"][name]


def test_every_case_is_recorded():
    assert sorted(uc.CASES) == sorted(FIXTURE["cases"])


def test_errors_say_what_to_do():
    with pytest.raises(tf.errors.InvalidArgumentError, match="at byte 1.*errors='replace'"):
        tf.strings.unicode_decode([b"a\xffb"], "UTF-8", errors="strict")
    with pytest.raises(tf.errors.InvalidArgumentError, match="UTF-16-BE"):
        tf.strings.unicode_encode([104], "UTF-16-LE")
    with pytest.raises(tf.errors.InvalidArgumentError, match="tf.cast"):
        tf.strings.unicode_script(tf.constant([65], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not create converter.*UTF-8"):
        tf.strings.unicode_transcode("a", "no-such-encoding", "UTF-8")


def test_offsets_locate_each_character():
    text = "aé日😀".encode()
    cps, offsets = tf.strings.unicode_decode_with_offsets(text, "UTF-8")
    chars, split_offsets = tf.strings.unicode_split_with_offsets(text, "UTF-8")
    assert offsets.numpy().tolist() == split_offsets.numpy().tolist() == [0, 1, 3, 6]
    assert [text[o:o + len(c)] for o, c in zip(offsets.numpy(), chars.numpy())] == list(chars.numpy())
    assert cps.dtype == tf.int32 and offsets.dtype == tf.int64


def test_script_table_edges():
    # ICU's UScriptCode: Common 0, Inherited 1, Latin 25, Unknown 103; -1 outside the code space
    got = tf.strings.unicode_script([0, 0x40, 0x41, 0x5A, 0x5B, 0x10FFFF, -5, 0x110000]).numpy().tolist()
    assert got == [0, 0, 25, 25, 0, 103, -1, -1]


def test_no_gradient_through_text():
    x = tf.constant([104.0, 105.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        s = tf.strings.unicode_encode(tf.cast(x, tf.int32), "UTF-8")
        y = tf.cast(tf.strings.unicode_decode(s, "UTF-8"), tf.float32)
    assert tape.gradient(y, x) is None


def test_to_sparse_carries_gradients_of_the_values():
    r = tf.ragged.constant([[1.0, 2.0], [3.0]])
    with tf.GradientTape() as tape:
        tape.watch(r.flat_values)
        st = r.to_sparse()
        y = tf.reduce_sum(st.values * st.values)
    assert tape.gradient(y, r.flat_values).numpy().tolist() == [2.0, 4.0, 6.0]
