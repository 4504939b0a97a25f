"""Where compiled units' bytes go: per-field totals over all units alive at the end of a run.

    python -m pyadapt bench/unit_memory.py pyflakes     # pytest over pyflakes' own tests
    python -m pyadapt bench/unit_memory.py toolz

Runs ``pytest --pyargs PACKAGE`` in this process (under the launcher, so as
``bench.programs``' pytest programs run), then walks the units of every code object that has
one (``_compiled_codes``: cold units, a bare ``pa_unit`` each, are left out) and prints the
bytes each field holds, per CPython code unit (2 bytes of ``co_code`` each) and in total.
Sizes are what the fields ask of malloc, not malloc's own overhead.
"""
import sys


def _has_type(name):
    from pyadapt._pyadapt import ffi
    try:
        ffi.typeof(name)
    except ffi.error:
        return False
    return True


def unit_bytes():
    from pyadapt import _pyadapt as core
    from pyadapt._pyadapt import ffi, lib

    fields = {"struct": 0, "code": 0, "to_cpy": 0, "from_cpy": 0, "exc": 0, "site_records": 0}
    has_slots = "more" in dict(ffi.typeof("pa_site_slot").fields) if _has_type("pa_site_slot") else False
    has_base = "base_code" in dict(ffi.typeof("pa_unit").fields)
    if has_base:
        fields["base_code"] = 0
    units = ncpy = ncode = records = seen = 0
    for code in core._compiled_codes():
        addr = core.unit_address(code)
        if not addr:
            continue
        u = ffi.cast("pa_unit *", addr)
        if u.code == ffi.NULL:
            continue
        units += 1
        ncpy += u.ncpy
        ncode += u.ncode
        fields["struct"] += ffi.sizeof("pa_unit")
        fields["code"] += 4 * u.ncode
        if has_base:
            fields["base_code"] += 4 * u.ncode
        fields["to_cpy"] += ffi.sizeof(ffi.typeof(u.to_cpy).item) * u.ncode
        fields["from_cpy"] += ffi.sizeof(ffi.typeof(u.from_cpy).item) * (u.ncpy + 1)
        fields["exc"] += ffi.sizeof("pa_exc_entry") * u.nexc
        records += u.nsite_records
        seen += sum(u.site_records[k].nseen for k in range(u.nsite_records))
        if has_slots:
            fields["site_records"] += ffi.sizeof("pa_site_slot") * u.site_records_cap + sum(
                ffi.sizeof("pa_site_seen") * (lib.PA_SEEN_MAX - 1)
                for k in range(u.nsite_records) if u.site_records[k].more != ffi.NULL)
        else:
            fields["site_records"] += ffi.sizeof("pa_site_record") * u.site_records_cap
    record = "pa_site_slot" if has_slots else "pa_site_record"
    print(f"site records in use {records:,} ({ffi.sizeof(record)} bytes each), "
          f"observations {seen:,}")
    return units, ncpy, ncode, fields


def report(units, ncpy, ncode, fields):
    total = sum(fields.values())
    print(f"units {units:,}, CPython code units {ncpy:,} ({2 * ncpy:,} bytes of co_code), "
          f"pyadapt code units {ncode:,}")
    for name, n in sorted(fields.items(), key=lambda kv: -kv[1]):
        print(f"  {name:13} {n:>11,} bytes  {n / max(ncpy, 1):6.2f} per CPython code unit")
    print(f"  {'total':13} {total:>11,} bytes  {total / max(ncpy, 1):6.2f} per CPython code unit")


def main():
    package = sys.argv[1] if len(sys.argv) > 1 else "pyflakes"
    import pytest
    pytest.main(["-q", "-p", "no:cacheprovider", "--pyargs", package])
    report(*unit_bytes())


if __name__ == "__main__":
    main()
