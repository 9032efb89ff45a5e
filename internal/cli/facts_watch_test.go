package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// watchSays is what `octop watch --json` says of each session, watching
// the recording as it happened: the fake server starts empty and sends
// the first stream's events; it is stopped where the real one was
// killed, comes back listing what the restarted one listed, and sends
// the second stream's events. Each session's last lifecycle event is
// what watch says of it.
func watchSays(t *testing.T, f factsRecording) []statement {
	srv := f.serve(t, client.RESTView{})
	base := client.Options{BaseURL: srv.URL(),
		Stream: client.StreamOptions{MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond}}
	var out, errb syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		a := &app{stdio: cmdIO{nil, &out, &errb}, base: base}
		done <- a.executeContext(ctx, []string{"watch", "--json"})
	}()
	defer func() { cancel(); <-done }()
	testwait.Eventually(t, func() bool { return strings.Contains(errb.String(), "octop watch: watching") },
		10*time.Second, "watch to read the sessions")
	for _, e := range f.live {
		srv.EmitRaw(string(e.raw))
	}
	watchCaughtUp(t, srv, &out, "ses_zzzfactsbeforekill")
	srv.Stop()
	show(srv, f.restart)
	srv.Start()
	testwait.Eventually(t, func() bool { return strings.Contains(out.String(), `"connection.restored"`) },
		10*time.Second, "watch to reconnect")
	for _, e := range f.after {
		srv.EmitRaw(string(e.raw))
	}
	watchCaughtUp(t, srv, &out, "ses_zzzfactsattheend")
	return watchLinesSay(t, out.String())
}

// watchCaughtUp sends a session of its own that starts running, and waits
// for watch to print it: then watch has taken every event sent before.
func watchCaughtUp(t *testing.T, srv *opencodetest.Server, out *syncBuffer, id string) {
	t.Helper()
	srv.Emit("session.created", map[string]any{"sessionID": id, "info": wire.Session{ID: id, Title: "caught up"}})
	srv.Emit("session.status", map[string]any{"sessionID": id, "status": wire.SessionStatus{Type: wire.StatusBusy}})
	testwait.Eventually(t, func() bool { return strings.Contains(out.String(), id) }, 10*time.Second,
		"watch to take the events sent")
}

// watchEnds maps watch's lifecycle events to the table's end words.
var watchEnds = map[string]string{
	"session.started": "running", "session.done": "complete", "session.failed": "failed",
	"session.aborted": "aborted", "session.interrupted": "interrupted", "session.denied": "denied",
}

// watchLinesSay reads watch's NDJSON: each session's last lifecycle
// event says its state, why, and its subtree's cost (what it is at that
// moment, so only whether it is known is compared).
func watchLinesSay(t *testing.T, out string) []statement {
	type line struct {
		Event, ID, Status, Reason string
		Cost                      json.RawMessage `json:"cost"`
		Unpriced                  *int            `json:"unpriced_replies"`
	}
	last := map[string]line{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var e line
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("watch --json: %v: %q", err, l)
		}
		if _, ok := watchEnds[e.Event]; ok && !strings.HasPrefix(e.ID, "ses_zzzfacts") {
			last[e.ID] = e
		}
	}
	var said []statement
	for id, e := range last {
		state := watchEnds[e.Event]
		reason := "-"
		switch state {
		case "failed":
			reason, _, _ = strings.Cut(e.Reason, ":")
		case "aborted", "interrupted", "denied":
			reason = state
		}
		said = append(said, says(id, factState, word(state)), says(id, factReason, word(reason)))
		if e.Reason != "" && state != "running" {
			said = append(said, says(id, factDetail, word(e.Reason)))
		}
		for _, s := range costSays(id, e.Cost, e.Unpriced, factSubtreeCost, factSubtreeUnpriced, factSubtreeSpent) {
			if s.fact != factSubtreeSpent {
				said = append(said, s)
			}
		}
	}
	return said
}
