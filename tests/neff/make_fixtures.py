#!/usr/bin/env python3
"""Writes the synthetic NEFF containers of the tests: good ones and every hostile case of docs/neff.md.

Usage: make_fixtures.py [ROOT]          write the golden cases tests/golden/neff-*/ (cmd + inputs) and the fuzz
                                        seeds tests/fuzz/corpus/fuzz_neff/ under ROOT (default: the repository)
       make_fixtures.py --check [ROOT]  exit 1, naming the files, when the committed files differ from what this
                                        script writes (the unit test NeffFixtures.CommittedFilesAreGenerated runs it)

Standard library only and deterministic (gzip MTIME 0, tar mtime 0). The containers follow neff.md: a 1024-byte
little-endian header, then a gzip'd ustar archive (pkg_version 2, MD5) or a plain one (pkg_version 1, SHA-256).
Instruction words are built here from their header and EVENTS fields (common-formats.md); none is copied from a
compiled program.
"""
import gzip
import hashlib
import io
import json
import os
import struct
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
WORD = 64

# ---- instruction words (opcode values from the catalog: tpbisa catalog opcodes) ----
EVENT_SEMAPHORE, NOP, MATMUL, PSEUDO_DMA, ACT_COPY = 0xA0, 0xA4, 0x02, 0xD4, 0x46
SEM_GE_IMM, SEM_INC_COMPLETE = 0x05, 0x13


def word(opcode, wait=(0, 0, 0), update=(0, 0), extra=()):
    """A word: header (inst_word_len 16), EVENTS (wait = (mode, idx, value), update = (mode, idx)), extra bytes."""
    w = bytearray(WORD)
    w[0], w[1] = opcode, 16
    struct.pack_into("<BBBBI", w, 4, wait[0], wait[1], update[0], update[1], wait[2])
    for at, value in extra:
        w[at] = value
    return bytes(w)


def dma(sem, increment, wait=(0, 0, 0)):
    """PseudoDmaDirect2d: completion raises semaphore `sem` (byte 13) by `increment` (byte 14)."""
    return word(PSEUDO_DMA, wait, extra=((13, sem), (14, increment)))


def dma_var(sem, increment, src, dst, chunks=2, size=256):
    """PseudoDmaDirect2d moving `chunks` chunks of `size` bytes: src and dst are PSEUDO_ADDR8 (offset, id, mode);
    steps: `size` bytes on a variable, one partition (0x40000) on the state buffer (var 0)."""
    w = bytearray(dma(sem, increment))
    for at, (offset, ident, mode) in ((16, src), (40, dst)):
        step = 0x40000 if (mode, ident) == (0x10, 0) else size
        struct.pack_into("<IHBBiiHHH", w, at, offset, ident, 0, mode, step, 0, chunks, 1, size)
    w[62] = w[63] = 0x07  # FP16 both sides
    return bytes(w)


def streams(k=0):
    """The five engines of one subgraph: Pool and SP load (DMA), PE waits and computes, ACT waits for PE."""
    return {
        "pe": [word(EVENT_SEMAPHORE, (SEM_GE_IMM, 24, 16)), word(MATMUL, update=(SEM_INC_COMPLETE, 5)),
               word(MATMUL, (SEM_GE_IMM, 8, 16), (SEM_INC_COMPLETE, 5))],
        "act": [word(ACT_COPY, (SEM_GE_IMM, 5, 2), (SEM_INC_COMPLETE, 4))],
        "pool": [dma(24, 16), dma(25 + k, 16, (SEM_GE_IMM, 4, 1)), word(NOP, (SEM_GE_IMM, 25 + k, 16))],
        "dve": [word(NOP)],
        "sp": [dma(8, 16)],
    }


ENGINE_FILES = {"pe": "PE", "act": "Activation", "pool": "Pool", "dve": "DVE", "sp": "SP"}


