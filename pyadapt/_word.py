"""The instruction word and the adaptive counter, in Python: the only Python code that
encodes or decodes them (csrc/pa_word.h is the only C code, and draws both layouts).

The field widths are the C core's own constants (csrc/pa_cdef.h, read through cffi), and
the positions of the counter and the hit count in every inline cache are those of the
cache head, ``pa_cache_head`` (csrc/pa_caches.h).
"""
from ._pyadapt import ffi, lib

__all__ = ["word", "opcode", "oparg", "MAX_OPARG", "MAX_WARMUP", "counter", "countdown",
           "backoff", "failure_kind", "COUNTER", "HITS", "type_slot", "type_slot_version",
           "type_slot_index"]

_OPCODE_BITS = lib.PA_OPCODE_BITS
_OPCODE_MASK = (1 << _OPCODE_BITS) - 1
MAX_OPARG = (1 << lib.PA_OPARG_BITS) - 1

_VALUE_BITS = lib.PA_COUNTER_VALUE_BITS
_BACKOFF_BITS = lib.PA_COUNTER_BACKOFF_BITS
_KIND_SHIFT = _VALUE_BITS + _BACKOFF_BITS
MAX_WARMUP = (1 << _VALUE_BITS) - 1
_MAX_BACKOFF = (1 << _BACKOFF_BITS) - 1

# a polymorphic instance-value site's extra type: values index above, type version below
_SLOT_VERSION_BITS = 32 - lib.PA_TYPE_SLOT_INDEX_BITS
_SLOT_VERSION_MASK = (1 << _SLOT_VERSION_BITS) - 1

# cache units after the instruction word: where the counter and the hit count are
COUNTER = ffi.offsetof("pa_cache_head", "counter") // ffi.sizeof("uint32_t")
HITS = ffi.offsetof("pa_cache_head", "hits") // ffi.sizeof("uint32_t")


def word(op, arg):
    """The instruction word of opcode `op` with oparg `arg`."""
    return op | arg << _OPCODE_BITS


def opcode(w):
    return w & _OPCODE_MASK


def oparg(w):
    return w >> _OPCODE_BITS


def counter(kind, backoff, value):
    """A counter: last failure `kind`, backoff exponent `backoff`, countdown `value`."""
    return kind << _KIND_SHIFT | backoff << _VALUE_BITS | value


def countdown(c):
    """Warmup or backoff of an adaptive form, remaining miss budget of a specialized one."""
    return c & MAX_WARMUP


def backoff(c):
    return c >> _VALUE_BITS & _MAX_BACKOFF


def failure_kind(c):
    """Index into the failure names of the last failed specialization attempt (0: none)."""
    return c >> _KIND_SHIFT


def type_slot(version, index):
    """A type slot of LOAD_ATTR_/STORE_ATTR_INSTANCE_VALUE: `version` and its values `index`."""
    return index << _SLOT_VERSION_BITS | version


def type_slot_version(slot):
    """The type version a type slot holds (0: the slot is free)."""
    return slot & _SLOT_VERSION_MASK


def type_slot_index(slot):
    return slot >> _SLOT_VERSION_BITS
