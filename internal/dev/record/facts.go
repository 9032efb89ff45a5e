package main

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
)

// The facts scenario: one root fanning out to a child per hard case, the
// recording TestEveryOutputTellsTheSameStory (internal/cli) checks every
// output against. Each child's description names its case; the children
// are numbered 1 to 6 and 10, so "worker 1" must not match "worker 10".
var factsPrompt = "FANOUT k=7 agent=general" +
	` desc1="worker 1 completes" child1="LEAF steps=1 sleep=0.2"` +
	` desc2="worker 2 fails" child2="ERROR"` +
	` desc3="worker 3 is aborted" child3="LEAF steps=1 sleep=60"` +
	` desc4="worker 4 is interrupted" child4="RUNAWAY sleep=2"` +
	` desc5="worker 5 is resumed" child5="LEAF steps=1 sleep=0.2"` +
	` desc6="worker 6 runs in the background" child6="LEAF steps=1 sleep=1" background6=true` +
	` desc7="worker 10 is unpriced" agent7=unpriced child7="LEAF steps=1 sleep=0.2"`

// factsResume is the prompt worker 5 is resumed with, by hand, after the
// server's restart: a second run after an idle gap.
const factsResume = "LEAF steps=1 sleep=0.2"

// factsSetup starts the fake model and wires a server to it with one
// priced model (mock-1: the root and most children) and one without a
// price (mock-free, the "unpriced" agent's), so both kinds of reply are
// recorded. OpenCode prices a reply from the model's "cost" in the
// provider config (USD per million tokens); without one it reports a
// cost of 0 for a reply that used tokens. Background subagents need
// their experimental flag.
func factsSetup(cfg *harness.Config) (func(), error) {
	fake, err := fakellm.Listen(fakellm.New(fakellm.Options{}))
	if err != nil {
		return nil, err
	}
	url := fake.URL + "/v1"
	provider := harness.Config2JSON(cfg.Version, url, nil, nil)["provider"].(map[string]any)
	provider["mock"].(map[string]any)["models"] = map[string]any{
		"mock-1": map[string]any{"name": "Mock", "tool_call": true,
			"cost": map[string]any{"input": 3, "output": 15, "cache_read": 0.3, "cache_write": 3.75}},
		"mock-free": map[string]any{"name": "Mock without a price", "tool_call": true},
	}
	cfg.FakeURL = url
	cfg.Extra = map[string]any{"provider": provider}
	cfg.Agents = map[string]any{"unpriced": map[string]any{
		"mode": "subagent", "model": "mock/mock-free",
		"description": "A subagent whose model has no price (octop's facts recording).",
	}}
	cfg.Env = append(cfg.Env, harness.BackgroundEnv)
	return fake.Close, nil
}

// playFacts records the facts scenario: see factsPrompt. Worker 3 is
// aborted by octop's own abort while its 60 s bash call runs; the server
// is killed while worker 4's bash call runs (the root waits on it, so the
// root is cut too), then restarted, and worker 5 is resumed by hand.
// Right after the restart the REST view is saved beside the recording
// (<name>.restart.rest.json): what a client reads on reconnecting.
func playFacts(ctx context.Context, r *run) error {
	root, err := r.newRoot(ctx, "every hard case", factsPrompt)
	if err != nil {
		return err
	}
	var kids []string
	if err := r.waitFor(ctx, "the 7 children, each at its case", 120*time.Second, func(t *tracker) bool {
		kids = t.children(root)
		if len(kids) < 7 {
			return false
		}
		for _, i := range []int{0, 1, 4, 5, 6} {
			if !t.everBusy[kids[i]] || t.busy[kids[i]] {
				return false
			}
		}
		return t.runningCalls(kids[2]) > 0 && t.done(kids[3]) >= 1 && t.runningCalls(kids[3]) > 0
	}); err != nil {
		return err
	}
	c, err := client.New(client.Options{BaseURL: r.srv.URL, Timeout: 30 * time.Second})
	if err != nil {
		return err
	}
	if _, err := live.Abort(ctx, c, kids[2]); err != nil {
		return err
	}
	if err := r.waitFor(ctx, "the aborted child to go idle", 30*time.Second, func(t *tracker) bool {
		return !t.busy[kids[2]]
	}); err != nil {
		return err
	}
	// Kill the server while worker 4's bash call runs (a fresh one, so
	// the kill lands mid-call, not between two).
	ticks := 0
	r.tr.mu.Lock()
	ticks = r.tr.done(kids[3])
	r.tr.mu.Unlock()
	if err := r.waitFor(ctx, "worker 4's next call to start", 30*time.Second, func(t *tracker) bool {
		return t.done(kids[3]) > ticks && t.runningCalls(kids[3]) > 0
	}); err != nil {
		return err
	}
	if err := r.restart(ctx); err != nil {
		return err
	}
	if _, err := live.Resume(ctx, c, kids[4], factsResume, ""); err != nil {
		return err
	}
	if err := r.waitFor(ctx, "the resumed child to run", 30*time.Second, func(t *tracker) bool { return t.busy[kids[4]] }); err != nil {
		return err
	}
	return r.waitDone(ctx, root, 60*time.Second)
}

// restart kills the server, starts it again on the same data, waits for
// the stream to come back and saves the REST view a client reads then.
func (r *run) restart(ctx context.Context) error {
	r.tr.mu.Lock()
	conns := r.tr.connections
	r.tr.mu.Unlock()
	if err := r.srv.Stop(); err != nil {
		return err
	}
	if err := r.srv.Restart(); err != nil {
		return err
	}
	if err := r.waitFor(ctx, "the stream to reconnect", 60*time.Second, func(t *tracker) bool {
		return t.connections > conns
	}); err != nil {
		return err
	}
	view, err := r.restView(ctx)
	if err != nil {
		return err
	}
	r.tr.mu.Lock()
	r.tr.resetBusy(view.Status)
	r.tr.mu.Unlock()
	b, err := json.MarshalIndent(view, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(r.stem+".restart.rest.json", append(b, '\n'), 0o644)
}
