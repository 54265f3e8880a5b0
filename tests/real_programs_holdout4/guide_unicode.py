"""Title: Unicode strings (TensorFlow Text guide)
Source: https://github.com/tensorflow/text/blob/17c38bf014810b80abbb7c13ff1c2ac3cd9f710f/docs/guide/unicode.ipynb
Licence: Apache-2.0 (tensorflow/text)
Changed: the displayed values and prints -> RESULTS (string tensors as lists of Python str, or of
byte values where not UTF-8; ragged tensors as values and row splits).
"""
import tensorflow as tf
import numpy as np

RESULTS = {}


def _text(t):
  return np.vectorize(lambda b: b.decode('utf-8'), otypes=[str])(np.asarray(t.numpy(), object))


RESULTS["thanks"] = _text(tf.constant(u"Thanks 😊"))

RESULTS["shape"] = tf.constant([u"You're", u"welcome!"]).shape.as_list()

# Unicode string, represented as a UTF-8 encoded string scalar.
text_utf8 = tf.constant(u"语言处理")
RESULTS["text_utf8"] = list(text_utf8.numpy())

# Unicode string, represented as a UTF-16-BE encoded string scalar.
text_utf16be = tf.constant(u"语言处理".encode("UTF-16-BE"))
RESULTS["text_utf16be"] = list(text_utf16be.numpy())

# Unicode string, represented as a vector of Unicode code points.
text_chars = tf.constant([ord(char) for char in u"语言处理"])
RESULTS["text_chars"] = text_chars

RESULTS["decode"] = tf.strings.unicode_decode(text_utf8,
                                              input_encoding='UTF-8')

RESULTS["encode"] = _text(tf.strings.unicode_encode(text_chars,
                                                    output_encoding='UTF-8'))

RESULTS["transcode"] = list(tf.strings.unicode_transcode(text_utf8,
                                                         input_encoding='UTF8',
                                                         output_encoding='UTF-16-BE').numpy())

# A batch of Unicode strings, each represented as a UTF8-encoded string.
batch_utf8 = [s.encode('UTF-8') for s in
              [u'hÃllo', u'What is the weather tomorrow', u'Göödnight', u'😊']]
batch_chars_ragged = tf.strings.unicode_decode(batch_utf8,
                                               input_encoding='UTF-8')
for sentence_chars in batch_chars_ragged.to_list():
  print(sentence_chars)
RESULTS["batch_values"] = batch_chars_ragged.flat_values
RESULTS["batch_splits"] = batch_chars_ragged.row_splits

batch_chars_padded = batch_chars_ragged.to_tensor(default_value=-1)
print(batch_chars_padded.numpy())
RESULTS["padded"] = batch_chars_padded

batch_chars_sparse = batch_chars_ragged.to_sparse()

nrows, ncols = batch_chars_sparse.dense_shape.numpy()
elements = [['_' for i in range(ncols)] for j in range(nrows)]
for (row, col), value in zip(batch_chars_sparse.indices.numpy(), batch_chars_sparse.values.numpy()):
  elements[row][col] = str(value)
# max_width = max(len(value) for row in elements for value in row)
value_lengths = []
for row in elements:
  for value in row:
    value_lengths.append(len(value))
max_width = max(value_lengths)
print('[%s]' % '\n '.join(
    '[%s]' % ', '.join(value.rjust(max_width) for value in row)
    for row in elements))
RESULTS["sparse_printed"] = '[%s]' % '\n '.join(
    '[%s]' % ', '.join(value.rjust(max_width) for value in row)
    for row in elements)

RESULTS["encode_2d"] = _text(tf.strings.unicode_encode([[99, 97, 116], [100, 111, 103], [99, 111, 119]],
                                                       output_encoding='UTF-8'))

RESULTS["encode_ragged"] = _text(tf.strings.unicode_encode(batch_chars_ragged, output_encoding='UTF-8'))

RESULTS["encode_from_sparse"] = _text(tf.strings.unicode_encode(
    tf.RaggedTensor.from_sparse(batch_chars_sparse),
    output_encoding='UTF-8'))

RESULTS["encode_from_padded"] = _text(tf.strings.unicode_encode(
    tf.RaggedTensor.from_tensor(batch_chars_padded, padding=-1),
    output_encoding='UTF-8'))

# Note that the final character takes up 4 bytes in UTF8.
thanks = u'Thanks 😊'.encode('UTF-8')
num_bytes = tf.strings.length(thanks).numpy()
num_chars = tf.strings.length(thanks, unit='UTF8_CHAR').numpy()
print('{} bytes; {} UTF-8 characters'.format(num_bytes, num_chars))
RESULTS["num_bytes"] = num_bytes
RESULTS["num_chars"] = num_chars

