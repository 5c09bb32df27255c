"""seam's version in nvFuser's numbering, comparable with strings and other versions."""

import re


class Version(str):
    """A version string that compares by its numeric parts: Version("0.2.34+seam") > "0.2.8"."""

    def _key(self):
        return tuple(int(p) for p in re.findall(r"\d+", self.split("+")[0]))

    @staticmethod
    def _coerce(other):
        return other if isinstance(other, Version) else Version(str(other))

    def __lt__(self, other): return self._key() < self._coerce(other)._key()
    def __le__(self, other): return self._key() <= self._coerce(other)._key()
    def __gt__(self, other): return self._key() > self._coerce(other)._key()
    def __ge__(self, other): return self._key() >= self._coerce(other)._key()
    def __eq__(self, other): return self._key() == self._coerce(other)._key()
    def __ne__(self, other): return not self == other
    def __hash__(self): return hash(self._key())


VERSION = Version("0.2.34+seam")
