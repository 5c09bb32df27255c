"""Ctrl-C stops a long host-backend run: SIGINT during execute() raises KeyboardInterrupt within about a
second, not when the run ends (minutes here), and Python's own SIGINT handling is back afterwards."""

import os
import signal
import subprocess
import sys
import time

import seam

CHILD = r"""
import signal, sys, time, torch
from seam import FusionDefinition
with FusionDefinition() as fd:
    a = fd.define_tensor([-1], [True])
    # 2^33 rows of a broadcast summed: minutes on the host backend
    fd.add_output(fd.ops.sum(fd.ops.broadcast_in_dim(a, [2 ** 33, 3], [1]), [0]))
x = torch.ones(3)
fd.compile_for([x])
print("ready", flush=True)
try:
    fd.execute([x])
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
# Python's handler is back: a second Ctrl-C is Python's KeyboardInterrupt again
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
print("handler restored", flush=True)
"""


def test_sigint_stops_a_long_host_run():
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(seam.__file__)))
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        time.sleep(1.0)  # inside the run
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    lines = out.split("\n")
    assert lines[0].startswith("interrupted"), out + err
    assert float(lines[0].split()[1]) - sent < 1.5  # stopped within about a second of the signal
    assert lines[1] == "handler restored", out + err


def test_an_interrupt_requested_before_a_run_stops_it_at_once():
    from conftest import make
    from seam import FusionDefinition, _native
    with FusionDefinition() as fd:
        a = fd.define_tensor([-1], [True])
        fd.add_output(fd.ops.sum(fd.ops.broadcast_in_dim(a, [2 ** 33, 3], [1]), [0]))
    x = make((3,))
    fd.compile_for([x])
    _native.native.request_interrupt()  # as a SIGINT handler would, from another thread
    start = time.monotonic()
    try:
        fd.execute([x])
        raise AssertionError("the run did not stop")
    except KeyboardInterrupt:
        pass
    assert time.monotonic() - start < 5
    assert not _native.native.interrupt_requested()  # the run took the request
