"""Bounding-box ops of ``tf.image``: the non-max suppressions (TensorFlow's greedy CPU kernels,
float32 IoU as they compute it, ties taken by the lower box index) and ``crop_and_resize``
(a composition of gathers and lerps, differentiable in the image and the boxes)."""
from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from ._convert import as_tensor, host_value
from ._tensor import Tensor, constant_maker, wrap
from .errors import InvalidArgumentError, OutOfRangeError
from .ops.array import expand_dims, reshape, stack
from .ops.indexing import gather_nd
from .ops.math import cast, clip_by_value, where
from .ops.special import floor

__all__ = ["non_max_suppression", "non_max_suppression_with_scores", "non_max_suppression_overlaps",
           "non_max_suppression_padded", "combined_non_max_suppression", "crop_and_resize", "draw_bounding_boxes"]


def _iou_matrix(boxes: np.ndarray) -> np.ndarray:
    """TF's IoU of every pair of ``[y1, x1, y2, x2]`` boxes, in float32 (0 for an empty box)."""
    b = boxes.astype(np.float32)
    ymin, xmin = np.minimum(b[:, 0], b[:, 2]), np.minimum(b[:, 1], b[:, 3])
    ymax, xmax = np.maximum(b[:, 0], b[:, 2]), np.maximum(b[:, 1], b[:, 3])
    area = (ymax - ymin) * (xmax - xmin)
    ih = np.maximum(np.minimum(ymax[:, None], ymax[None]) - np.maximum(ymin[:, None], ymin[None]), np.float32(0))
    iw = np.maximum(np.minimum(xmax[:, None], xmax[None]) - np.maximum(xmin[:, None], xmin[None]), np.float32(0))
    inter = ih * iw
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None] - inter)
    return np.where((area[:, None] <= 0) | (area[None] <= 0), np.float32(0), iou).astype(np.float32)


def _greedy(sim: np.ndarray, scores: np.ndarray, max_out: int, threshold: float, score_threshold: float,
            sigma: float = 0.0) -> tuple[list, list]:
    """TF's ``DoNonMaxSuppressionOp``: greedy selection by score (ties: lower index first), hard
    suppression above ``threshold``, soft (Gaussian) with ``sigma > 0``."""
    scores = scores.astype(np.float32)
    thr, sthr = np.float32(threshold), np.float32(score_threshold)
    soft = sigma > 0
    scale = np.float32(-0.5 / sigma) if soft else np.float32(0)
    heap = [(-s, i, 0) for i, s in enumerate(scores) if s > sthr]  # (score, box, suppress_begin_index)
    heapq.heapify(heap)
    selected, selected_scores = [], []
    while len(selected) < max_out and heap:
        neg, i, begin = heapq.heappop(heap)
        score = original = np.float32(-neg)
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            s = sim[i, selected[j]]
            weight = np.exp(scale * s * s, dtype=np.float32)
            score = np.float32(score * (weight if soft or s <= thr else np.float32(0)))
            if not soft and s > thr:
                hard = True
                break
            if score <= sthr:
                break
        if hard:
            continue
        if score == original:
            selected.append(i)
            selected_scores.append(score)
        elif score > sthr:
            heapq.heappush(heap, (-score, i, len(selected)))
    return selected, selected_scores


def _array(x: Any, what: str, dtype: Any = None) -> np.ndarray:
    a = np.asarray(host_value(as_tensor(x) if not isinstance(x, np.ndarray) else x, what))
    return a if dtype is None else a.astype(dtype)


