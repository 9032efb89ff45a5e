// Package usage is the $ room: what the selected subtree used, as
// `octop usage` prints it (the same computation): tokens (input, output, reasoning, cache read, cache
// write) and cost by agent, model, root, day or how the sessions ended,
// the total, what ended badly, and the replies whose cost the server did
// not report. The model keeps no per-kind token split, so the room asks
// the root for the subtree's messages (task.HistoriesRequest), and again
// every RefreshEvery while the subtree runs.
package usage

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// RefreshEvery is how often the room reads the messages again while the
// subtree runs.
const RefreshEvery = 5 * time.Second

// tick is the refresh clock of the room of subtree id.
type tick struct{ id string }

// Room is the ledger as the root's full-screen Dialog.
type Room struct {
	st        *styles.Styles
	keys      KeyMap
	id, title string
	// sessions are the subtree's sessions as the model last said (no
	// messages: those come in msgs), dirs their project directories.
	sessions []usage.Session
	dirs     []string
	version  uint64 // the model's version they are from
	live     bool   // something in the subtree still runs
	msgs     map[string][]wire.MessageWithParts
	loading  bool
	err      error
	by       int // index into usage.Bys
	l        usage.Report
	scroll   int
}

// Open opens the ledger of the subtree rooted at id; its Cmd asks for the
// subtree's messages and starts the refresh clock.
func Open(st *styles.Styles, state *model.State, id, title string) (room.Dialog, tea.Cmd) {
	r := &Room{st: st, keys: DefaultKeyMap(), id: id, title: title}
	r.read(state)
	r.loading = true
	return r, tea.Batch(r.request(), r.tick())
}

// read takes the subtree's sessions from the model (only during the call,
// as room.Observer asks).
func (r *Room) read(state *model.State) {
	r.version = state.Version()
	sessions := usage.FromState(state, []string{r.id}, nil)
	r.dirs, r.live = r.dirs[:0], false
	for _, s := range sessions {
		ss := state.Session(s.ID)
		r.dirs = append(r.dirs, ss.Directory)
		r.live = r.live || model.StateOf(ss).Kind.Live()
	}
	if sameSessions(sessions, r.sessions) {
		return // a batch that changed nothing the ledger shows: no need to add it all up again
	}
	r.sessions = sessions
	r.compute()
}

// sameSessions says a and b are the same sessions, standing the same way.
func sameSessions(a, b []usage.Session) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].End != b[i].End || a[i].Agent != b[i].Agent || a[i].RootTitle != b[i].RootTitle {
			return false
		}
	}
	return true
}

// compute builds the ledger from the sessions and the messages read.
func (r *Room) compute() {
	sessions := make([]usage.Session, len(r.sessions))
	for i, s := range r.sessions {
		s.Msgs = r.msgs[s.ID]
		sessions[i] = s
	}
	r.l = usage.Build(sessions, usage.Bys[r.by], usage.Options{Loc: time.Local})
}

func (r *Room) request() tea.Cmd {
	ids := make([]string, len(r.sessions))
	for i, s := range r.sessions {
		ids[i] = s.ID
	}
	return room.Send(task.HistoriesRequest{IDs: ids, Dirs: append([]string(nil), r.dirs...)})
}

func (r *Room) tick() tea.Cmd { return room.After(RefreshEvery, tick{r.id}) }

// Update handles the reply, the refresh clock and keys.
func (r *Room) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.HistoriesReply:
		r.loading, r.err = false, msg.Err
		if msg.Err == nil {
			r.msgs = msg.Msgs
			r.compute()
		}
	case tick:
		if msg.id != r.id {
			return r, nil
		}
		if r.live && !r.loading {
			r.loading = true
			return r, tea.Batch(r.request(), r.tick())
		}
		return r, r.tick()
	case tea.KeyPressMsg:
		return r.key(msg)
	}
	return r, nil
}

func (r *Room) key(k tea.KeyPressMsg) (room.Dialog, tea.Cmd) {
	switch {
	case key.Matches(k, r.keys.Close):
		return nil, nil
	case key.Matches(k, r.keys.By):
		r.by = (r.by + 1) % len(usage.Bys)
		r.scroll = 0
		r.compute()
	case key.Matches(k, r.keys.Down):
		r.scroll = min(r.scroll+1, max(len(r.l.Rows)-1, 0))
	case key.Matches(k, r.keys.Up):
		r.scroll = max(r.scroll-1, 0)
	case key.Matches(k, r.keys.Reload):
		if !r.loading {
			r.loading = true
			return r, r.request()
		}
	}
	return r, nil
}

// Observe follows the subtree: new sessions, and how each stands.
func (r *Room) Observe(st *model.State, _ []wire.Event, _ int64) room.Dialog {
	if st.Session(r.id) != nil && st.Version() != r.version {
		r.read(st)
	}
	return r
}
