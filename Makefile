# make test installs what the tests need (the pinned OpenCode servers, tmux,
# Jaeger) and runs every test, end-to-end included. End-to-end tests fail,
# not skip, under make test when a server cannot start.

# The servers the end-to-end tests run on. The whole suite runs on the
# pinned 1.18.33 and 1.1.65; the version-parameterised core (the tree,
# stream, actions and background tests) also runs on each of
# OCTOP_E2E_TARGETS: 1.18.33 with both experimental flags
# (OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS, _EVENT_SYSTEM) and 1.18.34,
# which npm serves only as the binary package (opencode-linux-x64).
OPENCODE_VERSIONS := 1.18.33 1.1.65
OPENCODE_BINARY_ONLY := 1.18.34
CACHE := $(CURDIR)/.cache
OPENCODE_BIN = $(CACHE)/opencode-$(1)/node_modules/opencode-linux-x64/bin/opencode
# harness.Binary finds version x.y.z's binary in $OCTOP_OPENCODE_x_y_z.
OPENCODE_ENV = OCTOP_OPENCODE_$(subst .,_,$(1))

export OCTOP_E2E := 1
export OCTOP_OPENCODE_1_18 := $(call OPENCODE_BIN,1.18.33)
export OCTOP_OPENCODE_1_1 := $(call OPENCODE_BIN,1.1.65)
export OCTOP_OPENCODE_1_18_34 := $(call OPENCODE_BIN,1.18.34)
export OCTOP_E2E_TARGETS ?= 1.18.33,1.18.33+flags,1.18.34,1.1.65

# OCTOP_TEST_SLOW (a factor, default 1) scales every deadline a test waits
# on (internal/testkit/testwait), and with it go test's time limits below: on a
# slow or loaded machine, OCTOP_TEST_SLOW=3 make test. A deadline only says
# when to give up, so a factor never changes what passes on a quiet one.
OCTOP_TEST_SLOW ?= 1
export OCTOP_TEST_SLOW
# minutes is $(1) minutes times OCTOP_TEST_SLOW, as a go test -timeout.
minutes = $(shell awk -v m=$(1) -v s='$(OCTOP_TEST_SLOW)' 'BEGIN { t = m * s; if (t < 1) t = m; printf "%dm", t + 0.5 }')

# The core tests, by name: what `make compat` runs on another release.
# Each loops over harness.Targets() (the background ones over its 1.18
# targets); the rest of the suite runs on the pinned versions only.
E2E_CORE := ^(TestClientFanoutEvents|TestModelLive|TestTreeJSONUsage|TestActionsLaunchResultResume|TestLogChildTranscript|TestBackground.*)$$

# Jaeger is the tracing backend the end-to-end test of `octop export` sends
# to and reads back, built from its own module under internal/tools/jaeger
# (its replace directive rules out go install @version). The first build
# takes about 5 minutes and 2 GB of memory; after that Go's build cache
# makes it a relink of about 10 seconds, also in a fresh clone.
JAEGER_VERSION := 1.76.0
JAEGER := $(CACHE)/jaeger-$(JAEGER_VERSION)/jaeger
export OCTOP_JAEGER := $(JAEGER)

.PHONY: test deps opencode tmux jaeger unit lint bench build bench-live bench-soak bench-scale fuzz dist compat

# go test runs each Fuzz test over its seeds and every input in
# testdata/fuzz, so what fuzzing has found stays tested; make test does no
# fuzzing itself, as that searches at random and would make the result of
# the same commit depend on luck.
#
# The unit tests (every package but e2e) run under the race detector; the
# end-to-end tests, which spend their time waiting on real servers, run
# without it.
test: deps lint
	go vet ./...
	go test -race -count=1 -timeout $(call minutes,15) $$(go list ./... | grep -v /e2e$$)
	go test -count=1 -timeout $(call minutes,25) ./e2e/

# compat runs the core end-to-end tests (E2E_CORE) on
# another OpenCode release, with and without the experimental flags:
#   make compat VERSION=1.18.30
# It installs the release's binary package (opencode-linux-x64@VERSION)
# into .cache first.
compat: tmux
	@test -n "$(VERSION)" || { echo "make compat needs VERSION=x.y.z (an OpenCode release)"; exit 2; }
	$(MAKE) $(call OPENCODE_BIN,$(VERSION)) OPENCODE_BINARY_ONLY="$(OPENCODE_BINARY_ONLY) $(VERSION)"
	$(call OPENCODE_ENV,$(VERSION))=$(call OPENCODE_BIN,$(VERSION)) OCTOP_E2E_TARGETS=$(VERSION),$(VERSION)+flags \
	  go test -count=1 -timeout $(call minutes,25) -run '$(E2E_CORE)' ./e2e/

# lint runs golangci-lint (config: .golangci.yml), built from its own
# module under internal/tools/lint so octop's go.mod does not carry it.
GOLANGCI_LINT := $(CACHE)/golangci-lint
lint: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...

$(GOLANGCI_LINT): internal/tools/lint/go.mod
	go build -C internal/tools/lint -o $@ github.com/golangci/golangci-lint/v2/cmd/golangci-lint

