# Taskhub: `make run` starts the marketplace, `make test` runs every test.

CARGO      ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
SERVER_BIN := $(TARGET_DIR)/debug/server

.PHONY: run test web server test-rust test-web test-api e2e bench clean

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

web: web/node_modules
	npm --prefix web run build

web/node_modules: web/package-lock.json
	npm --prefix web ci --no-audit --no-fund
	@touch web/node_modules

clean:
	rm -rf web/dist web/test-results
	$(CARGO) clean
