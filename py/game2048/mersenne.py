"""The game's random generator: CPython's Mersenne Twister in plain Python, equal to ``random.Random``.

A seeded game must spawn the same tiles wherever it runs: in CPython (the
lab, the tests), in Pyodide (the AI worker) and in MicroPython (the page's
main thread), which has no ``random.Random``.  ``MersenneTwister(seed)``
draws exactly what ``random.Random(seed)`` draws for an integer seed
(``random()``, ``getrandbits(k)``, ``randrange(n)``), and its state is
``random.Random.getstate()``'s, so games saved before it load and go on the
same.  The tests prove the equality; MicroPython runs it too.

Plain Python that CPython, Pyodide and MicroPython share: no ``__future__``,
no ``int.bit_length`` (MicroPython has neither), annotations of builtins only.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass

N = 624
M = 397
MATRIX_A = 0x9908B0DF
UPPER_MASK = 0x80000000
LOWER_MASK = 0x7FFFFFFF
WORD = 0xFFFFFFFF
STATE_VERSION = 3
"""``random.Random.getstate()``'s version: (3, the 624 words and the position, None)."""


class UnreachableState(ValueError):
    """A well-formed state that no seed leads to (all zero: the twister would draw only zeros)."""


def bit_length(n: int) -> int:
    """``n.bit_length()`` for n ≥ 0, which MicroPython's int lacks."""
    length = 0
    while n >= 1 << 32:
        n >>= 32
        length += 32
    while n:
        n >>= 1
        length += 1
    return length


def entropy_seed() -> int:
    """A seed from the system's randomness, for a game started without one (``random.Random()`` does the same).

    ``os.urandom`` in CPython and Pyodide; MicroPython in the browser has
    none, and its own ``random`` module, seeded at start from the platform's
    randomness, gives the 256 bits instead.
    """
    import os

    if hasattr(os, "urandom"):
        return int.from_bytes(os.urandom(32), "little")
    import random

    seed = 0
    for _ in range(8):
        seed = (seed << 32) | random.getrandbits(32)
    return seed


class MersenneTwister:
    """MT19937 seeded and read as CPython's ``random.Random`` (``Modules/_randommodule.c``, ``Lib/random.py``)."""

    def __init__(self, seed: "int | None" = None, state: "Any" = None) -> None:
        """Seeded by ``seed`` (``None``: the system's randomness), or restored from ``state`` (``getstate()``)."""
        self.mt = [0] * N
        self.index = N
        if state is not None:
            self.setstate(state)
        else:
            self.seed(entropy_seed() if seed is None else seed)

    def seed(self, seed: int) -> None:
        """``random.seed(n)`` for an int: the words of ``abs(n)``, least significant first, as the key."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError("the seed is an int, got " + type(seed).__name__)
        n = -seed if seed < 0 else seed
        key = []
        while n:
            key.append(n & WORD)
            n >>= 32
        self._init_by_array(key or [0])

    def _init_genrand(self, s: int) -> None:
        self.mt = mt = [0] * N  # a new list: a snapshot may hold the old one
        mt[0] = s & WORD
        for i in range(1, N):
            previous = mt[i - 1]
            mt[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & WORD
        self.index = N

    def _init_by_array(self, key: "list[int]") -> None:
        self._init_genrand(19650218)
        mt = self.mt
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            previous = mt[i - 1]
            mt[i] = ((mt[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + key[j] + j) & WORD
            i += 1
            j += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            previous = mt[i - 1]
            mt[i] = ((mt[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & WORD
            i += 1
            if i >= N:
                mt[0] = mt[N - 1]
                i = 1
        mt[0] = 0x80000000

    def _twist(self) -> None:
        mt = list(self.mt)  # a new list, so that a snapshot's words never change (see ``snapshot``)
        for k in range(N):
            y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK)
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
        self.mt = mt
        self.index = 0

    def next_word(self) -> int:
        """The next 32-bit output (``genrand_uint32``)."""
        if self.index >= N:
            self._twist()
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self) -> float:
        """A float in [0, 1) from 53 random bits, as ``random.random()``."""
        a = self.next_word() >> 5
        b = self.next_word() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits, as ``random.getrandbits(k)``: whole words, least significant first."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self.next_word() >> (32 - k) if k else 0
        out = 0
        shift = 0
        while k > 0:
            word = self.next_word()
            if k < 32:
                word >>= 32 - k
            out |= word << shift
            shift += 32
            k -= 32
        return out

    def randrange(self, stop: int) -> int:
        """A whole number in [0, stop), as ``random.randrange(stop)``: bits drawn until one is below ``stop``."""
        if stop <= 0:
            raise ValueError("empty range for randrange(" + str(stop) + ")")
        k = bit_length(stop)
        r = self.getrandbits(k)
        while r >= stop:
            r = self.getrandbits(k)
        return r

    def snapshot(self) -> "tuple[list[int], int]":
        """Where the generator stands, cheap enough to take before every move (for undo): its words and position.

        The words list is never changed in place once made (a twist makes a new
        one), so the snapshot holds it rather than a copy; ``restore`` goes back.
        """
        return (self.mt, self.index)

    def restore(self, snapshot: "tuple[list[int], int]") -> None:
        """Go back to ``snapshot()``'s point: the same draws follow."""
        self.mt, self.index = snapshot

    def getstate(self) -> "tuple[int, tuple[int, ...], None]":
        """``random.Random.getstate()``'s form: (3, the 624 words and the position, None)."""
        return (STATE_VERSION, tuple(self.mt) + (self.index,), None)

    def setstate(self, state: "Any") -> None:
        """Restore ``getstate()``'s (or ``random.Random.getstate()``'s) state; ``ValueError`` if it is not one.

        ``random.Random.setstate`` accepts an all-zero state, from which the
        twister draws only zeros; no seed leads there, so it is refused here.
        The third item (``random.gauss``'s spare value) is not used.
        """
        try:
            version, internal, _gauss = state
            count = len(internal)
        except (TypeError, ValueError):
            raise ValueError("a generator state is (3, 625 numbers, a spare value)") from None
        if version != STATE_VERSION or count != N + 1:
            raise ValueError("a generator state is version 3 with 625 numbers")
        words = list(internal[:N])
        index = internal[N]
        for word in words:
            if isinstance(word, bool) or not isinstance(word, int) or not 0 <= word <= WORD:
                raise ValueError("a generator state's words are 32-bit whole numbers")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= N:
            raise ValueError("a generator state's position is 0 to 624")
        if not words[0] & UPPER_MASK and not any(words[1:]):
            raise UnreachableState("a generator state cannot be all zero")
        self.mt = words
        self.index = index
