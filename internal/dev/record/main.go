// Command record starts a real opencode serve with the harness, plays a
// scripted scenario through its REST API, and saves what the event stream
// carried and what REST shows at the end:
//
//	go run ./internal/dev/record -version 1.18.33 -scenario fanout -out model/testdata/replay
//
// writes DIR/<version>-<scenario>.jsonl (client.Recorded lines) and
// DIR/<version>-<scenario>.rest.json (client.RESTView). -name overrides the
// file stem (e.g. -scenario demo -out assets -name demo).
//
// Scenarios (prompts in the fakellm grammar):
//
//	fanout  a root fans out to 3 LEAF children (2 bash steps each)
//	nested  a root delegates to 2 "deep" agents, each fanning out to 2 leaves
//	abort   a root fans out to 3 RUNAWAY children; one child is aborted,
//	        then the root (which stops the others)
//	demo    the demo: 4 children, one nested delegation, one failing tool
//	        call, one aborted child; about 30-40 s
//	big     a root whose write tool carries an input of megabytes
//	facts   a root fanning out to a child per hard case: completed,
//	        failed, aborted mid-call, interrupted (the server is killed
//	        and restarted), resumed, background and unpriced; also
//	        writes DIR/<name>.restart.rest.json, the REST view right
//	        after the restart (see facts.go)
//	custom  the root prompt given by -prompt
//
// -warm runs a throw-away prompt first (a fresh server spends seconds on
// its first one); -data picks the data dir, so the project path in the
// recording is stable. The demo was made with:
//
//	go run ./internal/dev/record -scenario demo -warm -data /tmp/acme -out /tmp -name demo
//	cp /tmp/demo.jsonl assets/demo.jsonl
//
// The fixture of the test that checks every output tells one story:
//
//	go run ./internal/dev/record -scenario facts -warm -data /tmp/octop-facts -out internal/cli/testdata/facts
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	sse "github.com/tmaxmax/go-sse"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/wire"
)

func main() {
	version := flag.String("version", harness.V118, "OpenCode version: 1.18.33 or 1.1.65")
	scenario := flag.String("scenario", "fanout", "fanout, nested, abort, demo, big, facts or custom")
	out := flag.String("out", ".", "directory to write the recording into")
	name := flag.String("name", "", "file stem (default <version>-<scenario>)")
	timeout := flag.Duration("timeout", 3*time.Minute, "give up after this long")
	warm := flag.Bool("warm", false, "run a throw-away prompt before recording, so the first one does not pay the server's start-up work")
	prompt := flag.String("prompt", "", "with -scenario custom: the root's prompt (fakellm grammar)")
	data := flag.String("data", "", "data dir for the server (a new, empty dir; the project is DIR/project); default a temp dir")
	flag.Parse()

	play, ok := scenarios[*scenario]
	if !ok {
		fail("unknown -scenario %q; want one of %s", *scenario, strings.Join(scenarioNames(), ", "))
	}
	if *name == "" {
		*name = *version + "-" + *scenario
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	cfg := harness.Config{Version: *version, DataDir: *data}
	if err := record(ctx, cfg, *warm, *prompt, play, setups[*scenario], filepath.Join(*out, *name)); err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "record: "+format+"\n", args...)
	os.Exit(1)
}