def _nms_inputs(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any, opname: str
                ) -> tuple[np.ndarray, np.ndarray, int, float]:
    b, s = _array(boxes, "boxes"), _array(scores, "scores")
    if b.ndim != 2:
        raise InvalidArgumentError(f"boxes must be 2-D{list(b.shape)} [Op:{opname}]")
    if b.shape[1] != 4:
        raise InvalidArgumentError(f"boxes must have 4 columns [Op:{opname}]")
    if s.ndim != 1:
        raise InvalidArgumentError(f"scores must be 1-D{list(s.shape)} [Op:{opname}]")
    if s.shape[0] != b.shape[0]:
        raise InvalidArgumentError(f"scores has incompatible shape [Op:{opname}]")
    m = _array(max_output_size, "max_output_size")
    if m.ndim != 0:
        raise InvalidArgumentError(f"max_output_size must be 0-D, got shape {list(m.shape)} [Op:{opname}]")
    thr = float(_array(iou_threshold, "iou_threshold"))
    if not 0 <= thr <= 1:
        raise InvalidArgumentError(f"iou_threshold must be in [0, 1] [Op:{opname}]")
    return b, s, int(m), thr


@constant_maker  # (from guarded reads of the inputs: host_value)
def non_max_suppression(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                        score_threshold: Any = float("-inf"), name: Any = None) -> Tensor:
    """The indices (int32) of at most ``max_output_size`` boxes kept by greedy non-max
    suppression: by descending score (above ``score_threshold``), dropping a box whose IoU with
    a kept one exceeds ``iou_threshold``. Boxes are ``[y1, x1, y2, x2]`` in any corner order.

    >>> import tapegrad as tf
    >>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
    >>> tf.image.non_max_suppression(boxes, [0.9, 0.8, 0.7], 3, 0.5).numpy()
    array([0, 2], dtype=int32)
    """
    b, s, m, thr = _nms_inputs(boxes, scores, max_output_size, iou_threshold, "NonMaxSuppressionV3")
    sel, _ = _greedy(_iou_matrix(b), s, m, thr, float(_array(score_threshold, "score_threshold")))
    return wrap(np.asarray(sel, np.int32))


@constant_maker  # (from guarded reads of the inputs: host_value)
def non_max_suppression_with_scores(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                                    score_threshold: Any = float("-inf"), soft_nms_sigma: Any = 0.0,
                                    name: Any = None) -> tuple[Tensor, Tensor]:
    """``(selected_indices, selected_scores)``; with ``soft_nms_sigma > 0``, Soft-NMS: an
    overlapping box's score is scaled by ``exp(-iou² / (2 sigma))`` instead of dropped
    (Bodla et al., 2017), as TensorFlow's ``NonMaxSuppressionV5``.

    >>> import tapegrad as tf
    >>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
    >>> idx, sc = tf.image.non_max_suppression_with_scores(boxes, [0.9, 0.8, 0.7], 3, soft_nms_sigma=0.5)
    >>> idx.numpy(), sc.numpy().round(4)
    (array([0, 2, 1], dtype=int32), array([0.9   , 0.7   , 0.4096], dtype=float32))
    """
    b, s, m, thr = _nms_inputs(boxes, scores, max_output_size, iou_threshold, "NonMaxSuppressionV5")
    sigma = float(_array(soft_nms_sigma, "soft_nms_sigma"))
    if sigma < 0:
        raise InvalidArgumentError("soft_nms_sigma must be non-negative [Op:NonMaxSuppressionV5]")
    sel, sc = _greedy(_iou_matrix(b), s, m, thr, float(_array(score_threshold, "score_threshold")), sigma)
    dt = s.dtype if s.dtype.kind == "f" else np.float32
    return wrap(np.asarray(sel, np.int32)), wrap(np.asarray(sc, dt))


