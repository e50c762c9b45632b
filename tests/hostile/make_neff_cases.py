#!/usr/bin/env python3
"""The NEFF cases of tests/hostile/hostile.sh, made in the current folder (issue 36).

Usage: make_neff_cases.py FIXTURES_DIR   (tests/neff, whose make_fixtures.py builds the members and containers)

Folders of members that `tpbisa neff pack` (the library's writer) turns into well-formed containers with hostile
contents, and malformed containers the writer would refuse to make, written directly. Standard library only.
"""
import gzip
import io
import json
import os
import struct
import sys
import tarfile

sys.path.insert(0, sys.argv[1])
import make_fixtures as f  # noqa: E402


def folder(name, members):
    """The members as files under `name`, for `tpbisa neff pack name name.neff`."""
    for n, d in members:
        path = os.path.join(name, n)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(d)


def write(name, data):
    with open(name, "wb") as out:
        out.write(data)


def with_vars(members, extra):
    """sg00/def.json with the variables `extra` added."""
    out = []
    for n, d in members:
        if n == "sg00/def.json":
            j = json.loads(d)
            j["var"].update(extra)
            d = f.dumps(j)
        out.append((n, d))
    return out


def dma_word(src, dst, src_walk, dst_walk, esz):
    """PseudoDmaDirect2d, FP16 both sides, completion +16 on semaphore 8; src and dst are (offset, var_id), the walks
    ((step0, step1), (num0, num1)), `esz` bytes a chunk."""
    w = bytearray(f.dma(8, 16))
    for at, (offset, ident), (step, num) in ((16, src, src_walk), (40, dst, dst_walk)):
        struct.pack_into("<IHBBiiHHH", w, at, offset, ident, 0, 0x10, step[0], step[1], num[0], num[1], esz)
    w[62] = w[63] = 0x07
    return bytes(w)


def with_streams(members, words):
    """Every engine stream of sg00 empty but those of `words` (engine file name, "SP", "PE", ... -> bytes)."""
    streams = {f"sg00/{e}.bin": words.get(e, b"") for e in f.ENGINE_FILES.values()}
    return [(n, streams[n] if n in streams else d) for n, d in members]


def only_sp(members, sp):
    """Every engine stream of sg00 empty but SP, which is `sp`."""
    return with_streams(members, {"SP": sp})


class Zeros:
    """A file object of `size` zero bytes, read as tarfile reads a member's data."""

    def __init__(self, size):
        self.left = size

    def read(self, n=-1):
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        return bytes(n)


g = f.program()
write("x.npy", f.npy("<f2", (16, 16), bytes(512)))

# DRAM variables (D04): a 4 GiB virtual variable, tmp-bufs of 2 GiB and 1 TiB.
folder("virtual4g", with_vars(g, {"spill": {"type": "virtual", "var_id": 9, "size": 4 << 30,
                                            "backing_variable_off": 0}}))
folder("tmp2g", with_vars(g, {"t": {"type": "tmp-buf", "var_id": 9, "size": 2 << 30}}))
folder("tmp1t", with_vars(g, {"t": {"type": "tmp-buf", "var_id": 9, "size": 1 << 40}}))
# Cores (D05): kelf graphs all naming one def.json.
for count in (200, 2000):
    kelf = f.dumps({"graphs": [{"definition": "sg00/def.json", "name": "sg%04d" % i} for i in range(count)],
                    "target": "cayman"})
    folder("cores%d" % count, f.replace(g, "kelf-0.json", kelf))
# A signature output larger than its variable (D11): float32 [8, 16] is 512 bytes, `out` holds 256.
graph = json.loads(dict(g)["neff.json"])
graph["metadata"]["signatures"]["default"]["outputs"] = {"out": {"id": 0, "dtype": "float32", "shape": [8, 16]}}
folder("sig32", f.replace(g, "neff.json", f.dumps(graph)))
# DMA transfers (D06): one word moving 1 GiB in 16 Mi chunks of 64 bytes, step 0; and 64 MiB in 1 Mi chunks from a
# 64-byte window of x into a 64 MiB tmp-buf, which a run raising --max-elements streams.
folder("dma_huge", only_sp(g, dma_word((0, 1), (0, 2), ((0, 0), (4096, 4096)), ((0, 0), (4096, 4096)), 64)))
folder("dma_stream", only_sp(with_vars(g, {"big": {"type": "tmp-buf", "var_id": 5, "size": 64 << 20}}),
                             dma_word((0, 1), (0, 5), ((0, 0), (4096, 256)), ((64, 64 * 4096), (4096, 256)), 64)))

