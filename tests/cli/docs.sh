#!/usr/bin/env bash
# The shell examples of README.md and docs/ run as written and print what the docs show (tests/cli/docs_examples.py).
set -u
tool=${1:?usage: docs.sh TPBISA_BINARY SOURCE_DIR}
src=${2:?usage: docs.sh TPBISA_BINARY SOURCE_DIR}
exec python3 "$src/tests/cli/docs_examples.py" "$tool" "$src"
