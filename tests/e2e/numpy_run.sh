# The scaffolding shared by the end-to-end scripts that check a `tpbisa run` against an independent NumPy model.
# Source it with the tool's path: it skips (exit 77) without NumPy, makes a temporary folder removed on exit, and
# defines e2e_python, which runs the check's Python (read from stdin) after a prelude giving it `tool`, `tmp`,
# NumPy as `np`, and the helpers below.
set -u
tool=$(realpath "${1:?usage: the tpbisa binary}")
py=/usr/bin/python3
if ! "$py" -c 'import numpy' 2>/dev/null; then
  echo "SKIP: NumPy is not installed"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

e2e_prelude=$(cat <<'EOF'
import json, struct, subprocess, sys
import numpy as np

tool, tmp = sys.argv[1], sys.argv[2]

def hexbits(a, fmt="0x%08x"):
    """The bit patterns of integer array `a` as the state file's hex strings."""
    return [fmt % v for v in a]

def write_init(memory):
    """The --init state file holding `memory` (a list of {"at", "dtype", "bits"})."""
    with open(f"{tmp}/init.json", "w") as f:
        json.dump({"memory": memory}, f)

def t3(addr, n):
    """A TENSOR3D: start `addr`, n contiguous elements in one row."""
    return struct.pack("<I3h3H", addr, 1, 0, 0, n, 1, 1)

def run(words, dumps, gen="cayman"):
    """`tpbisa run` of the hex words on the init state, dumping `dumps`, as JSON."""
    cmd = [tool, "run", "--gen", gen, "--init", f"{tmp}/init.json", "--json", "--hex"] + words
    for d in dumps:
        cmd += ["--dump", d]
    return subprocess.run(cmd, capture_output=True, text=True)
EOF
)

e2e_python() {
  { printf '%s\n' "$e2e_prelude"; cat; } | "$py" - "$tool" "$tmp"
}
