"""A reader of PyTorch's legacy (non-zip) checkpoint format, without torch.

torch.save before PyTorch 1.6 wrote four pickles in a row (a magic number, the protocol version, the
system's type sizes, then the object itself) followed by the raw bytes of every storage the object
referred to, in the order a fifth pickle lists their keys. Each storage is an 8-byte little-endian
element count followed by its elements. Tensors in the object's pickle are calls to
torch._utils._rebuild_tensor_v2 on a storage that is named by a persistent id; this reader resolves
those calls to numpy arrays once the storages are read.
"""

import collections
import pickle
import struct

import numpy as np

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001

# torch's typed storage classes and the numpy dtype of their elements.
STORAGE_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ShortStorage": np.int16,
    "CharStorage": np.int8,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
}


class CheckpointError(ValueError):
    """The file is not a legacy PyTorch checkpoint this reader understands."""


class _Storage:
    def __init__(self, key, dtype, numel):
        self.key = key
        self.dtype = dtype
        self.numel = numel
        self.values = None


class _Tensor:
    """A tensor whose storage is not read yet: storage, element offset, shape, strides (in elements)."""

    def __init__(self, storage, offset, shape, strides):
        self.storage = storage
        self.offset = offset
        self.shape = tuple(shape)
        self.strides = tuple(strides)

    def array(self):
        values = self.storage.values
        if values is None:
            raise CheckpointError(f"storage {self.storage.key} was never read")
        item = values.itemsize
        view = np.lib.stride_tricks.as_strided(
            values[self.offset :],
            shape=self.shape,
            strides=tuple(s * item for s in self.strides),
            writeable=False,
        )
        return np.array(view)


def _rebuild_tensor(storage, offset, shape, strides, *_rest):
    return _Tensor(storage, offset, shape, strides)


class _StorageType:
    def __init__(self, name):
        self.name = name


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, storages):
        super().__init__(file)
        self.storages = storages

    def find_class(self, module, name):
        if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_tensor"):
            return _rebuild_tensor
        if module == "torch" and name in STORAGE_DTYPES:
            return _StorageType(name)
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        raise CheckpointError(f"the checkpoint refers to {module}.{name}, which this reader does not build")

    def persistent_load(self, pid):
        kind = pid[0]
        if kind != "storage":
            raise CheckpointError(f"unexpected persistent id of kind {kind!r}")
        storage_type, key, _location, numel, view = pid[1:6]
        if view is not None:
            raise CheckpointError(f"storage {key} is a view, which legacy files from PyTorch ≥ 1.0 do not hold")
        if key not in self.storages:
            self.storages[key] = _Storage(key, STORAGE_DTYPES[storage_type.name], numel)
        return self.storages[key]


def _materialise(obj):
    if isinstance(obj, _Tensor):
        return obj.array()
    if isinstance(obj, dict):
        return type(obj)((k, _materialise(v)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return type(obj)(_materialise(v) for v in obj)
    return obj


def load(path):
    """The object a legacy torch.save wrote to `path`, with every tensor as a numpy array."""
    with open(path, "rb") as f:
        return read(f, str(path))


def read(f, path="checkpoint"):
    """The object a legacy torch.save wrote to the binary file `f`; `path` names it in messages."""
    if pickle.load(f) != MAGIC_NUMBER:
        raise CheckpointError(f"{path}: not a legacy PyTorch checkpoint (wrong magic number)")
    version = pickle.load(f)
    if version != PROTOCOL_VERSION:
        raise CheckpointError(f"{path}: protocol version {version}, expected {PROTOCOL_VERSION}")
    sys_info = pickle.load(f)
    if not sys_info.get("little_endian", False):
        raise CheckpointError(f"{path}: written on a big-endian machine, which this reader does not read")
    storages = {}
    obj = _Unpickler(f, storages).load()
    for key in pickle.load(f):
        storage = storages[key]
        (numel,) = struct.unpack("<q", f.read(8))
        if numel != storage.numel:
            raise CheckpointError(f"{path}: storage {key} holds {numel} elements, its tensors say {storage.numel}")
        size = numel * np.dtype(storage.dtype).itemsize
        data = f.read(size)
        if len(data) != size:
            raise CheckpointError(f"{path}: storage {key} is truncated ({len(data)} of {size} bytes)")
        storage.values = np.frombuffer(data, dtype=storage.dtype)
    if f.read(1):
        raise CheckpointError(f"{path}: bytes left after the last storage")
    return _materialise(obj)
