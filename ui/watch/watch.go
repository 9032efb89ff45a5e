// Package watch runs the watchdog for the screen. The root feeds it what
// it has applied (the events, the snapshot after each connect, the
// connection, a tick); what the watchdog emits becomes the tree's and
// detail's marks, the header's count and notice, a terminal notification,
// the --exec hook and, with --abort-on, an abort, returned as commands.
package watch

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
)

// tickMS is how often the stall check runs.
const tickMS = 1000

// Options say where the watchdog's output goes.
type Options struct {
	// Notify says how the terminal is called for notable events; Getenv
	// tells the terminal's kind (TERM, TERM_PROGRAM, TMUX).
	Notify alert.Mode
	Getenv func(string) string
	// OnEvent runs, in a command, for each notable event (the --exec hook).
	OnEvent func(watchdog.Event)
	// Server carries out --abort-on's aborts; nil only notes them.
	Server task.Server
}

// Watch is the screen's watchdog. A nil *Watch is off: it marks nothing
// and emits nothing.
type Watch struct {
	wd     *watchdog.Watchdog
	opts   Options
	ticked int64 // the last stall check (Unix ms)
}

// New returns the watchdog cfg asks for, or nil when cfg is nil.
func New(cfg *watchdog.Config, o Options) *Watch {
	if cfg == nil {
		return nil
	}
	return &Watch{wd: watchdog.New(*cfg), opts: o}
}

// Runaway is a session's marks as words, for its tree row.
func (w *Watch) Runaway(id string) string {
	var words []string
	for _, mk := range w.wd.Marks(id) {
		words = append(words, string(mk.Kind))
	}
	return strings.Join(words, " ")
}

// Evidence is a session's marks with what triggered each, for the detail.
func (w *Watch) Evidence(id string) []string {
	var lines []string
	for _, mk := range w.wd.Marks(id) {
		lines = append(lines, string(mk.Kind)+": "+mk.Evidence)
	}
	return lines
}

// Marked is how many sessions carry a mark.
func (w *Watch) Marked() int {
	if w == nil {
		return 0
	}
	return w.wd.Marked()
}

// Events feeds a batch of events the state has applied.
func (w *Watch) Events(st *model.State, evs []wire.Event, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Events(st, evs, now))
}

// Conn feeds the stream's connection state.
func (w *Watch) Conn(st *model.State, c wire.ConnState, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Conn(c, now))
}

// Resync feeds the state after a snapshot.
func (w *Watch) Resync(st *model.State, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Resync(st, now))
}

// Tick runs the stall check, at most once a second.
func (w *Watch) Tick(st *model.State, now int64) (string, []tea.Cmd) {
	if now-w.ticked < tickMS {
		return "", nil
	}
	w.ticked = now
	return w.out(st, w.wd.Tick(st, now))
}

// out turns the watchdog's output into the header's notice (the last
// notable event's summary, "" for none) and commands: the hook for each
// notable event, one notification for them all (a burst rings once),
// aborts for --abort-on.
func (w *Watch) out(st *model.State, out watchdog.Out) (notice string, cmds []tea.Cmd) {
	notable := 0
	for _, e := range out.Events {
		if !e.Notable() {
			continue
		}
		notable++
		notice = e.Summary()
		if f := w.opts.OnEvent; f != nil {
			cmds = append(cmds, func() tea.Msg { f(e); return nil })
		}
	}
	if notable > 1 {
		notice += fmt.Sprintf(" (+%d more)", notable-1)
	}
	if notable > 0 {
		if seq := alert.Sequence(w.opts.Notify, "octop", notice, w.opts.Getenv); seq != "" {
			cmds = append(cmds, tea.Raw(seq))
		}
	}
	for _, a := range out.Aborts {
		// What stops says who stopped it: the session and the subtree
		// aborted with it.
		ids := append(st.BusyDescendants(a.ID), a.ID)
		if w.opts.Server != nil {
			cmds = append(cmds, abort(w.opts.Server, a, ids))
		}
	}
	return notice, cmds
}

// abort stops ids for the watchdog's abort a, and says how it went.
func abort(ops task.Server, a watchdog.Abort, ids []string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), task.RequestTimeout)
		defer cancel()
		done, err := ops.AbortSessions(ctx, ids)
		if err != nil {
			return room.FlashMsg{Text: fmt.Sprintf("could not abort %s (%s): %s", a.ID, a.Kind, err), Error: true}
		}
		return room.FlashMsg{Text: fmt.Sprintf("%s: stopped %s", a.Reason, format.Plural(len(done), "session", "sessions"))}
	}
}
