"""TensorFlow's JPEG decoding: libjpeg-turbo's fast integer IDCT (``JDCT_IFAST``, TensorFlow's default,
which Pillow cannot select) or its accurate one (``JDCT_ISLOW``), with fancy upsampling. A baseline or
progressive JPEG's Huffman-coded coefficients are read here (jdhuff/jdphuff's rules, restart
intervals, successive approximation) and run through libjpeg's integer arithmetic (jidctfst's AAN
IDCT with 8 fractional bits and truncating shifts, or jidctint's LL&M IDCT with 13; jdsample's fancy
h2v1/h2v2 upsampling; jdcolor's YCbCr tables; jpeg_crop_scanline's window for decode_and_crop_jpeg). ``decode`` returns ``None`` for what
it does not cover (arithmetic-coded, 12-bit, CMYK/Adobe-RGB files, other samplings) or a damaged
file, and the caller falls back to Pillow."""
from __future__ import annotations

import struct
from functools import lru_cache
from typing import Any

import numpy as np

_ZIGZAG = np.array([0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
                    13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52,
                    45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63])
_AANSCALES = np.array([
    16384, 22725, 21407, 19266, 16384, 12873, 8867, 4520, 22725, 31521, 29692, 26722, 22725, 17855, 12299, 6270,
    21407, 29692, 27969, 25172, 21407, 16819, 11585, 5906, 19266, 26722, 25172, 22654, 19266, 15137, 10426, 5315,
    16384, 22725, 21407, 19266, 16384, 12873, 8867, 4520, 12873, 17855, 16819, 15137, 12873, 10114, 6967, 3552,
    8867, 12299, 11585, 10426, 8867, 6967, 4799, 2446, 4520, 6270, 5906, 5315, 4520, 3552, 2446, 1247], np.int64)


@lru_cache(maxsize=32)
def _lookup(counts: bytes, symbols: bytes) -> list:
    """A 65536-entry table: the next 16 bits -> ``symbol | length << 8`` (0 for an invalid code)."""
    table = np.zeros(65536, np.int64)
    code, k = 0, 0
    for length in range(1, 17):
        for _ in range(counts[length - 1]):
            lo = code << (16 - length)
            table[lo:lo + (1 << (16 - length))] = symbols[k] | (length << 8)
            code, k = code + 1, k + 1
        code <<= 1
    return table.tolist()


def _unstuff(seg: bytes) -> tuple[list, int]:
    """The entropy-coded bytes without stuffing, as 24-bit windows per byte, and their bit count."""
    b = np.frombuffer(seg.replace(b"\xff\x00", b"\xff"), np.uint8).astype(np.int64)
    n = len(b)
    padded = np.concatenate([b, np.zeros(8, np.int64)])
    w24 = (padded[:n + 6] << 16) | (padded[1:n + 7] << 8) | padded[2:n + 8]
    return w24.tolist(), 8 * n


def _restart_chunks(seg: bytes) -> list:
    chunks, i, start = [], 0, 0
    while True:  # split at restart markers
        j = seg.find(b"\xff", i)
        if j < 0 or j + 1 >= len(seg):
            chunks.append(seg[start:])
            return chunks
        if 0xD0 <= seg[j + 1] <= 0xD7:
            chunks.append(seg[start:j])
            start = i = j + 2
        else:
            i = j + 2


