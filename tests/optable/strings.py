"""Op table: the strings family (tapegrad/ops/strings.py). Every op is nondifferentiable: each
row turns its float input into text with ``as_string`` and checks that no gradient comes back."""
import tapegrad as tf
import tapegrad.strings  # noqa: F401  (loads on first use)
from optable import OpCase

V = [((3,),)]


def _s(x):
    return tf.strings.as_string(x, precision=1)


CASES = [
    OpCase("StringLength", lambda x: tf.strings.length(_s(x)), V, nondiff=True, ops=("StringLength", "AsString")),
    OpCase("StringCase", lambda x: tf.strings.upper(_s(x)), V, nondiff=True),
    OpCase("StringStrip", lambda x: tf.strings.strip(_s(x)), V, nondiff=True),
    OpCase("StringSplitV2", lambda x: tf.strings.split(_s(x), sep=".").to_tensor(), V, nondiff=True),
    OpCase("StringBytesSplit", lambda x: tf.strings.bytes_split(_s(x)).values, V, nondiff=True),
    OpCase("StringNGrams", lambda x: tf.strings.ngrams(_s(x), 2), V, nondiff=True),
    OpCase("StringJoin", lambda x: tf.strings.join([_s(x), "a"]), V, nondiff=True),
    OpCase("ReduceJoin", lambda x: tf.strings.reduce_join(_s(x)), V, nondiff=True),
    OpCase("UnsortedSegmentJoin", lambda x: tf.strings.unsorted_segment_join(_s(x), [0, 1, 0], 2),
           V, nondiff=True),
    OpCase("StaticRegexReplace", lambda x: tf.strings.regex_replace(_s(x), "[0-9]", "d"), V, nondiff=True),
    OpCase("StaticRegexFullMatch", lambda x: tf.strings.regex_full_match(_s(x), "-.*"), V, nondiff=True),
    OpCase("Substr", lambda x: tf.strings.substr(_s(x), 0, 2), V, nondiff=True),
    OpCase("StringToNumber", lambda x: tf.strings.to_number(_s(x)), V, nondiff=True),
    OpCase("StringFormat", lambda x: tf.strings.format("x={}", x), V, nondiff=True),
    OpCase("UnicodeDecode", lambda x: tf.strings.unicode_decode(_s(x), "UTF-8").values, V, nondiff=True),
    OpCase("UnicodeSplit", lambda x: tf.strings.unicode_split_with_offsets(_s(x), "UTF-8")[1].values, V,
           nondiff=True),
    OpCase("UnicodeDecodeWithOffsets", lambda x: tf.strings.unicode_decode_with_offsets(_s(x), "UTF-8")[1].values,
           V, nondiff=True),
    OpCase("UnicodeTranscode", lambda x: tf.strings.unicode_transcode(_s(x), "UTF-8", "UTF-16-BE"), V, nondiff=True),
    OpCase("UnicodeScript", lambda x: tf.strings.unicode_script(tf.cast(x * 1000.0 + 3000.0, tf.int32)), V,
           nondiff=True),
    OpCase("UnicodeEncode", lambda x: tf.strings.unicode_encode(tf.strings.unicode_decode(_s(x), "UTF-8"),
                                                                "UTF-8"), V, nondiff=True),
    OpCase("StringToHashBucketFast", lambda x: tf.strings.to_hash_bucket_fast(_s(x), 10), V, nondiff=True),
    OpCase("StringToHashBucket", lambda x: tf.strings.to_hash_bucket(_s(x), 10), V, nondiff=True),
    OpCase("StringToHashBucketStrong", lambda x: tf.strings.to_hash_bucket_strong(_s(x), 10, [1, 2]),
           V, nondiff=True),
    # Keras's lookup and category-encoding layers
    OpCase("LookupTableFind", lambda x: tf.keras.layers.IntegerLookup(vocabulary=[0, 1, -1])(tf.cast(tf.floor(x), tf.int64)),
           [((3,),), ((2, 3),)], nondiff=True),
    OpCase("LookupTableFindV2", lambda x: tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        [-2, -1, 0, 1], [0.5, 1.5, 2.5, 3.5]), 0.0).lookup(tf.cast(tf.floor(x), tf.int32)),
           [((3,),), ((2, 3),)], nondiff=True),
    OpCase("EncodeCategorical", lambda x: tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="multi_hot")(
        tf.cast(tf.floor(x) + 2.0, tf.int32)), [((2, 3),)], nondiff=True),
]
