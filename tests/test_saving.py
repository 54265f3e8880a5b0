"""tapegrad.saving: .npz round trips without pickle, validation before any assignment."""
import errno
import io
import os
import pickle
import stat
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tf
from tapegrad import saving


class Dense(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(np.arange(n_in * n_out, dtype=np.float32).reshape(n_in, n_out), name="w")
        self.b = tf.Variable(np.zeros(n_out, np.float64), name="b")


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Dense(2, 3), Dense(3, 1)]
        self.steps = tf.Variable(np.int64(7), trainable=False, name="steps")
        self.alias = self.layers[0].w


def _scramble(variables):
    for v in variables:
        v.assign(np.full(v.shape, 42, v.dtype.as_numpy_dtype))


def test_module_round_trip(tmp_path):
    net = Net()
    before = [v.numpy() for v in net.variables]
    path = tmp_path / "net.npz"
    saving.save_variables(path, net)
    _scramble(net.variables)
    saving.load_variables(path, net)
    for v, want in zip(net.variables, before):
        np.testing.assert_array_equal(v.numpy(), want)
        assert v.numpy().dtype == want.dtype


def test_module_keys_are_attribute_paths(tmp_path):
    net = Net()
    assert list(saving.variables_by_name(net)) == ["alias", "steps", "layers/0/b", "layers/1/b",
                                                   "layers/1/w"]
    saving.save_variables(tmp_path / "net", net)  # .npz is added
    with np.load(tmp_path / "net.npz", allow_pickle=False) as data:
        assert sorted(data.files) == sorted(saving.variables_by_name(net))


def test_restore_into_a_fresh_module(tmp_path):
    net = Net()
    net.layers[1].w.assign([[1.0], [2.0], [3.0]])
    saving.save_variables(tmp_path / "a.npz", net)
    other = Net()
    saving.load_variables(tmp_path / "a.npz", other)
    np.testing.assert_array_equal(other.layers[1].w.numpy(), [[1.0], [2.0], [3.0]])


def test_list_dict_and_single_variable():
    a, b = tf.Variable([1.0, 2.0], name="a"), tf.Variable(3, name="b")
    for spec, keys in (([a, b], ["a", "b"]), ({"first": a, "second": b}, ["first", "second"]),
                       (a, ["a"])):
        assert list(saving.variables_by_name(spec)) == keys
        buf = io.BytesIO()
        saving.save_variables(buf, spec)
        a.assign([0.0, 0.0])
        buf.seek(0)
        saving.load_variables(buf, spec)
        np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])


def test_optimizer_state_round_trip(tmp_path):
    x = tf.Variable([1.0, 2.0], name="x")
    opt = tf.optimizers.Adam(0.1)
    opt.apply_gradients([(tf.constant([1.0, -1.0]), x)])
    saving.save_variables(tmp_path / "opt.npz", opt.variables + [x])
    x2 = tf.Variable([0.0, 0.0], name="x")
    opt2 = tf.optimizers.Adam(0.1)
    opt2.build([x2])
    saving.load_variables(tmp_path / "opt.npz", opt2.variables + [x2])
    assert int(opt2.iterations) == 1
    for o in (opt, opt2):
        o.apply_gradients([(tf.constant([0.5, 0.5]), o._vars[0])])
    np.testing.assert_array_equal(x.numpy(), x2.numpy())


def test_duplicate_names_in_a_list_are_refused():
    with pytest.raises(ValueError, match=r"\['Variable'\].*dict"):
        saving.save_variables(io.BytesIO(), [tf.Variable(1.0), tf.Variable(2.0)])


def test_wrong_containers_and_entries():
    with pytest.raises(TypeError, match="Module, a dict"):
        saving.save_variables(io.BytesIO(), 3.0)
    with pytest.raises(TypeError, match="not a tf.Variable"):
        saving.save_variables(io.BytesIO(), {"t": tf.constant(1.0)})
    with pytest.raises(TypeError, match="strings"):
        saving.save_variables(io.BytesIO(), {1: tf.Variable(1.0)})


