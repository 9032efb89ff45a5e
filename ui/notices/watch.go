// Package notices runs the watchdog for the screen. The root feeds it what
// it has applied (the events, the snapshot after each connect, the
// histories read after it, the connection, a tick); what the watchdog
// emits becomes the tree's and detail's marks, the header's count and
// notice, a terminal notification, the --exec hook and, with --abort-on,
// an abort, returned as commands.
package notices

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

// ringGapMS is the least time between two calls of the terminal: what
// comes sooner is held back and rung once with the rest at the next tick,
// so three asks within a second ring once, "(+2 more)".
const ringGapMS = 1000

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
	// unseen counts the notable events since the person last pressed a
	// key, last is the newest one's summary: the header's notice.
	unseen int
	last   string
	// rangAt is when the terminal was last called; held says a call is
	// held back until ringGapMS has passed.
	rangAt int64
	held   bool
}

// New returns the watchdog cfg asks for, or nil when cfg is nil.
func New(cfg *watchdog.Config, o Options) *Watch {
	if cfg == nil {
		return nil
	}
	wd := watchdog.New(*cfg)
	wd.AwaitHistory() // the screen reads every session's history (ui/history)
	return &Watch{wd: wd, opts: o}
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

// Running is how many sessions carry a mark and run now: the header's
// count. A marked session that has ended keeps its mark on its row.
func (w *Watch) Running(st *model.State) int {
	if w == nil {
		return 0
	}
	return w.wd.Running(st)
}

// Events feeds a batch of events the state has applied.
func (w *Watch) Events(st *model.State, evs []wire.Event, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Events(st, evs, now), now)
}

// Conn feeds the stream's connection state.
func (w *Watch) Conn(st *model.State, c wire.ConnState, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Conn(c, now), now)
}

// Resync feeds the state after a snapshot.
func (w *Watch) Resync(st *model.State, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Resync(st, now), now)
}

// Learn feeds the sessions whose histories the state has just applied:
// the baseline's are not news (see watchdog.Learn).
func (w *Watch) Learn(st *model.State, ids []string, now int64) (string, []tea.Cmd) {
	return w.out(st, w.wd.Learn(st, ids, now), now)
}

// Tick rings a call held back once its gap has passed, and runs the
// stall check, at most once a second.
func (w *Watch) Tick(st *model.State, now int64) (string, []tea.Cmd) {
	var cmds []tea.Cmd
	if w.held && now-w.rangAt >= ringGapMS {
		cmds = w.ring(now)
	}
	if now-w.ticked < tickMS {
		return "", cmds
	}
	w.ticked = now
	notice, more := w.out(st, w.wd.Tick(st, now), now)
	return notice, append(cmds, more...)
}

// Seen says the person has seen the notice (they pressed a key): what
// comes next starts a new count, and a call held back is dropped.
func (w *Watch) Seen() {
	if w != nil {
		w.unseen, w.held = 0, false
	}
}

// notice is the header's notice: the newest notable event not yet seen,
// and how many more came since the person last looked.
func (w *Watch) notice() string {
	if w.unseen > 1 {
		return w.last + fmt.Sprintf(" (+%d more)", w.unseen-1)
	}
	return w.last
}

// ring calls the terminal with the notice now.
func (w *Watch) ring(now int64) []tea.Cmd {
	w.rangAt, w.held = now, false
	if seq := alert.Sequence(w.opts.Notify, "octop", w.notice(), w.opts.Getenv); seq != "" {
		return []tea.Cmd{tea.Raw(seq)}
	}
	return nil
}

// out turns the watchdog's output into the header's notice (the last
// notable event's summary and how many more since the person last looked,
// "" when none came now) and commands: the hook for each notable event,
// one call of the terminal for them all (a burst rings once, and a call
// within ringGapMS of the last is held back for the next tick), aborts
// for --abort-on.
func (w *Watch) out(st *model.State, out watchdog.Out, now int64) (notice string, cmds []tea.Cmd) {
	notable := 0
	for _, e := range out.Events {
		if !e.Notable() {
			continue
		}
		notable++
		w.unseen++
		w.last = e.Summary()
		if f := w.opts.OnEvent; f != nil {
			cmds = append(cmds, func() tea.Msg { f(e); return nil })
		}
	}
	if notable > 0 {
		notice = w.notice()
		if now-w.rangAt >= ringGapMS || w.rangAt == 0 {
			cmds = append(cmds, w.ring(now)...)
		} else {
			w.held = true
		}
	}
	for _, a := range out.Aborts {
		// The model's plan: the offender's running subtree, deepest first,
		// and the offender if it still runs.
		ids := st.AbortPlan(a.ID)
		if w.opts.Server != nil && len(ids) > 0 {
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
		r, _ := ops.Do(ctx, task.AbortRequest{IDs: ids, Tree: true}).(task.AbortReply)
		if r.Err != nil {
			return room.FlashMsg{Text: fmt.Sprintf("could not abort %s (%s): %s", a.ID, a.Kind, r.Err), Error: true}
		}
		return room.FlashMsg{Text: fmt.Sprintf("%s: stopped %s", a.Reason, format.Plural(len(r.IDs), "session", "sessions"))}
	}
}