def npy(descr, shape, data):
    """A NumPy 1.0 file: magic, header dictionary padded to a multiple of 64, data."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def dumps(obj):
    return (json.dumps(obj, indent=4, sort_keys=True) + "\n").encode()


def queue_sets():
    return {
        "qPoolDynamic": {"type": "dynamic", "owner": "pool", "num_queues": 16,
                         "semaphore_set": list(range(24, 40)), "fabric_path": "main"},
        "qSPDynamicHW": {"type": "dynamic", "owner": "sp", "num_queues": 16,
                         "semaphore_set": list(range(8, 24)), "fabric_path": "main"},
    }


def subgraph(name, k=0, extra_vars=None, words=None):
    """The members of one subgraph folder (def.json, engine JSON and streams, one .npy constant)."""
    words = words or streams(k)
    d = {"version": "0.6", "name": "definition", "dma_queue": queue_sets(),
         "runtime_event_count": 12, "runtime_semaphore_count": 3,
         "var": {
             "SB": {"type": "state-buffer", "var_id": 0},
             "x": {"type": "input", "var_id": 1, "size": 512, "ops": []},
             "out": {"type": "output", "var_id": 2, "size": 256, "ops": []},
             "ident": {"type": "file", "var_id": 3, "size": 32, "alignment": 64,
                       "file_name": "value_ident.npy", "fabric_path": "main"},
             "DGETable0": {"type": "dge-table", "var_id": 4, "list": [1, 2]},
         }}
    d["var"].update(extra_vars or {})
    members = []
    for key, eng in ENGINE_FILES.items():
        d[key] = eng + ".json"
        d[key + "_instr"] = eng + ".bin"
        ej = {"dma": [], "instr": eng + ".bin", "name": eng + ".json"}
        if key == "dve":
            ej["dve_tables"] = [{"opcode_table": "opcode_table.bin"}]
        members.append((f"{name}/{eng}.json", dumps(ej)))
        members.append((f"{name}/{eng}.bin", b"".join(words[key])))
    members.append((f"{name}/opcode_table.bin", bytes(range(256)) * 2))
    members.append((f"{name}/value_ident.npy", npy("<f2", (4, 4), struct.pack("<16e", *[1.0 if i % 5 == 0 else 0.0 for i in range(16)]))))
    members.append((f"{name}/def.json", dumps(d)))
    return members


def graph(inputs, outputs, kelf="kelf-0.json"):
    """neff.json: the argument nodes, one tvm_op node naming the kelf file, the signatures of the inputs."""
    nodes = [{"op": "null", "name": n, "inputs": [], "output_names": [n]} for n, _, _ in inputs]
    nodes.append({"op": "tvm_op", "name": "sg_core", "attrs": {"func_name": "__kelf", "kelf": kelf},
                  "inputs": [[i, 0, 0] for i in range(len(inputs))], "output_names": [n for n, _, _ in outputs]})
    tensors = inputs + outputs
    return dumps({"nodes": nodes, "arg_nodes": list(range(len(inputs))),
                  "heads": [[len(inputs), i, 0] for i in range(len(outputs))],
                  "node_row_ptr": list(range(len(inputs) + 1)) + [len(tensors)],
                  "attrs": {"shape": ["list_shape", [list(s) for _, _, s in tensors]],
                            "dltype": ["list_str", [t for _, t, _ in tensors]]},
                  "metadata": {"signatures": {"default": {
                      "inputs": {n: {"id": i, "dtype": t, "shape": list(s)} for i, (n, t, s) in enumerate(inputs)},
                      "outputs": {}}}}})


def program(subgraphs=("sg00",), target="cayman", extra_vars=None):
    """The members of a small valid NEFF."""
    members = [("kelf-0.json", dumps({"graphs": [{"definition": f"{s}/def.json", "name": s} for s in subgraphs],
                                      "version": "0.5", "target": target})),
               ("info.json", dumps({"tool_version": "0.0.0-synthetic", "name": "synthetic.neff", "num_tpb": 1}))]
    for k, s in enumerate(subgraphs):
        members += subgraph(s, k, extra_vars)
    members.append(("neff.json", graph([("x", "float16", (16, 16))], [("out", "float16", (8, 16))])))
    return members


# ---- archives and containers ----

def tar_bytes(members, fmt=tarfile.USTAR_FORMAT):
    """members: (name, bytes) or (TarInfo, bytes or None) pairs; mtime 0, mode 0644, no directory entries."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for name, data in members:
            if isinstance(name, tarfile.TarInfo):
                t.addfile(name, io.BytesIO(data) if data is not None else None)
                continue
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uname = info.gname = "nobody"
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def entry(name, kind, linkname="", size=0):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size, info.mtime, info.mode = kind, linkname, size, 0, 0o644
    return info