def _saved(**arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    buf.seek(0)
    return buf


def test_validation_names_shapes_dtypes_and_nothing_assigned():
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([[1.0]], name="b")
    c = tf.Variable(np.int32(1), name="c")
    buf = _saved(a=np.array([5.0, 6.0], np.float32), b=np.ones((2, 1), np.float32),
                 c=np.int64(3), extra=np.zeros(1))
    with pytest.raises(ValueError) as e:
        saving.load_variables(buf, [a, b, c])
    msg = str(e.value)
    assert "nothing was assigned" in msg
    assert "'b': the file has shape [2, 1], the variable has shape [1, 1]" in msg
    assert "'c': the file has dtype int64, the variable has dtype int32" in msg
    assert "['extra']" in msg and "strict=False" in msg
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0])  # a was valid but not assigned


def test_missing_entry_and_non_strict_load():
    a = tf.Variable([1.0, 2.0], name="a")
    z = tf.Variable(0.0, name="z")
    with pytest.raises(ValueError, match=r"missing from the file: \['z'\]"):
        saving.load_variables(_saved(a=np.array([5.0, 6.0], np.float32)), [a, z])
    saving.load_variables(_saved(a=np.array([5.0, 6.0], np.float32), other=np.ones(3)), [a],
                          strict=False)
    np.testing.assert_array_equal(a.numpy(), [5.0, 6.0])


def test_pickled_and_foreign_files_are_refused(tmp_path):
    a = tf.Variable(1.0, name="a")
    obj = io.BytesIO()
    np.savez(obj, a=np.array([{"x": 1}], dtype=object))
    obj.seek(0)
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(obj, [a])
    np.save(tmp_path / "single.npy", np.ones(2))
    with pytest.raises(ValueError, match="single array"):
        saving.load_variables(tmp_path / "single.npy", [a])
    (tmp_path / "junk.npz").write_bytes(b"not a zip file at all")
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(tmp_path / "junk.npz", [a])
    with pytest.raises(ValueError, match="not a readable .npz"):
        saving.load_variables(tmp_path / "missing.npz", [a])
    assert float(a) == 1.0


def test_file_is_a_plain_zip_of_npy(tmp_path):
    saving.save_variables(tmp_path / "v.npz", {"w": tf.Variable([1.0])})
    with zipfile.ZipFile(tmp_path / "v.npz") as z:
        assert z.namelist() == ["w.npy"]


# ----------------------------------------------------------------------------- atomic save
class _DiskFull:
    """A file that accepts ``budget`` bytes, then fails as a full disk does."""

    def __init__(self, f, budget):
        self._f, self._budget = f, budget

    def write(self, b):
        if len(b) > self._budget:
            self._f.write(bytes(b[: self._budget]))
            self._budget = 0
            raise OSError(errno.ENOSPC, "No space left on device")
        self._budget -= len(b)
        return self._f.write(b)

    def __getattr__(self, name):
        return getattr(self._f, name)


def _fail_in_writer(monkeypatch, exc=None):
    real = saving._write_npz

    def write(f, arrays):
        if exc is not None:
            f.write(b"PK\x03\x04 part of an archive")
            raise exc
        real(_DiskFull(f, 200), arrays)

    monkeypatch.setattr(saving, "_write_npz", write)


def _fail_in_os(name):
    def install(monkeypatch):
        def boom(*args):
            raise OSError(errno.EIO, f"{name} failed")
        monkeypatch.setattr(os, name, boom)
    return install


@pytest.mark.parametrize("fail", [
    _fail_in_writer,
    lambda mp: _fail_in_writer(mp, KeyboardInterrupt()),
    _fail_in_os("fsync"),
    _fail_in_os("replace"),
], ids=["disk-full-mid-write", "interrupt-mid-write", "fsync", "rename"])
def test_a_failed_save_keeps_the_old_checkpoint(tmp_path, monkeypatch, fail):
    w = tf.Variable(np.arange(100, dtype=np.float32), name="w")
    path = tmp_path / "ckpt.npz"
    saving.save_variables(path, [w])
    old = path.read_bytes()
    w.assign(np.zeros(100, np.float32))
    fail(monkeypatch)
    with pytest.raises((OSError, KeyboardInterrupt)):
        saving.save_variables(path, [w])
    monkeypatch.undo()
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["ckpt.npz"]           # no temporary file left behind
    saving.load_variables(path, [w])
    np.testing.assert_array_equal(w.numpy(), np.arange(100))


