# AgentDesk. `make run` sets up a fresh machine and starts the app; `make test` runs every test.
SHELL := /bin/bash
GO ?= go
BIN := build/bin/agentdesk
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -w -s -X agentdesk/app/cli.Version=$(VERSION)
# A count, not a duration: a timed fuzz run can end with a spurious "context deadline exceeded".
FUZZTIME ?= 150000x
WAILS := build/.tools/wails

.PHONY: run test setup frontend build helper go-test vitest e2e acp-test smoke fuzz bench bench-check dev wails-cli clean

run: build
	bash build/scripts/run.sh $(BIN)

test: setup go-test vitest build e2e acp-test smoke fuzz bench-check
	@echo "make test: every suite passed"

setup:
	bash build/scripts/setup.sh

frontend: setup
	cd frontend && npm run build

# The sandbox helper is built static first and embedded (main_helper.go): every shell command
# starts it instead of the GTK-linked app binary.
HELPER := build/helper/agentdesk-sandbox
build: frontend helper
	$(GO) build -tags desktop,production,sandboxhelper -ldflags "$(LDFLAGS)" -o $(BIN) .

helper:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -o $(HELPER) ./backend/sandbox/helper

go-test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

vitest: setup
	cd frontend && npm test

e2e: build
	cd frontend && AGENTDESK_BIN=$(abspath $(BIN)) npm run e2e

# ACP conformance: the official TypeScript SDK drives `agentdesk acp`, and `agentdesk run` (and
# the chain editor -> `agentdesk acp` -> agent) drives a TypeScript agent that behaves as
# opencode does, as an external runtime.
acp-test: build
	cd backend/acp/testdata/node && AGENTDESK_BIN=$(abspath $(BIN)) npm test

smoke: build
	bash build/scripts/desktop-smoke.sh $(BIN) build/screenshots/desktop.png

fuzz:
	@for target in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' backend/*/*_test.go | cut -c6-); do \
	  pkg=$$(dirname $$(grep -l "^func $$target(" backend/*/*_test.go)); \
	  echo "fuzz: $$target in $$pkg for $(FUZZTIME)"; \
	  $(GO) test -run='^$$' -fuzz="^$$target$$" -fuzztime=$(FUZZTIME) ./$$pkg || exit 1; \
	done

bench:
	bash build/scripts/bench.sh

# CI proves the benchmarks still run, with a short fixed count; `make bench` measures.
bench-check:
	$(GO) test -run='^$$' -bench=. -benchtime=10x ./backend/...

# The Wails CLI is needed only for `wails dev` and to regenerate bindings; it is pinned in
# build/tools (its own module, since v2.9.2's x/tools does not build on Go 1.26).
wails-cli: $(WAILS)
$(WAILS): build/tools/go.mod build/tools/go.sum
	$(GO) build -C build/tools -o $(abspath $(WAILS)) github.com/wailsapp/wails/v2/cmd/wails

dev: setup wails-cli
	$(WAILS) dev -tags webkit2_40

clean:
	rm -rf build/bin build/helper build/.tools frontend/dist/assets build/screenshots
