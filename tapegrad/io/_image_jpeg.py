"""TensorFlow's default JPEG decoding (libjpeg-turbo's fast integer IDCT, ``JDCT_IFAST``, with fancy
upsampling), which Pillow cannot select: a baseline JPEG's Huffman-coded coefficients are read here and
run through libjpeg's integer arithmetic (jidctfst's AAN IDCT with 8 fractional bits and truncating
shifts, jdsample's fancy h2v1/h2v2 upsampling, jdcolor's YCbCr tables). ``decode`` returns ``None``
for what it does not cover (progressive, arithmetic-coded, 12-bit, CMYK/Adobe-transform files, other
samplings), and the caller falls back to Pillow's accurate DCT."""
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


def _segments(data: bytes) -> Any:
    """The markers of a JPEG file up to the first scan: (marker, payload) pairs, then the scan data."""
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        size, = struct.unpack_from(">H", data, i + 2)
        yield marker, data[i + 4:i + 2 + size], i + 2 + size
        i += 2 + size


def _unstuff(seg: bytes) -> tuple[list, int]:
    """The entropy-coded bytes without stuffing, as 24-bit windows per byte, and their bit count."""
    b = np.frombuffer(seg.replace(b"\xff\x00", b"\xff"), np.uint8).astype(np.int64)
    n = len(b)
    padded = np.concatenate([b, np.zeros(8, np.int64)])
    w24 = (padded[:n + 6] << 16) | (padded[1:n + 7] << 8) | padded[2:n + 8]
    return w24.tolist(), 8 * n


def _decode_scan(seg: bytes, comps: list, mcux: int, mcuy: int, restart: int, dc_tabs: dict,
                 ac_tabs: dict) -> bool:
    """Decode an interleaved baseline scan into ``planes`` (per component ``[by, bx, 64]`` coefficients)."""
    chunks, i, start = [], 0, 0
    while True:  # split at restart markers
        j = seg.find(b"\xff", i)
        if j < 0 or j + 1 >= len(seg):
            chunks.append(seg[start:])
            break
        if 0xD0 <= seg[j + 1] <= 0xD7:
            chunks.append(seg[start:j])
            start = i = j + 2
        else:
            i = j + 2
    total = mcux * mcuy
    per = restart if restart else total
    single = len(comps) == 1
    mcu = 0
    for chunk in chunks:
        if mcu >= total:
            break
        w24, nbits = _unstuff(chunk)
        p = 0
        pred = [0] * len(comps)
        for _ in range(min(per, total - mcu)):
            my, mx = divmod(mcu, mcux)
            for ci, (h, v, dc, ac, out) in enumerate(comps):
                for by in range(v):
                    for bx in range(h):
                        q = p >> 3
                        look = (w24[q] >> (8 - (p & 7))) & 0xFFFF
                        e = dc_tabs[dc][look]
                        if not e:
                            return False
                        p += e >> 8
                        s = e & 0xFF
                        diff = 0
                        if s:
                            q = p >> 3
                            diff = ((w24[q] >> (8 - (p & 7))) & 0xFFFF) >> (16 - s)
                            p += s
                            if diff < (1 << (s - 1)):
                                diff -= (1 << s) - 1
                        pred[ci] += diff
                        blk = out[my if single else my * v + by][mx if single else mx * h + bx]
                        blk[0] = pred[ci]
                        k = 1
                        tab = ac_tabs[ac]
                        while k < 64:
                            q = p >> 3
                            look = (w24[q] >> (8 - (p & 7))) & 0xFFFF
                            e = tab[look]
                            if not e:
                                return False
                            p += e >> 8
                            rs = e & 0xFF
                            r, s = rs >> 4, rs & 15
                            if s == 0:
                                if r != 15:
                                    break
                                k += 16
                                continue
                            k += r
                            q = p >> 3
                            val = ((w24[q] >> (8 - (p & 7))) & 0xFFFF) >> (16 - s)
                            p += s
                            if val < (1 << (s - 1)):
                                val -= (1 << s) - 1
                            if k < 64:
                                blk[k] = val
                            k += 1
            mcu += 1
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


