"""Op table: the segment family (tapegrad/ops/segment.py)."""
import tapegrad as tf
from optable import OpCase

POS = (0.5, 2.0)
V = [((4,),), ((4, 2),)]                 # segment data: 4 rows


CASES = [
    OpCase("UnsortedSegmentSum", lambda x: tf.math.unsorted_segment_sum(x, [0, 2, 0], 3), [((3,),), ((3, 2),)]),
    # segments
    OpCase("segment_sum-mean", lambda x: tf.math.segment_sum(x, [0, 0, 2, 2]) * 2.0
           + tf.math.segment_mean(x, [0, 0, 0, 2]), V, ops=("UnsortedSegmentSum", "RealDiv")),
    OpCase("unsorted_segment_mean", lambda x: tf.math.unsorted_segment_mean(x, [1, -1, 1, 0], 3), V,
           ops=("UnsortedSegmentSum", "RealDiv")),
    OpCase("UnsortedSegmentMax", lambda x: tf.math.unsorted_segment_max(x, [1, 0, 1, -1], 2) ** 2, V),
    OpCase("UnsortedSegmentMin", lambda x: tf.math.unsorted_segment_min(x, [0, 1, 0, 1], 2)
           * tf.math.segment_min(x, [0, 0, 0, 2])[::2], V),
    OpCase("UnsortedSegmentProd", lambda x: tf.math.unsorted_segment_prod(x, [1, -1, 1, 0], 3)
           + tf.math.segment_prod(x, [0, 0, 0, 2]) ** 2, V, domain=POS),
    OpCase("complex-UnsortedSegmentProd", lambda a, b: tf.math.unsorted_segment_prod(tf.complex(a, b), [1, 0, 1, 1], 2),
           [((4,), (4,))], ops=("UnsortedSegmentProd",)),
    OpCase("unsorted_segment_sqrt_n", lambda x: tf.math.unsorted_segment_sqrt_n(x, [1, 0, 1, -1], 3), V,
           ops=("UnsortedSegmentSum", "RealDiv")),
    OpCase("segment_max", lambda x: tf.math.segment_max(x, [0, 0, 2, 2]) * tf.math.segment_max(x, [0, 1, 1, 2]),
           V, ops=("UnsortedSegmentMax",)),
    OpCase("HistogramFixedWidth", lambda x: [tf.histogram_fixed_width(x, [-1.0, 1.0], nbins=4),
                                             tf.histogram_fixed_width_bins(x, [-1.0, 1.0], nbins=3)],
           [((5,),), ((2, 3),)], nondiff=True, ops=("HistogramFixedWidth", "HistogramFixedWidthBins")),
]
