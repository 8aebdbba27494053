# Tiffin: two commands do everything.
#   make run    build what is missing, then start the storefront at http://127.0.0.1:$(PORT)
#   make test   the static gates (make lint), then every test: Rust (SQLite, and PostgreSQL and
#               NATS JetStream when reachable), web unit, browser end-to-end, and the schema tests
#               (Schemathesis against a live edge). It installs Chromium
#               and starts PostgreSQL and NATS itself when they are missing or down
#               (scripts/prerequisites.sh).
#
# Rust builds go to $(CARGO_TARGET_DIR), by default one cache per machine outside the clone
# (~/.cache/tiffin/target), so a new clone builds only our own crates. Clones share its binaries:
# the last one built is the one `make run` starts.

SHELL := /bin/bash
.DEFAULT_GOAL := help

export NX_NO_CLOUD := true
export NX_DAEMON := false
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# One build cache per machine, outside the clone, so a second clone (or CI's) builds only what changed.
export CARGO_TARGET_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/tiffin/target
BIN := $(CARGO_TARGET_DIR)/debug
# The linker cargo calls (scripts/cc-link.sh: mold when installed) from one path per machine,
# beside the build cache. Cargo counts the linker's path in every crate's fingerprint, so the
# clone's own path (.cargo/config.toml's, for a bare cargo) made each new clone, CI's included,
# rebuild every dependency.
LINKER := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/tiffin/bin/cc-link
$(shell mkdir -p $(dir $(LINKER)) && { cmp -s scripts/cc-link.sh $(LINKER) || cp scripts/cc-link.sh $(LINKER); })
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER := $(LINKER)
export PORT ?= 8080

# Everything the web build reads; a change to any of it rebuilds dist/web on the next make run.
WEB_SOURCES := $(shell find libs shell-app mfe-discovery mfe-cart mfe-checkout mfe-account mfe-desk scripts \
	-type f -not -path '*/node_modules/*' -not -path '*/dist/*' 2>/dev/null) package.json nx.json tsconfig.base.json

.PHONY: help run build rust rust-tests web lint contract test test-rust test-faults test-web test-e2e test-schema browser postgres nats linker schemathesis bench audit audit-prerequisites clean

help:
	@echo "make run    start the storefront at http://127.0.0.1:$(PORT) (PORT=… to change)"
	@echo "make test   run the gates and every test (Rust, web unit, browser end-to-end, schema)"
	@echo "make test-schema  only the schema tests: Schemathesis against a storefront of its own"
	@echo "make lint   only the gates: clippy, rustfmt, TypeScript, buf lint and breaking, deploy/"
	@echo "make contract  regenerate docs/openapi.json and the web's edge types from the edge's code"
	@echo "make bench  run the benchmarks, then the page audit"
	@echo "make audit  only the page audit: Lighthouse (mobile) on landing, listing, a menu and the cart"
	@echo "make clean  remove builds and data"

run: build
	@$(BIN)/tiffin

build: rust web

rust:
	cargo build --workspace --bins

# The binaries and every test target in one cargo run (make test's build): a core left idle at the
# end of one crate's build is given to another's tests, and `cargo test` then compiles nothing.
# --timings leaves cargo's report of what each crate cost beside the build
# ($(CARGO_TARGET_DIR)/cargo-timings/cargo-timing.html), for when this phase grows.
rust-tests:
	cargo build --workspace --bins --tests --timings

node_modules/.package-lock.stamp: package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

web: dist/web/.stamp

dist/web/.stamp: node_modules/.package-lock.stamp $(WEB_SOURCES)
	npm run build:web
	@touch $@

# The set-up, the builds, the gates and every suite as phases (scripts/test.sh): each runs even when
# one fails, so the summary shows all of them with the time each took; fails if any failed.
# TEST_PHASES="lint test-rust" runs only some.
test:
	@scripts/test.sh

# Static gates, one line each at the end (scripts/lint.sh): clippy, rustfmt, tsc, the generated
# contract, buf lint and buf breaking. LINT_GATES="fmt buf-lint" runs only some.
lint: node_modules/.package-lock.stamp
	@scripts/lint.sh

# The HTTP contract's generated files (scripts/contract.sh): docs/openapi.json from the edge's own
# types, then libs/contract/src/edge-api.gen.ts from it with openapi-typescript. Run it after
# changing an /api route or reply type, and commit both; make lint and the edge's tests fail until then.
contract: node_modules/.package-lock.stamp
	@scripts/contract.sh

# The machine's part of the test set-up: Debian's Chromium for the browser tests, PostgreSQL up
# for the storage tests (required when TIFFIN_REQUIRE_POSTGRES=1).
browser:
	@scripts/prerequisites.sh browser

