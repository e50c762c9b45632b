#!/usr/bin/env bash
# make demo: runs the bundled example through the tool.
set -euo pipefail
tool=${1:-build/tpbisa}
cd "$(dirname "$0")/.."
"$tool" decode --gen cayman examples/demo.bin
