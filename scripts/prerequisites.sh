#!/usr/bin/env bash
# What `make test` needs from the machine besides cargo and node, set up when missing, so a fresh
# machine of this kind runs `make test` with nothing done by hand first:
#   browser   Debian's Chromium at /usr/bin/chromium (the browser tests never download one)
#   postgres  PostgreSQL on 127.0.0.1:5432, started when it is installed but down. Not having it
#             is only a note, since the storage tests then run on SQLite alone, unless
#             TIFFIN_REQUIRE_POSTGRES=1 (CI), where every storage test must also run on PostgreSQL.
#   nats      NATS with JetStream on 127.0.0.1:4222, started when installed but down. Without it
#             the order-event tests run in process only, unless TIFFIN_REQUIRE_NATS=1 (CI).
#   linker    Debian's mold, which scripts/cc-link.sh links with when present. Not getting it is only
#             a note: the build then links with the system's linker, slower.
#   schemathesis  the schema tests' virtualenv under ~/.cache/tiffin, (re)made when missing or when
#             e2e/schema/requirements.txt changed, so a second run downloads nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

browser() {
  [ -x /usr/bin/chromium ] && return 0
  echo "== installing chromium (Debian's package)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] || { echo "chromium did not install at /usr/bin/chromium" >&2; exit 1; }
}

linker() {
  command -v mold >/dev/null 2>&1 && return 0
  echo "== installing mold (Debian's package), the faster linker"
  if ! { as_root apt-get update -qq && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq mold >/dev/null; }; then
    echo "== mold did not install: the build links with the system's linker"
  fi
}

schemathesis() {
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/tiffin/schemathesis-venv"
  local requirements=e2e/schema/requirements.txt wanted
  wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
  [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" = "$wanted" ] && return 0
  echo "== installing Schemathesis into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  echo "$wanted" >"$venv/.requirements.sha256"
}

postgres() {
  local required=0
  [ "${TIFFIN_REQUIRE_POSTGRES:-0}" = 1 ] && required=1
  pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && return 0
  local version
  version=$(ls /etc/postgresql 2>/dev/null | head -n1 || true)
  if [ -z "$version" ] || ! command -v pg_ctlcluster >/dev/null 2>&1; then
    if [ $required = 1 ]; then
      echo "TIFFIN_REQUIRE_POSTGRES=1 but PostgreSQL is not installed" >&2
      exit 1
    fi
    echo "== PostgreSQL is not installed: storage tests run on SQLite only"
    return 0
  fi
  echo "== starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p 5432 && return 0
    sleep 1
  done
  if [ $required = 1 ]; then
    echo "TIFFIN_REQUIRE_POSTGRES=1 but PostgreSQL did not come up on 127.0.0.1:5432" >&2
    exit 1
  fi
  echo "== PostgreSQL did not come up: storage tests run on SQLite only"
}

nats_up() {
  (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null
}

nats() {
  local required=0
  [ "${TIFFIN_REQUIRE_NATS:-0}" = 1 ] && required=1
  nats_up && return 0
  if ! command -v nats-server >/dev/null 2>&1; then
    if [ $required = 1 ]; then
      echo "TIFFIN_REQUIRE_NATS=1 but nats-server is not installed" >&2
      exit 1
    fi
    echo "== NATS is not installed: order events are tested in process only"
    return 0
  fi
  echo "== starting NATS with JetStream"
  local store="${XDG_CACHE_HOME:-$HOME/.cache}/tiffin/nats"
  mkdir -p "$store"
  nohup nats-server -a 127.0.0.1 -p 4222 -js -sd "$store" >"$store/nats.log" 2>&1 &
  for _ in $(seq 1 30); do
    nats_up && return 0
    sleep 1
  done
  if [ $required = 1 ]; then
    echo "TIFFIN_REQUIRE_NATS=1 but NATS did not come up on 127.0.0.1:4222" >&2
    exit 1
  fi
  echo "== NATS did not come up: order events are tested in process only"
}

if [ $# -eq 0 ]; then set -- browser postgres nats; fi
for what in "$@"; do
  case "$what" in
    browser | postgres | nats | linker | schemathesis) "$what" ;;
    *) echo "usage: $0 [browser] [postgres] [nats] [linker] [schemathesis]" >&2; exit 2 ;;
  esac
done