# Here, unit='BYTE' (default). Returns a single byte with len=1
RESULTS["substr_byte"] = list(tf.strings.substr(thanks, pos=7, len=1).numpy())

# Specifying unit='UTF8_CHAR', returns a single 4 byte character in this case
print(tf.strings.substr(thanks, pos=7, len=1, unit='UTF8_CHAR').numpy())
RESULTS["substr_char"] = _text(tf.strings.substr(thanks, pos=7, len=1, unit='UTF8_CHAR'))

RESULTS["split"] = _text(tf.strings.unicode_split(thanks, 'UTF-8'))

codepoints, offsets = tf.strings.unicode_decode_with_offsets(u'🎈🎉🎊', 'UTF-8')

for (codepoint, offset) in zip(codepoints.numpy(), offsets.numpy()):
  print('At byte offset {}: codepoint {}'.format(offset, codepoint))
RESULTS["codepoints"] = codepoints
RESULTS["offsets"] = offsets

uscript = tf.strings.unicode_script([33464, 1041])  # ['芸', 'Б']

print(uscript.numpy())  # [17, 8] == [USCRIPT_HAN, USCRIPT_CYRILLIC]
RESULTS["uscript"] = uscript

print(tf.strings.unicode_script(batch_chars_ragged))
RESULTS["batch_scripts"] = tf.strings.unicode_script(batch_chars_ragged).flat_values

# dtype: string; shape: [num_sentences]
#
# The sentences to process.  Edit this line to try out different inputs!
sentence_texts = [u'Hello, world.', u'世界こんにちは']

# dtype: int32; shape: [num_sentences, (num_chars_per_sentence)]
#
# sentence_char_codepoint[i, j] is the codepoint for the j'th character in
# the i'th sentence.
sentence_char_codepoint = tf.strings.unicode_decode(sentence_texts, 'UTF-8')
print(sentence_char_codepoint)

# dtype: int32; shape: [num_sentences, (num_chars_per_sentence)]
#
# sentence_char_scripts[i, j] is the Unicode script of the j'th character in
# the i'th sentence.
sentence_char_script = tf.strings.unicode_script(sentence_char_codepoint)
print(sentence_char_script)
RESULTS["sentence_char_script"] = sentence_char_script.flat_values

# dtype: bool; shape: [num_sentences, (num_chars_per_sentence)]
#
# sentence_char_starts_word[i, j] is True if the j'th character in the i'th
# sentence is the start of a word.
sentence_char_starts_word = tf.concat(
    [tf.fill([sentence_char_script.nrows(), 1], True),
     tf.not_equal(sentence_char_script[:, 1:], sentence_char_script[:, :-1])],
    axis=1)
RESULTS["starts_word"] = sentence_char_starts_word.flat_values

# dtype: int64; shape: [num_words]
#
# word_starts[i] is the index of the character that starts the i'th word (in
# the flattened list of characters from all sentences).
word_starts = tf.squeeze(tf.where(sentence_char_starts_word.values), axis=1)
print(word_starts)
RESULTS["word_starts"] = word_starts

# dtype: int32; shape: [num_words, (num_chars_per_word)]
#
# word_char_codepoint[i, j] is the codepoint for the j'th character in the
# i'th word.
word_char_codepoint = tf.RaggedTensor.from_row_starts(
    values=sentence_char_codepoint.values,
    row_starts=word_starts)
print(word_char_codepoint)
RESULTS["word_char_codepoint_splits"] = word_char_codepoint.row_splits

# dtype: int64; shape: [num_sentences]
#
# sentence_num_words[i] is the number of words in the i'th sentence.
sentence_num_words = tf.reduce_sum(
    tf.cast(sentence_char_starts_word, tf.int64),
    axis=1)
RESULTS["sentence_num_words"] = sentence_num_words

# dtype: int32; shape: [num_sentences, (num_words_per_sentence), (num_chars_per_word)]
#
# sentence_word_char_codepoint[i, j, k] is the codepoint for the k'th character
# in the j'th word in the i'th sentence.
sentence_word_char_codepoint = tf.RaggedTensor.from_row_lengths(
    values=word_char_codepoint,
    row_lengths=sentence_num_words)
print(sentence_word_char_codepoint)

words = tf.strings.unicode_encode(sentence_word_char_codepoint, 'UTF-8').to_list()
RESULTS["words"] = [[w.decode('utf-8') for w in s] for s in words][0] + \
    [w.decode('utf-8') for w in words[1]]
