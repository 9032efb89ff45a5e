package main

import (
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// tracker keeps the recorded events and the little state the scenarios
// wait on: which sessions exist, which are busy, how many tool calls each
// finished.
type tracker struct {
	mu        sync.Mutex
	events    []client.Recorded
	connected bool
	// connections counts the streams opened (server.connected events): a
	// restarted server's stream is the second.
	connections int
	lastEvent   time.Time
	parent      map[string]string // session id -> parent id ("" for a root)
	order       []string          // session ids in creation order
	busy        map[string]bool
	everBusy    map[string]bool
	finished    map[string]map[string]bool // session id -> tool part ids completed or failed
	running     map[string]map[string]bool // session id -> tool part ids running now
}

func newTracker() *tracker {
	return &tracker{
		parent: map[string]string{}, busy: map[string]bool{}, everBusy: map[string]bool{},
		finished: map[string]map[string]bool{}, running: map[string]map[string]bool{},
	}
}

func (t *tracker) add(rec client.Recorded) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, rec)
	t.lastEvent = time.Now()
	env, err := rec.Decode()
	if err != nil {
		return
	}
	switch e := env.Event.(type) {
	case wire.ServerConnected:
		t.connected = true
		t.connections++
	case wire.SessionCreated:
		if _, seen := t.parent[e.Info.ID]; !seen {
			t.order = append(t.order, e.Info.ID)
		}
		t.parent[e.Info.ID] = e.Info.ParentID
	case wire.SessionStatusChanged:
		t.busy[e.SessionID] = e.Status.Type != wire.StatusIdle
		if t.busy[e.SessionID] {
			t.everBusy[e.SessionID] = true
		}
	case wire.SessionIdle:
		t.busy[e.SessionID] = false
	case wire.PartUpdated:
		p := e.Part
		if p.Type != wire.PartTool || p.State == nil {
			break
		}
		if t.running[p.SessionID] == nil {
			t.running[p.SessionID] = map[string]bool{}
		}
		t.running[p.SessionID][p.ID] = p.State.Status == wire.ToolRunning
		if p.State.Status == wire.ToolCompleted || p.State.Status == wire.ToolError {
			if t.finished[p.SessionID] == nil {
				t.finished[p.SessionID] = map[string]bool{}
			}
			t.finished[p.SessionID][p.ID] = true
		}
	}
}

// children lists parent's child sessions in creation order.
func (t *tracker) children(parent string) []string {
	var out []string
	for _, id := range t.order {
		if t.parent[id] == parent {
			out = append(out, id)
		}
	}
	return out
}

func (t *tracker) allIdle() bool {
	for _, b := range t.busy {
		if b {
			return false
		}
	}
	return true
}

// done counts the tool calls a session has finished.
func (t *tracker) done(id string) int { return len(t.finished[id]) }

// runningCalls counts the tool calls of a session running now.
func (t *tracker) runningCalls(id string) int {
	n := 0
	for _, r := range t.running[id] {
		if r {
			n++
		}
	}
	return n
}

// resetBusy takes the busy sessions from a status read (after a restart
// the server has forgotten the runs its death cut), and forgets the
// calls that were running.
func (t *tracker) resetBusy(status map[string]wire.SessionStatus) {
	for id := range t.busy {
		st, ok := status[id]
		t.busy[id] = ok && st.Type != wire.StatusIdle
	}
	t.running = map[string]map[string]bool{}
}