# Runs and their files (D01-D03, D08, D09, D22): a program that ends at once (one Nop); one whose SP loops on a
# CompareBranch to itself forever (target_mode 3, offset 0) while PE waits for a semaphore nothing raises; two whose
# output is 64 KiB (out: float16 (256, 128)) and 128 MiB; one with a 64 KiB member; a reference of the output's shape.
COMPARE_BRANCH = 0xA9
write("ok.neff", f.container(only_sp(g, f.word(f.NOP))))
write("loop.neff", f.container(with_streams(g, {"SP": f.word(COMPARE_BRANCH, extra=((14, 3),)),
                                                "PE": f.word(f.EVENT_SEMAPHORE, (f.SEM_GE_IMM, 24, 16))})))
wide = json.loads(dict(g)["neff.json"])
wide["metadata"]["signatures"]["default"]["outputs"] = {"out": {"id": 0, "dtype": "float16", "shape": [256, 128]}}
write("big_out.neff", f.container(only_sp(f.replace(with_vars(g, {"out": {"type": "output", "var_id": 2,
                                                                         "size": 65536, "ops": []}}),
                                                    "neff.json", f.dumps(wide)), f.word(f.NOP))))
huge = json.loads(dict(g)["neff.json"])
huge["metadata"]["signatures"]["default"]["outputs"] = {"out": {"id": 0, "dtype": "float16", "shape": [65536, 1024]}}
write("huge_out.neff", f.container(only_sp(f.replace(with_vars(g, {"out": {"type": "output", "var_id": 2,
                                                                          "size": 128 << 20, "ops": []}}),
                                                     "neff.json", f.dumps(huge)), f.word(f.NOP))))
write("big_member.neff", f.container(g + [("blob.bin", bytes(65536))]))
write("out_ref.npy", f.npy("<f2", (8, 16), bytes(256)))

# Malformed containers (D25, D13, D12, D14, D17, D07).
z = gzip.compress(f.tar_bytes(g), compresslevel=9, mtime=0)
write("gzip-method.neff", f.container(payload=z[:2] + b"\x07" + z[3:]))
write("gzip-flags.neff", f.container(payload=z[:3] + bytes([z[3] | 0x20]) + z[4:]))
write("gzip-no-trailer.neff", f.container(payload=z[:-8]))
write("json-duplicate.neff", f.container(f.replace(g, "info.json", b'{"tool_version": "1", "tool_version": "2"}')))
write("json-nul.neff", f.container(f.replace(g, "info.json", b'{"tool_version": "1"}\0junk')))
odd = b"odd\xff\xfe.bin".decode("utf-8", "surrogateescape")  # tarfile writes the bytes back
write("not-utf8.neff", f.container(g + [(odd, b"x")], name=b"name\xff\xfe"))
write("newline-name.neff", f.container(g + [("evil\n\x1b[2J.bin", b"x")]))
write("header-size-0.neff", f.container(g, header_size=0))
# A header whose window is 100 GiB: hostile.sh extends the file to that size without writing it.
write("huge-window.neff", f.header(2, (100 << 30) - 1024, bytes(16)))

# Member sizes: three members of 60 MiB of zeros, streamed into one gzip member of a few hundred KiB. The reader may
# hold no more than the members it has read when the third passes --max-inflated.
raw = io.BytesIO()
with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=1, mtime=0) as gz:
    with tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for n, d in g:
            info = tarfile.TarInfo(n)
            info.size = len(d)
            t.addfile(info, io.BytesIO(d))
        for i in range(3):
            info = tarfile.TarInfo("zeros%d.bin" % i)
            info.size = 60 << 20
            t.addfile(info, Zeros(info.size))
write("three-members.neff", f.container(payload=raw.getvalue()))
