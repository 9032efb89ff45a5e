package main

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// The prompts each scenario sends, in the fakellm grammar.
const (
	fanoutPrompt = `FANOUT k=3 agent=general child="LEAF steps=2 sleep=0.5"`
	nestedPrompt = `NESTED k=2 kids=2 leaf="LEAF steps=2 sleep=0.5"`
	abortPrompt  = `FANOUT k=3 agent=general child="RUNAWAY sleep=1"`
	bigPrompt    = `BIG bytes=5000000`
)

// demoPrompt is the demo's root: a long worker, a worker that delegates to
// two grandchildren, one whose tool call fails, and a runaway the recorder
// aborts.
var demoPrompt = "FANOUT k=4 agent=general" +
	` desc1="survey the codebase" child1="LEAF steps=8 sleep=3"` +
	` desc2="plan the refactor" agent2=deep child2=` + strconv.Quote(
	`FANOUT k=2 agent=general desc="check module" child="LEAF steps=3 sleep=2.5"`) +
	` desc3="read the old config" child3="FAIL"` +
	` desc4="run the test suite" child4="RUNAWAY sleep=2"`

var scenarios = map[string]func(context.Context, *run) error{
	"facts": playFacts,
	"fanout": func(ctx context.Context, r *run) error {
		root, err := r.newRoot(ctx, "fanout root", fanoutPrompt)
		if err != nil {
			return err
		}
		return r.waitDone(ctx, root, 90*time.Second)
	},
	"nested": func(ctx context.Context, r *run) error {
		root, err := r.newRoot(ctx, "nested root", nestedPrompt)
		if err != nil {
			return err
		}
		if err := r.waitDone(ctx, root, 120*time.Second); err != nil {
			return err
		}
		r.tr.mu.Lock()
		defer r.tr.mu.Unlock()
		grand := 0
		for _, mid := range r.tr.children(root) {
			grand += len(r.tr.children(mid))
		}
		if grand == 0 {
			return fmt.Errorf("nested: no grandchild session was created; does this version let a subagent delegate?")
		}
		return nil
	},
	"abort": func(ctx context.Context, r *run) error {
		root, err := r.newRoot(ctx, "abort root", abortPrompt)
		if err != nil {
			return err
		}
		var kids []string
		if err := r.waitFor(ctx, "3 children with 2 finished ticks each", 60*time.Second, func(t *tracker) bool {
			kids = t.children(root)
			if len(kids) < 3 {
				return false
			}
			for _, k := range kids {
				if t.done(k) < 2 {
					return false
				}
			}
			return true
		}); err != nil {
			return err
		}
		victim := kids[1]
		if err := r.abort(ctx, victim); err != nil {
			return err
		}
		if err := r.waitFor(ctx, "the aborted child to go idle", 30*time.Second, func(t *tracker) bool {
			return t.everBusy[victim] && !t.busy[victim]
		}); err != nil {
			return err
		}
		// Let the siblings run on a little, visibly, before the root goes.
		before := 0
		r.tr.mu.Lock()
		before = r.tr.done(kids[0])
		r.tr.mu.Unlock()
		if err := r.waitFor(ctx, "a sibling to keep working", 30*time.Second, func(t *tracker) bool {
			return t.done(kids[0]) >= before+1
		}); err != nil {
			return err
		}
		if err := r.abort(ctx, root); err != nil {
			return err
		}
		return r.waitDone(ctx, root, 60*time.Second)
	},
	"demo": func(ctx context.Context, r *run) error {
		root, err := r.newRoot(ctx, "refactor the config loader", demoPrompt)
		if err != nil {
			return err
		}
		var runaway string
		if err := r.waitFor(ctx, "the runaway child to tick 5 times", 90*time.Second, func(t *tracker) bool {
			kids := t.children(root)
			if len(kids) < 4 {
				return false
			}
			runaway = kids[3]
			return t.done(runaway) >= 5
		}); err != nil {
			return err
		}
		if err := r.abort(ctx, runaway); err != nil {
			return err
		}
		return r.waitDone(ctx, root, 120*time.Second)
	},
	"custom": func(ctx context.Context, r *run) error {
		if r.prompt == "" {
			return fmt.Errorf("-scenario custom needs -prompt")
		}
		root, err := r.newRoot(ctx, "custom root", r.prompt)
		if err != nil {
			return err
		}
		return r.waitDone(ctx, root, 120*time.Second)
	},
	"big": func(ctx context.Context, r *run) error {
		root, err := r.newRoot(ctx, "big root", bigPrompt)
		if err != nil {
			return err
		}
		return r.waitDone(ctx, root, 90*time.Second)
	},
}
