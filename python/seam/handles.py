"""The handles a FusionDefinition hands out: Tensor, Scalar, Vector. A handle names a value of the
definition; the value itself exists only when the definition is specialized for concrete inputs."""


class Handle:
    __slots__ = ("fd", "index")
    prefix = "?"

    def __init__(self, fd, index):
        self.fd = fd
        self.index = index

    @property
    def name(self):
        return f"{self.prefix}{self.index}"

    def __repr__(self):
        return self.name

    def __hash__(self):
        return hash((id(self.fd), self.index))

    def __bool__(self):
        raise TypeError(f"{self.name} is a symbolic value of a FusionDefinition; it has no truth value")

    # Arithmetic goes through fd.ops, so it is recorded like any op.
    def _op(self, name, *args):
        return getattr(self.fd.ops, name)(*args)

    def __add__(self, other): return self._op("add", self, other)
    def __radd__(self, other): return self._op("add", other, self)
    def __sub__(self, other): return self._op("sub", self, other)
    def __rsub__(self, other): return self._op("sub", other, self)
    def __mul__(self, other): return self._op("mul", self, other)
    def __rmul__(self, other): return self._op("mul", other, self)
    # `/` is nvFuser's div, as in its frontend: true division of floats, C's truncating division of two
    # integers (fd.ops.truediv always divides as floats). nvFuser defines no `//`.
    def __truediv__(self, other): return self._op("div", self, other)
    def __rtruediv__(self, other): return self._op("div", other, self)
    def __pow__(self, other): return self._op("pow", self, other)
    def __rpow__(self, other): return self._op("pow", other, self)
    def __mod__(self, other): return self._op("mod", self, other)
    def __rmod__(self, other): return self._op("mod", other, self)

    def __floordiv__(self, other):
        raise TypeError("nvFuser's frontend has no `//`: fd.ops.div (or `/`) divides integers truncating "
                        "toward zero, fd.ops.truediv divides as floats")

    __rfloordiv__ = __floordiv__

    def __neg__(self): return self._op("neg", self)
    def __abs__(self): return self._op("abs", self)
    def __invert__(self): return self._op("bitwise_not", self)
    def __and__(self, other): return self._op("bitwise_and", self, other)
    def __rand__(self, other): return self._op("bitwise_and", other, self)
    def __or__(self, other): return self._op("bitwise_or", self, other)
    def __ror__(self, other): return self._op("bitwise_or", other, self)
    def __xor__(self, other): return self._op("bitwise_xor", self, other)
    def __rxor__(self, other): return self._op("bitwise_xor", other, self)
    def __lshift__(self, other): return self._op("bitwise_left_shift", self, other)
    def __rshift__(self, other): return self._op("bitwise_right_shift", self, other)
    def __eq__(self, other): return self._op("eq", self, other)
    def __ne__(self, other): return self._op("ne", self, other)
    def __lt__(self, other): return self._op("lt", self, other)
    def __le__(self, other): return self._op("le", self, other)
    def __gt__(self, other): return self._op("gt", self, other)
    def __ge__(self, other): return self._op("ge", self, other)

    def abs(self):
        return self._op("abs", self)

    def is_tensor(self):
        return isinstance(self, Tensor)


class Tensor(Handle):
    __slots__ = ("ndim",)
    prefix = "T"

    def __init__(self, fd, index, ndim):
        super().__init__(fd, index)
        self.ndim = ndim

    def size(self, dim):
        return self.fd.ops.size(self, dim)

    def shape(self):
        return self.fd.ops.shape(self)


class Scalar(Handle):
    __slots__ = ()
    prefix = "S"


class Vector(Handle):
    __slots__ = ("size",)
    prefix = "V"

    def __init__(self, fd, index, size):
        super().__init__(fd, index)
        self.size = size

    def __len__(self):
        return self.size

    def __getitem__(self, i):
        return self.fd.ops.at(self, i)

    def at(self, i):
        return self.fd.ops.at(self, i)

    def __iter__(self):
        return (self.fd.ops.at(self, i) for i in range(self.size))
