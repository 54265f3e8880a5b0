"""The string hashes behind ``tf.strings.to_hash_bucket_fast``, ``_strong`` and
``to_hash_bucket``, bit for bit.

``fingerprint64`` is FarmHash's ``Fingerprint64`` (Geoff Pike's ``farmhashna::Hash64``), which
TensorFlow's ``Fingerprint64`` calls; ``siphash`` is SipHash-2-4 with a 128-bit key given as two
64-bit words, which TensorFlow's ``StrongKeyedHash`` calls; ``hash64`` is TensorFlow's own
``Hash64``. All read little-endian words; Python ints with a 64-bit mask stand in for
``uint64_t``.
"""
from __future__ import annotations

_M = (1 << 64) - 1
_K0 = 0xC3A5C85C97CB3127
_K1 = 0xB492B66FBE98F273
_K2 = 0x9AE16A3B2F90404F


def _w64(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 8], "little")


def _w32(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 4], "little")


def _ror(v: int, n: int) -> int:
    return ((v >> n) | (v << (64 - n))) & _M


def _mix(v: int) -> int:
    return v ^ (v >> 47)


def _len16(u: int, v: int, mul: int) -> int:
    a = _mix(((u ^ v) * mul) & _M)
    b = _mix(((v ^ a) * mul) & _M)
    return (b * mul) & _M


def _upto16(s: bytes, n: int) -> int:
    if n >= 8:
        mul = _K2 + 2 * n
        a = (_w64(s, 0) + _K2) & _M
        b = _w64(s, n - 8)
        c = (_ror(b, 37) * mul + a) & _M
        d = ((_ror(a, 25) + b) * mul) & _M
        return _len16(c, d, mul)
    if n >= 4:
        mul = _K2 + 2 * n
        return _len16((n + (_w32(s, 0) << 3)) & _M, _w32(s, n - 4), mul)
    if n:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _upto32(s: bytes, n: int) -> int:
    mul = _K2 + 2 * n
    a = (_w64(s, 0) * _K1) & _M
    b = _w64(s, 8)
    c = (_w64(s, n - 8) * mul) & _M
    d = (_w64(s, n - 16) * _K2) & _M
    return _len16((_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M,
                  (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)


def _upto64(s: bytes, n: int) -> int:
    mul = _K2 + 2 * n
    a = (_w64(s, 0) * _K2) & _M
    b = _w64(s, 8)
    c = (_w64(s, n - 8) * mul) & _M
    d = (_w64(s, n - 16) * _K2) & _M
    y = (_ror((a + b) & _M, 43) + _ror(c, 30) + d) & _M
    z = _len16(y, (a + _ror((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_w64(s, 16) * mul) & _M
    f = _w64(s, 24)
    g = ((y + _w64(s, n - 32)) * mul) & _M
    h = ((z + _w64(s, n - 24)) * mul) & _M
    return _len16((_ror((e + f) & _M, 43) + _ror(g, 30) + h) & _M,
                  (e + _ror((f + a) & _M, 18) + g) & _M, mul)


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _w64(s, i), _w64(s, i + 8), _w64(s, i + 16), _w64(s, i + 24)
    a = (a + w) & _M
    b = _ror((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _ror(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def fingerprint64(s: bytes) -> int:
    """FarmHash ``Fingerprint64`` of ``s`` (an unsigned 64-bit int)."""
    n = len(s)
    if n <= 16:
        return _upto16(s, n)
    if n <= 32:
        return _upto32(s, n)
    if n <= 64:
        return _upto64(s, n)
    x = 81
    y = (81 * _K1 + 113) & _M
    z = (_mix((y * _K2 + 113) & _M) * _K2) & _M
    v = w = (0, 0)
    x = (x * _K2 + _w64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    i = 0
    while True:
        x = (_ror((x + y + v[0] + _w64(s, i + 8)) & _M, 37) * _K1) & _M
        y = (_ror((y + v[1] + _w64(s, i + 48)) & _M, 42) * _K1) & _M
        x ^= w[1]
        y = (y + v[0] + _w64(s, i + 40)) & _M
        z = (_ror((z + w[0]) & _M, 33) * _K1) & _M
        v = _weak32(s, i, (v[1] * _K1) & _M, (x + w[0]) & _M)
        w = _weak32(s, i + 32, (z + w[1]) & _M, (y + _w64(s, i + 16)) & _M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xFF) << 1)
    i = n - 64
    w0 = (w[0] + ((n - 1) & 63)) & _M
    v0 = (v[0] + w0) & _M
    w = ((w0 + v0) & _M, w[1])
    v = (v0, v[1])
    x = (_ror((x + y + v[0] + _w64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_ror((y + v[1] + _w64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M
    y = (y + v[0] * 9 + _w64(s, i + 40)) & _M
    z = (_ror((z + w[0]) & _M, 33) * mul) & _M
    v = _weak32(s, i, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak32(s, i + 32, (z + w[1]) & _M, (y + _w64(s, i + 16)) & _M)
    z, x = x, z
    return _len16((_len16(v[0], w[0], mul) + _mix(y) * _K0 + z) & _M,
                  (_len16(v[1], w[1], mul) + x) & _M, mul)


def _rol(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & _M


def _sipround(v0: int, v1: int, v2: int, v3: int) -> tuple[int, int, int, int]:
    v0 = (v0 + v1) & _M
    v1 = _rol(v1, 13) ^ v0
    v0 = _rol(v0, 32)
    v2 = (v2 + v3) & _M
    v3 = _rol(v3, 16) ^ v2
    v0 = (v0 + v3) & _M
    v3 = _rol(v3, 21) ^ v0
    v2 = (v2 + v1) & _M
    v1 = _rol(v1, 17) ^ v2
    v2 = _rol(v2, 32)
    return v0, v1, v2, v3


def siphash(key: tuple[int, int], s: bytes) -> int:
    """SipHash-2-4 of ``s`` with the 128-bit key ``(k0, k1)`` (an unsigned 64-bit int)."""
    k0, k1 = key[0] & _M, key[1] & _M
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573
    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _w64(s, i)
        v3 ^= m
        for _ in range(2):
            v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
        v0 ^= m
    m = int.from_bytes(s[full:], "little") | ((n & 0xFF) << 56)
    v3 ^= m
    for _ in range(2):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    v0 ^= m
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def hash64(s: bytes, seed: int = 0xDECAFCAFFE) -> int:
    """TensorFlow's own ``Hash64`` (a MurmurHash64A variant), behind ``tf.strings.to_hash_bucket``."""
    m = 0xC6A4A7935BD1E995
    n = len(s)
    h = (seed ^ (n * m)) & _M
    full = n - n % 8
    for i in range(0, full, 8):
        k = (_w64(s, i) * m) & _M
        k = ((k ^ (k >> 47)) * m) & _M
        h = ((h ^ k) * m) & _M
    if n % 8:
        h = ((h ^ int.from_bytes(s[full:], "little")) * m) & _M
    h = ((h ^ (h >> 47)) * m) & _M
    return h ^ (h >> 47)
