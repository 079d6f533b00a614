# AgentDesk. `make run` sets up a fresh machine and starts the app; `make test` runs every test.
SHELL := /bin/bash
GO ?= go
# Two builds of one program: the command line (agentdesk: terminals, editors, servers), static and
# without cgo, links no Wails, GTK or WebKit; the window (agentdesk-desktop) is the desktop build,
# which the command line executes, from beside itself, only to open a window.
BIN := build/bin/agentdesk
DESKTOP_BIN := build/bin/agentdesk-desktop
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -w -s -X agentdesk/app/cli.Version=$(VERSION)
# A count, not a duration: a timed fuzz run can end with a spurious "context deadline exceeded".
FUZZTIME ?= 150000x
WAILS := build/.tools/wails
STEP := bash build/scripts/step.sh
# The WebKitGTK API the window links: 4.0 where its development files are installed, else 4.1
# (Debian 13 and Ubuntu 24.04 ship only 4.1); `make WEBKIT=4.1` picks 4.1 where both are.
# Deferred (=), not immediate: on a fresh machine setup installs the files after this is parsed.
WEBKIT ?= $(shell pkg-config --exists webkit2gtk-4.0 2>/dev/null && echo 4.0 || echo 4.1)
webkit_tag = $(if $(filter 4.1,$(1)),$(comma)webkit2_41)
comma := ,
TAGS = desktop,production,sandboxhelper$(call webkit_tag,$(WEBKIT))
CLI_TAGS := sandboxhelper

# The frontend bundle and the binary are real targets: each is rebuilt only when something it is
# made from changed, so `make test` right after `make run` builds nothing again.
DIST := frontend/dist/index.html
FRONTEND_SRC := $(shell find frontend/src frontend/scripts locales -type f 2>/dev/null) \
	frontend/index.html frontend/package.json frontend/package-lock.json frontend/vite.config.ts \
	frontend/tsconfig.json frontend/tsconfig.node.json
GO_SRC := $(shell find . -name '*.go' -not -name '*_test.go' -not -path './frontend/*' -not -path './build/*' \
	-not -path '*/node_modules/*' 2>/dev/null) go.mod go.sum $(shell find locales -type f 2>/dev/null)
# The link flags carry the version: a stamp that changes only when they do.
LDFLAGS_STAMP := build/.ldflags
$(shell mkdir -p build && (echo '$(LDFLAGS)' | cmp -s - $(LDFLAGS_STAMP) || echo '$(LDFLAGS)' > $(LDFLAGS_STAMP)))

.PHONY: FORCE test-nogtk bench-start test-portable test-webkit41 package install uninstall icons test-package run test setup setup-test gen frontend build helper mcp-fixture go-test vitest e2e acp-test smoke fuzz bench mcp-soak bench-check bench-browser-check dev wails-cli clean

run: setup build
	@bash build/scripts/run.sh $(BIN)

test: setup-test go-test vitest build test-nogtk e2e acp-test smoke fuzz bench-check bench-browser-check
	@echo "make test: every suite passed"

setup:
	@bash build/scripts/setup.sh

setup-test:
	@bash build/scripts/setup.sh test

# The page's contract (frontend/src/bridge/generated.ts and frontend/docs/API.md) is generated
# from the Go facades, DTOs and app.EventPayloads; `go test ./build/gents` (in go-test) fails
# while a checked-in file is stale. Not a prerequisite of the bundle: loading the packages takes
# about ten seconds, and the test already refuses a stale file.
gen:
	@$(STEP) "gen: the page's contract from the Go facades (build/gents)" $(GO) run ./build/gents

frontend: $(DIST)
$(DIST): $(FRONTEND_SRC) frontend/node_modules/.package-lock.json
	@$(STEP) "frontend: type-check and bundle (npm run build, about 30 s)" bash -c 'cd frontend && npm run build'

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	@bash build/scripts/setup.sh