@constant_maker  # (from guarded reads of the inputs: host_value)
def non_max_suppression_overlaps(overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any = 0.5,
                                 score_threshold: Any = float("-inf"), name: Any = None) -> Tensor:
    """Greedy non-max suppression on a given ``[n, n]`` overlap matrix instead of boxes' IoU.

    >>> import tapegrad as tf
    >>> ov = [[1.0, 0.8, 0.0], [0.8, 1.0, 0.1], [0.0, 0.1, 1.0]]
    >>> tf.image.non_max_suppression_overlaps(ov, [0.9, 0.8, 0.7], 3, 0.5).numpy()
    array([0, 2], dtype=int32)
    """
    ov, s = _array(overlaps, "overlaps", np.float32), _array(scores, "scores")
    if ov.ndim != 2 or ov.shape[0] != ov.shape[1]:
        raise InvalidArgumentError(f"overlaps must be square, got shape {list(ov.shape)} "
                                   "[Op:NonMaxSuppressionWithOverlaps]")
    if s.ndim != 1 or s.shape[0] != ov.shape[0]:
        raise InvalidArgumentError("scores has incompatible shape [Op:NonMaxSuppressionWithOverlaps]")
    sel, _ = _greedy(ov, s, int(_array(max_output_size, "max_output_size")),
                     float(_array(overlap_threshold, "overlap_threshold")),
                     float(_array(score_threshold, "score_threshold")))
    return wrap(np.asarray(sel, np.int32))


def _overlap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """TF's ``_bbox_overlap``: ``iou[k, i, j]`` of ``a[k, i]`` and ``b[k, j]`` (canonical boxes, +1e-8)."""
    ay0, ax0, ay1, ax1 = (a[..., i:i + 1] for i in range(4))
    by0, bx0, by1, bx1 = (np.swapaxes(b[..., i:i + 1], 1, 2) for i in range(4))
    f0 = np.float32(0)
    inter = np.maximum(np.minimum(ax1, bx1) - np.maximum(ax0, bx0), f0) * np.maximum(
        np.minimum(ay1, by1) - np.maximum(ay0, by0), f0)
    union = (ay1 - ay0) * (ax1 - ax0) + (by1 - by0) * (bx1 - bx0) - inter + np.float32(1e-8)
    return (inter / union).astype(np.float32)


def _padded_v2(boxes: np.ndarray, scores: np.ndarray, max_out: int, thr: float, sthr: float, sorted_input: bool,
               canonical: bool, tile: int) -> tuple[np.ndarray, np.ndarray]:
    """TF's ``non_max_suppression_padded_v2``, step for step: tiles of sorted boxes, each
    suppressed by the boxes kept in the tiles before it, then by itself to a fixed point."""
    boxes, scores = boxes.astype(np.float32), scores.astype(np.float32)
    nb, n = scores.shape
    t = np.float32(thr)
    if sthr != float("-inf"):
        keep = (scores > np.float32(sthr)).astype(np.float32)
        scores, boxes = scores * keep, boxes * keep[..., None]
    if not canonical and n:  # (TF looks at the first box only)
        y1, x1, y2, x2 = (boxes[..., i] for i in range(4))
        if not y1[0, 0] <= y2[0, 0]:
            y1, y2 = y2, y1
        if not x1[0, 0] <= x2[0, 0]:
            x1, x2 = x2, x1
        boxes = np.stack([y1, x1, y2, x2], -1)
    if not sorted_input:
        order = np.argsort(-scores, axis=1, kind="stable")
        scores, boxes = np.take_along_axis(scores, order, 1), np.take_along_axis(boxes, order[..., None], 1)
    pad = int(np.ceil(np.float32(max(n, max_out)) / np.float32(tile))) * tile - n
    boxes = np.pad(boxes, [(0, 0), (0, pad), (0, 0)])
    total = n + pad
    out_size = np.zeros(nb, np.int32)
    idx = 0
    while out_size.min() < max_out and idx < total // tile:
        sl = boxes[:, idx * tile:(idx + 1) * tile].copy()
        for inner in range(idx):
            iou = _overlap(boxes[:, inner * tile:(inner + 1) * tile], sl)
            sl *= np.all(iou < t, 1).astype(np.float32)[..., None]
        iou = _overlap(sl, sl)
        upper = np.arange(tile)[None, :] > np.arange(tile)[:, None]
        iou = iou * (upper[None] & (iou >= t)).astype(np.float32)
        total_iou, go = iou.sum((1, 2)), True
        while go:
            can = (iou.max(1) < t).astype(np.float32)[:, :, None]
            after = ((can * iou).max(1) < t).astype(np.float32)[:, :, None] * iou
            new_total = after.sum((1, 2))
            go = bool(np.any(total_iou - new_total > t))
            iou, total_iou = after, new_total
        sl *= (1.0 - (iou.sum(1) > 0).astype(np.float32))[..., None]
        boxes[:, idx * tile:(idx + 1) * tile] = sl
        out_size += np.any(sl > 0, 2).sum(1).astype(np.int32)
        idx += 1
    valid = np.minimum(out_size, max_out).astype(np.int32)
    ranks = np.any(boxes > 0, 2).astype(np.int32) * np.arange(total, 0, -1, dtype=np.int32)[None]
    top = -np.sort(-ranks, axis=1)[:, :max_out]
    sel = np.minimum(total - top, n - 1)
    if not sorted_input:
        sel = np.take_along_axis(order, np.maximum(sel, 0), 1) if n else sel
    sel = np.where(np.arange(max_out)[None] < valid[:, None], sel, 0).astype(np.int32)
    return sel, valid