def header(pkg, data_size, digest, order="natural", **fields):
    """The 1024-byte header (neff.md §2); the digest stored naturally or with each 4-byte group reversed."""
    h = bytearray(1024)
    stored = digest if order == "natural" else b"".join(digest[i:i + 4][::-1] for i in range(0, len(digest), 4))
    values = {"pkg_version": pkg, "header_size": 1024, "data_size": data_size, "major": 2, "minor": 0,
              "num_tpb": 1, "requested": 1, "feature_bits": 0x209C00, "lnc": 1, "name": b"synthetic.neff"}
    values.update(fields)
    struct.pack_into("<QQQQQ", h, 0, values["pkg_version"], values["header_size"], values["data_size"],
                     values["major"], values["minor"])
    struct.pack_into("<I", h, 0xA8, values["num_tpb"])
    h[0xAC:0xAC + len(stored)] = stored
    h[0xCC:0xDC] = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
    h[0xDC:0xDC + len(values["name"])] = values["name"]
    struct.pack_into("<I", h, 0x1DC, values["requested"])
    h[0x1E0] = 1
    struct.pack_into("<QI", h, 0x220, values["feature_bits"], values["lnc"])
    return bytes(h)


def container(members=None, pkg=2, order="natural", payload=None, padding=b"", after=b"", hash_over=None, **fields):
    """A NEFF: header + payload window (the gzip'd or plain tar, then `padding`) + `after` (outside the window)."""
    if payload is None:
        tar = tar_bytes(members if members is not None else program())
        payload = gzip.compress(tar, compresslevel=9, mtime=0) if pkg == 2 else tar
    window = payload + padding
    digest = (hashlib.md5 if pkg != 1 else hashlib.sha256)(window if hash_over is None else hash_over).digest()
    return header(pkg, len(window), digest, order, **fields) + window + after


def replace(members, name, data):
    return [(n, data if n == name else d) for n, d in members]


def without(members, name):
    return [(n, d) for n, d in members if n != name]


def nested(depth):
    return ("[" * depth + "]" * depth).encode()


def huge_member():
    """A tar whose one member declares 100 GiB (GNU base-256 size field) and holds no data."""
    info = entry("sg00/PE.bin", tarfile.REGTYPE, size=100 << 30)
    return info.tobuf(format=tarfile.GNU_FORMAT) + b"\0" * 1024


def bomb():
    """A payload that inflates to 4 MiB of zeros in one member (a few KiB compressed)."""
    return gzip.compress(tar_bytes(program() + [("zeros.bin", b"\0" * (4 << 20))]), compresslevel=9, mtime=0)


def multi():
    """Three subgraphs, virtual variables (PROJ-CONV-X8), a pointer, inputs of 4 GiB and 8 GiB + 64 bytes."""
    spill = {f"spill{i}": {"type": "virtual", "var_id": 10 + i, "size": 1 << 19, "backing_variable_off": i << 19}
             for i in range(4)}
    spill.update({"big": {"type": "input", "var_id": 20, "size": 1 << 32},
                  "bigger": {"type": "input", "var_id": 21, "size": (8 << 30) + 64},
                  "ptr": {"type": "pointer", "var_id": 22, "size": 8, "referenced_var_id": 20},
                  "scratch": {"type": "tmp-buf", "var_id": 23, "size": 4096}})
    return program(("sg00", "sg01", "sg02"), extra_vars=spill)


