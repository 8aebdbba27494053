#!/usr/bin/env bash
# The schema tests (make test-schema, part of make test; docs/edge-api.md "Schema tests"):
# Schemathesis generates calls from the OpenAPI document a live edge publishes
# (GET /api/openapi.json), valid ones and invalid ones, sends them as a signed-in customer
# (e2e/schema/hooks.py) and fails on any 5xx reply and on any reply its document does not allow.
#
# It starts a storefront of its own from the debug binaries (a throwaway data dir, its own ports),
# so nothing it changes touches `make run` or the browser tests. Schemathesis runs from a
# virtualenv outside the clone, installed from e2e/schema/requirements.txt only when missing or
# when that file changed.
#
#   SCHEMA_MAX_EXAMPLES   calls generated per operation and phase (default 50: about 4,000 calls,
#                         two minutes on two cores)
#   SCHEMA_SEED           replays a run (its seed is printed at its start)
#   SCHEMA_ARGS           more schemathesis flags, e.g. "--include-operation-id getCart"
#   SCHEMA_PORT           the edge's port (18280); SCHEMA_GRPC_BASE_PORT the services' (21251…21258,
#                         the edge's admin listener on 21259)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BIN=${TIFFIN_BIN_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/debug}
VENV=${XDG_CACHE_HOME:-$HOME/.cache}/tiffin/schemathesis-venv
OUT=$ROOT/test-results/schema
# Ports of their own: make run has 8080 and 20051…20059, the browser tests 18080 and 21051…21059,
# the page audit 18180 and 21151…21159.
PORT=${SCHEMA_PORT:-18280}
GRPC_BASE=${SCHEMA_GRPC_BASE_PORT:-21251}
ADMIN_PORT=$((GRPC_BASE + 8))
BASE_URL=http://127.0.0.1:$PORT
MAX_EXAMPLES=${SCHEMA_MAX_EXAMPLES:-50}

if [ ! -x "$BIN/tiffin" ]; then
  echo "$BIN/tiffin not built: run \`cargo build --workspace --bins\`" >&2
  exit 1
fi

# The virtualenv, (re)made when it is missing or the pinned requirements changed.
scripts/prerequisites.sh schemathesis

rm -rf "$OUT"
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/tiffin-schema-XXXXXX")
launcher=
stop() {
  if [ -n "$launcher" ] && kill -0 "$launcher" 2>/dev/null; then
    kill -TERM "$launcher"
    wait "$launcher" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT

# A development storefront (the launcher declares it too): the customer's OTP comes from the
# development outbox (GET /api/dev/sms), which exists only there. The pages are not under test,
# but the edge serves them from the web build when there is one.
# Every generated call comes from this one address, far faster than a person clicks: the edge's
# per-address limit is off (else most calls of some operations are a 429 and their logic goes
# untested) and the OTP limit raised far past the 20 codes an hour one address may ask for (the
# generated calls to POST /api/auth/otp come from here too, and the customers of the last run must
# still be able to sign in after them). The edge's API tests hold both limits.
PORT=$PORT GRPC_BASE_PORT=$GRPC_BASE EDGE_ADMIN_PORT=$ADMIN_PORT \
  DATA_DIR="$work/data" STATIC_DIR="$ROOT/dist/web" TIFFIN_BIN_DIR="$BIN" \
  TIFFIN_ENV=development CATALOG_RESTAURANTS_PER_CITY=12 ORDERS_SIM_SPEED=120 \
  EDGE_OTP_LIMIT_PER_HOUR=100000 EDGE_RATE_LIMIT_PER_SECOND=0 \
  "$BIN/tiffin" >"$OUT/storefront.log" 2>&1 &
launcher=$!

# Ready when the edge's admin listener reports every service up (its public /readyz is the edge's
# own readiness only).
deadline=$((SECONDS + 120))
until curl -sf -o /dev/null "http://127.0.0.1:$ADMIN_PORT/upstreams"; do
  if ! kill -0 "$launcher" 2>/dev/null; then
    echo "the storefront exited early; see $OUT/storefront.log" >&2
    exit 1
  fi
  if [ $SECONDS -ge $deadline ]; then
    echo "the storefront was not ready after 120 s; see $OUT/storefront.log" >&2
    exit 1
  fi
  sleep 0.25
done

# schemathesis run <name> <flags…>: one run against the live document, its JUnit report kept. It
# runs in $OUT, where Schemathesis keeps the failures it can replay (.schemathesis/), not in the
# clone.
run() {
  local name=$1
  shift
  (cd "$OUT" && TIFFIN_SCHEMA_BASE_URL=$BASE_URL SCHEMATHESIS_HOOKS="$ROOT/e2e/schema/hooks.py" \
    "$VENV/bin/schemathesis" run "$BASE_URL/api/openapi.json" \
    --url "$BASE_URL" \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples "$MAX_EXAMPLES" \
    --workers 2 \
    --request-timeout 15 \
    --generation-database none \
    --no-color \
    ${SCHEMA_SEED:+--seed "$SCHEMA_SEED"} \
    --report junit --report-junit-path "$OUT/$name.junit.xml" \
    "$@" ${SCHEMA_ARGS:-})
}

status=0
echo "== Schema tests: every operation as one signed-in customer"
# Logout and account deletion end the customer's session: run here, every operation after them
# would test a guest. They run next, each call with a customer of its own.
run shared \
  --exclude-operation-id logout \
  --exclude-operation-id deleteAccount || status=1

echo "== Schema tests: logout and account deletion, each call with a new customer"
TIFFIN_SCHEMA_SESSION=fresh run fresh \
  --include-operation-id logout \
  --include-operation-id deleteAccount \
  --max-examples 5 || status=1

echo "== Schema summary (operations):"
"$VENV/bin/python" - "$OUT"/*.junit.xml <<'EOF'
import sys
import xml.etree.ElementTree as ET

passed = failed = 0
for path in sys.argv[1:]:
    for case in ET.parse(path).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            print(f"   failed: {case.get('name')}")
        else:
            passed += 1
print(f"   {passed} passed, {failed} failed")
EOF
exit $status