@constant_maker  # (from guarded reads of the inputs: host_value)
def non_max_suppression_padded(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                               score_threshold: Any = float("-inf"), pad_to_max_output_size: bool = False,
                               name: Any = None, sorted_input: bool = False, canonicalized_coordinates: bool = False,
                               tile_size: int = 512) -> tuple[Tensor, Tensor]:
    """``(selected_indices, valid_outputs)`` of non-max suppression on ``[n, 4]`` boxes or batches
    ``[..., n, 4]`` (which need ``pad_to_max_output_size``), by TensorFlow's tiled algorithm
    (``non_max_suppression_padded_v2``, step for step: its corner order is read from the first
    box alone, and a box with no positive coordinate is never selected); the indices are padded
    with zeros to ``max_output_size`` when asked.

    >>> import tapegrad as tf
    >>> boxes = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
    >>> idx, n = tf.image.non_max_suppression_padded(boxes, [0.9, 0.8, 0.7], 3, pad_to_max_output_size=True)
    >>> idx.numpy(), int(n)
    (array([0, 2, 0], dtype=int32), 2)
    """
    b, s = _array(boxes, "boxes"), _array(scores, "scores")
    if not pad_to_max_output_size and b.ndim > 2:
        raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched input")
    if b.ndim < 2 or b.shape[-1] != 4 or s.shape != b.shape[:-1]:
        raise ValueError(f"boxes must be [..., num_boxes, 4] and scores [..., num_boxes]; got shapes "
                         f"{list(b.shape)} and {list(s.shape)}.")
    m = int(_array(max_output_size, "max_output_size"))
    batch = b.shape[:-2]
    sel, valid = _padded_v2(b.reshape(-1, *b.shape[-2:]), s.reshape(-1, s.shape[-1]), m,
                            float(_array(iou_threshold, "iou_threshold")),
                            float(_array(score_threshold, "score_threshold")), sorted_input,
                            canonicalized_coordinates, int(tile_size))
    if not pad_to_max_output_size:
        return wrap(sel[0, :valid[0]]), wrap(valid.reshape(batch))
    return wrap(sel.reshape(*batch, m)), wrap(valid.reshape(batch))


