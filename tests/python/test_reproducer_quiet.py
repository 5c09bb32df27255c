"""Printing a failing execute's reproducer (python/seam/reproducer.py): by default, and not inside
quiet_reproducers(), which is per thread."""

import threading

import pytest
import torch

from seam.reproducer import quiet_reproducers, reproducers_quiet, set_reproducers_quiet_by_default
from nvfuser import FusionDefinition, DataType


def _failing():
    with FusionDefinition() as fd:
        t = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
        fd.add_output(fd.ops.exp(t))
    return fd


def test_a_failing_execute_prints_its_reproducer_unless_quiet(capsys):
    fd = _failing()
    with quiet_reproducers(False):
        with pytest.raises(Exception):
            fd.execute([torch.zeros(2, 3)])
    printed = capsys.readouterr().err
    assert "def nvfuser_fusion" in printed or "fd.define_tensor" in printed, printed
    with quiet_reproducers():
        with pytest.raises(Exception):
            fd.execute([torch.zeros(2, 3)])
    assert capsys.readouterr().err == ""


def test_quiet_is_per_thread():
    """The torch backend translates regions ahead on worker threads, each quiet in its own block: one
    thread's block must not silence (or unsilence) another's errors."""
    seen = []
    set_reproducers_quiet_by_default(False)
    try:
        with quiet_reproducers():
            thread = threading.Thread(target=lambda: seen.append(reproducers_quiet()))
            thread.start()
            thread.join()
            assert reproducers_quiet()
        assert not reproducers_quiet()
    finally:
        set_reproducers_quiet_by_default(True)  # the suite's default (conftest.py)
    assert seen == [False]  # the other thread kept the process default
