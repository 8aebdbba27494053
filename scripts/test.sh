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

declare -A result seconds
status=0
run_start=$(date +%s)
for phase in $phases; do
  case "$phase" in
    prerequisites) targets="browser postgres nats" ;;
    build-rust) targets="rust" ;;
    build-web) targets="web" ;;
    lint | test-rust | test-faults | test-web | test-e2e | test-schema) targets="$phase" ;;
    *) echo "unknown phase: $phase (one of: $all)" >&2; exit 2 ;;
  esac
  echo "== phase $phase: make $targets"
  start=$(date +%s)
  # shellcheck disable=SC2086 # the targets are words on purpose
  if make --no-print-directory $targets; then
    result[$phase]=ok
  else
    result[$phase]=FAILED
    status=1
  fi
  seconds[$phase]=$(($(date +%s) - start))
done

echo "== make test phases:"
for phase in $phases; do
  printf '   %-14s %-7s %5ss  (%dm%02ds)\n' "$phase" "${result[$phase]}" "${seconds[$phase]}" \
    $((seconds[$phase] / 60)) $((seconds[$phase] % 60))
done
total=$(($(date +%s) - run_start))
printf '   %-14s %-7s %5ss  (%dm%02ds)\n' "total" "" "$total" $((total / 60)) $((total % 60))
if [ $status -eq 0 ]; then echo "== make test: every gate and suite passed"; else echo "== make test: FAILED (see above)"; fi
exit $status