# fuzz runs every Fuzz test of the module (found by name, so a new one is
# included) for FUZZTIME each, from its seeds in testdata/fuzz. An input
# that fails is written there too: check it in with the fix. Run it before
# landing a change to anything that draws or parses what a server sends.
FUZZTIME ?= 60s
FUZZMINIMIZETIME ?= 5s
fuzz:
	@set -e; log=$$(mktemp); for f in $$(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do \
	  for n in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/p' $$f); do \
	    echo "fuzz $$n in $$(dirname $$f) for $(FUZZTIME)"; \
	    go test -run '^$$' -fuzz "^$$n\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) \
	      $$(dirname $$f) >$$log 2>&1 || { cat $$log; rm -f $$log; exit 1; }; \
	    grep -o 'execs: [0-9]*' $$log | tail -1; \
	  done; \
	done; rm -f $$log

deps: opencode tmux jaeger

jaeger: $(JAEGER)

$(JAEGER): internal/tools/jaeger/go.mod internal/tools/jaeger/go.sum
	go build -C internal/tools/jaeger -o $@ github.com/jaegertracing/jaeger/cmd/jaeger

opencode: $(foreach v,$(OPENCODE_VERSIONS) $(OPENCODE_BINARY_ONLY),$(call OPENCODE_BIN,$(v)))

# The pinned releases come as opencode-ai; the others as the binary
# package alone (npm serves 1.18.34 only that way).
$(CACHE)/opencode-%/node_modules/opencode-linux-x64/bin/opencode:
	npm install --silent --no-audit --no-fund --prefix $(CACHE)/opencode-$* \
	  $(if $(filter $*,$(OPENCODE_BINARY_ONLY)),opencode-linux-x64,opencode-ai)@$*
	test -x $@

tmux:
	@command -v tmux >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq tmux >/dev/null; }
	@command -v tmux >/dev/null

# unit runs the tests that need no server (end-to-end tests skip).
unit:
	OCTOP_E2E= go test -race ./...

# bench runs the stage benchmarks and rewrites the "bench" section of
# docs/perf.md with their figures (internal/dev/perfdoc).
BENCH_PKGS := ./client ./model ./ui ./ui/tree ./ui/transcript ./internal/watchdog
bench:
	go test -run '^$$' -bench . -benchmem -count 3 $(BENCH_PKGS) | go run ./internal/dev/perfdoc -section bench

# build makes a static binary, as make dist's releases are: a binary
# linked to libc maps it and its loader into every octop (make bench-live
# measures bin/octop's memory).
build:
	CGO_ENABLED=0 go build -o bin/octop ./cmd/octop

# bench-live runs octop beside `opencode attach` and `curl -N /event` on one
# live fan-out (8 children x 10 tool calls) and prints CPU-s, peak RSS, the
# ratios and octop's latencies. Not part of make test: it takes minutes.
# BASELINE=path/to/octop measures a second octop in the same run (several,
# comma-separated); BENCHLIVE_FLAGS="-runs 1 -cpuprofile DIR" passes flags on.
bench-live: deps build
	go run ./internal/dev/benchlive -octop bin/octop $(if $(BASELINE),-baseline $(BASELINE)) $(BENCHLIVE_FLAGS) \
	  | go run ./internal/dev/perfdoc -section live -all

# bench-scale measures octop on servers holding many sessions: it starts
# internal/dev/scaleserver (50,000 finished sessions shaped like OpenCode
# 1.18.33's, with histories), spread over a year, then over the last 10
# days, and prints octop tree --json's time, peak RSS and requests beside
# the bare REST reads (curl), the screen's first tree row, peak RSS and
# requests in its first minute, and its peak RSS through a sort by cost
# and a filter, which read every history; then a team of 10 servers of
# 5,000 sessions in one screen: each server's sessions shown after its
# own list, and the peak RSS once every history is read. Not part of make
# test: it takes about half an hour. BASELINE=path/to/octop measures a
# second octop in the same run; BENCHSCALE_FLAGS="-days 10 -team 0"
# passes flags on.
bench-scale: tmux build
	go run ./internal/dev/benchscale -octop bin/octop $(if $(BASELINE),-baseline $(BASELINE)) $(BENCHSCALE_FLAGS) \
	  | go run ./internal/dev/perfdoc -section scale -all

# bench-soak replays 30 minutes of a steady synthetic fan-out workload into
# the model and the tree pane and fails if the live heap at minute 30 is
# more than 10% over minute 5; it also reports the heap at 10,000 sessions.
bench-soak:
	{ go test -run '^$$' -bench 'Soak' -benchtime 1x ./ui/tree/ && \
	  go test -run '^$$' -bench 'Memory' -benchtime 1x ./model/; } | go run ./internal/dev/perfdoc -section soak

# dist cross-compiles static binaries (no cgo) into dist/, with the version
# and commit stamped into --version. VERSION=v1.2.3 make dist names a release.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)
DIST_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
DIST_LDFLAGS := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT)

dist:
	rm -rf dist && mkdir -p dist
	@for p in $(DIST_PLATFORMS); do \
	  os=$${p%/*}; arch=$${p#*/}; \
	  echo "dist/octop-$$os-$$arch"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch go build -trimpath -ldflags "$(DIST_LDFLAGS)" \
	    -o dist/octop-$$os-$$arch ./cmd/octop || exit 1; \
	done
