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

# Phases that leave cores idle run beside another instead of before or after it: the set-up is
# mostly downloading (Chromium, npm's packages, Schemathesis) beside the Rust build, and the web
# unit tests beside the Rust tests, which spend most of their time waiting on the services and
# databases they start. Only the linker comes first, since the build links with it.
declare -A beside=([prerequisites]=build-rust [test-web]=test-rust)
for phase in $phases; do
  targets_of "$phase" >/dev/null || exit 2
done
declare -A in_background started_at pid_of log_of
for phase in "${!beside[@]}"; do
  if [[ " $phases " == *" $phase "* && " $phases " == *" ${beside[$phase]} "* ]]; then
    in_background[$phase]=1
  fi
done

start_beside() { # partner: starts in the background the phases that run beside it
  local partner=$1 phase
  for phase in "${!in_background[@]}"; do
    [ "${beside[$phase]}" = "$partner" ] || continue
    [ "$phase" = prerequisites ] && { make --no-print-directory linker || true; }
    log_of[$phase]=$(mktemp "${TMPDIR:-/tmp}/tiffin-$phase-XXXXXX")
    started_at[$phase]=$(date +%s)
    # shellcheck disable=SC2046 # the targets are words on purpose
    make --no-print-directory $(targets_of "$phase") >"${log_of[$phase]}" 2>&1 &
    pid_of[$phase]=$!
    echo "== phase $phase: beside $partner (its output follows $partner's)"
  done
}

finish_beside() { # partner: waits for the phases beside it and prints their output
  local partner=$1 phase
  for phase in "${!in_background[@]}"; do
    [ "${beside[$phase]}" = "$partner" ] || continue
    if wait "${pid_of[$phase]}"; then result[$phase]=ok; else result[$phase]=FAILED; status=1; fi
    seconds[$phase]=$(($(date +%s) - started_at[$phase]))
    note[$phase]="(beside $partner)"
    echo "== phase $phase (ran beside $partner):"
    cat "${log_of[$phase]}"
    rm -f "${log_of[$phase]}"
  done
}

for phase in $phases; do
  [ -n "${in_background[$phase]:-}" ] && continue
  start_beside "$phase"
  run_phase "$phase"
  finish_beside "$phase"
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