func scenarioNames() []string {
	var names []string
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// setups change the server's config for the scenarios that need more
// than the harness's default; each returns what to stop at the end.
var setups = map[string]func(*harness.Config) (func(), error){
	"facts": factsSetup,
}

func record(ctx context.Context, cfg harness.Config, warm bool, prompt string, play func(context.Context, *run) error,
	setup func(*harness.Config) (func(), error), stem string) error {
	if cfg.DataDir != "" {
		if entries, err := os.ReadDir(cfg.DataDir); err == nil && len(entries) > 0 {
			return fmt.Errorf("-data %s is not empty; give a new directory", cfg.DataDir)
		}
	}
	if setup != nil {
		stop, err := setup(&cfg)
		if err != nil {
			return err
		}
		defer stop()
	}
	srv, err := harness.New(cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	r := &run{srv: srv, tr: newTracker(), prompt: prompt, stem: stem}
	if warm {
		if err := warmUp(ctx, srv); err != nil {
			return err
		}
	}

	streamCtx, stopStream := context.WithCancel(ctx)
	streamDone := make(chan error, 1)
	go func() { streamDone <- r.streamOn(streamCtx) }()
	if err := r.waitFor(ctx, "server.connected", 30*time.Second, func(t *tracker) bool { return t.connected }); err != nil {
		stopStream()
		return err
	}
	playErr := play(ctx, r)
	if playErr == nil {
		// Let the last events (idle, updates) arrive: stop after a quiet second.
		_ = r.waitFor(ctx, "a quiet stream", 10*time.Second, func(t *tracker) bool {
			return time.Since(t.lastEvent) > 1500*time.Millisecond
		})
	}
	stopStream()
	if err := <-streamDone; err != nil && streamCtx.Err() == nil {
		return fmt.Errorf("event stream: %w", err)
	}
	if playErr != nil {
		fmt.Fprintf(os.Stderr, "%s\n", srv.LogTail(30))
		return playErr
	}
	view, err := r.restView(ctx)
	if err != nil {
		return err
	}
	if err := r.writeEvents(stem + ".jsonl"); err != nil {
		return err
	}
	b, err := json.MarshalIndent(view, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(stem+".rest.json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	r.tr.mu.Lock()
	n := len(r.tr.events)
	r.tr.mu.Unlock()
	fmt.Printf("record: %s.jsonl: %d events over %.1fs, %d sessions\n", stem, n, time.Since(r.start).Seconds(), len(view.Sessions))
	return nil
}

// run is one recording in progress.
type run struct {
	srv   *harness.Server
	tr    *tracker
	start time.Time
	// prompt is -prompt, for -scenario custom.
	prompt string
	// stem is the path of the files written, less their extensions.
	stem string
}

// streamOn records the event stream until ctx ends, opening it again
// when it drops (a scenario may restart the server); it gives up after a
// minute without a stream.
func (r *run) streamOn(ctx context.Context) error {
	lost := time.Now()
	for {
		opened, err := r.stream(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if opened {
			lost = time.Now()
		}
		if time.Since(lost) > time.Minute {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stream reads GET /event and records every event with its arrival
// time; opened says the stream was opened. A server still starting can
// take a request and never answer it, so the answer's head has 10
// seconds to come.
func (r *run) stream(ctx context.Context) (opened bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	head := time.AfterFunc(10*time.Second, cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.srv.URL+"/event", nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if !head.Stop() && err == nil {
		resp.Body.Close()
		err = errors.New("GET /event: no answer within 10s")
	}
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("GET /event: HTTP %d", resp.StatusCode)
	}
	if r.start.IsZero() {
		r.start = time.Now()
	}
	for ev, err := range sse.Read(resp.Body, &sse.ReadConfig{MaxEventSize: client.MaxRecordedLine}) {
		if err != nil {
			return true, err
		}
		if strings.TrimSpace(ev.Data) == "" {
			continue
		}
		r.tr.add(client.Recorded{MS: time.Since(r.start).Milliseconds(), Data: json.RawMessage(ev.Data)})
	}
	return true, nil
}

func (r *run) writeEvents(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	r.tr.mu.Lock()
	defer r.tr.mu.Unlock()
	for _, ev := range r.tr.events {
		if err := client.WriteRecorded(f, ev); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// restView reads what a resync would: sessions, statuses and every
// session's messages.
func (r *run) restView(ctx context.Context) (client.RESTView, error) {
	v := client.RESTView{Messages: map[string][]wire.MessageWithParts{}}
	if err := r.srv.JSON(ctx, http.MethodGet, "/session", nil, &v.Sessions); err != nil {
		return v, err
	}
	if err := r.srv.JSON(ctx, http.MethodGet, "/session/status", nil, &v.Status); err != nil {
		return v, err
	}
	for _, s := range v.Sessions {
		var msgs []wire.MessageWithParts
		if err := r.srv.JSON(ctx, http.MethodGet, "/session/"+s.ID+"/message", nil, &msgs); err != nil {
			return v, err
		}
		v.Messages[s.ID] = msgs
	}
	return v, nil
}

// waitFor polls cond until it holds, the limit passes, or ctx ends.
func (r *run) waitFor(ctx context.Context, what string, limit time.Duration, cond func(*tracker) bool) error {
	deadline := time.Now().Add(limit)
	for {
		r.tr.mu.Lock()
		ok := cond(r.tr)
		r.tr.mu.Unlock()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out after %v waiting for %s", limit, what)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// newRoot creates a root session and prompts it with a fakellm script.
func (r *run) newRoot(ctx context.Context, title, prompt string) (string, error) {
	var s wire.Session
	if err := r.srv.JSON(ctx, http.MethodPost, "/session", map[string]any{"title": title}, &s); err != nil {
		return "", err
	}
	body := map[string]any{"parts": []any{map[string]any{"type": "text", "text": prompt}}}
	if err := r.srv.JSON(ctx, http.MethodPost, "/session/"+s.ID+"/prompt_async", body, nil); err != nil {
		return "", err
	}
	return s.ID, nil
}

func (r *run) abort(ctx context.Context, id string) error {
	return r.srv.JSON(ctx, http.MethodPost, "/session/"+id+"/abort", nil, nil)
}

// waitDone waits for root to have run and for every session to be idle.
func (r *run) waitDone(ctx context.Context, root string, limit time.Duration) error {
	if err := r.waitFor(ctx, "the root to start", 30*time.Second, func(t *tracker) bool { return t.everBusy[root] }); err != nil {
		return err
	}
	if err := r.waitFor(ctx, "every session to go idle", limit, func(t *tracker) bool { return t.allIdle() }); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	return r.srv.WaitIdle(wctx)
}

// warmUp runs one trivial prompt in a session it then deletes, before the
// recording starts: a fresh server spends seconds on its first prompt.
func warmUp(ctx context.Context, srv *harness.Server) error {
	var s wire.Session
	if err := srv.JSON(ctx, http.MethodPost, "/session", map[string]any{"title": "warm-up"}, &s); err != nil {
		return err
	}
	body := map[string]any{"parts": []any{map[string]any{"type": "text", "text": "SLOW words=1 delay=0"}}}
	if err := srv.JSON(ctx, http.MethodPost, "/session/"+s.ID+"/prompt_async", body, nil); err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var msgs []wire.MessageWithParts
		if err := srv.JSON(ctx, http.MethodGet, "/session/"+s.ID+"/message", nil, &msgs); err != nil {
			return err
		}
		if n := len(msgs); n >= 2 && msgs[n-1].Info.Time.Completed > 0 {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("warm-up prompt did not finish within 60s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := srv.WaitIdle(wctx); err != nil {
		return err
	}
	return srv.JSON(ctx, http.MethodDelete, "/session/"+s.ID, nil, nil)
}
