# The scaffolding the command-line scripts share (sourced): the tool and source folder from the arguments, the shared
# data's NEFF, python3 and the modules a script needs, a scratch folder, the failure count and the JSON-schema check.

# cli_setup SCRIPT TPBISA_BINARY SOURCE_DIR: tool and src (absolute paths), py, neff (matmul_small.neff of the shared
# data folder, which may be absent).
cli_setup() {
  tool=${2:?usage: $1 TPBISA_BINARY SOURCE_DIR}
  src=${3:?usage: $1 TPBISA_BINARY SOURCE_DIR}
  tool=$(realpath "$tool")
  src=$(realpath "$src")
  py=/usr/bin/python3
  neff="${TPBISA_SHARED_DATA_DIR:-$src/../shared/data}/matmul_small.neff"
}

# cli_skip REASON: exit 77, which ctest reports as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt).
cli_skip() {
  echo "SKIP: $1"
  exit 77
}

# cli_require_python "MODULE, ..." WHAT: skipped unless python3 imports the modules.
cli_require_python() {
  "$py" -c "import $1" 2>/dev/null || cli_skip "$2 is not installed"
}

# cli_scratch: work in a scratch folder, removed on exit; fail MESSAGE counts a failure in `failures`.
cli_scratch() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cd "$tmp" || exit 1
  failures=0
}
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# cli_matmul_inputs: x.npy and y.npy for matmul_small.neff, random integers in [-2, 2] as float16 (the README tour).
cli_matmul_inputs() {
  "$py" -c "
import numpy as np
r = np.random.default_rng(0)
np.save('x.npy', r.integers(-2, 3, (128, 256)).astype(np.float16))
np.save('y.npy', r.integers(-2, 3, (256, 128)).astype(np.float16))"
}

# check SCHEMA FILE [lines]: FILE (with `lines`, each of its lines: JSON Lines) validates against
# docs/schemas/SCHEMA.schema.json, whose references to the folder's other schemas are resolved there.
check() {
  "$py" - "$src/docs/schemas" "$1" "$2" "${3:-}" <<'PY' || fail "$2 does not validate against $1"
import json, pathlib, sys
import jsonschema
folder, name, doc, lines = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == "lines"
schemas = {p.name: json.loads(p.read_text()) for p in folder.glob("*.schema.json")}
for s in schemas.values():
    jsonschema.Draft7Validator.check_schema(s)
resolver = jsonschema.RefResolver(base_uri=folder.as_uri() + "/", referrer=schemas[name + ".schema.json"],
                                  store={k: v for k, v in schemas.items()})
validator = jsonschema.Draft7Validator(schemas[name + ".schema.json"], resolver=resolver)
records = [json.loads(line) for line in open(doc).read().splitlines()] if lines else [json.load(open(doc))]
assert records, "no records"


def ends(value):
    """A JSON Lines record with each list longer than 400 items cut to its first and last 200 (a traced NEFF step
    lists thousands of effects of a few kinds; validating every one took most of a script's time)."""
    if isinstance(value, dict):
        return {k: ends(v) for k, v in value.items()}
    if isinstance(value, list):
        return [ends(v) for v in (value if len(value) <= 400 else value[:200] + value[-200:])]
    return value


if lines:
    records = [ends(r) for r in records]
bad = 0
for number, record in enumerate(records, 1):
    for e in list(validator.iter_errors(record))[:3 if lines else 5]:
        print(f"  {f'line {number}: ' if lines else ''}{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}")
        bad += 1
sys.exit(1 if bad else 0)
PY
}
