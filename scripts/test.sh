#!/usr/bin/env bash
# `make test`: the machine's set-up, the builds, the gates and every suite, each as its own phase,
# then one table of what each phase took. Every phase runs even when an earlier one fails, so the
# summary shows all of them (a build that fails still lets the gates report); the run fails if any
# phase failed. The table is there so that a phase that grows is seen in the next run's output,
# not discovered when CI nears its limit.
#   TEST_PHASES="lint test-rust" runs only those phases (set-up and builds are skipped unless named).
set -uo pipefail
cd "$(dirname "$0")/.."

all="prerequisites build-rust build-web lint test-rust test-faults test-web test-e2e test-schema"
phases=${TEST_PHASES:-$all}

declare -A result seconds note
status=0
run_start=$(date +%s)

targets_of() {
  case "$1" in
    prerequisites) echo "browser postgres nats node_modules/.package-lock.stamp schemathesis" ;;
    build-rust) echo "rust-tests" ;;
    build-web) echo "web" ;;
    lint | test-rust | test-faults | test-web | test-e2e | test-schema) echo "$1" ;;
    *) echo "unknown phase: $1 (one of: $all)" >&2; return 2 ;;
  esac
}

run_phase() { # phase: runs it, records its result and time
  local phase=$1 targets start
  targets=$(targets_of "$phase") || exit 2
  echo "== phase $phase: make $targets"
  start=$(date +%s)
  # shellcheck disable=SC2086 # the targets are words on purpose
  if make --no-print-directory $targets; then result[$phase]=ok; else result[$phase]=FAILED; status=1; fi
  seconds[$phase]=$(($(date +%s) - start))
}

# The set-up is mostly downloading (Chromium, npm's packages, Schemathesis), which leaves the cores
# idle, so it runs beside the Rust build rather than before it. Only the linker comes first, since
# the build links with it.
background=
for phase in $phases; do
  targets_of "$phase" >/dev/null || exit 2
done
if [[ " $phases " == *" prerequisites "* && " $phases " == *" build-rust "* ]]; then
  background=prerequisites
  make --no-print-directory linker || true
  log=$(mktemp "${TMPDIR:-/tmp}/tiffin-prerequisites-XXXXXX")
  bg_start=$(date +%s)
  (
    # shellcheck disable=SC2046 # the targets are words on purpose
    make --no-print-directory $(targets_of prerequisites) >"$log" 2>&1
    echo $? >"$log.status"
  ) &
  bg_pid=$!
  echo "== phase prerequisites: beside build-rust (its output follows build-rust's)"
fi

for phase in $phases; do
  [ "$phase" = "$background" ] && continue
  run_phase "$phase"
  if [ -n "$background" ] && [ "$phase" = build-rust ]; then
    wait "$bg_pid"
    seconds[prerequisites]=$(($(date +%s) - bg_start))
    echo "== phase prerequisites (ran beside build-rust):"
    cat "$log"
    if [ "$(cat "$log.status")" = 0 ]; then result[prerequisites]=ok; else result[prerequisites]=FAILED; status=1; fi
    note[prerequisites]="(beside build-rust)"
    rm -f "$log" "$log.status"
    background=done
  fi
done

echo "== make test phases:"
for phase in $phases; do
  printf '   %-14s %-7s %5ss  (%dm%02ds) %s\n' "$phase" "${result[$phase]}" "${seconds[$phase]}" \
    $((seconds[$phase] / 60)) $((seconds[$phase] % 60)) "${note[$phase]:-}"
done
total=$(($(date +%s) - run_start))
printf '   %-14s %-7s %5ss  (%dm%02ds)\n' "total" "" "$total" $((total / 60)) $((total % 60))
if [ $status -eq 0 ]; then echo "== make test: every gate and suite passed"; else echo "== make test: FAILED (see above)"; fi
exit $status