@constant_maker  # (from guarded reads of the inputs: host_value)
def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True, name: Any = None
                                 ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Non-max suppression per class and batch entry, then the best ``max_total_size`` of all
    classes by score, as TensorFlow's ``CombinedNonMaxSuppression``: returns ``(nmsed_boxes
    [batch, d, 4], nmsed_scores [batch, d], nmsed_classes [batch, d] (float), valid_detections
    [batch] (int32))``, zero-padded. ``boxes`` is ``[batch, n, q, 4]`` (``q`` 1: shared by the
    classes), ``scores`` ``[batch, n, classes]``; ``clip_boxes`` clips coordinates to [0, 1].

    >>> import tapegrad as tf
    >>> boxes = tf.constant([[[[0.0, 0, 1, 1]], [[0, 0.1, 1, 1.1]]]])
    >>> scores = tf.constant([[[0.9, 0.1], [0.8, 0.7]]])
    >>> b, s, c, n = tf.image.combined_non_max_suppression(boxes, scores, 2, 3)
    >>> s.numpy(), c.numpy(), n.numpy()
    (array([[0.9, 0.7, 0. ]], dtype=float32), array([[0., 1., 0.]], dtype=float32), array([2], dtype=int32))
    """
    b, s = _array(boxes, "boxes", np.float32), _array(scores, "scores", np.float32)
    op = "CombinedNonMaxSuppression"
    if b.ndim != 4 or b.shape[-1] != 4:
        raise InvalidArgumentError(f"boxes must be 4-D [batch_size, num_boxes, q, 4], got {list(b.shape)} [Op:{op}]")
    if s.ndim != 3 or s.shape[:2] != b.shape[:2]:
        raise InvalidArgumentError(f"scores must be 3-D [batch_size, num_boxes, num_classes] matching boxes, got "
                                   f"{list(s.shape)} [Op:{op}]")
    nclass, q = s.shape[2], b.shape[2]
    if q != 1 and q != nclass:
        raise InvalidArgumentError(f"third dimension of boxes must be either 1 or num classes [Op:{op}]")
    per_class = int(_array(max_output_size_per_class, "max_output_size_per_class"))
    total = int(_array(max_total_size, "max_total_size"))
    if per_class <= 0 or total <= 0:
        raise InvalidArgumentError(f"max_size_per_class and max_total_size must be > 0 [Op:{op}]")
    thr, sthr = float(_array(iou_threshold, "iou_threshold")), float(_array(score_threshold, "score_threshold"))
    if not 0 <= thr <= 1:
        raise InvalidArgumentError(f"iou_threshold must be in [0, 1] [Op:{op}]")
    width = min(per_class * nclass, total) if pad_per_class else total
    nb = b.shape[0]
    out_b = np.zeros((nb, width, 4), np.float32)
    out_s, out_c = np.zeros((nb, width), np.float32), np.zeros((nb, width), np.float32)
    valid = np.zeros(nb, np.int32)
    for k in range(nb):
        found = []  # (score, class, box)
        for c in range(nclass):
            bx = b[k, :, c if q > 1 else 0]
            sel, sc = _greedy(_iou_matrix(bx), s[k, :, c], per_class, thr, sthr)
            found += [(sc_, c, bx[i]) for i, sc_ in zip(sel, sc)]
        found.sort(key=lambda f: -f[0])
        found = found[:width]
        valid[k] = len(found)
        for j, (sc_, c, bx) in enumerate(found):
            out_b[k, j] = np.clip(bx, 0, 1) if clip_boxes else bx
            out_s[k, j], out_c[k, j] = sc_, c
    return wrap(out_b), wrap(out_s), wrap(out_c), wrap(valid)


def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str = "bilinear",
                    extrapolation_value: Any = 0.0, name: Any = None) -> Tensor:
    """Crops of ``image`` ``[batch, h, w, c]`` at normalised ``boxes`` ``[n, 4]`` (``[y1, x1, y2,
    x2]``, of the image ``box_indices[i]``) resized to ``crop_size`` ``[ch, cw]``, float32
    ``[n, ch, cw, c]``: TensorFlow's sampling (``y1 * (h - 1) + i * (y2 - y1) * (h - 1) / (ch -
    1)``), bilinear or nearest, ``extrapolation_value`` outside the image. Differentiable in the
    image and the boxes (bilinear), as TensorFlow's.

    >>> import tapegrad as tf
    >>> img = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
    >>> tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2])[0, ..., 0].numpy()
    array([[ 0.,  3.],
           [12., 15.]], dtype=float32)
    """
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"method must be 'bilinear' or 'nearest'; got {method!r}.")
    img = as_tensor(image)
    if img.dtype.name != "float32":
        img = cast(img, "float32")
    if img.shape.rank != 4:
        raise InvalidArgumentError(f"input image must be 4-D{list(img.shape)} [Op:CropAndResize]")
    bx = cast(as_tensor(boxes), "float32")
    if bx.shape.rank != 2 or bx.shape[1] != 4:
        raise InvalidArgumentError(f"boxes must be 2-D [num_boxes, 4]; got {list(bx.shape)} [Op:CropAndResize]")
    ind = as_tensor(box_indices)
    size = _array(crop_size, "crop_size").reshape(-1)
    if size.shape != (2,):
        raise InvalidArgumentError("crop_size must be a 1-D tensor of length 2 [Op:CropAndResize]")
    ch, cw = int(size[0]), int(size[1])
    if ch <= 0 or cw <= 0:
        raise InvalidArgumentError("crop dimensions must be positive [Op:CropAndResize]")
    nb, h, w, _ = (int(d) for d in img.shape)
    n = int(bx.shape[0])
    if ind.shape.rank != 1 or int(ind.shape[0]) != n:
        raise InvalidArgumentError("box_index has incompatible shape [Op:CropAndResize]")
    ind_v = _array(ind, "box_indices")
    if n and (ind_v.min() < 0 or ind_v.max() >= nb):
        raise OutOfRangeError("box_index has values outside [0, batch_size) [Op:CropAndResize]")
    ext = np.float32(extrapolation_value)

    def coords(lo: Tensor, hi: Tensor, size_in: int, size_out: int) -> Tensor:
        if size_out > 1:
            scale = (hi - lo) * float(size_in - 1) / float(size_out - 1)
            steps = wrap(np.arange(size_out, dtype=np.float32))
            return expand_dims(lo * float(size_in - 1), 1) + steps * expand_dims(scale, 1)
        return expand_dims(0.5 * (lo + hi) * float(size_in - 1), 1)

    in_y = coords(bx[:, 0], bx[:, 2], h, ch)  # [n, ch]
    in_x = coords(bx[:, 1], bx[:, 3], w, cw)  # [n, cw]
    ok = (expand_dims(expand_dims((in_y >= 0.0) & (in_y <= float(h - 1)), 2), 3)
          & expand_dims(expand_dims((in_x >= 0.0) & (in_x <= float(w - 1)), 1), 3))
    bi = reshape(cast(ind, "int32"), [n, 1, 1])

    def take(yi: Tensor, xi: Tensor) -> Tensor:  # image[box, yi, xi, :] for each crop pixel
        yy = reshape(cast(clip_by_value(yi, 0.0, float(h - 1)), "int32"), [n, ch, 1])
        xx = reshape(cast(clip_by_value(xi, 0.0, float(w - 1)), "int32"), [n, 1, cw])
        zeros = yy * 0 + xx * 0
        return gather_nd(img, stack([bi + zeros, yy + zeros, xx + zeros], -1))

    if method == "nearest":
        out = take(floor(in_y + 0.5), floor(in_x + 0.5))
    else:
        ty, tx = floor(in_y), floor(in_x)
        by, rx = ty + where(in_y > ty, 1.0, 0.0), tx + where(in_x > tx, 1.0, 0.0)  # (ceil)
        y_lerp = reshape(in_y - ty, [n, ch, 1, 1])
        x_lerp = reshape(in_x - tx, [n, 1, cw, 1])
        tl, tr, bl, br = take(ty, tx), take(ty, rx), take(by, tx), take(by, rx)
        top = tl + (tr - tl) * x_lerp
        bottom = bl + (br - bl) * x_lerp
        out = top + (bottom - top) * y_lerp
    return where(ok, out, ext)


_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
                            [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


@constant_maker  # (from guarded reads of the inputs: host_value)
def draw_bounding_boxes(images: Any, boxes: Any, colors: Any = None, name: Any = None) -> Tensor:
    """``images`` ``[batch, h, w, depth]`` (float; depth 1, 3 or 4) with the outlines of
    ``boxes`` ``[batch, n, 4]`` (normalised ``[y1, x1, y2, x2]``) drawn one pixel wide, box
    ``i`` in ``colors[i % len(colors)]`` (RGBA rows; TensorFlow's ten default colours when None, all
    white on a one-channel image).
    Rows and columns are ``int(coordinate * (size - 1))``; an inverted box is skipped, a box
    partly outside is clipped (its outside edges not drawn), as TensorFlow's kernel.

    >>> import tapegrad as tf
    >>> img = tf.zeros([1, 4, 5, 1])
    >>> tf.image.draw_bounding_boxes(img, [[[0.0, 0.0, 1.0, 0.5]]], [[0.5, 0, 0, 1]])[0, ..., 0].numpy()
    array([[0.5, 0.5, 0.5, 0. , 0. ],
           [0.5, 0. , 0.5, 0. , 0. ],
           [0.5, 0. , 0.5, 0. , 0. ],
           [0.5, 0.5, 0.5, 0. , 0. ]], dtype=float32)
    """
    img = as_tensor(images)
    if img.dtype.name not in ("float32", "float16"):
        raise InvalidArgumentError(f"draw_bounding_boxes takes float16 or float32 images; got {img.dtype.name} "
                                   "(tf.image.convert_image_dtype converts).")
    canvas = np.array(host_value(img, "images"), copy=True)
    if canvas.ndim != 4:
        raise InvalidArgumentError("The rank of the images should be 4 [Op:DrawBoundingBoxesV2]")
    nb, h, w, depth = canvas.shape
    if depth not in (1, 3, 4):
        raise InvalidArgumentError("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA) "
                                   "[Op:DrawBoundingBoxesV2]")
    bx = _array(boxes, "boxes", np.float32)
    if bx.ndim != 3 or bx.shape[0] != nb or bx.shape[2] != 4:
        raise InvalidArgumentError(f"boxes must be [batch, num_boxes, 4] with the images' batch; got "
                                   f"{list(bx.shape)} [Op:DrawBoundingBoxesV2]")
    table = _DEFAULT_COLORS if colors is None else _array(colors, "colors", np.float32)
    if table.size == 0:
        table = _DEFAULT_COLORS
    if table.ndim != 2 or table.shape[1] < depth:
        raise InvalidArgumentError(f"colors must be [num_colors, 4] (at least {depth} columns); got "
                                   f"{list(table.shape)} [Op:DrawBoundingBoxesV2]")
    if depth == 1 and table is _DEFAULT_COLORS:  # (TF's: on a grey image the default boxes are white)
        table = np.array(table, copy=True)
        table[:, 0] = 1
    for b in range(nb):
        for k in range(bx.shape[1]):
            color = table[k % len(table), :depth]
            y0, x0, y1, x1 = (int(np.float32(c) * np.float32(n - 1)) for c, n in zip(bx[b, k], (h, w, h, w)))
            if y0 > y1 or x0 > x1 or y0 >= h or y1 < 0 or x0 >= w or x1 < 0:
                continue
            r0, r1, c0, c1 = max(y0, 0), min(y1, h - 1), max(x0, 0), min(x1, w - 1)
            if y0 >= 0:
                canvas[b, y0, c0:c1 + 1] = color
            if y1 < h:
                canvas[b, y1, c0:c1 + 1] = color
            if x0 >= 0:
                canvas[b, r0:r1 + 1, x0] = color
            if x1 < w:
                canvas[b, r0:r1 + 1, x1] = color
    return wrap(canvas)
