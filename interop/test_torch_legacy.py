"""The lab's reader of PyTorch's legacy checkpoint format (scripts/lite0/torch_legacy.py), on files
written here the way torch.save wrote them before PyTorch 1.6: four pickles, the object's pickle with
storages as persistent ids and tensors as _rebuild_tensor_v2 calls, the storage keys, then each
storage's element count and bytes. Torch is not installed, so stand-in modules named torch and
torch._utils let pickle write the same opcodes torch did."""

import io
import pickle
import struct
import sys
import types
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts" / "lite0"))
import torch_legacy  # noqa: E402


class _Storage:
    def __init__(self, key, values):
        self.key, self.values = key, values


class _Tensor:
    def __init__(self, storage, offset, shape, strides):
        self.storage, self.offset, self.shape, self.strides = storage, offset, shape, strides


def _stand_ins(monkeypatch):
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch._utils")

    def _rebuild_tensor_v2(*args):
        raise AssertionError("only written, never called")

    _rebuild_tensor_v2.__module__ = "torch._utils"
    _rebuild_tensor_v2.__qualname__ = "_rebuild_tensor_v2"
    utils._rebuild_tensor_v2 = _rebuild_tensor_v2
    kinds = {}
    for name in ("FloatStorage", "LongStorage", "HalfStorage"):
        kinds[name] = type(name, (), {"__module__": "torch"})
        setattr(torch, name, kinds[name])
    torch._utils = utils
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch._utils", utils)
    return kinds, _rebuild_tensor_v2


STORAGE_OF = {np.float32: "FloatStorage", np.int64: "LongStorage", np.float16: "HalfStorage"}


def write_legacy(obj, monkeypatch, magic=torch_legacy.MAGIC_NUMBER, truncate=0):
    kinds, rebuild = _stand_ins(monkeypatch)
    storages = []

    class Pickler(pickle.Pickler):
        def persistent_id(self, o):
            if isinstance(o, _Storage):
                if o not in storages:
                    storages.append(o)
                kind = kinds[STORAGE_OF[o.values.dtype.type]]
                return ("storage", kind, o.key, "cpu", o.values.size, None)
            return None

        def reducer_override(self, o):
            if isinstance(o, _Tensor):
                return rebuild, (o.storage, o.offset, o.shape, o.strides, False, OrderedDict())
            return NotImplemented

    f = io.BytesIO()
    pickle.dump(magic, f, protocol=2)
    pickle.dump(torch_legacy.PROTOCOL_VERSION, f, protocol=2)
    pickle.dump({"protocol_version": 1001, "little_endian": True, "type_sizes": {"int": 4}}, f, protocol=2)
    Pickler(f, protocol=2).dump(obj)
    pickle.dump([s.key for s in storages], f, protocol=2)
    for s in storages:
        f.write(struct.pack("<q", s.values.size))
        f.write(s.values.tobytes())
    data = f.getvalue()
    return io.BytesIO(data[: len(data) - truncate])


def test_reads_tensors_with_offsets_strides_and_shared_storages(monkeypatch):
    floats = _Storage("0", np.arange(24, dtype=np.float32))
    counts = _Storage("1", np.array([7], dtype=np.int64))
    halves = _Storage("2", np.array([0.5, -2.0, 1e-3], dtype=np.float16))
    state = OrderedDict([
        ("a.weight", _Tensor(floats, 0, (2, 3, 4), (12, 4, 1))),
        # A transposed view of the same storage, starting at its 4th element.
        ("a.view", _Tensor(floats, 4, (4, 2), (1, 4))),
        ("a.count", _Tensor(counts, 0, (), ())),
        ("b.half", _Tensor(halves, 0, (3,), (1,))),
    ])
    out = torch_legacy.read(write_legacy(state, monkeypatch))
    assert list(out) == ["a.weight", "a.view", "a.count", "b.half"]
    np.testing.assert_array_equal(out["a.weight"], np.arange(24).reshape(2, 3, 4))
    np.testing.assert_array_equal(out["a.view"], np.arange(24)[4:12].reshape(2, 4).T)
    assert out["a.count"].shape == () and int(out["a.count"]) == 7
    assert out["b.half"].dtype == np.float16
    np.testing.assert_array_equal(out["b.half"], halves.values)


def test_refuses_another_format_by_its_magic_number(monkeypatch):
    f = write_legacy(OrderedDict(), monkeypatch, magic=12345)
    with pytest.raises(torch_legacy.CheckpointError, match="wrong magic number"):
        torch_legacy.read(f, "x.pth")


def test_refuses_a_truncated_file_naming_the_storage(monkeypatch):
    state = OrderedDict([("w", _Tensor(_Storage("0", np.ones(10, np.float32)), 0, (10,), (1,)))])
    with pytest.raises(torch_legacy.CheckpointError, match=r"x\.pth: storage 0 is truncated \(36 of 40 bytes\)"):
        torch_legacy.read(write_legacy(state, monkeypatch, truncate=4), "x.pth")


def test_builds_nothing_but_tensors_and_ordered_dicts(monkeypatch):
    f = io.BytesIO()
    for header in (torch_legacy.MAGIC_NUMBER, torch_legacy.PROTOCOL_VERSION, {"little_endian": True}):
        pickle.dump(header, f, protocol=2)
    pickle.dump(io.BytesIO, f, protocol=2)
    f.seek(0)
    with pytest.raises(torch_legacy.CheckpointError, match="refers to _io.BytesIO"):
        torch_legacy.read(f)