def test_a_failed_first_save_leaves_no_file(tmp_path, monkeypatch):
    _fail_in_writer(monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        saving.save_variables(tmp_path / "ckpt", {"w": tf.Variable(np.ones(100))})
    assert os.listdir(tmp_path) == []


def test_save_syncs_the_file_before_the_rename(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    saving.save_variables(tmp_path / "ckpt.npz", {"w": tf.Variable([1.0])})
    assert events[:2] == ["fsync", "replace"]
    if os.name == "posix":
        assert events == ["fsync", "replace", "fsync"]    # and the folder after the rename


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions and symlinks")
def test_overwrite_keeps_mode_and_writes_through_a_symlink(tmp_path):
    target = tmp_path / "ckpt-1.npz"
    saving.save_variables(target, {"w": tf.Variable([1.0])})
    target.chmod(0o640)
    link = tmp_path / "latest.npz"
    link.symlink_to(target.name)
    w = tf.Variable([2.0])
    saving.save_variables(link, {"w": w})
    assert link.is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o640
    w.assign([0.0])
    saving.load_variables(target, {"w": w})
    assert float(w.numpy()[0]) == 2.0


def test_a_file_object_is_written_from_its_position_and_read_from_there():
    buf = io.BytesIO()
    buf.write(b"my header ")
    saving.save_variables(buf, {"w": tf.Variable([1.0, 2.0])})
    w = tf.Variable([0.0, 0.0])
    buf.seek(10)
    saving.load_variables(buf, {"w": w})
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0])


def test_file_objects_at_the_wrong_position_are_explained():
    buf = io.BytesIO()
    saving.save_variables(buf, {"w": tf.Variable([1.0, 2.0])})
    first_end = buf.tell()
    saving.save_variables(buf, {"w": tf.Variable([3.0, 4.0])})
    w = tf.Variable([0.0, 0.0])
    with pytest.raises(ValueError, match=r"at its end \(position \d+\).*seek\(0\)"):
        saving.load_variables(buf, {"w": w})
    buf.seek(0)          # the first of two archives: np.load would silently read the second
    with pytest.raises(ValueError, match=rf"starts at byte {first_end}, not at the file object's "
                                         r"position 0; seek to where"):
        saving.load_variables(buf, {"w": w})
    buf.seek(3)
    with pytest.raises(ValueError, match="no zip signature at position 3"):
        saving.load_variables(buf, {"w": w})
    buf.seek(first_end)
    saving.load_variables(buf, {"w": w})
    np.testing.assert_array_equal(w.numpy(), [3.0, 4.0])


# ----------------------------------------------------------------------------- keys
AWKWARD_KEYS = ["allow_pickle", "file", "", "/", ".", "..", "a/../b", "/abs", "a//b", "a/",
                "%", "%25", "%u0041", "%41", "%zz", "a\\b", "\x00", "x\x00y", "\n\t\x7f",
                "é", "日本/語", "\ud800", "a\udfffb", "😀", "x.npy", ".npy", " ", "Variable:0"]


def test_awkward_keys_round_trip_exactly(tmp_path):
    named = {k: tf.Variable(np.float32(i), name="v") for i, k in enumerate(AWKWARD_KEYS)}
    saving.save_variables(tmp_path / "k.npz", named)
    for v in named.values():
        v.assign(-1.0)
    saving.load_variables(tmp_path / "k.npz", named)
    assert [float(v) for v in named.values()] == list(range(len(AWKWARD_KEYS)))
    with np.load(tmp_path / "k.npz", allow_pickle=False) as data:    # still a plain .npz
        assert len(data.files) == len(AWKWARD_KEYS)
        assert float(data["allow_pickle"]) == 0 and float(data["file"]) == 1
        assert float(data["%25"]) == AWKWARD_KEYS.index("%")          # shown escaped
        assert float(data["%2525"]) == AWKWARD_KEYS.index("%25")
        assert float(data["a%5Cb"]) == AWKWARD_KEYS.index("a\\b")
        assert float(data["%uD800"]) == AWKWARD_KEYS.index("\ud800")