postgres:
	@scripts/prerequisites.sh postgres

nats:
	@scripts/prerequisites.sh nats

linker:
	@scripts/prerequisites.sh linker

schemathesis:
	@scripts/prerequisites.sh schemathesis

# Tests run four at a time within each test binary (RUST_TEST_THREADS), not one per core: most of a
# test's time is spent waiting on the services and databases it starts, so two at a time left the
# cores idle (the orders tests: 101 s at two, 40 s at six).
TEST_THREADS ?= 4
test-rust: postgres nats
	@echo "== Rust tests (SQLite; PostgreSQL when reachable, required if TIFFIN_REQUIRE_POSTGRES=1)"
	RUST_TEST_THREADS=$(TEST_THREADS) cargo test --workspace --no-fail-fast 2>&1 | tee $(CARGO_TARGET_DIR)/rust-tests.log; \
	status=$${PIPESTATUS[0]}; \
	echo "== Rust summary:"; grep -E '^test result:' $(CARGO_TARGET_DIR)/rust-tests.log | \
	awk '{p+=$$4; f+=$$6} END {print "   " p " passed, " f " failed"}'; \
	exit $$status

# The faults suite (crates/faults, docs/faults.md): the storefront from the debug binaries under a
# steady load while each service and the edge is killed and restarted, the cart's PostgreSQL stops
# and starts (when reachable; required if TIFFIN_REQUIRE_POSTGRES=1) and the menu slows past the
# edge's budget. Prints its table and summary; about two minutes. Logs: $(CARGO_TARGET_DIR)/faults/
test-faults: rust postgres
	@echo "== Faults survived under load (kill and restart, PostgreSQL down, slow service)"
	$(BIN)/tiffin-faults --bin-dir $(BIN)

test-web: node_modules/.package-lock.stamp
	@echo "== Web unit tests"
	npm run test:unit

test-e2e: build browser
	@echo "== Browser end-to-end tests (Chromium)"
	TIFFIN_BIN_DIR=$(BIN) npm run test:e2e

# The schema tests (scripts/schemathesis.sh, docs/edge-api.md): Schemathesis against a storefront
# of its own, from the edge's live OpenAPI document, as a signed-in customer; fails on any 5xx and
# any reply the document does not allow. Installs Schemathesis (pinned in
# e2e/schema/requirements.txt) into a virtualenv under ~/.cache/tiffin the first time.
test-schema: build
	@echo "== Schema tests (Schemathesis against a live edge)"
	@scripts/schemathesis.sh

# Release binaries, then tiffin-bench (docs/benchmarks.md): menu, cart, listing, autosuggest, the
# listing on 1,000 to 100,000 restaurants, place order (SQLite and PostgreSQL), and 10,000 tracking
# streams on one edge quiet and with every core kept busy by another process (tracking,
# tracking-busy), about 7 minutes of measuring, then the page audit on the release storefront.
# Flags pass through, for example make bench BENCH_ARGS="--scenario listing,suggest --measure 3".
# Results: $(CARGO_TARGET_DIR)/bench/results.json and $(CARGO_TARGET_DIR)/bench/audit/
BENCH_ARGS ?=
bench:
	cargo build --release --workspace --bins
	$(CARGO_TARGET_DIR)/release/tiffin-bench $(BENCH_ARGS)
	@$(MAKE) --no-print-directory web audit-prerequisites
	TIFFIN_BIN_DIR=$(CARGO_TARGET_DIR)/release node e2e/audit/audit.mjs $(AUDIT_ARGS)

# The page audit (e2e/audit/audit.mjs, docs/benchmarks.md): Lighthouse's mobile audit of landing,
# listing, a menu and the cart on a storefront it starts itself on its own ports (the release
# binaries when built, else debug), printed as a table and written with Lighthouse's reports to
# $(CARGO_TARGET_DIR)/bench/audit/. make audit AUDIT_ARGS="--runs 3" keeps each page's median run.
# Lighthouse is a package of its own (e2e/audit/package.json), installed only here.
AUDIT_ARGS ?=
audit: rust web audit-prerequisites
	node e2e/audit/audit.mjs $(AUDIT_ARGS)

audit-prerequisites: browser e2e/audit/node_modules/.package-lock.stamp

e2e/audit/node_modules/.package-lock.stamp: e2e/audit/package-lock.json node_modules/.package-lock.stamp
	npm ci --prefix e2e/audit --no-audit --no-fund
	@touch $@

clean:
	rm -rf dist data node_modules/.package-lock.stamp e2e/audit/node_modules/.package-lock.stamp
	cargo clean