def _fancy_h2v1(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    left = np.concatenate([x[:, :1], x[:, :-1]], 1)
    right = np.concatenate([x[:, 1:], x[:, -1:]], 1)
    out = np.empty((x.shape[0], 2 * x.shape[1]), np.int64)
    out[:, 0::2] = (3 * x + left + 1) >> 2
    out[:, 1::2] = (3 * x + right + 2) >> 2
    out[:, 0], out[:, -1] = x[:, 0], x[:, -1]
    return out


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


def decode(data: bytes, channels: int) -> np.ndarray | None:
    """``[h, w, c]`` uint8 as TensorFlow's default JPEG decoding gives it, or None when not covered
    (or damaged: the caller's decoder then reports the damage)."""
    try:
        return _decode(data, channels)
    except (IndexError, ValueError, struct.error):
        return None


def _decode(data: bytes, channels: int) -> np.ndarray | None:
    quant: dict = {}
    dc_tabs: dict = {}
    ac_tabs: dict = {}
    frame = None
    restart = 0
    adobe = None
    jfif = False
    for marker, body, end in _segments(data):
        if marker == 0xDB:
            i = 0
            while i < len(body):
                pq, tq = body[i] >> 4, body[i] & 15
                if pq:
                    return None  # 16-bit quantization tables
                quant[tq] = np.frombuffer(body, np.uint8, 64, i + 1).astype(np.int64)[np.argsort(_ZIGZAG)]
                i += 65
        elif marker == 0xC4:
            i = 0
            while i < len(body):
                tc, th = body[i] >> 4, body[i] & 15
                counts = body[i + 1:i + 17]
                n = sum(counts)
                (ac_tabs if tc else dc_tabs)[th] = _lookup(bytes(counts), bytes(body[i + 17:i + 17 + n]))
                i += 17 + n
        elif marker in (0xC0, 0xC1):
            if body[0] != 8:
                return None
            hgt, wid, nc = struct.unpack_from(">HHB", body, 1)
            frame = (hgt, wid, [(body[6 + 3 * k], body[7 + 3 * k] >> 4, body[7 + 3 * k] & 15, body[8 + 3 * k])
                                for k in range(nc)])
        elif 0xC2 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return None  # progressive, lossless or arithmetic coding
        elif marker == 0xDD:
            restart, = struct.unpack_from(">H", body, 0)
        elif marker == 0xE0 and body[:5] == b"JFIF\0":
            jfif = True
        elif marker == 0xEE and body[:5] == b"Adobe":
            adobe = body[11] if len(body) > 11 else 0
        elif marker == 0xDA:
            if frame is None:
                return None
            hgt, wid, fcomps = frame
            ns = body[0]
            if ns != len(fcomps) or hgt == 0:
                return None  # non-interleaved scans
            return _finish(data[end:], body, fcomps, hgt, wid, quant, dc_tabs, ac_tabs, restart, channels,
                           jfif, adobe)
    return None


def _finish(scan: bytes, sos: bytes, fcomps: list, hgt: int, wid: int, quant: dict, dc_tabs: dict, ac_tabs: dict,
            restart: int, channels: int, jfif: bool, adobe: Any) -> np.ndarray | None:
    nc = len(fcomps)
    if nc not in (1, 3):
        return None
    if nc == 3 and not jfif and (adobe == 0 or (adobe is None and [c[0] for c in fcomps] == [82, 71, 66])):
        return None  # RGB-coded JPEG
    hmax, vmax = max(c[1] for c in fcomps), max(c[2] for c in fcomps)
    if nc == 3 and (fcomps[1][1:3] != (1, 1) or fcomps[2][1:3] != (1, 1) or
                    (fcomps[0][1], fcomps[0][2]) not in ((1, 1), (2, 1), (2, 2))):
        return None
    if nc == 1:
        hmax = vmax = 1
        fcomps = [(fcomps[0][0], 1, 1, fcomps[0][3])]
    mcux, mcuy = -(-wid // (8 * hmax)), -(-hgt // (8 * vmax))
    order = {c[0]: k for k, c in enumerate(fcomps)}
    comps, blocks = [], []
    for k in range(sos[0]):
        cid, tabs = sos[1 + 2 * k], sos[2 + 2 * k]
        fi = order.get(cid)
        if fi is None or fcomps[fi][3] not in quant:
            return None
        _, h, v, _ = fcomps[fi]
        by, bx = (mcuy, mcux) if nc == 1 else (mcuy * v, mcux * h)
        if nc == 1:
            by, bx = -(-hgt // 8), -(-wid // 8)
        out = [[[0] * 64 for _ in range(bx)] for _ in range(by)]
        if tabs >> 4 not in dc_tabs or tabs & 15 not in ac_tabs:
            return None
        comps.append((h, v, tabs >> 4, tabs & 15, out))
        blocks.append((fi, out))
    if nc == 1:
        mcux, mcuy = -(-wid // 8), -(-hgt // 8)
    if not _decode_scan(scan, comps, mcux, mcuy, restart, dc_tabs, ac_tabs):
        return None
    planes: list = [None] * nc
    for fi, out in blocks:
        coef = np.array(out, np.int64)
        by, bx = coef.shape[:2]
        natural = np.zeros((by * bx, 64), np.int64)
        natural[:, _ZIGZAG] = coef.reshape(-1, 64)
        px = _idct_ifast(natural, quant[fcomps[fi][3]]).reshape(by, bx, 8, 8).transpose(0, 2, 1, 3)
        _, h, v, _ = fcomps[fi]
        ch, cw = -(-hgt * v // vmax), -(-wid * h // hmax)
        # a one-sample-wide plane: libjpeg's fancy upsampling reads the decoded padding column
        planes[fi] = px.reshape(by * 8, bx * 8)[:ch, :max(cw, 2 if h < hmax else 1)]
    y = planes[0].astype(np.int64)
    if nc == 1 or channels == 1:
        g = y[:hgt, :wid].astype(np.uint8)
        return np.repeat(g[..., None], 3, -1) if channels == 3 else g[..., None]
    up = _fancy_h2v2 if (hmax, vmax) == (2, 2) else _fancy_h2v1 if (hmax, vmax) == (2, 1) else None
    cb, cr = planes[1], planes[2]
    if up is not None:
        cb, cr = up(cb)[:hgt, :wid], up(cr)[:hgt, :wid]
    cb, cr = cb.astype(np.int64), cr.astype(np.int64)
    y = y[:hgt, :wid]
    rgb = np.stack([y + _CR_R[cr], y + ((_CB_G[cb] + _CR_G[cr]) >> 16), y + _CB_B[cb]], -1)
    return np.clip(rgb, 0, 255).astype(np.uint8)
