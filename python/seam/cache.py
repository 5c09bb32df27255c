"""The definition cache: definitions with the same content share one entry, and so the compiled
executables of every input signature (nvFuser's FusionCache plays this role)."""

import json
import threading

import torch

_Tensor = torch.Tensor


class CacheEntry:
    def __init__(self, id, body):
        self.id = id
        self.body = body
        self.lock = threading.Lock()   # one specialization (lowering + compilation) at a time
        self.meta = None               # scalar inputs whose values shape the fusion; known after the first
        self.specializations = {}      # input signature -> runner.Specialization
        self.fast = {}                 # fast_key -> the specialization those inputs were checked for

    def fast_key(self, flat, requested_device):
        """The key of the inputs as given (with the requested device, not yet the chosen one): it implies
        every property execute() checks and specializes on, so a hit skips the checks. None until the
        first specialization tells which scalars shape the fusion."""
        meta = self.meta
        return None if meta is None else input_key(flat, meta, requested_device)


def input_key(flat, meta, device):
    """What a compiled specialization depends on: per tensor its dtype, extents, strides and device; per
    scalar its Python type and, for those whose values shape the fusion (`meta`: their flat positions),
    the value; and `device`. Both the fast key (device as requested) and the specialization key (device
    as chosen) are this."""
    if not meta:
        key = [(x.dtype, x.shape, x.stride(), x.device) if isinstance(x, _Tensor) else x.__class__ for x in flat]
    else:
        key = [(x.dtype, x.shape, x.stride(), x.device) if isinstance(x, _Tensor)
               else (x.__class__, x if i in meta else None) for i, x in enumerate(flat)]
    key.append(device)
    return tuple(key)


class FusionCache:
    _instance = None
    _lock = threading.Lock()

    def __init__(self):
        self._entries = {}

    @classmethod
    def get(cls, max_fusions=None, selected_device=None, load_from_default_workspace=False):
        with cls._lock:
            if cls._instance is None:
                cls._instance = FusionCache()
            return cls._instance

    @classmethod
    def reset(cls):
        with cls._lock:
            cls._instance = FusionCache()

    def entry_for(self, body):
        with self._lock:
            entry = self._entries.get(body)
            if entry is None:
                entry = CacheEntry(len(self._entries), body)
                self._entries[body] = entry
            return entry

    def body_of(self, id):
        """The printed definition cached under `id`."""
        with self._lock:
            for entry in self._entries.values():
                if entry.id == id:
                    return entry.body
        raise ValueError(f"no definition with id {id} in the FusionCache")

    def serialize(self, path):
        """Writes the definitions (not their compiled code, which seam's disk cache keeps) to `path`."""
        with open(path, "w") as f:
            json.dump([e.body for e in sorted(self._entries.values(), key=lambda e: e.id)], f)

    def deserialize(self, path):
        with open(path) as f:
            for body in json.load(f):
                self.entry_for(body)

    def num_fusions(self):
        return len(self._entries)

    def num_specializations(self):
        return sum(len(e.specializations) for e in self._entries.values())