def _decode_scan(seg: bytes, units: list, restart: int, ss: int, se: int, ah: int, al: int,
                 progressive: bool) -> bool:
    """Decode one scan. ``units``: the scan's MCUs in order, each a list of ``(block, dc, ac, comp)``
    (a block is a 64-list of zigzag-ordered coefficients); libjpeg's jdhuff/jdphuff rules."""
    chunks = _restart_chunks(seg)
    per = restart if restart else len(units)
    u = 0
    p1, m1 = 1 << al, -1 << al
    for chunk in chunks:
        if u >= len(units):
            break
        w24, nbits = _unstuff(chunk)
        p = 0
        pred: dict = {}
        eobrun = 0
        for unit in units[u:u + per]:
            for blk, dc, ac, comp in unit:
                if ss == 0:  # DC
                    if ah == 0 or not progressive:
                        e = dc[(w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF]
                        if not e:
                            return False
                        p += e >> 8
                        t = e & 0xFF
                        diff = 0
                        if t:
                            diff = ((w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF) >> (16 - t)
                            p += t
                            if diff < (1 << (t - 1)):
                                diff -= (1 << t) - 1
                        v = pred.get(comp, 0) + diff
                        pred[comp] = v
                        blk[0] = v << al
                    else:
                        if (w24[p >> 3] >> (23 - (p & 7))) & 1:
                            blk[0] |= p1
                        p += 1
                    if progressive:
                        continue
                k = max(ss, 1)
                if not progressive or ah == 0:
                    if eobrun:
                        eobrun -= 1
                        continue
                    while k <= se:
                        e = ac[(w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF]
                        if not e:
                            return False
                        p += e >> 8
                        rs = e & 0xFF
                        r, t = rs >> 4, rs & 15
                        if t == 0:
                            if r != 15:
                                if progressive:
                                    eobrun = (1 << r) - 1
                                    if r:
                                        eobrun += ((w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF) >> (16 - r)
                                        p += r
                                break
                            k += 16
                            continue
                        k += r
                        val = ((w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF) >> (16 - t)
                        p += t
                        if val < (1 << (t - 1)):
                            val -= (1 << t) - 1
                        if k < 64:
                            blk[k] = val << al
                        k += 1
                    continue
                # AC refinement (jdphuff decode_mcu_AC_refine)
                if eobrun == 0:
                    while k <= se:
                        e = ac[(w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF]
                        if not e:
                            return False
                        p += e >> 8
                        rs = e & 0xFF
                        r, t = rs >> 4, rs & 15
                        if t:
                            t = p1 if (w24[p >> 3] >> (23 - (p & 7))) & 1 else m1
                            p += 1
                        elif r != 15:
                            eobrun = 1 << r
                            if r:
                                eobrun += ((w24[p >> 3] >> (8 - (p & 7))) & 0xFFFF) >> (16 - r)
                                p += r
                            break
                        while k <= se:
                            c = blk[k]
                            if c:
                                if (w24[p >> 3] >> (23 - (p & 7))) & 1 and not c & p1:
                                    blk[k] = c + p1 if c >= 0 else c + m1
                                p += 1
                            else:
                                r -= 1
                                if r < 0:
                                    break
                            k += 1
                        if t and k < 64:
                            blk[k] = t
                        k += 1
                if eobrun > 0:
                    while k <= se:
                        c = blk[k]
                        if c:
                            if (w24[p >> 3] >> (23 - (p & 7))) & 1 and not c & p1:
                                blk[k] = c + p1 if c >= 0 else c + m1
                            p += 1
                        k += 1
                    eobrun -= 1
        u += per
        if p > nbits:  # truncated: the caller's fallback reports it
            return False
    return True


def _idct_ifast(coef: np.ndarray, quant: np.ndarray) -> np.ndarray:
    """jidctfst.c on ``[n, 64]`` natural-order coefficients: ``[n, 8, 8]`` samples."""
    mult = (quant.astype(np.int64) * _AANSCALES + (1 << 11)) >> 12
    x = (coef.astype(np.int64) * mult).reshape(-1, 8, 8)

    def mul(v: np.ndarray, c: int) -> np.ndarray:
        return (v * c) >> 8

    def one_d(v: list) -> list:
        tmp10, tmp11 = v[0] + v[4], v[0] - v[4]
        tmp13 = v[2] + v[6]
        tmp12 = mul(v[2] - v[6], 362) - tmp13
        t0, t3, t1, t2 = tmp10 + tmp13, tmp10 - tmp13, tmp11 + tmp12, tmp11 - tmp12
        z13, z10, z11, z12 = v[5] + v[3], v[5] - v[3], v[1] + v[7], v[1] - v[7]
        t7 = z11 + z13
        tmp11 = mul(z11 - z13, 362)
        z5 = mul(z10 + z12, 473)
        tmp10 = mul(z12, 277) - z5
        tmp12 = mul(z10, -669) + z5
        t6 = tmp12 - t7
        t5 = tmp11 - t6
        t4 = tmp10 + t5
        return [t0 + t7, t1 + t6, t2 + t5, t3 - t4, t3 + t4, t2 - t5, t1 - t6, t0 - t7]

    cols = np.stack(one_d([x[:, r, :] for r in range(8)]), 1)        # pass 1 over columns: [n, 8 rows, 8 cols]
    rows = np.stack(one_d([cols[:, :, c] for c in range(8)]), 2)     # pass 2 over rows
    v = ((rows >> 5) + 512) & 1023                                   # IDESCALE(x, 5) & RANGE_MASK
    return np.clip(v - 512 + 128, 0, 255).astype(np.uint8)


def _idct_islow(coef: np.ndarray, quant: np.ndarray) -> np.ndarray:
    """jidctint.c (``JDCT_ISLOW``, TensorFlow's ``dct_method="INTEGER_ACCURATE"``) on ``[n, 64]``
    natural-order coefficients: ``[n, 8, 8]`` samples."""
    x = (coef.astype(np.int64) * quant.astype(np.int64)).reshape(-1, 8, 8)

    def one_d(v: list, shift: int, scale_in: bool) -> list:
        z2, z3 = v[2], v[6]
        z1 = (z2 + z3) * 4433
        tmp2, tmp3 = z1 + z3 * -15137, z1 + z2 * 6270
        tmp0, tmp1 = (v[0] + v[4]) << 13, (v[0] - v[4]) << 13
        tmp10, tmp13, tmp11, tmp12 = tmp0 + tmp3, tmp0 - tmp3, tmp1 + tmp2, tmp1 - tmp2
        t0, t1, t2, t3 = v[7], v[5], v[3], v[1]
        z1, z2, z3, z4 = t0 + t3, t1 + t2, t0 + t2, t1 + t3
        z5 = (z3 + z4) * 9633
        t0, t1, t2, t3 = t0 * 2446, t1 * 16819, t2 * 25172, t3 * 12299
        z1, z2, z3, z4 = z1 * -7373, z2 * -20995, z3 * -16069 + z5, z4 * -3196 + z5
        t0, t1, t2, t3 = t0 + z1 + z3, t1 + z2 + z4, t2 + z2 + z3, t3 + z1 + z4
        half = 1 << (shift - 1)
        return [(a + half) >> shift for a in (tmp10 + t3, tmp11 + t2, tmp12 + t1, tmp13 + t0,
                                              tmp13 - t0, tmp12 - t1, tmp11 - t2, tmp10 - t3)]

    cols = np.stack(one_d([x[:, r, :] for r in range(8)], 11, True), 1)
    rows = np.stack(one_d([cols[:, :, c] for c in range(8)], 18, False), 2)
    v = (rows + 512) & 1023
    return np.clip(v - 512 + 128, 0, 255).astype(np.uint8)


def _fancy_h2v1(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    left = np.concatenate([x[:, :1], x[:, :-1]], 1)
    right = np.concatenate([x[:, 1:], x[:, -1:]], 1)
    out = np.empty((x.shape[0], 2 * x.shape[1]), np.int64)
    out[:, 0::2] = (3 * x + left + 1) >> 2
    out[:, 1::2] = (3 * x + right + 2) >> 2
    out[:, 0], out[:, -1] = x[:, 0], x[:, -1]
    return out


def _repeat_h2v1(x: np.ndarray) -> np.ndarray:
    return np.repeat(x.astype(np.int64), 2, 1)


def _repeat_h2v2(x: np.ndarray) -> np.ndarray:
    return np.repeat(np.repeat(x.astype(np.int64), 2, 0), 2, 1)


def _fancy_h2v2(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    up = np.concatenate([x[:1], x[:-1]], 0)
    down = np.concatenate([x[1:], x[-1:]], 0)
    out = np.empty((2 * x.shape[0], 2 * x.shape[1]), np.int64)
    for r, near in ((0, up), (1, down)):
        s = 3 * x + near                                     # thiscolsum
        last = np.concatenate([s[:, :1], s[:, :-1]], 1)
        nxt = np.concatenate([s[:, 1:], s[:, -1:]], 1)
        even = (3 * s + last + 8) >> 4
        odd = (3 * s + nxt + 7) >> 4
        even[:, 0] = (4 * s[:, 0] + 8) >> 4
        odd[:, -1] = (4 * s[:, -1] + 7) >> 4
        out[r::2, 0::2], out[r::2, 1::2] = even, odd
    return out


def _fix(v: float) -> int:
    return int(v * 65536 + 0.5)


_X = np.arange(256, dtype=np.int64) - 128
_CR_R = (_fix(1.40200) * _X + 32768) >> 16
_CB_B = (_fix(1.77200) * _X + 32768) >> 16
_CR_G = -_fix(0.71414) * _X
_CB_G = -_fix(0.34414) * _X + 32768


def decode(data: bytes, channels: int, crop: tuple | None = None, fast: bool = True,
           fancy: bool = True) -> np.ndarray | None:
    """``[h, w, c]`` uint8 as TensorFlow's default JPEG decoding gives it (of the window ``crop`` =
    ``(y, x, height, width)`` as ``decode_and_crop_jpeg`` gives it, which the caller has checked), or
    None when not covered (or damaged: the caller's decoder then reports the damage)."""
    try:
        return _decode(data, channels, crop, fast, fancy)
    except (IndexError, ValueError, struct.error):
        return None


def _decode(data: bytes, channels: int, crop: tuple | None, fast: bool, fancy: bool) -> np.ndarray | None:
    quant: dict = {}
    dc_tabs: dict = {}
    ac_tabs: dict = {}
    frame = None
    restart = 0
    adobe = None
    jfif = False
    progressive = False
    coefs: list = []
    geo: list = []
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker == 0xD9:
            break
        size, = struct.unpack_from(">H", data, i + 2)
        body, end = data[i + 4:i + 2 + size], i + 2 + size
        i = end
        if marker == 0xDB:
            k = 0
            while k < len(body):
                pq, tq = body[k] >> 4, body[k] & 15
                if pq:
                    return None  # 16-bit quantization tables
                quant[tq] = np.frombuffer(body, np.uint8, 64, k + 1).astype(np.int64)[np.argsort(_ZIGZAG)]
                k += 65
        elif marker == 0xC4:
            k = 0
            while k < len(body):
                tc, th = body[k] >> 4, body[k] & 15
                counts = body[k + 1:k + 17]
                n = sum(counts)
                (ac_tabs if tc else dc_tabs)[th] = _lookup(bytes(counts), bytes(body[k + 17:k + 17 + n]))
                k += 17 + n
        elif marker in (0xC0, 0xC1, 0xC2):
            if body[0] != 8 or frame is not None:
                return None
            progressive = marker == 0xC2
            hgt, wid, nc = struct.unpack_from(">HHB", body, 1)
            if hgt == 0 or nc not in (1, 3):
                return None
            frame = (hgt, wid, [(body[6 + 3 * k], body[7 + 3 * k] >> 4, body[7 + 3 * k] & 15, body[8 + 3 * k])
                                for k in range(nc)])
            if nc == 1:
                frame[2][0] = (frame[2][0][0], 1, 1, frame[2][0][3])
            comps = frame[2]
            hmax, vmax = max(c[1] for c in comps), max(c[2] for c in comps)
            mcux, mcuy = -(-wid // (8 * hmax)), -(-hgt // (8 * vmax))
            for _, h, v, _ in comps:
                coefs.append([[[0] * 64 for _ in range(mcux * h)] for _ in range(mcuy * v)])
                geo.append((-(-(-(-hgt * v // vmax)) // 8), -(-(-(-wid * h // hmax)) // 8)))
        elif 0xC3 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return None  # lossless or arithmetic coding
        elif marker == 0xDD:
            restart, = struct.unpack_from(">H", body, 0)
        elif marker == 0xE0 and body[:5] == b"JFIF\0":
            jfif = True
        elif marker == 0xEE and body[:5] == b"Adobe":
            adobe = body[11] if len(body) > 11 else 0
        elif marker == 0xDA:
            if frame is None:
                return None
            j = end  # the entropy-coded data runs to the next marker other than a restart
            while True:
                j = data.find(b"\xff", j)
                if j < 0 or j + 1 >= len(data):
                    j = len(data)
                    break
                if data[j + 1] == 0 or 0xD0 <= data[j + 1] <= 0xD7:
                    j += 2
                    continue
                break
            if not _scan(data[end:j], body, frame, coefs, geo, dc_tabs, ac_tabs, restart, progressive):
                return None
            i = j
    if frame is None or not coefs:
        return None
    return _finish(frame, coefs, quant, channels, jfif, adobe, crop, fast, fancy)


def _scan(seg: bytes, sos: bytes, frame: tuple, coefs: list, geo: list, dc_tabs: dict, ac_tabs: dict,
          restart: int, progressive: bool) -> bool:
    hgt, wid, comps = frame
    ns = sos[0]
    ss, se, ah, al = sos[1 + 2 * ns], sos[2 + 2 * ns], sos[3 + 2 * ns] >> 4, sos[3 + 2 * ns] & 15
    order = {c[0]: k for k, c in enumerate(comps)}
    members = []
    for k in range(ns):
        fi = order.get(sos[1 + 2 * k])
        if fi is None:
            return False
        td, ta = sos[2 + 2 * k] >> 4, sos[2 + 2 * k] & 15
        if (ss == 0 and ah == 0 and td not in dc_tabs) or (se > 0 and ta not in ac_tabs):
            return False
        members.append((fi, dc_tabs.get(td), ac_tabs.get(ta)))
    if not progressive:
        ss, se, ah, al = 0, 63, 0, 0
    units = []
    if ns == 1:  # non-interleaved: the component's own blocks, row by row
        fi, dc, ac = members[0]
        rows, cols = geo[fi]
        grid = coefs[fi]
        units = [[(grid[r][c], dc, ac, fi)] for r in range(rows) for c in range(cols)]
    else:
        hmax, vmax = max(c[1] for c in comps), max(c[2] for c in comps)
        mcux, mcuy = -(-wid // (8 * hmax)), -(-hgt // (8 * vmax))
        for my in range(mcuy):
            for mx in range(mcux):
                unit = []
                for fi, dc, ac in members:
                    _, h, v, _ = comps[fi]
                    grid = coefs[fi]
                    unit += [(grid[my * v + by][mx * h + bx], dc, ac, fi) for by in range(v) for bx in range(h)]
                units.append(unit)
    return _decode_scan(seg, units, restart, ss, se, ah, al, progressive)


def _finish(frame: tuple, coefs: list, quant: dict, channels: int, jfif: bool, adobe: Any,
            crop: tuple | None, fast: bool, fancy: bool) -> np.ndarray | None:
    hgt, wid, fcomps = frame
    nc = len(fcomps)
    if nc == 3 and not jfif and (adobe == 0 or (adobe is None and [c[0] for c in fcomps] == [82, 71, 66])):
        return None  # RGB-coded JPEG
    hmax, vmax = max(c[1] for c in fcomps), max(c[2] for c in fcomps)
    if nc == 3 and (fcomps[1][1:3] != (1, 1) or fcomps[2][1:3] != (1, 1) or
                    (fcomps[0][1], fcomps[0][2]) not in ((1, 1), (2, 1), (2, 2))):
        return None
    planes: list = [None] * nc
    for fi in range(nc):
        if fcomps[fi][3] not in quant:
            return None
        coef = np.array(coefs[fi], np.int64)
        by, bx = coef.shape[:2]
        natural = np.zeros((by * bx, 64), np.int64)
        natural[:, _ZIGZAG] = coef.reshape(-1, 64)
        idct = _idct_ifast if fast else _idct_islow
        px = idct(natural, quant[fcomps[fi][3]]).reshape(by, bx, 8, 8).transpose(0, 2, 1, 3)
        _, h, v, _ = fcomps[fi]
        planes[fi] = px.reshape(by * 8, bx * 8)[:-(-hgt * v // vmax)]  # padding columns kept
    top, left, oh, ow = crop if crop is not None else (0, 0, hgt, wid)
    y = planes[0][top:top + oh, left:left + ow].astype(np.int64)
    if nc == 1 or channels == 1:
        g = y.astype(np.uint8)
        return np.repeat(g[..., None], 3, -1) if channels == 3 else g[..., None]
    up = _fancy_h2v2 if (hmax, vmax) == (2, 2) else _fancy_h2v1 if (hmax, vmax) == (2, 1) else None
    if up is not None and not fancy:  # jdmerge's merged upsampling: each chroma sample repeated
        up = _repeat_h2v2 if vmax == 2 else _repeat_h2v1
    if up is None:
        cb, cr = (planes[k][top:top + oh, left:left + ow] for k in (1, 2))
    else:
        # libjpeg upsamples the columns it outputs: the whole width, or under jpeg_crop_scanline the
        # window widened left to an iMCU boundary, both ends taken as image edges; a one-sample-wide
        # plane reads the decoded padding column
        x0 = left // (8 * hmax) * (8 * hmax)
        c0, n = x0 // hmax, -(-(left + ow - x0) // hmax)
        cb, cr = (up(planes[k][:, c0:c0 + max(n, 2)])[top:top + oh, left - x0:left - x0 + ow] for k in (1, 2))
    cb, cr = cb.astype(np.int64), cr.astype(np.int64)
    rgb = np.stack([y + _CR_R[cr], y + ((_CB_G[cb] + _CR_G[cr]) >> 16), y + _CB_B[cb]], -1)
    return np.clip(rgb, 0, 255).astype(np.uint8)