_keys = st.text(st.one_of(st.characters(), st.sampled_from("%\\\x00\ud800\udfff/.u0123456789ABCDEF")),
                max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_keys, st.integers(-9, 9), max_size=6))
def test_any_string_keys_round_trip(keys):
    named = {k: tf.Variable(np.int32(n)) for k, n in keys.items()}
    buf = io.BytesIO()
    saving.save_variables(buf, named)
    fresh = {k: tf.Variable(np.int32(99)) for k in keys}
    buf.seek(0)
    saving.load_variables(buf, fresh)
    assert {k: int(v) for k, v in fresh.items()} == keys


_nests = st.recursive(st.just(0), lambda children: st.dictionaries(
    st.text(st.sampled_from("ab/%.\\"), max_size=3), children, min_size=1, max_size=3), max_leaves=8)


def _leaf_paths(nest, path=()):
    if not isinstance(nest, dict):
        return [path]
    return [p for k in sorted(nest) for p in _leaf_paths(nest[k], path + (k,))]


def _with_variables(nest, counter):
    if not isinstance(nest, dict):
        counter[0] += 1
        return tf.Variable(np.float32(counter[0]))
    return {k: _with_variables(v, counter) for k, v in nest.items()}


@settings(max_examples=150, deadline=None)
@given(_nests)
def test_nested_dict_keys_round_trip_or_collide_loudly(nest):
    m, fresh = tf.Module(), tf.Module()
    m.d, fresh.d = _with_variables(nest, [0]), _with_variables(nest, [100])
    keys = ["/".join(("d",) + p) for p in _leaf_paths(nest)]
    if len(set(keys)) < len(keys):
        with pytest.raises(ValueError, match="Two different variables would be saved under the key"):
            saving.save_variables(io.BytesIO(), m)
        return
    assert sorted(saving.variables_by_name(m)) == sorted(keys)
    buf = io.BytesIO()
    saving.save_variables(buf, m)
    buf.seek(0)
    saving.load_variables(buf, fresh)
    assert [float(v) for v in fresh.variables] == [float(v) for v in m.variables]


def test_colliding_module_keys_are_refused_and_aliases_are_not_collisions():
    m = tf.Module()
    v1, v2 = tf.Variable(1.0), tf.Variable(2.0)
    m.d = {"a/b": v1, "a": {"b": v2}}
    with pytest.raises(ValueError, match=r"under the key 'd/a/b': the one at \('d', 'a', 'b'\) "
                                         r"and the one at \('d', 'a/b'\).*Rename one"):
        saving.variables_by_name(m)
    m.d = {"a/b": v1, "a": {"b": v1}}                   # one variable by two paths: saved once
    assert list(saving.variables_by_name(m)) == ["d/a/b"]


def test_files_of_the_previous_format_still_load():
    # format 1 was np.savez: keys verbatim, so '%' in a key is not an escape there
    buf = io.BytesIO()
    np.savez(buf, **{"50%": np.float32(1), "a%41": np.float32(2), "layers/0/w": np.float32(3)})
    buf.seek(0)
    named = {k: tf.Variable(0.0) for k in ("50%", "a%41", "layers/0/w")}
    saving.load_variables(buf, named)
    assert [float(v) for v in named.values()] == [1.0, 2.0, 3.0]


def test_the_file_names_its_format():
    buf = io.BytesIO()
    saving.save_variables(buf, {"a%": tf.Variable(1.0)})
    with zipfile.ZipFile(buf) as z:
        assert z.comment == b"tapegrad saved variables; format 2"
        assert z.namelist() == ["a%25.npy"]


def _rewritten(key_bytes_from, key_bytes_to, comment=None, **variables):
    buf = io.BytesIO()
    saving.save_variables(buf, variables)
    data = buf.getvalue().replace(key_bytes_from, key_bytes_to)
    if comment is not None:
        data = data.replace(b"format 2", comment)
    return io.BytesIO(data)


