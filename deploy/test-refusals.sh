#!/usr/bin/env bash
# Proves that deploy/validate.sh refuses each unsafe configuration it is meant to catch: it plants
# one at a time in a copy of deploy/ and expects validate.sh to fail naming it. A rule that stopped
# refusing would otherwise go unnoticed, since the real manifests always pass.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
# plant NAME FILE PYTHON-EXPR EXPECTED: copies deploy/, rewrites FILE (relative to deploy/) with the
# Python expression (over `s`, the file's text), and expects validate.sh to fail with EXPECTED.
plant() {
  local name=$1 file=$2 expr=$3 expected=$4
  rm -rf "$work/deploy" "$work/services"
  cp -r "$here" "$work/deploy"
  ln -s "$root/services" "$work/services"
  python3 - "$work/deploy/$file" "$expr" <<'PY'
import sys
path, expr = sys.argv[1], sys.argv[2]
s = open(path).read()
t = eval(expr, {"s": s})
if t == s:
    sys.exit(f"the planted change did not apply to {path}")
open(path, "w").write(t)
PY
  local out
  if out=$("$work/deploy/validate.sh" "$work/deploy" 2>&1); then
    echo "   NOT REFUSED  $name"
    failures=$((failures + 1))
  elif grep -qF -- "$expected" <<<"$out"; then
    echo "   refused      $name"
  else
    echo "   REFUSED FOR ANOTHER REASON  $name (expected: $expected)"
    echo "$out" | tail -5
    failures=$((failures + 1))
  fi
}

payments=base/services/payments/deployment.yaml
orders=base/services/orders/deployment.yaml
plant "the sandbox gateway" $payments \
  "s.replace('value: razorpay', 'value: sandbox', 1)" "sandbox"
plant "a webhook secret written into the manifest" $payments \
  "s.replace('''            - name: PAYMENTS_WEBHOOK_SECRET
              valueFrom:
                secretKeyRef:
                  name: payments-razorpay
                  key: WEBHOOK_SECRET''', '''            - name: PAYMENTS_WEBHOOK_SECRET
              value: tiffin-sandbox-webhook-secret''', 1)" "PAYMENTS_WEBHOOK_SECRET"
plant "NATS without credentials" $orders \
  "s.replace('NATS_PASSWORD', 'NATS_UNUSED', 1)" "NATS"
plant "a private identity key not from a Secret" $orders \
  "s.replace('''            - name: TIFFIN_IDENTITY_SIGNING_KEY
              valueFrom:
                secretKeyRef:
                  name: tiffin-identity-orders
                  key: TIFFIN_IDENTITY_SIGNING_KEY''', '''            - name: TIFFIN_IDENTITY_SIGNING_KEY
              value: a-key-in-the-open''', 1)" "TIFFIN_IDENTITY_SIGNING_KEY"

if [ $failures -ne 0 ]; then
  echo "deploy/test-refusals.sh: $failures unsafe configuration(s) not refused as expected" >&2
  exit 1
fi
echo "deploy/test-refusals.sh: every planted unsafe configuration was refused"
