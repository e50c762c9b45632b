#!/usr/bin/env bash
# Rewrites the expected output of the golden command-line tests (tests/golden/<case>/stdout, stderr, exit)
# from the given tpbisa binary, after regenerating the shared fixtures (tests/golden/_data/). Review the result
# with `git diff -- tests/golden`: every changed line is a change in what the tool prints.
#
# Usage: scripts/regen_golden.sh TPBISA_BINARY [CASE_GLOB]     e.g. scripts/regen_golden.sh build/tpbisa 'run-*'
# To add a case: make tests/golden/<subcommand>-<case>/cmd (and any input files), then run this script.
set -u
tool=${1:?usage: scripts/regen_golden.sh TPBISA_BINARY [CASE_GLOB]}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec bash "$src/tests/cli/golden.sh" --regen "$tool" "$src" "${2:-*}"