# The sandbox helper is built static first and embedded (main_helper.go) in both builds: every
# shell command starts it instead of the app binary.
HELPER := build/helper/agentdesk-sandbox
HELPER_SRC := $(shell find backend/sandbox backend/errs -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod go.sum
helper: $(HELPER)
$(HELPER): $(HELPER_SRC)
	@$(STEP) "helper: compile the static sandbox helper" env CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -o $(HELPER) ./backend/sandbox/helper

# Rewritten only when the WebKitGTK choice changes, which then relinks the binary; its recipe runs
# after setup, which may just have installed the development files.
WEBKIT_STAMP := build/.webkit
$(WEBKIT_STAMP): FORCE
	@echo '$(WEBKIT)' | cmp -s - $@ || echo '$(WEBKIT)' > $@
FORCE:

build: $(BIN) $(DESKTOP_BIN)
$(BIN): $(GO_SRC) $(DIST) $(HELPER) $(LDFLAGS_STAMP)
	@$(STEP) "app: compile the command line $(BIN), static, without cgo (go build)" \
	  env CGO_ENABLED=0 $(GO) build -tags $(CLI_TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .
$(DESKTOP_BIN): $(GO_SRC) $(DIST) $(HELPER) $(LDFLAGS_STAMP) $(WEBKIT_STAMP)
	@$(STEP) "app: compile the window $(DESKTOP_BIN) for WebKitGTK $(WEBKIT) (go build, a minute or two the first time)" \
	  $(GO) build -tags $(TAGS) -ldflags "$(LDFLAGS)" -o $(DESKTOP_BIN) .

# The command line as built above, without GTK and WebKit: static, no Wails linked, and serve,
# run, acp and sessions working in a root that holds nothing but it (app/cli/nodesktop_linux_test.go;
# go-test runs the same test on a binary it builds itself).
test-nogtk: $(BIN)
	@$(STEP) "nogtk: the command line in a root without GTK, WebKit or any library" \
	  env AGENTDESK_CLI_BIN=$(abspath $(BIN)) $(GO) test -count=1 -run '^TestCommandLineRunsWithoutDesktopLibraries$$' ./app/cli/

# The other WebKitGTK API than the default build's, built and opened under Xvfb: Debian 12 has
# both, newer releases 4.1 only, so a release must build and paint on either. Only the Wails
# GTK package recompiles for the tag (the rest comes from the build cache).
BIN41 := build/bin/agentdesk-webkit41
$(BIN41): $(GO_SRC) $(DIST) $(HELPER) $(LDFLAGS_STAMP)
	@$(STEP) "app: compile $(BIN41) for WebKitGTK 4.1" \
	  $(GO) build -tags desktop,production,sandboxhelper,webkit2_41 -ldflags "$(LDFLAGS)" -o $(BIN41) .
test-webkit41: setup-test $(BIN41)
	@bash build/scripts/webkit-check.sh $(BIN41) 4.1
	@$(STEP) "smoke: the WebKitGTK 4.1 window under Xvfb" bash build/scripts/desktop-smoke.sh $(BIN41) build/screenshots/desktop-webkit41.png

go-test:
	@$(STEP) "go vet" $(GO) vet ./...
	@# The window's files build only with the desktop tag, which go test does not set.
	@$(STEP) "go vet (the desktop build's files)" $(GO) vet -tags desktop,production$(call webkit_tag,$(WEBKIT)) . ./app/ ./app/cli/
	@# A race-built program sleeps a second at exit by default; the sandbox helper and servers
	@# the tests start are such programs, hundreds of times.
	@$(STEP) "go test -race (every package)" env GORACE=atexit_sleep_ms=0 $(GO) test -race -count=1 ./...

vitest: setup
	@$(STEP) "vitest" bash -c 'cd frontend && npm test'

# The MCP suite drives a real MCP server: the fixture written with the same SDK.
MCP_FIXTURE := build/bin/mcp-fixture
mcp-fixture:
	@$(STEP) "mcp-fixture: compile the fixture MCP server" env CGO_ENABLED=0 $(GO) build -o $(MCP_FIXTURE) ./backend/mcp/mcptest/fixture

# The reference MCP server (sampling, progress), installed by `setup.sh test` with the node test deps.
MCP_EVERYTHING := backend/mcp/testdata/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js
e2e: build mcp-fixture
	@$(STEP) "e2e: Chromium against agentdesk serve" bash -c 'cd frontend && AGENTDESK_BIN=$(abspath $(BIN)) MCP_FIXTURE=$(abspath $(MCP_FIXTURE)) \
	  MCP_EVERYTHING=$(abspath $(MCP_EVERYTHING)) npm run e2e'

# ACP conformance: the official TypeScript SDK drives `agentdesk acp`, and `agentdesk run` (and
# the chain editor -> `agentdesk acp` -> agent) drives a TypeScript agent that behaves as
# opencode does, as an external runtime.
acp-test: build
	@$(STEP) "acp: the official TypeScript SDK against agentdesk acp" \
	  bash -c 'cd backend/acp/testdata/node && AGENTDESK_BIN=$(abspath $(BIN)) npm test'

# The window as a terminal opens it: the command line hands over to the desktop build beside it.
smoke: build
	@bash build/scripts/webkit-check.sh $(DESKTOP_BIN) $(WEBKIT)
	@$(STEP) "smoke: the desktop window under Xvfb, opened through $(BIN)" bash build/scripts/desktop-smoke.sh $(BIN) build/screenshots/desktop.png

fuzz:
	@GO=$(GO) bash build/scripts/fuzz.sh $(FUZZTIME)

# The bare Wails app the startup figures are measured against (one static page, the same tags).
BENCHBARE := build/bin/benchbare
$(BENCHBARE): build/benchbare/main.go build/benchbare/file.go build/benchbare/page/index.html go.mod go.sum $(WEBKIT_STAMP)
	@$(STEP) "benchbare: compile the bare Wails app" $(GO) build -tags desktop,production$(call webkit_tag,$(WEBKIT)) -ldflags "-w -s" -o $@ ./build/benchbare

bench: setup build $(BENCHBARE)
	bash build/scripts/bench.sh

# Only the start-cost rows of bench: `sessions list` from the command line and from the desktop
# build, side by side.
bench-start: build
	@bash build/scripts/bench-start.sh $(BIN) $(DESKTOP_BIN)

# The MCP soak: 300 starts and stops of the reference server-everything over stdio (8–11
# minutes under -race on two cores; go-test runs 25). Beside bench rather than in it: it is a
# pass/fail run that logs its per-round figures, not a benchmark with a budget.
mcp-soak: setup-test
	env GORACE=atexit_sleep_ms=0 AGENTDESK_MCP_SOAK=1 $(GO) test -race -count=1 -v -timeout 30m -run '^TestReferenceEverythingDialLoop$$' ./backend/mcp/

# CI proves the benchmarks still run, with a short fixed count; `make bench` measures.
bench-check:
	@echo "==> bench-check: every benchmark runs (10 iterations each)"
	$(GO) test -run='^$$' -bench=. -benchtime=10x ./backend/... ./app/ ./app/cli/

# The browser benchmark still runs: on a small folder built by build/gendata, every figure must
# be measured (about 40 s); its goals are `make bench`'s.
bench-browser-check: build
	@$(STEP) "bench-browser-check: the browser benchmark on a small folder" node frontend/bench/browser.mjs --smoke --bin $(abspath $(BIN))

# The Debian package, with nfpm (pinned here; built once into build/.tools, in its own module
# so none of its dependencies reach the app's go.mod).
NFPM_VERSION := v2.48.0
NFPM := build/.tools/nfpm-$(NFPM_VERSION)
$(NFPM):
	@$(STEP) "nfpm: compile the pinned packager ($(NFPM_VERSION))" \
	  bash -c 'd=$$(mktemp -d) && GOBIN=$$d $(GO) install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION) && mkdir -p $(dir $(NFPM)) && mv $$d/nfpm $(NFPM)'

package: setup build $(NFPM)
	@bash build/scripts/package.sh $(NFPM) $(BIN) $(DESKTOP_BIN) $(WEBKIT) build/dist

# One user's install under PREFIX, no root: the package's files less the AppArmor profile.
PREFIX ?= $(HOME)/.local
install: setup build
	@bash build/scripts/install.sh install $(BIN) $(DESKTOP_BIN) $(PREFIX)
uninstall:
	@bash build/scripts/install.sh uninstall $(PREFIX)

# The hicolor PNGs are committed; this renders them again from the SVG.
icons:
	@bash build/scripts/icons.sh

# The package and the per-user install, checked: lintian, the launcher and metainfo validators,
# the AppArmor profile's syntax, the .deb's contents and dependencies, install then uninstall into
# a scratch HOME, and (as root) dpkg -i and dpkg -P of the package.
# Only Linux is packaged, but the code stays portable: the Windows build compiles and the backend
# vets for macOS.
test-portable:
	@$(STEP) "portable: GOOS=windows go build, GOOS=darwin go vet ./backend/..." \
	  bash -c 'GOOS=windows $(GO) build -o /dev/null ./... && GOOS=darwin $(GO) vet ./backend/...'

test-package: setup-test build $(NFPM)
	@$(STEP) "package: build the .deb and check it and make install" \
	  bash build/scripts/package-test.sh $(NFPM) $(BIN) $(DESKTOP_BIN) $(WEBKIT)

# The Wails CLI is needed only for `wails dev` and to regenerate bindings; it is pinned in
# build/tools (its own module, since v2.9.2's x/tools does not build on Go 1.26).
wails-cli: $(WAILS)
$(WAILS): build/tools/go.mod build/tools/go.sum
	$(GO) build -C build/tools -o $(abspath $(WAILS)) github.com/wailsapp/wails/v2/cmd/wails

dev: setup wails-cli
	$(WAILS) dev $(if $(call webkit_tag,$(WEBKIT)),-tags webkit2_41)

clean:
	rm -rf build/bin build/dist build/helper build/.tools frontend/dist/assets frontend/dist/index.html build/screenshots $(LDFLAGS_STAMP) $(WEBKIT_STAMP)