@pytest.mark.parametrize("buf,pattern", [
    (lambda: _rewritten(b"w%25.npy", b"w%2X.npy", **{"w%": tf.Variable(1.0)}),
     r"the entry 'w%2X.npy' is not an array saved by save_variables.*escaped"),
    (lambda: _rewritten(b"abc.npy", b"%42.npy", abc=tf.Variable(1.0)),     # 'B' escaped needlessly
     r"the entry '%42.npy' is not an array saved by save_variables"),
    (lambda: _rewritten(b"abcdefg.npy", b"%u0041a.npy", abcdefg=tf.Variable(1.0)),
     r"the entry '%u0041a.npy' is not an array saved by save_variables"),
    (lambda: _rewritten(b"abc.npy", b"abc.npz", abc=tf.Variable(1.0)),
     r"the entry 'abc.npz' is not an array saved by save_variables"),
    (lambda: _rewritten(b"b.npy", b"a.npy", a=tf.Variable(1.0), b=tf.Variable(2.0)),
     r"the key 'a' has two entries"),
    (lambda: _rewritten(b"", b"", comment=b"format 3", a=tf.Variable(1.0)),
     r"written by a newer tapegrad \(file format 3; this version reads formats 1 to 2\): upgrade"),
])
def test_damaged_names_and_newer_formats_are_refused(buf, pattern):
    a = tf.Variable(5.0)
    with pytest.raises(ValueError, match=pattern):
        saving.load_variables(buf(), {"a": a})
    assert float(a) == 5.0


# ----------------------------------------------------------------------------- loading reads little
def _patched_size(data: bytes, member: bytes, size: int) -> bytes:
    """``data`` (a small zip) with the central directory declaring ``size`` bytes for ``member``."""
    out = bytearray(data)
    at = out.index(b"PK\x01\x02")
    while out[at + 46: at + 46 + len(member)] != member:
        at = out.index(b"PK\x01\x02", at + 4)
    out[at + 24: at + 28] = size.to_bytes(4, "little")
    return bytes(out)


