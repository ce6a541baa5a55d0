"""The C library's srand/rand, which the benchmarks seed to make their
inputs: the reference checks regenerate the same inputs with it."""
import ctypes
import ctypes.util

_libc = ctypes.CDLL(ctypes.util.find_library("c"))


def srand(seed):
    _libc.srand(seed)


def rand():
    return _libc.rand()