def good_members():
    return program()


def bad_word_stream():
    return replace(program(), "sg00/PE.bin", b"".join(streams()["pe"]) + b"\x01" * 36)


def mode_case(label, **kw):
    return label, container(**kw)


# ---- the golden cases: folder name -> (command line, {file: bytes}) ----

def cases():
    g = program()
    info = "tpbisa neff info in.neff"
    c = {}

    def add(name, cmd, data, **files):
        c["neff-" + name] = (cmd, {"in.neff": data, **files} if data is not None else files)

    # Good containers: both packagings, both hash orders, several subgraphs, GNU and pax dialects.
    add("info-synthetic", info, container(g))
    add("info-json", "tpbisa neff info --json in.neff", container(g, order="word-le"))
    add("info-pkg1-sha256", info, container(g, pkg=1, order="word-le"))
    add("info-multi-subgraph", info, container(multi()))
    add("ls", "tpbisa neff ls in.neff", container(g))
    add("ls-json", "tpbisa neff ls --json in.neff", container(g))
    add("ls-gnu-tar", "tpbisa neff ls in.neff",
        container(payload=gzip.compress(tar_bytes([("./" + n, d) for n, d in g], tarfile.GNU_FORMAT), mtime=0)))
    add("ls-pax-tar", "tpbisa neff ls in.neff",
        container(payload=gzip.compress(tar_bytes(g, tarfile.PAX_FORMAT), mtime=0)))
    add("sems", "tpbisa neff sems in.neff", container(multi()))
    add("sems-json", "tpbisa neff sems --json in.neff", container(g))
    add("extract", "tpbisa neff extract in.neff out && cd out && find . -type f | sort | xargs md5sum",
        container(g))
    add("extract-not-empty", "mkdir -p out && touch out/keep && tpbisa neff extract in.neff out; rc=$?; ls -A out; "
        "exit $rc", container(g))
    add("extract-hostile-leaves-nothing", "tpbisa neff extract in.neff out; rc=$?; ls -A; exit $rc",
        container(g + [(entry("link", tarfile.SYMTYPE, "/etc/passwd"), None)]))
    pack_dir = {f"dir/{n}": d for n, d in g}
    add("pack", "tpbisa neff pack dir out.neff && tpbisa neff info out.neff | head -16 && "
        "tpbisa neff ls out.neff | tail -1", None, **pack_dir)
    add("pack-pkg1-word-le", "tpbisa neff pack --pkg-version 1 --hash-order word-le --lnc 2 --name demo dir out.neff "
        "&& tpbisa neff info out.neff | sed -n '2,16p'", None, **pack_dir)
    add("pack-roundtrip", "tpbisa neff extract in.neff x && tpbisa neff pack --header-from in.neff --hash-order word-le x out.neff && "
        "diff <(tpbisa neff info --json in.neff | grep -v -e '\"file\"' -e '\"hash\"' -e data_size -e computed "
        "-e stored -e window_bytes -e compressed_bytes -e file_bytes -e tar_bytes) "
        "<(tpbisa neff info --json out.neff | grep -v -e '\"file\"' -e '\"hash\"' -e data_size -e computed "
        "-e stored -e window_bytes -e compressed_bytes -e file_bytes -e tar_bytes) && echo same model",
        container(g, order="word-le"))
    add("pack-missing-dir", "tpbisa neff pack nowhere out.neff", None)
    add("pack-onto-input", "tpbisa neff pack --header-from in.neff dir in.neff; rc=$?; md5sum in.neff; exit $rc",
        container(g), **pack_dir)
    add("usage-no-subcommand", "tpbisa neff", None)
    add("usage-bad-pkg-version", "tpbisa neff pack --pkg-version 3 dir out.neff", None)
    add("missing-file", "tpbisa neff info missing.neff", None)

    # Header and acceptance checks of §4, in order.
    add("truncated-header", info, container(g)[:1000])
    add("header-size-beyond-file", info, container(g, header_size=1 << 40))
    add("data-size-beyond-file", info, container(g)[:-10])
    add("major-version", info, container(g, major=3))
    add("feature-bits", info, container(g, feature_bits=1 << 40))
    add("pkg-version", info, container(g, pkg=7))
    add("hash-mismatch-warns", info + " | sed -n 9p", container(g, hash_over=b"other"))
    add("hash-mismatch-verify", "tpbisa neff info --verify-hash in.neff", container(g, hash_over=b"other"))
    # The payload layers.
    z = gzip.compress(tar_bytes(g), compresslevel=9, mtime=0)
    add("not-gzip", info, container(payload=tar_bytes(g)))
    add("gzip-corrupt", info, container(payload=z[:40] + bytes(b ^ 0x5A for b in z[40:80]) + z[80:]))
    add("gzip-truncated", info, container(payload=z[: len(z) // 2]))
    add("gzip-bad-crc", info, container(payload=z[:-8] + bytes(4) + z[-4:]))
    add("gzip-two-members", info, container(payload=z + gzip.compress(b"more", mtime=0)))
    add("trailing-padding-zero", info + " | sed -n 17p", container(g, padding=bytes(100)))
    add("trailing-garbage-warns", info + " | sed -n 17p", container(g, padding=b"garbage"))
    add("trailing-garbage-strict", "tpbisa neff info --strict-trailing in.neff", container(g, padding=b"garbage"))
    add("after-window-warns", info + " | sed -n 17p", container(g, after=b"extra"))
    add("after-window-strict", "tpbisa neff info --strict-trailing in.neff", container(g, after=b"extra"))
    add("tar-garbage", info, container(payload=gzip.compress(b"not a tar archive" * 64, mtime=0)))
    # Members (PROJ-CONV-X4).
    add("member-absolute", info, container(g + [("/etc/evil", b"x")]))
    add("member-dotdot", info, container(g + [("sg00/../../evil", b"x")]))
    add("member-symlink", info, container(g + [(entry("sg00/link", tarfile.SYMTYPE, "/etc/passwd"), None)]))
    add("member-hardlink", info, container(g + [(entry("sg00/hard", tarfile.LNKTYPE, "sg00/PE.bin"), None)]))
    add("member-device", info, container(g + [(entry("sg00/dev", tarfile.CHRTYPE), None)]))
    add("member-fifo", info, container(g + [(entry("sg00/fifo", tarfile.FIFOTYPE), None)]))
    add("member-duplicate", info, container(g + [("sg00/PE.bin", b"\0" * 64)]))
    add("member-file-and-folder", info, container(g + [("sg00/PE.bin/x", b"x")]))
    add("member-huge-declared", info, container(payload=gzip.compress(huge_member(), mtime=0)))
    add("bomb-inflated", "tpbisa neff info --max-inflated 1048576 in.neff", container(payload=bomb()))
    add("bomb-after-tar", "tpbisa neff info --max-inflated 1048576 in.neff",
        container(payload=gzip.compress(tar_bytes(g) + b"\0" * (4 << 20), compresslevel=9, mtime=0)))
    add("bomb-member", "tpbisa neff info --max-member 65536 in.neff", container(payload=bomb()))
    add("too-many-members", "tpbisa neff info --max-members 8 in.neff", container(g))
    # JSON and the model.
    add("json-malformed", info, container(replace(g, "sg00/def.json", b'{"version": "0.6", "var": {')))
    add("json-deep", info, container(replace(g, "kelf-0.json", nested(1000))))
    add("json-too-large", "tpbisa neff info --max-json 100 in.neff", container(g))
    add("json-wrong-kind", info, container(replace(g, "kelf-0.json", dumps({"graphs": {"sg00": 1}}))))
    add("missing-kelf", info, container(without(g, "kelf-0.json")))
    add("missing-definition", info, container(without(g, "sg00/def.json")))
    add("missing-stream", info, container(without(g, "sg00/Pool.bin")))
    add("missing-constant", info, container(without(g, "sg00/value_ident.npy")))
    add("stream-size", info, container(bad_word_stream()))
    add("npy-bad-header", info, container(replace(g, "sg00/value_ident.npy", b"\x93NUMPY\x01\x00\x08\x00{'descr'")))
    add("unknown-target", info + " | sed -n 19p", container(program(target="tpu9000")))

    # NEFF input to the commands that read words (docs/cli.md): labels, filters, the generation from the target.
    def cmd_case(name, cmd, data=None):
        c[name] = (cmd, {"in.neff": data} if data is not None else {})

    cmd_case("decode-neff", "tpbisa decode --engine act in.neff", container(g))
    cmd_case("decode-neff-json", "tpbisa decode --json --engine sp --subgraph sg01 in.neff", container(multi()))
    cmd_case("decode-neff-stdin", "tpbisa decode --engine dve - < in.neff | head -3", container(g))
    cmd_case("decode-neff-bad-container", "tpbisa decode in.neff", container(bad_word_stream()))
    cmd_case("decode-neff-truncated", "tpbisa decode in.neff", container(g)[:1000])
    cmd_case("decode-neff-gen-override", "tpbisa decode --gen mariana --engine dve in.neff | head -2", container(g))
    cmd_case("validate-neff", "tpbisa validate in.neff", container(g))
    cmd_case("validate-neff-json", "tpbisa validate --json --engine pe in.neff", container(g))
    cmd_case("validate-neff-filters", "tpbisa validate --subgraph sg01 --subgraph sg02 --engine pool --engine sp in.neff",
             container(multi()))
    cmd_case("validate-neff-no-subgraph", "tpbisa validate --subgraph sg09 in.neff", container(g))
    cmd_case("validate-neff-no-engine", "tpbisa validate --engine act in.neff", container(tiny_members()))
    cmd_case("validate-neff-subgraph-on-words", "tpbisa validate --subgraph sg00 ../_data/stream.bin")
    cmd_case("validate-neff-unknown-target", "tpbisa validate --quiet in.neff", container(program(target="tpu9000")))
    cmd_case("validate-neff-hash-warning", "tpbisa validate --quiet in.neff", container(g, hash_over=b"other"))
    # Program-level checks (docs/neff.md "Program checks"): an SP stream that breaks four of them.
    ok_ops = ((0, 1, 0x10), (0x100, 0, 0x10))  # x -> SB partitions 0-1, byte 0x100
    bad_sp = dma_var(24, 16, *ok_ops) + dma_var(9, 1, *ok_ops) + dma_var(8, 16, (0x100, 1, 0x10), (0, 9, 0x10))
    add("validate-program-checks", "tpbisa validate --engine sp in.neff", container(replace(g, "sg00/SP.bin", bad_sp)))
    add("validate-program-checks-json", "tpbisa validate --json --engine sp in.neff",
        container(replace(g, "sg00/SP.bin", bad_sp)))
    # DMA operands named by their def.json variables (var id, dge-table entry, the state buffer).
    named_sp = dma_var(8, 16, (0, 3, 0x10), (0x37B00, 0, 0x10), size=16) + dma_var(9, 16, (0, 0, 0x20), (0x100, 0, 0x10))
    add("decode-dma-variables", "tpbisa decode --engine sp in.neff", container(replace(g, "sg00/SP.bin", named_sp)))
    add("decode-dma-variables-json", "tpbisa decode --json --engine sp in.neff | grep -o '\"[sd][rs][ct]\\.[io][df][^}]*'",
        container(replace(g, "sg00/SP.bin", named_sp)))
    cmd_case("validate-neff-gen-all", "tpbisa validate --gen all --engine pool in.neff", container(g))
    cmd_case("disasm-neff", "tpbisa disasm in.neff", container(g))
    cmd_case("disasm-neff-listing", "tpbisa disasm --listing in.neff", container(multi()))
    cmd_case("disasm-neff-listing-short", "tpbisa disasm --listing --short --engine pe --engine act in.neff",
             container(g))
    cmd_case("disasm-listing-words", "tpbisa disasm --listing --gen cayman ../_data/stream.bin")
    cmd_case("disasm-neff-dir",
             "tpbisa disasm in.neff -o out && for f in $(find out -name '*.tasm' | sort); do "
             "tpbisa asm --gen cayman $f -o ${f%.tasm}.bin || exit 1; done && tpbisa neff extract in.neff x > /dev/null "
             "&& for f in $(cd out && find . -name '*.bin' | sort); do cmp out/$f x/$f && echo \"same $f\"; done && "
             "cat out/sg00/PE.tasm", container(g))
    cmd_case("disasm-neff-dir-two-inputs", "tpbisa disasm in.neff in.neff -o out; rc=$?; test -e out || echo \"no out\"; exit $rc", container(g))
    cmd_case("disasm-neff-dir-bad-container", "tpbisa disasm in.neff -o out; rc=$?; test -e out || echo \"no out\"; exit $rc",
             container(bad_word_stream()))
    cmd_case("run-neff-missing-input", "tpbisa run in.neff", container(g))
    cmd_case("lower-neff-refused", "tpbisa lower --vars ../_data/vars.json in.neff out.bin; rc=$?; test -e out.bin || echo \"no out.bin\"; exit $rc",
             container(g))
    return c


def tiny_members():
    """One subgraph with a PE stream only (two words)."""
    return [("kelf-0.json", dumps({"graphs": [{"definition": "sg00/def.json", "name": "sg00"}], "target": "cayman"})),
            ("sg00/def.json", dumps({"pe_instr": "PE.bin", "var": {"SB": {"type": "state-buffer", "var_id": 0}},
                                     "dma_queue": {"q": {"owner": "pe", "semaphore_set": [1], "num_queues": 1}}})),
            ("sg00/PE.bin", word(EVENT_SEMAPHORE, (SEM_GE_IMM, 1, 1)) + dma(1, 1))]


def seeds():
    """Fuzz seeds (each at most 4 KiB): small whole containers, and bare tar archives for the pkg 1 wrapper."""
    tiny = tiny_members()
    out = [container(tiny), container(tiny, pkg=1, order="word-le"), tar_bytes(tiny)]
    out.append(container(program()))
    out.append(container(program(), pkg=1)[:4096])
    return [b for b in out if len(b) <= 4096]


def outputs(root):
    files = {}
    for name, (cmd, inputs) in cases().items():
        folder = os.path.join(root, "tests", "golden", name)
        files[os.path.join(folder, "cmd")] = (cmd + "\n").encode()
        for rel, data in inputs.items():
            files[os.path.join(folder, rel)] = data
    for blob in seeds():
        files[os.path.join(root, "tests", "fuzz", "corpus", "fuzz_neff", hashlib.sha1(blob).hexdigest()[:16])] = blob
    return files


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    root = os.path.abspath(args[0]) if args else os.path.normpath(os.path.join(HERE, "..", ".."))
    files = outputs(root)
    seed_dir = os.path.join(root, "tests", "fuzz", "corpus", "fuzz_neff")
    if check:
        bad = [p for p, d in sorted(files.items()) if not os.path.isfile(p) or open(p, "rb").read() != d]
        stale = [os.path.join(seed_dir, n) for n in sorted(os.listdir(seed_dir))
                 if os.path.join(seed_dir, n) not in files] if os.path.isdir(seed_dir) else []
        for p in bad + stale:
            print("differs from make_fixtures.py: " + os.path.relpath(p, root))
        return 1 if bad or stale else 0
    if os.path.isdir(seed_dir):
        for n in os.listdir(seed_dir):
            os.remove(os.path.join(seed_dir, n))
    for path, data in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