def _deflated(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def test_a_zip_bomb_is_refused_from_its_headers(bytes_inflated):
    w = tf.Variable([1.0, 2.0])
    big = _deflated(w=np.zeros(4_000_000, np.float32))   # 16 MB of zeros, 16 kB deflated
    assert len(big) < 100_000
    # an entry that declares 3 GB, with a header for 2 floats: the sizes disagree
    lying = _patched_size(_deflated(w=np.ones(2, np.float32)), b"w.npy", 3_000_000_000)
    with pytest.raises(ValueError, match=r"the entry 'w' declares 3000000000 bytes, but its .npy "
                                         r"header \(shape \[2\], dtype float32\) makes it 136 bytes"):
        saving.load_variables(io.BytesIO(lying), {"w": w})
    # a header that agrees with the declared size, but not with the variable
    with pytest.raises(ValueError, match=r"'w': the file has shape \[4000000\], the variable has "
                                         r"shape \[2\]"):
        saving.load_variables(io.BytesIO(big), {"w": w})
    assert bytes_inflated[0] < 1000          # two .npy headers, no data
    # and a huge entry the variables do not need is never opened
    with zipfile.ZipFile(io.BytesIO(big)) as z:
        payload = z.read("w.npy")
    mixed = io.BytesIO()
    with zipfile.ZipFile(mixed, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("junk.npy", payload)
        z.writestr("w.npy", _deflated_member(np.array([3.0, 4.0], np.float32)))
    bytes_inflated[0] = 0
    saving.load_variables(io.BytesIO(mixed.getvalue()), {"w": w}, strict=False)
    np.testing.assert_array_equal(w.numpy(), [3.0, 4.0])
    assert bytes_inflated[0] < 1000          # w's 136 bytes (twice: header, then data)


def _deflated_member(a) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, a)
    return buf.getvalue()


@pytest.mark.parametrize("declared,pattern", [
    (0, "too few for an .npy array"), (100, "but stores 136 bytes uncompressed"),
    (135, "but stores 136 bytes"), (137, "but stores 136 bytes"), (2**32 - 1, "but stores 136 bytes")])
@pytest.mark.parametrize("deflated", [False, True])
def test_declared_sizes_must_match_the_header(declared, pattern, deflated):
    w = tf.Variable([1.0, 2.0])
    data = (_deflated if deflated else _saved_bytes)(w=np.ones(2, np.float32))
    data = _patched_size(data, b"w.npy", declared)
    if not deflated and declared == 0:  # (a stored entry's sizes disagree: refused unopened)
        pattern = "but stores 136 bytes uncompressed"
    if deflated and declared >= 100:   # zipfile checks the CRC of a small entry read to its end
        pattern = (r"header \(shape \[2\], dtype float32\) makes it 136 bytes" if declared > 136
                   else "Bad CRC-32")
    with pytest.raises(ValueError, match=rf"the entry 'w'.*{pattern}"):
        saving.load_variables(io.BytesIO(data), {"w": w})
    np.testing.assert_array_equal(w.numpy(), [1.0, 2.0])


def _saved_bytes(**arrays) -> bytes:
    return _saved(**arrays).getvalue()


def test_a_damaged_entry_is_refused_and_nothing_is_assigned():
    a, w = tf.Variable([7.0]), tf.Variable([1.0, 2.0])
    data = bytearray(_saved_bytes(a=np.float32([8.0]), w=np.float32([5.0, 6.0])))
    at = data.index(np.float32([5.0, 6.0]).tobytes())
    data[at] ^= 1
    with pytest.raises(ValueError, match=r"not a readable .npz file.*entry 'w'.*CRC"):
        saving.load_variables(io.BytesIO(bytes(data)), {"a": a, "w": w})
    assert float(a.numpy()[0]) == 7.0


@pytest.mark.parametrize("header,pattern", [
    (b"{'descr': '<f4', 'fortran_order': False, 'shape': (-2, -1), }", "negative dimension"),
    (b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': __import__('os'), }",
     "bad .npy header"),
    (b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" + b" " * 20000, "20057-byte .npy header"),
], ids=["negative-shape", "code-in-header", "huge-header"])
def test_crafted_npy_headers_are_refused(header, pattern):
    body = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\x00" * 8
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("w.npy", body)
    w = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match=pattern):
        saving.load_variables(io.BytesIO(buf.getvalue()), {"w": w})


@pytest.mark.parametrize("dtype", [">f4", ">f8", ">i4", ">i8", ">c8", "<f8", "|b1", ">u2"])
def test_big_endian_and_fortran_entries_load(dtype):
    want = (np.arange(6).reshape(2, 3) % 2 == 1) if dtype == "|b1" else np.arange(6).reshape(2, 3) - 2
    stored = np.asfortranarray(want.astype(dtype))
    v = tf.Variable(np.zeros((2, 3), np.dtype(dtype).newbyteorder("=")))
    saving.load_variables(_saved(v=stored), {"v": v})
    got = v.numpy()
    assert got.dtype.isnative and got.dtype == np.dtype(dtype).newbyteorder("=")
    np.testing.assert_array_equal(got, want.astype(got.dtype))


def test_refused_files_say_what_they_are():
    v = {"w": tf.Variable([1.0])}
    with pytest.raises(ValueError, match="looks like a pickle, which tapegrad never loads"):
        saving.load_variables(io.BytesIO(pickle.dumps({"w": 1})), v)
    with pytest.raises(ValueError, match="it is empty"):
        saving.load_variables(io.BytesIO(), v)
    with pytest.raises(ValueError, match="text mode; open it with 'rb'"):
        saving.load_variables(io.StringIO("PK"), v)
    with pytest.raises(ValueError, match="needs a readable, seekable binary file or a path"):
        saving.load_variables(object(), v)


def test_a_variable_of_partial_or_unknown_shape_loads_a_compatible_entry():
    buf = io.BytesIO()
    tf.saving.save_variables(buf, {"w": tf.Variable([[1.0, 2.0]])})
    for shape in (tf.TensorShape(None), [None, 2]):
        buf.seek(0)
        v = tf.Variable([[0.0, 0.0], [0.0, 0.0]], shape=shape)
        tf.saving.load_variables(buf, {"w": v})
        np.testing.assert_array_equal(v.numpy(), [[1.0, 2.0]])
    buf.seek(0)
    with pytest.raises(ValueError, match=r"the file has shape \[1, 2\], the variable has shape \[None, 3\]"):
        tf.saving.load_variables(buf, {"w": tf.Variable([[0.0, 0.0, 0.0]], shape=[None, 3])})
