import sys; sys.path.insert(0,'tests')
import tf_api_more_cases as c, tapegrad as tf
r=c._nms(tf, lambda b, s: tf.image.non_max_suppression_padded(b, s, 30, 0.3, pad_to_max_output_size=True)); print(r[0].numpy().tolist(), r[1])
r=c._nms(tf, lambda b, s: tf.image.non_max_suppression(b, s, 30, 0.3)); print(r.numpy().tolist())
