#!/usr/bin/env bash
# The JSON schemas of docs/schemas/ against what the tool prints: decode, validate, run (a stream, a deadlock),
# run PROG.neff (ok, a deadlock), neff sems/info/ls/tables/act-eval, catalog (and --coverage), lower (a report, an
# error) and the timeline (of matmul_small.neff and of a generated program), on the examples, the golden fixtures,
# a generated program and, where the shared data folder has it, matmul_small.neff. Needs python3-jsonschema (skipped
# without it).
set -u
# shellcheck source=lib/scaffold.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/scaffold.bash"
cli_setup schemas.sh "$@"
cli_require_python "jsonschema, numpy" "python3-jsonschema or NumPy"
cli_scratch
golden="$src/tests/golden"

"$tool" decode --json --gen cayman "$src/examples/stream.bin" >decode.json && check decode decode.json
"$tool" decode --json "$golden/validate-neff/in.neff" >decode-neff.json && check decode decode-neff.json
"$tool" validate --json --gen all "$src/examples/stream.bin" >validate.json; check validate validate.json
"$tool" validate --json "$golden/validate-neff/in.neff" >validate-neff.json; check validate validate-neff.json
"$tool" run --json --gen cayman "$src/examples/demo.tasm" >run.json && check run run.json
"$tool" run --json "$src/tests/cli/data/pseudo.bin" >run-fault.json; check run run-fault.json
grep -q '"kind": *"PseudoNotLowered"' run-fault.json || fail "the stream fault case did not fault"
"$tool" run --json "$golden/_data/wait.bin" >run-deadlock.json; check run run-deadlock.json
grep -q '"deadlock"' run-deadlock.json || fail "the stream deadlock case did not deadlock"
"$tool" neff sems --json "$golden/validate-neff/in.neff" >sems.json && check neff-sems sems.json
"$tool" neff info --json "$golden/validate-neff/in.neff" >info.json && check neff-info info.json
"$tool" neff ls --json "$golden/validate-neff/in.neff" >ls.json && check neff-ls ls.json
"$tool" neff tables --json "$golden/validate-neff/in.neff" >tables.json && check neff-tables tables.json
"$tool" catalog --json >catalog.json && check catalog catalog.json
"$tool" catalog --json --gen cayman >catalog-cayman.json && check catalog catalog-cayman.json
"$tool" catalog --coverage --json >coverage.json && check catalog-coverage coverage.json
"$tool" catalog --coverage --json --gen maverick >coverage-maverick.json && check catalog-coverage coverage-maverick.json
"$py" "$src/tests/cli/data/make_words.py" pseudo pseudo.bin
"$py" "$src/tests/cli/data/make_words.py" pseudo_var9 var9.bin
echo '{"vars": {"7": {"base": "0x80100", "size": 64}}}' >vars.json
"$tool" lower --json --vars vars.json pseudo.bin lowered.bin >lower.json && check lower lower.json
"$tool" lower --json --vars vars.json var9.bin lowered9.bin >lower-error.json 2>/dev/null
check lower lower-error.json
grep -q '"error"' lower-error.json || fail "the lowering error case did not fail"

# A generated program (examples/gen_matmul_neff.py): its run and its timeline.
TPBISA="$tool" "$py" "$src/examples/gen_matmul_neff.py" --out gen.neff --k 256 --n 512 --lnc 1 --write-inputs gen \
  >gen.txt 2>&1 || fail "gen_matmul_neff.py: $(cat gen.txt)"
"$tool" run gen.neff --input x=gen/x.npy --input y=gen/y.npy --json --timeline gen-tl.json >gen-run.json &&
  check run-neff gen-run.json && check timeline gen-tl.json

if [ -f "$neff" ]; then
  cli_matmul_inputs
  "$tool" decode --json "$neff" >decode-matmul.json && check decode decode-matmul.json
  "$tool" neff sems --json "$neff" >sems-matmul.json && check neff-sems sems-matmul.json
  "$tool" neff info --json "$neff" >info-matmul.json && check neff-info info-matmul.json
  "$tool" neff ls --json "$neff" >ls-matmul.json && check neff-ls ls-matmul.json
  "$tool" neff tables --json "$neff" >tables-matmul.json && check neff-tables tables-matmul.json
  "$tool" neff act-eval --json --func exp "$neff" 0.5 2 >act-eval.json && check neff-act-eval act-eval.json
  "$tool" run "$neff" --input x=x.npy --input y=y.npy --json --check-races --timeline tl.json >run-neff.json &&
    check run-neff run-neff.json && check timeline tl.json
  # The deadlock of docs/cli.md: the increment of sg00/Pool#3 made 15.
  "$tool" neff extract "$neff" ex >/dev/null && "$py" -c "
import pathlib
p = pathlib.Path('ex/sg00/Pool.bin'); b = bytearray(p.read_bytes()); assert b[3 * 64 + 14] == 16
b[3 * 64 + 14] = 15; p.write_bytes(bytes(b))" && "$tool" neff pack ex dead.neff >/dev/null || fail "no deadlocking copy"
  "$tool" run dead.neff --input x=x.npy --input y=y.npy --json --timeline tl-dead.json >run-dead.json
  [ $? -eq 1 ] || fail "the edited NEFF did not end in a deadlock"
  check run-neff run-dead.json && check timeline tl-dead.json
  grep -q '"name":"blocked \$S\[25\]>=16"' tl-dead.json || fail "no blocked slice in the deadlock's timeline"
else
  echo "note: the shared data folder is absent; the NEFF run documents are not checked"
fi

# A schema that does not constrain would pass anything: a document it must refuse.
echo '{"generation": "cayman", "instructions": [{"index": -1}]}' >bad.json
failures_before=$failures
check decode bad.json >/dev/null
[ $failures -eq $((failures_before + 1)) ] && failures=$failures_before || fail "decode.schema.json accepts a bad document"

if [ "$failures" -ne 0 ]; then
  echo "$failures failed"
  exit 1
fi
echo "schemas: all passed"
