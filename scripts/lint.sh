#!/usr/bin/env bash
# `make lint`: every static gate, each run even when an earlier one fails, then one line per gate.
# A failing gate's output is printed in full above the summary; a passing gate's is kept quiet.
# The gates that do not use cargo run beside clippy and rustfmt.
#   clippy        cargo clippy --workspace --all-targets -- -D warnings
#   fmt           cargo fmt --all -- --check
#   typecheck     tsc --noEmit over every web project's sources and tests (npm run typecheck)
#   contract      libs/contract/src/edge-api.gen.ts is what openapi-typescript makes of the committed
#                 docs/openapi.json (scripts/contract.sh check; the edge's tests check the JSON)
#   buf-lint      buf lint: the protos in buf's STANDARD style (buf.yaml)
#   buf-breaking  buf breaking against the last released protos (proto/releases/)
#   deploy        deploy/validate.sh: the Kubernetes manifests against the API's schemas and the
#                 rules a deployment must keep (no development switch, secrets from Secrets)
#   deploy-refusals  deploy/test-refusals.sh: validate.sh refuses each unsafe configuration planted
#                 in a copy (the sandbox gateway, secrets in the open, NATS without credentials)
# LINT_GATES="fmt buf-lint" runs only those.
set -uo pipefail
cd "$(dirname "$0")/.."

BUF=node_modules/.bin/buf
BUF_AGAINST=${BUF_AGAINST:-proto/releases/v1.binpb}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

gate_cmd() {
  case "$1" in
    clippy) echo "cargo clippy --workspace --all-targets -- -D warnings" ;;
    fmt) echo "cargo fmt --all -- --check" ;;
    typecheck) echo "npm run --silent typecheck" ;;
    contract) echo "scripts/contract.sh check" ;;
    buf-lint) echo "$BUF lint" ;;
    buf-breaking) echo "$BUF breaking --against $BUF_AGAINST" ;;
    deploy) echo "deploy/validate.sh" ;;
    deploy-refusals) echo "deploy/test-refusals.sh" ;;
    *) echo "unknown gate: $1" >&2; return 1 ;;
  esac
}

gates=${LINT_GATES:-clippy fmt typecheck contract buf-lint buf-breaking deploy deploy-refusals}
for gate in $gates; do gate_cmd "$gate" >/dev/null || exit 2; done

run_gate() { # gate: runs it, leaving its output, result and seconds in $logs
  local gate=$1 cmd start
  cmd=$(gate_cmd "$gate")
  echo "== lint: $gate: $cmd"
  start=$(date +%s)
  if $cmd >"$logs/$gate" 2>&1; then echo ok >"$logs/$gate.result"; else echo FAILED >"$logs/$gate.result"; fi
  echo $(($(date +%s) - start)) >"$logs/$gate.seconds"
}

# The cargo gates take both cores in turn (they share cargo's lock); the others (tsc, buf, the
# manifests' checks) mostly use one core or wait on files, so they run beside them, one after
# another, rather than after them.
cargo_gates="" other_gates=""
for gate in $gates; do
  case "$gate" in
    clippy | fmt) cargo_gates="$cargo_gates $gate" ;;
    *) other_gates="$other_gates $gate" ;;
  esac
done
( for gate in $other_gates; do run_gate "$gate"; done ) &
others=$!
for gate in $cargo_gates; do run_gate "$gate"; done
wait "$others"

declare -A result seconds
status=0
for gate in $gates; do
  result[$gate]=$(cat "$logs/$gate.result")
  seconds[$gate]=$(cat "$logs/$gate.seconds")
  if [ "${result[$gate]}" = FAILED ]; then
    status=1
    echo "== lint: $gate FAILED:"
    cat "$logs/$gate"
  fi
done

echo "== lint summary:"
for gate in $gates; do
  extra=""
  if [ "${result[$gate]}" = FAILED ]; then
    case "$gate" in
      clippy) extra=" ($(grep -E '^(warning|error)(\[|:)' "$logs/$gate" | grep -cvE 'could not compile|aborting due to|generated [0-9]+ warning') diagnostics)" ;;
      fmt) extra=" ($(grep -c '^Diff in' "$logs/$gate" | tr -d ' ') diffs)" ;;
      typecheck) extra=" ($(grep -cE 'error TS[0-9]+' "$logs/$gate" | tr -d ' ') errors)" ;;
      contract) extra=" (run make contract)" ;;
      buf-*) extra=" ($(grep -c '^proto/' "$logs/$gate" | tr -d ' ') findings)" ;;
    esac
  fi
  printf '   %-16s %s%s in %ss\n' "$gate" "${result[$gate]}" "$extra" "${seconds[$gate]}"
done
exit $status
