"""TensorFlow's counter-based random numbers (Philox-4x32-10 and the CPU kernels' transforms).

A Philox state is a 64-bit ``key`` and a 128-bit ``counter`` (Python ints). One call of the
bijection maps a counter to a block of four uint32; block ``i`` of a fill uses ``counter + i``.
Everything here is vectorised over blocks: one NumPy pass per Philox round, not per number.

The transforms follow TensorFlow's CPU kernels bit for bit: floats from the mantissa bits
(``Uint32ToFloat``/``Uint64ToDouble``), Box-Muller with the ``1e-7`` floor, the truncated normal's
rejection inside a reserved window of 256 blocks per output group, integers by modulo.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

_M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
_MUL0, _MUL1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LO = np.uint64(_M32)
_S32 = np.uint64(32)
RESERVED = 256  # samples reserved per output: stateful kernels and variable-sample distributions


def counters(counter: int, off: np.ndarray) -> np.ndarray:
    """The ``(4, n)`` uint64 words (each < 2**32) of the 128-bit counters ``counter + off``."""
    counter &= M128
    lo0, hi0 = np.uint64(counter & M64), np.uint64(counter >> 64)
    off = off.astype(np.uint64)
    lo = lo0 + off  # wraps modulo 2**64
    hi = hi0 + (lo < off).astype(np.uint64)
    return np.stack([lo & _LO, lo >> _S32, hi & _LO, hi >> _S32])


def bijection(words: np.ndarray, key: int) -> np.ndarray:
    """Philox-4x32-10 of counter ``words`` ``(4, n)`` under ``key``: ``(n, 4)`` uint32."""
    c0, c1, c2, c3 = words
    k0, k1 = key & _M32, (key >> 32) & _M32
    for r in range(10):
        p0, p1 = _MUL0 * c0, _MUL1 * c2
        c0, c1, c2, c3 = (p1 >> _S32) ^ c1 ^ np.uint64(k0), p1 & _LO, (p0 >> _S32) ^ c3 ^ np.uint64(k1), p0 & _LO
        k0, k1 = (k0 + _W0) & _M32, (k1 + _W1) & _M32
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def blocks(key: int, counter: int, n: int) -> np.ndarray:
    """``n`` consecutive Philox blocks from ``counter``: ``(n, 4)`` uint32."""
    return bijection(counters(counter, np.arange(n, dtype=np.uint64)), key)


def singles(key: int, counter: int, n: int) -> np.ndarray:
    """The first ``n`` uint32 of the blocks from ``counter`` (TF's ``SingleSampleAdapter``)."""
    return blocks(key, counter, -(-n // 4)).ravel()[:n]


class Stream:
    """Consecutive uint32 of the blocks from ``counter`` on, ``n`` at a time (TF's
    ``SingleSampleAdapter<PhiloxRandom>`` drawn repeatedly)."""

    def __init__(self, key: int, counter: int) -> None:
        self.key, self.counter, self.used = key & M64, counter & M128, 0

    def take(self, n: int) -> np.ndarray:
        first, skip = divmod(self.used, 4)
        self.used += n
        return blocks(self.key, self.counter + first, -(-(skip + n) // 4)).ravel()[skip:skip + n]


class SimplePhilox:
    """TF's ``SimplePhilox`` on the blocks from ``counter``: 32-bit words one at a time (generated
    64 blocks at a time), 64-bit words low half first, exactly uniform integers by rejection."""

    def __init__(self, key: int, counter: int) -> None:
        self.key, self.counter, self.words, self.i = key & M64, counter & M128, [], 0

    def rand32(self) -> int:
        if self.i == len(self.words):
            self.words = blocks(self.key, self.counter, 64).ravel().tolist()
            self.counter, self.i = (self.counter + 64) & M128, 0
        self.i += 1
        return self.words[self.i - 1]

    def rand64(self) -> int:
        return self.rand32() | self.rand32() << 32

    def rand_float(self) -> float:  # (a float32 value: ``uint_to_float``, exactly)
        return (self.rand32() & 0x7FFFFF) / 2.0**23

    def rand_double(self) -> float:  # (``uint_to_double`` of two words)
        x0 = self.rand32()
        return ((x0 & 0xFFFFF) << 32 | self.rand32()) / 2.0**52

    def uniform(self, n: int, bits: int = 32) -> int:
        """``ExactUniformInt``: an integer in ``[0, n)`` from 32- or 64-bit words."""
        draw = self.rand32 if bits == 32 else self.rand64
        if n == 0:
            draw()
            return 0
        if n & (n - 1) == 0:
            return draw() & (n - 1)
        rem = ((1 << bits) - 1) % n + 1
        while True:
            r = draw()
            if r >= rem:
                return r % n


def alias_table(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TF's ``DistributionSampler`` (Walker's alias method) for float32 ``weights``: each bucket's
    float32 probability of keeping its own index, and its alternative."""
    n = weights.size
    total = 0.0
    for w in weights.tolist():  # (TF: a double sum, in order)
        total += w
    pr = [float(w * np.float32(n)) / total for w in weights.astype(np.float32)]
    alt = [-1] * n
    low = [i for i in range(n) if pr[i] < 1.0]
    high = [i for i in range(n) if pr[i] >= 1.0]
    while high and low:
        lo, hi = low.pop(), high.pop()
        alt[lo] = hi
        pr[hi] -= 1.0 - pr[lo]
        (low if pr[hi] < 1.0 else high).append(hi)
    for i in high + low:
        pr[i], alt[i] = 1.0, i
    return np.array(pr, np.float32), np.array(alt, np.int64)


def candidates(key: int, counter: int, kind: str, num_sampled: int, unique: bool, range_max: int,
               table: Any = None) -> tuple[list, int]:
    """TF's ``RangeSampler::SampleBatchGetExpectedCount`` draws: ``num_sampled`` ids (distinct
    when ``unique``: repeats are drawn again) and the number of tries. ``kind``: "uniform",
    "log_uniform", "unigram" (``table``: an :func:`alias_table`) or "learned" (``table``: the
    int64 weights of TF's ``WeightedPicker``)."""
    rnd = SimplePhilox(key, counter)
    if kind == "uniform":
        def sample() -> int:
            return rnd.uniform(range_max, 64)
    elif kind == "log_uniform":
        log_range = math.log1p(range_max)

        def sample() -> int:
            return (int(math.exp(rnd.rand_double() * log_range)) - 1) % range_max
    elif kind == "unigram":
        prob, alt = table[0].tolist(), table[1].tolist()

        def sample() -> int:
            r = rnd.rand_float()
            i = rnd.uniform(len(prob))
            return i if r < prob[i] else alt[i]
    else:
        cum = np.cumsum(table)

        def sample() -> int:
            return int(np.searchsorted(cum, rnd.uniform(int(cum[-1])), side="right"))
    if not unique:
        return [sample() for _ in range(num_sampled)], num_sampled
    picked: list = []
    seen: set = set()
    tries = 0
    while len(picked) < num_sampled:
        tries += 1
        v = sample()
        if v not in seen:
            seen.add(v)
            picked.append(v)
    return picked, tries


def scramble(seed0: int, seed1: int) -> tuple[int, int]:
    """TensorFlow's ``(key, counter)`` for a stateless seed pair (each taken modulo 2**64)."""
    c = (seed0 & M64) | (seed1 & M64) << 64
    m = [int(v) for v in bijection(counters(c, np.zeros(1, np.uint64)), 0x02461E293EC8F720)[0]]
    return m[0] | m[1] << 32, (m[2] | m[3] << 32) << 64


# ---- transforms of uint32 blocks (n, 4) to the kernels' outputs, in output order ----

def uint_to_float(x: np.ndarray) -> np.ndarray:
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def uint_to_half(x: np.ndarray) -> np.ndarray:
    return ((x & np.uint32(0x3FF)).astype(np.uint16) | np.uint16(0x3C00)).view(np.float16) - np.float16(1)


def uint_to_double(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    bits = ((hi & np.uint32(0xFFFFF)).astype(np.uint64) << _S32) | lo.astype(np.uint64)
    return (bits | np.uint64(1023 << 52)).view(np.float64) - 1.0


def box_muller_float(x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u1 = np.maximum(uint_to_float(x0), np.float32(1e-7))
    v1 = (2 * np.pi * uint_to_float(x1).astype(np.float64)).astype(np.float32)
    log = np.log(u1.astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2) * log)
    v = v1.astype(np.float64)
    return np.sin(v).astype(np.float32) * u2, np.cos(v).astype(np.float32) * u2


def box_muller_double(x0, x1, x2, x3) -> tuple[np.ndarray, np.ndarray]:
    u1 = np.maximum(uint_to_double(x0, x1), 1e-7)
    v1 = 2 * np.pi * uint_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def uniform(b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Uniform ``[0, 1)`` floats: 4 per block (2 for float64)."""
    if dtype == np.float64:
        return uint_to_double(b[:, 0::2], b[:, 1::2]).ravel()
    return (uint_to_half(b) if dtype == np.float16 else uint_to_float(b)).ravel()


def normal(b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Standard normals: 4 per block (2 for float64)."""
    if dtype == np.float64:
        return np.stack(box_muller_double(*b.T), axis=1).ravel()
    f0, f1 = box_muller_float(b[:, 0::2], b[:, 1::2])
    return np.stack([f0, f1], axis=2).ravel().astype(dtype)


def full_int(b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Integers over the dtype's whole range: 4 per block (2 for 64-bit)."""
    if np.dtype(dtype).itemsize == 8:
        return (b[:, 0::2].astype(np.uint64) | b[:, 1::2].astype(np.uint64) << _S32).ravel().view(dtype)
    return b.ravel().view(dtype)


def int_range(b: np.ndarray, lo: int, hi: int, dtype: np.dtype) -> np.ndarray:
    """``lo + bits % (hi - lo)``: 4 per block (2 for int64)."""
    span = (hi - lo) & ((1 << (8 * np.dtype(dtype).itemsize)) - 1)
    bits = full_int(b, np.uint64 if np.dtype(dtype).itemsize == 8 else np.uint32)
    return (bits % bits.dtype.type(span)).astype(dtype) + np.dtype(dtype).type(lo)


_PER_BLOCK = {np.dtype(np.float64): 2, np.dtype(np.int64): 2, np.dtype(np.uint64): 2}


def per_block(dtype: np.dtype) -> int:
    return _PER_BLOCK.get(np.dtype(dtype), 4)


def fill(transform, key: int, counter: int, shape: tuple, dtype: np.dtype, *args, make_blocks=blocks) -> np.ndarray:
    """A fixed-sample kernel's output: group ``i`` of ``per_block`` outputs from block ``counter + i``
    (``make_blocks``: :func:`blocks` or the compiled ``tapegrad._jit.philox_blocks``, the same bits)."""
    n = int(np.prod(shape, dtype=np.int64))
    b = make_blocks(key, counter, -(-n // per_block(dtype)))
    out = transform(b, *args, dtype) if args else transform(b, dtype)
    return out[:n].reshape(shape)


def truncated_normal(key: int, counter: int, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """TensorFlow's truncated normal: group ``g`` of ``k`` outputs (4; 2 for float64) draws
    Box-Muller pairs from blocks ``counter + 64 k g + j`` (256 samples reserved per output) in
    order and keeps the values with ``|x| < 2``."""
    n = int(np.prod(shape, dtype=np.int64))
    k = per_block(dtype)
    groups = -(-n // k)
    out = np.empty((groups, k), np.float64 if dtype == np.float64 else np.float32)
    filled = np.zeros(groups, np.int64)
    todo = np.arange(groups)
    j = 0
    while todo.size:
        b = bijection(counters(counter + j, todo.astype(np.uint64) * np.uint64(RESERVED * k // 4)), key)
        if dtype == np.float64:
            cand = np.stack(box_muller_double(*b.T), axis=1)  # 2 candidates a block
        else:
            f0, f1 = box_muller_float(b[:, 0::2], b[:, 1::2])
            cand = np.stack([f0, f1], axis=2).reshape(-1, 4)
        ok = np.abs(cand) < 2
        rank = filled[todo, None] + np.cumsum(ok, axis=1) - 1
        take = ok & (rank < k)
        rows = np.broadcast_to(todo[:, None], take.shape)[take]
        out[rows, rank[take]] = cand[take]
        filled[todo] = np.minimum(filled[todo] + ok.sum(axis=1), k)
        todo = todo[filled[todo] < k]
        j += 1
    return out.ravel()[:n].astype(dtype).reshape(shape)



def permutation(key: int, counter: int, n: int) -> np.ndarray:
    """TF's RandomShuffle: for ``i < n - 1`` swap ``i`` with ``i + u_i % (n - i)``."""
    if n >= 1 << 32:
        raise ValueError("shuffling 2**32 or more rows is not supported")
    u = singles(key, counter, n - 1)
    j = (np.arange(n - 1) + u % np.arange(n, 1, -1, dtype=np.uint32)).tolist()
    perm = list(range(n))
    for i, k in enumerate(j):  # the swaps are sequential; their targets are drawn up front
        perm[i], perm[k] = perm[k], perm[i]
    return np.array(perm)


def categorical(key: int, counter: int, logits: np.ndarray, n: int) -> np.ndarray:
    """TF's CPU Multinomial (one shard): row ``b``'s samples continue one stream of doubles
    ``u``; the class is the first whose cumulative ``exp(logit - max)`` exceeds ``u * total``."""
    b, c = logits.shape
    x = singles(key, counter, 2 * b * n)
    u = uint_to_double(x[0::2], x[1::2]).reshape(b, n)
    finite = np.isfinite(logits)
    mx = np.max(np.where(finite, logits, -np.inf), axis=1, keepdims=True).astype(np.float64)
    mx[~np.isfinite(mx)] = np.finfo(logits.dtype).min
    p = np.where(finite, np.exp(logits.astype(np.float64) - mx), 0.0)
    cdf = np.cumsum(p, axis=1)
    out = np.empty((b, n), np.int64)
    for r in range(b):  # one searchsorted per row
        out[r] = np.searchsorted(cdf[r], u[r] * cdf[r, -1], side="right")
    return out


# ---- variable-sample kernels: output ``o`` draws blocks ``counter + 256 o + j`` in order ----

class _PerOutput:
    """Each output's own stream (TF: ``gen = rng; gen.Skip(256 * output_idx)``), with the
    kernels' double buffers: ``Uniform<double>`` and ``Normal<double>`` give 2 values a block,
    handed out last first (TF's ``x = result[--remaining]``)."""

    def __init__(self, key: int, counter: int, m: int, stride: Any = RESERVED) -> None:
        self.key, self.counter = key, counter
        self.next = np.arange(m, dtype=np.uint64) * np.asarray(stride).astype(np.uint64)
        self.buf = {k: (np.zeros((m, 2)), np.zeros(m, np.int64)) for k in ("u", "n")}

    def _block(self, idx: np.ndarray) -> np.ndarray:
        b = bijection(counters(self.counter, self.next[idx]), self.key)
        self.next[idx] += np.uint64(1)
        return b

    def take(self, kind: str, idx: np.ndarray) -> np.ndarray:
        vals, left = self.buf[kind]
        need = idx[left[idx] == 0]
        if need.size:
            b = self._block(need)
            if kind == "u":
                vals[need, 0], vals[need, 1] = uint_to_double(b[:, 0], b[:, 1]), uint_to_double(b[:, 2], b[:, 3])
            else:
                vals[need, 0], vals[need, 1] = box_muller_double(b[:, 0], b[:, 1], b[:, 2], b[:, 3])
            left[need] = 2
        left[idx] -= 1
        return vals[idx, left[idx]]


def gamma(key: int, counter: int, alpha: np.ndarray) -> np.ndarray:
    """TF's CPU RandomGamma for one output per entry of ``alpha`` (float64, in output-index
    order): exponential when ``alpha == 1``, else Marsaglia-Tsang on Normal/Uniform<double>
    (``alpha < 1``: boosted by ``u ** (1 / alpha)``)."""
    m = alpha.size
    out = np.empty(m)
    gen = _PerOutput(key, counter, m)
    one = np.flatnonzero(alpha == 1)
    if one.size:
        out[one] = -np.log(1.0 - gen.take("u", one))
    less = alpha < 1
    d = alpha + np.where(less, 2.0 / 3, -1.0 / 3)
    c = 1.0 / 3 / np.sqrt(d)
    active = np.flatnonzero(alpha != 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        while active.size:
            x = gen.take("n", active)
            v = 1 + c[active] * x
            pos = v > 0
            idx, x, v = active[pos], x[pos], v[pos]
            v = v * v * v
            u = gen.take("u", idx)
            ok = (u < 1 - 0.0331 * (x * x) * (x * x)) | (np.log(u) < 0.5 * x * x + d[idx] * (1 - v + np.log(v)))
            acc = idx[ok]
            res = d[acc] * v[ok]
            boost = np.flatnonzero(less[acc])
            if boost.size:
                res[boost] *= gen.take("u", acc[boost]) ** (1 / alpha[acc[boost]])
            out[acc] = res
            done = np.zeros(m, bool)
            done[acc] = True
            active = active[~done[active]]
    return out


def poisson(key: int, counter: int, rate: np.ndarray, highest: float) -> np.ndarray:
    """TF's CPU RandomPoisson, one output per entry of ``rate`` (float64, output-index order):
    Knuth's product of uniforms below 10, Hormann's transformed rejection from 10 on."""
    m = rate.size
    out = np.empty(m)
    gen = _PerOutput(key, counter, m)
    small = np.flatnonzero(rate < 10)
    prod, k = np.ones(m), np.zeros(m)
    exp_neg = np.exp(-rate)
    active = small
    while active.size:
        prod[active] *= gen.take("u", active)
        stop = (prod[active] <= exp_neg[active]) & (k[active] <= highest)
        out[active[stop]] = k[active[stop]]
        k[active[~stop]] += 1
        active = active[~stop]
    big = np.flatnonzero(rate >= 10)
    lam = rate[big]
    b = 0.931 + 2.53 * np.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    log_lam = np.log(lam)
    active = np.arange(big.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        while active.size:
            u = gen.take("u", big[active]) - 0.5
            v = gen.take("u", big[active])
            us = 0.5 - np.abs(u)
            kk = np.floor((2 * a[active] / us + b[active]) * u + lam[active] + 0.43)
            fine = kk <= highest
            quick = fine & (us >= 0.07) & (v <= v_r[active])
            reject = ~fine | ~quick & ((kk < 0) | ((us < 0.013) & (v > us)))
            slow = ~quick & ~reject
            s = np.log(v * inv_alpha[active] / (a[active] / (us * us) + b[active]))
            t = -lam[active] + kk * log_lam[active] - _lgamma(kk + 1)
            take = quick | slow & (s <= t)
            out[big[active[take]]] = kk[take]
            active = active[~take]
    return out


def _lgamma(x: np.ndarray) -> np.ndarray:
    """The C library's ``lgamma`` (what TF's kernels call), element by element."""
    return np.array([math.lgamma(v) if np.isfinite(v) and v > 0 else math.inf for v in x.tolist()])


_TAIL = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287])


def _stirling_tail(k: np.ndarray) -> np.ndarray:
    kp1sq = (k + 1) * (k + 1)
    out = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    small = k <= 9
    out[small] = _TAIL[k[small].astype(np.int64)]
    return out


def _binomial_inversion(gen: _PerOutput, idx: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Count geometric(p) waiting times until their sum exceeds ``n``."""
    total, count = np.zeros(idx.size), np.zeros(idx.size)
    log1mp = np.log1p(-p)
    active = np.arange(idx.size)
    with np.errstate(divide="ignore"):
        while active.size:
            total[active] += np.ceil(np.log(gen.take("u", idx[active])) / log1mp[active])
            over = total[active] > n[active]
            count[active[~over]] += 1
            active = active[~over]
    return count


def _btrs(gen: _PerOutput, idx: np.ndarray, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Hormann's BTRS transformed rejection (TF's variant) for ``n * p >= 10``, ``p <= 0.5``."""
    sd = np.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * sd
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * sd
    m = np.floor((n + 1) * p)
    out = np.empty(idx.size)
    active = np.arange(idx.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        while active.size:
            u = gen.take("u", idx[active]) - 0.5
            v = gen.take("u", idx[active])
            us = 0.5 - np.abs(u)
            A, B, N, M, R = a[active], b[active], n[active], m[active], r[active]
            k = np.floor((2 * A / us + B) * u + c[active])
            quick = (us >= 0.07) & (v <= v_r[active])
            sensible = (k >= 0) & (k <= N)
            lv = np.log(v * alpha[active] / (A / (us * us) + B))
            kk = np.clip(k, 0, N)
            bound = ((M + 0.5) * np.log((M + 1) / (R * (N - M + 1)))
                     + (N + 1) * np.log((N - M + 1) / (N - kk + 1))
                     + (kk + 0.5) * np.log(R * (N - kk + 1) / (kk + 1))
                     + _stirling_tail(M) + _stirling_tail(N - M) - _stirling_tail(kk) - _stirling_tail(N - kk))
            take = quick | sensible & (lv <= bound)
            out[active[take]] = k[take]
            active = active[~take]
    return out


def binomial(key: int, counter: int, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """TF's CPU binomial kernel, one output per entry of ``n`` (float64) and ``p`` (the op's
    float dtype; its comparisons happen in that dtype), in output-index order: inversion when
    ``n * min(p, 1 - p) < 10`` (42 blocks reserved per output), BTRS otherwise (256)."""
    m = n.size
    out = np.full(m, np.nan)
    one = p.dtype.type(1)
    q = one - p
    flip = p > 0.5
    pp = np.where(flip, q, p)
    with np.errstate(invalid="ignore", over="ignore"):
        big = (n.astype(p.dtype) * pp >= p.dtype.type(10))
    zero, full = (n <= 0) | (p <= 0), ~(n <= 0) & (p >= one)
    draw = ~zero & ~full & ~np.isnan(p)
    out[zero], out[full] = 0.0, n[full]
    gen = _PerOutput(key, counter, m, np.where(big, RESERVED, 42))
    for fn, sel in ((_btrs, draw & big), (_binomial_inversion, draw & ~big)):
        idx = np.flatnonzero(sel)
        if idx.size:
            k = fn(gen, idx, n[idx], pp[idx].astype(np.float64))
            out[idx] = np.where(flip[idx], n[idx] - k, k)
    return out


# ---- RandomIndexShuffle: a cycle-walking Simon cipher (4 rounds) over the smallest block ----

def index_shuffle(index: np.ndarray, key: np.ndarray, max_index: np.ndarray) -> np.ndarray:
    """TF's ``random_index_shuffle`` with 4 rounds, elementwise over uint64 arrays ``index``,
    ``max_index`` and ``key`` ``(n, 3)`` (uint32 words): the word size is half the block, the
    block ``max(ceil(log2(max_index)) rounded up to even, 16)`` bits."""
    out = np.zeros(index.shape, np.uint64)
    bits = np.ceil(np.log2(np.maximum(max_index, 1).astype(np.float64))).astype(np.int64)
    block = np.maximum(bits + bits % 2, 16)
    for b in np.unique(block[max_index > 0]):
        sel = np.flatnonzero((block == b) & (max_index > 0))
        w = int(b) // 2
        mask = np.uint64((1 << w) - 1)

        def rotl(x: np.ndarray, r: int) -> np.ndarray:
            return ((x << np.uint64(r)) | (x >> np.uint64(w - r))) & mask

        def f(x: np.ndarray) -> np.ndarray:
            return (rotl(x, 1) & rotl(x, 8)) ^ rotl(x, 2)

        rk = [key[sel, i].astype(np.uint64) & mask for i in range(3)]
        c, z = np.uint64(0xFFFFFFFC) & mask, 0x7369F885192C0EF5 & int(mask)
        rotr = lambda x, r: ((x >> np.uint64(r)) | (x << np.uint64(w - r))) & mask  # noqa: E731
        rk.append(c ^ np.uint64(z & 1) ^ rk[0] ^ rotr(rk[2], 3) ^ rotr(rk[2], 4))
        value, top = index[sel].astype(np.uint64), max_index[sel].astype(np.uint64)
        todo = np.arange(sel.size)
        while todo.size:
            left, right = (value[todo] >> np.uint64(w)) & mask, value[todo] & mask
            for k1, k2 in ((rk[0][todo], rk[1][todo]), (rk[2][todo], rk[3][todo])):
                left ^= f(right) ^ k1
                right ^= f(left) ^ k2
            value[todo] = (left << np.uint64(w)) | right
            todo = todo[value[todo] > top[todo]]
        out[sel] = value
    return out
