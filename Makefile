# Taskhub: `make run` starts the marketplace, `make test` runs every test.

CARGO      ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
SERVER_BIN := $(TARGET_DIR)/debug/server

.PHONY: run test web server test-rust test-web test-api e2e bench clean cluster cluster-down e2e-cluster soak-quick soak mutants

## Build the web app and the server, seed demo data (first start only), serve on http://127.0.0.1:8080.
run: web server
	$(SERVER_BIN) seed --demo
	DEV_MODE=$${DEV_MODE:-true} $(SERVER_BIN)

## Every test: Rust on SQLite and Postgres with the local and Redis buses, web unit tests, browser end-to-end tests,
## schemathesis against the OpenAPI document.
test: server web
	scripts/with-test-services.sh $(CARGO) test --workspace
	$(MAKE) test-web
	$(MAKE) test-api

test-rust:
	scripts/with-test-services.sh $(CARGO) test --workspace

test-web: web/node_modules
	npm --prefix web test
	SERVER_BIN=$(SERVER_BIN) npm --prefix web run e2e
	npm --prefix web run size

## Fuzz the API from its OpenAPI document (schemathesis, installed into ~/.cache by the script).
test-api: server
	SERVER_BIN=$(SERVER_BIN) scripts/schemathesis.sh

server:
	$(CARGO) build -p server

## Mutation testing (cargo-mutants: `cargo install --locked cargo-mutants`) over the money, moderation
## and authorization code; what survives is explained in docs/mutants.md. Hours on two cores, so not
## part of `make test`. `make mutants` runs the whole scope, each group of files against its own
## tests (scripts/mutants-scope.sh); MUTANTS_GROUPS="disputes escrow" runs only those groups.
## Narrow it to files, e.g. `make mutants MUTANTS_FILES=model/src/payments/fees.rs MUTANTS_TESTS=--lib`
## (MUTANTS_TESTS goes to `cargo test`). MUTANTS_ARGS goes to `cargo mutants`, e.g. `--iterate` to
## skip what a previous run caught. scripts/mutants.sh keeps one mutated copy of the tree and its
## own target dir, so a second run is incremental; .cargo/mutants.toml skips mutants that never compile.
MUTANTS_FILES ?=
MUTANTS_TESTS ?=
MUTANTS_ARGS ?=
mutants:
ifeq ($(strip $(MUTANTS_FILES)),)
	scripts/with-test-services.sh scripts/mutants-scope.sh $(MUTANTS_ARGS)
else
	scripts/with-test-services.sh scripts/mutants.sh $(addprefix --file ,$(wildcard $(MUTANTS_FILES))) $(MUTANTS_ARGS) \
		-- $(MUTANTS_TESTS)
endif

web: web/node_modules
	npm --prefix web run build

web/node_modules: web/package-lock.json
	npm --prefix web ci --no-audit --no-fund
	@touch web/node_modules

## The scale-out deployment of docker-compose.yml on loopback, from installed binaries
## (scripts/cluster.sh: PostgreSQL, Redis, two nodes, nginx); `make cluster-down` stops it.
cluster: web server
	scripts/cluster.sh up

cluster-down:
	scripts/cluster.sh down

## The browser scenario through nginx with the poster's and the tasker's sockets on different nodes.
e2e-cluster: web server
	scripts/with-cluster.sh node web/e2e/run.mjs web/e2e/tests/cluster.test.mjs

## The soak against a fresh cluster, with injected faults and an audit (bench/soak/README.md):
## 60 s for CI, or the full 10 minutes. Unread notifications are mailed after EMAIL_DELAY seconds,
## so the email outbox is part of the run.
soak-quick: web server
	$(CARGO) build -p soak
	EMAIL_DELAY=15 scripts/with-cluster.sh $(TARGET_DIR)/debug/soak --quick

soak: web server
	$(CARGO) build -p soak
	EMAIL_DELAY=30 scripts/with-cluster.sh $(TARGET_DIR)/debug/soak

clean:
	rm -rf web/dist web/test-results
	$(CARGO) clean
