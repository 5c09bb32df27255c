"""An op table: nvFuser op names with, per op, what a call gives back at definition time (`out`: handle
kinds and ranks) and how it lowers onto seam's IR (`lower`, whose parameters after the lowering context
are the op's Python signature). Each module of ops fills its own table; registry.py gathers them."""

import inspect


class OpSpec:
    def __init__(self, name, lower, out):
        self.name = name
        self.lower = lower
        self.out = out
        params = list(inspect.signature(lower).parameters.values())[1:]  # without ctx
        self.signature = inspect.Signature(params)


class OpTable:
    def __init__(self):
        self.specs = {}

    def op(self, name, out):
        """Decorator: registers the lowering function it decorates as op `name`."""
        def register(lower):
            if name in self.specs:
                raise ValueError(f"op {name} is registered twice")
            self.specs[name] = OpSpec(name, lower, out)
            return lower

        return register
