package harness

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

// The experimental switches of OpenCode 1.18, read from the server's
// environment (Config.Env).
const (
	// BackgroundEnv turns on background subagents: the task tool's
	// "background" argument, and an end notice to the parent (a synthetic
	// user message) when each background child ends.
	BackgroundEnv = "OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1"
	// EventSystemEnv turns on the v2 event system (/api/event). On 1.18.33
	// and 1.18.34 /api/* is served with or without it.
	EventSystemEnv = "OPENCODE_EXPERIMENTAL_EVENT_SYSTEM=1"
)

// V11834 is the release after V118, served only as the binary package
// (opencode-linux-x64@1.18.34).
const V11834 = "1.18.34"

// Target is one server setup the version-parameterised core tests run
// on: a version, and the experimental flags in its environment.
type Target struct {
	// Name is the version, with "+flags" when both experimental flags
	// are on: "1.18.33", "1.18.33+flags".
	Name    string
	Version string
	Env     []string
}

// Config is the harness config that starts the target.
func (tg Target) Config() Config {
	return Config{Version: tg.Version, Env: append([]string(nil), tg.Env...)}
}

// Background says whether the target's version has background
// subagents (1.18 and later, with BackgroundEnv on).
func (tg Target) Background() bool { return !Is11(tg.Version) }

// WithFlags is the target with both experimental flags on.
func (tg Target) WithFlags() Target {
	return Target{Name: tg.Version + "+flags", Version: tg.Version, Env: []string{BackgroundEnv, EventSystemEnv}}
}

// DefaultTargets is what the core tests run on under `make test`: the
// pinned releases, 1.18.33 with both experimental flags, and 1.18.34.
const DefaultTargets = V118 + "," + V118 + "+flags," + V11834 + "," + V11

var reTarget = regexp.MustCompile(`^([0-9]+\.[0-9]+\.[0-9]+)(\+flags)?$`)

// ParseTarget reads "1.18.33" or "1.18.33+flags".
func ParseTarget(s string) (Target, error) {
	m := reTarget.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Target{}, fmt.Errorf("target %q: want a version like 1.18.33, or 1.18.33+flags", s)
	}
	tg := Target{Name: m[1], Version: m[1]}
	if m[2] != "" {
		tg = tg.WithFlags()
	}
	return tg, nil
}

// Targets is what the version-parameterised core tests (the tree, stream,
// actions and background tests) run on: $OCTOP_E2E_TARGETS, a
// comma-separated list of targets (`make compat VERSION=x.y.z` sets it),
// else DefaultTargets. A malformed list panics: it is a test setup error.
func Targets() []Target {
	list := os.Getenv("OCTOP_E2E_TARGETS")
	if list == "" {
		list = DefaultTargets
	}
	var out []Target
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		tg, err := ParseTarget(s)
		if err != nil {
			panic("OCTOP_E2E_TARGETS: " + err.Error())
		}
		out = append(out, tg)
	}
	return out
}

// BackgroundTargets is, once per version, each target's version that has
// background subagents, with both flags on: what the background tests run
// on.
func BackgroundTargets() []Target {
	var out []Target
	seen := map[string]bool{}
	for _, tg := range Targets() {
		if tg.Background() && !seen[tg.Version] {
			seen[tg.Version] = true
			out = append(out, tg.WithFlags())
		}
	}
	return out
}

// Is11 says whether version is a 1.1 release, which predates much of what
// 1.18 says (permission rules echoed back, file summaries, background
// subagents).
func Is11(version string) bool { return strings.HasPrefix(version, "1.1.") }
