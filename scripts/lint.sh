#!/usr/bin/env bash
# `make lint`: every static gate, each run even when an earlier one fails, then one line per gate.
# A failing gate's output is printed in full above the summary; a passing gate's is kept quiet.
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
declare -A result seconds
status=0
for gate in $gates; do
  cmd=$(gate_cmd "$gate") || exit 2
  echo "== lint: $gate: $cmd"
  start=$(date +%s)
  if $cmd >"$logs/$gate" 2>&1; then
    result[$gate]=ok
  else
    result[$gate]=FAILED
    status=1
    cat "$logs/$gate"
  fi
  seconds[$gate]=$(($(date +%s) - start))
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
