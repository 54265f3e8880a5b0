"""keras.utils.FeatureSpace, keras.layers.HashedCrossing, tf.sparse.cross/cross_hashed and the
sparse=True outputs of the category preprocessing layers against Keras 3.15 on TensorFlow 2.21
(tools/record_keras_feature_space.py, cases in tests/feature_space_cases.py). Floats are compared
to 1e-5 relative (float32 means, variances and sums of a few terms), everything else exactly:
hashed bins, vocabularies, indices, shapes, dtypes and error types."""
import json
from pathlib import Path

import pytest

import feature_space_cases
import tapegrad as tf
from test_sparse import close

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "keras_feature_space.json").read_text(encoding="utf-8"))


def test_the_recording_is_of_keras_3_and_tensorflow_2():
    assert RECORDED["versions"]["keras"].startswith("3.") and RECORDED["versions"]["tensorflow"].startswith("2.")


@pytest.mark.parametrize("name", sorted(feature_space_cases.CASES))
def test_case_as_keras(name):
    want = RECORDED["cases"][name]
    tf.keras.backend.clear_session()  # (as the recorder: layer names count from each case's start)
    got = feature_space_cases.run(feature_space_cases.CASES[name], tf)
    if isinstance(want, dict) and "error" in want:
        assert isinstance(got, dict) and got.get("error") == want["error"], f"{name}: {got} (Keras: {want})"
        return
    close(got, want, name)
