#!/usr/bin/env bash
# Fails when any C++ source of the project is not formatted as clang-format (14, .clang-format) writes it.
set -euo pipefail
tool=${1:-clang-format-14}
cd "$(dirname "$0")/.."
mapfile -t files < <(find include src tools tests bench python examples -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) 2>/dev/null | sort)
"$tool" --dry-run --Werror "${files[@]}"
echo "format: ${#files[@]} files clean"
