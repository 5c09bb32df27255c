"""nvfuser_direct on seam: the printed definition (nvFuser's translate_fusion style, executable with the
same outputs), fd.fusion with LRUCache.cache_compile and fd.fec, define_vector as a list of scalars,
validate returning its outputs, TensorView.is_tensor."""

import pytest
import torch

from conftest import close, make
import nvfuser_direct
from nvfuser_direct import DataType, FusionDefinition, LRUCache, TensorView


def define(body):
    with FusionDefinition() as fd:
        body(fd)
    return fd


def basic(fd):
    t0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float)
    t1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float)
    c0 = fd.define_scalar(3.0)
    t2 = fd.ops.add(t0, t1)
    t3 = fd.ops.mul(t2, c0)
    fd.add_output(fd.ops.sum(t3, [-1], False, DataType.Float))


def replay(fd):
    """What nvFuser's check_captured_python_definition does with repr(fd)."""
    namespace = {"FusionDefinition": FusionDefinition, "DataType": DataType, "torch": torch}
    exec(repr(fd), namespace)
    with FusionDefinition() as captured:
        namespace["nvfuser_fusion"](captured)
    return captured


def test_prints_as_nvfuser_translates():
    assert repr(define(basic)) == (
        "def nvfuser_fusion(fd : FusionDefinition) -> None :\n"
        "    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, "
        "is_cpu=False)\n"
        "    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, "
        "is_cpu=False)\n"
        "    tv2 = fd.ops.add(tv0, tv1)\n"
        "    tv3 = fd.ops.mul(tv2, 3.00000)\n"
        "    tv4 = fd.ops.sum(tv3, dims=[2], dtype=DataType.Float)\n"
        "    fd.add_output(tv4)\n")


def test_printed_definition_gives_the_same_outputs_and_strides():
    x = make((3, 4), torch.bfloat16)

    def body(fd):
        t = fd.from_pytorch(x)
        s = fd.define_scalar(None, dtype=DataType.Double)
        third = fd.define_scalar(1.0 / 3.0)  # not exact in five decimals: printed in full
        half = fd.define_scalar(0.5, dtype=DataType.Float)  # not its natural dtype: kept as a definition
        y = fd.ops.mul(fd.ops.cast(t, DataType.Float), third)
        fd.add_output(fd.ops.permute(fd.ops.add(y, s), [1, 0]), stride_order=[0, 1])
        fd.add_output(fd.ops.mul(y, half))
        v = fd.ops.var_mean(y, [1], 0, False)
        fd.add_output(v[0])

    fd = define(body)
    text = repr(fd)
    assert repr(1.0 / 3.0) in text and "fd.define_scalar(0.50000, dtype=DataType.Float)" in text
    ours = fd.execute([x, 2.0])
    theirs = replay(fd).execute([x, 2.0])
    for a, b in zip(ours, theirs):
        assert torch.equal(a, b) and a.stride() == b.stride()


def test_broadcast_in_dim_that_adds_no_dim_prints_as_expand():
    def with_broadcast(fd):
        t0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True])
        t1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        fd.add_output(fd.ops.add(fd.ops.broadcast_in_dim(t0, t1.shape(), [0, 1]), t1))

    def with_expand(fd):
        t0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True])
        t1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True])
        fd.add_output(fd.ops.add(fd.ops.expand(t0, t1.shape()), t1))

    assert str(define(with_broadcast)) == str(define(with_expand))


def test_lru_cache_compiles_each_fusion_once_and_evicts():
    cache = LRUCache(max_fusions=2)
    x, y = make((2, 3, 4)), make((2, 3, 4))
    for _ in range(2):
        fd = define(basic)
        fd.fec = cache.cache_compile(fd.fusion)
        del fd._fusion
    assert cache.num_fusions() == 1
    assert repr(fd.fusion) == repr(fd)
    out, = fd.execute([x, y])
    close(out, ((x + y) * 3.0).sum(-1))

    def other(k):
        return define(lambda fd: fd.add_output(fd.ops.add(fd.define_tensor([-1], [True]), float(k))))

    first = cache.cache_compile(other(1).fusion)
    cache.cache_compile(other(2).fusion)  # evicts basic, the least recently used
    assert cache.num_fusions() == 2
    assert cache.cache_compile(other(1).fusion) is first
    assert "2 fusions" in cache.stats()
    with pytest.raises(TypeError, match="cache_compile needs a Fusion"):
        cache.cache_compile(fd)


def test_define_vector_is_a_list_of_scalars_given_one_list():
    def body(fd):
        t = fd.define_tensor([-1, -1, -1], [True, True, True])
        shape = fd.define_vector(2)
        assert isinstance(shape, list) and len(shape) == 2
        fd.add_output(fd.ops.sum(fd.ops.reshape(t, shape), dims=[0]))

    fd = define(body)
    x = make((2, 3, 4))
    for new_shape in ([6, 4], (6, 4)):
        out, = fd.execute([x, new_shape])
        close(out, x.reshape(6, 4).sum(0))
    out, = replay(fd).execute([x, [6, 4]])
    close(out, x.reshape(6, 4).sum(0))


def test_validate_returns_the_outputs_it_checked():
    fd = define(basic)
    x, y = make((2, 3, 4)), make((2, 3, 4))
    out, = fd.validate([x, y])
    close(out, ((x + y) * 3.0).sum(-1))
    with pytest.raises(AssertionError):
        fd.validate([x, y], [out + 1.0])


def test_handles_and_module_names():
    def body(fd):
        t = fd.define_tensor([-1], [True])
        s = fd.define_scalar(1.0)
        assert isinstance(t, TensorView) and t.is_tensor() and not s.is_tensor()
        fd.add_output(fd.ops.add(t, s))

    define(body)
    assert issubclass(nvfuser_direct.FusionDefinition, __import__("seam").FusionDefinition)
    with pytest.raises(NotImplementedError, match="manual_execute"):
        define(basic).manual_execute([])


def test_reproducer_and_clone_run():
    fd = define(basic)
    x, y = make((2, 3, 4)), make((2, 3, 4))
    script = fd.repro_script_for([x, y])
    assert "from nvfuser_direct import FusionDefinition, DataType" in script and "nvfuser_fusion(fd)" in script
    namespace = {}
    exec(script, namespace)  # defines and executes on inputs it makes
    assert isinstance(namespace["fd"], FusionDefinition)
    copy = FusionDefinition()
    __import__("seam").clone(fd, copy)
    close(copy.execute([x, y])[0], fd.execute([x, y])[0])
