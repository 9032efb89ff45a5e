package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/alert"
	"github.com/octop-dev/octop/internal/hook"
	"github.com/octop-dev/octop/internal/intake"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/sanitize"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

const watchHelp = `
Print what happens on the server, one line per event, until interrupted:
sessions starting, ending, waiting on you, being answered; runaways the
watchdog marks; the connection dropping and coming back. Sessions already
there when watch starts are the baseline: only changes are printed. After
a reconnect only true changes are printed, none twice; a session that
ended, or ran and ended, while disconnected gets its events then.

Events: session.started, session.done, session.failed, session.aborted,
session.interrupted, session.waiting, session.answered, runaway.loop,
runaway.stall, runaway.budget, runaway.errors, connection.lost,
connection.retrying, connection.restored. While the server cannot be
reached (from the start, or after a drop) connection.lost says why, then
each attempt that fails again prints connection.retrying.

With --json each line is an object with ts, event, id, parent, root, title,
agent, status, reason, tokens, cost and unpriced_replies (they cover the
session's subtree; cost is null when no reply is priced, and
unpriced_replies counts the replies that used tokens with no cost
reported, which cost leaves out). A session aborted by --abort-on has reason "aborted by octop: KIND".

With --until-done (needs --root) watch exits once the root is done: idle,
no background task it launched still running, every end notice answered.
0 when it completed, 4 when it failed, was aborted or interrupted.

With --otlp URL, each root that ends (of the --root tree, when given) is
read whole and sent as one OpenTelemetry trace, as octop export sends it;
a line on stderr says what was sent, or why it was not.

--notify writes a bell or an OSC 9 notification to stderr for the events
worth a person's attention (a root ending, anything waiting on you, a
failure, a runaway); off by default here, since watch is for scripts.

Examples:
  octop watch
  octop watch --json --root ses_2a… --until-done --abort-on loop,stall
  octop watch --exec 'notify-send "$OCTOP_EVENT" "$OCTOP_TITLE"'`

// watchTick is how often watch looks for stalls between events.
const watchTick = time.Second

// snapshotTimeout bounds the REST read after each (re)connect.
const snapshotTimeout = 30 * time.Second

type watchOpts struct {
	json, untilDone bool
	root, notify    string
	otlp            string
	wd              watchdogFlags
}

func (a *app) newWatch() *cobra.Command {
	var o watchOpts
	return a.newSubcommand(subcommand{
		use:     "watch",
		summary: "print sessions starting, ending, waiting and running away, one line each",
		help:    watchHelp,
		idFlags: []string{"root"},
		flags: func(fs *pflag.FlagSet) {
			fs.BoolVar(&o.json, "json", false, "print NDJSON, one object per event")
			fs.StringVar(&o.root, "root", "", "only events of the tree under session ID")
			fs.BoolVar(&o.untilDone, "until-done", false, "exit when the --root session is done (its background tasks too): 0 completed, 4 not")
			fs.StringVar(&o.notify, "notify", watchNotify, "also call the terminal on stderr for notable events: MODE none, bell, osc or all")
			fs.StringVar(&o.otlp, "otlp", "", "send each root's trace, when it ends, to the OTLP/HTTP endpoint at base URL")
			o.wd.register(fs)
		},
		run: func(ctx context.Context, cmd *command, base client.Options, pos []string) int {
			return runWatch(ctx, cmd, base, pos, o)
		},
	})
}

func runWatch(ctx context.Context, cmd *command, base client.Options, pos []string, o watchOpts) int {
	if len(pos) > 0 {
		return cmd.usageError("unexpected argument " + pos[0])
	}
	cfg, err := o.wd.config()
	if err != nil {
		return cmd.usageError(err.Error())
	}
	mode, err := alert.ParseMode(o.notify)
	if err != nil {
		return cmd.usageError(err.Error())
	}
	if o.untilDone && o.root == "" {
		return cmd.usageError("--until-done needs --root ID: the session to wait for")
	}
	if o.otlp != "" {
		if _, err := otlp.Endpoint(o.otlp, os.Getenv); err != nil {
			return cmd.usageError(err.Error())
		}
	}
	c, code, ok := cmd.newClient(base)
	if !ok {
		return code
	}
	if o.root != "" {
		if !client.ValidSessionID(o.root) {
			return cmd.usageError(fmt.Sprintf("--root %q is not a session id (they look like ses_…)", o.root))
		}
		if _, err := c.Session(ctx, o.root); err != nil {
			return cmd.fail(err)
		}
	}
	if c.ReadOnly() && len(cfg.AbortOn) > 0 {
		// The marks still come; the aborts would change the server.
		fmt.Fprintln(cmd.stdio.err, "octop watch: read-only: --abort-on marks runaways and aborts nothing")
		cfg.AbortOn = nil
	}
	w := &watcher{cmd: cmd, c: c, o: o, st: model.New(), wd: watchdog.New(cfg), mode: mode,
		notes: make(chan string, 64)}
	if o.otlp != "" {
		if w.traces, err = newRootTraces(ctx, c, o.otlp, w.note); err != nil {
			return cmd.fail(err)
		}
	}
	return w.run(ctx)
}

// watcher is one `octop watch`: the stream feeds a model, the model feeds
// the watchdog, the watchdog's events are printed and handed to the hook.
type watcher struct {
	cmd    *command
	c      *client.Client
	o      watchOpts
	st     *model.State
	wd     *watchdog.Watchdog
	hook   *hook.Hook
	traces *rootTraces // --otlp
	mode   alert.Mode
	in     intake.Intake // how the server's data enters st, as on the screen
	// down says the stream is out of reach; lostEarly that watch said so
	// before it ever connected (the watchdog speaks only after).
	down, lostEarly bool
	// notes are error lines from other goroutines (a failed abort or
	// hook), printed by the main loop so output never interleaves.
	notes chan string
}

// note queues a line for stderr; when the queue is full it is dropped
// rather than holding up a worker.
func (w *watcher) note(line string) {
	select {
	case w.notes <- line:
	default:
	}
}

// drainNotes prints the notes still queued when watch ends.
func (w *watcher) drainNotes() {
	for {
		select {
		case line := <-w.notes:
			fmt.Fprintln(w.cmd.stdio.err, line)
		default:
			return
		}
	}
}

func (w *watcher) run(ctx context.Context) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if w.o.wd.exec != "" {
		w.hook = hook.New(w.o.wd.exec, w.c.BaseURL(), w.o.wd.hookTimeout, w.hookReport)
		defer w.drainNotes() // after the hooks still running: their reports too
		defer w.hook.Close()
	}
	msgs := make(chan any, 256)
	errc := make(chan error, 1)
	go func() {
		errc <- w.c.Stream(ctx, func(v any) {
			select {
			case msgs <- v:
			case <-ctx.Done():
			}
		})
	}()
	tick := time.NewTicker(watchTick)
	defer tick.Stop()
	for {
		var out watchdog.Out
		select {
		case <-ctx.Done():
			return w.cmd.fail(ctx.Err())
		case err := <-errc:
			if err == nil {
				err = errors.New("the event stream ended")
			}
			return w.cmd.fail(err)
		case line := <-w.notes:
			fmt.Fprintln(w.cmd.stdio.err, line)
			continue
		case <-tick.C:
			// The time first: a run stopped without a word on how ends its
			// grace here (model.State.SetNow), and Tick tells its end.
			now := nowMS()
			w.st.SetNow(now)
			out = w.wd.Tick(w.st, now)
		case m := <-msgs:
			w.st.SetNow(nowMS())
			var err error
			if out, err = w.handle(ctx, m); err != nil {
				return w.cmd.fail(err)
			}
		}
		w.emit(ctx, out)
		if code, done := w.finished(); done {
			w.flushTraces()
			return code
		}
	}
}

func nowMS() int64 { return time.Now().UnixMilli() }

// handle folds one message of the stream into the model and the watchdog.
func (w *watcher) handle(ctx context.Context, m any) (watchdog.Out, error) {
	switch m := m.(type) {
	case wire.ConnState:
		return w.conn(m), nil
	case wire.ResyncNeeded:
		return w.resync(ctx)
	case wire.Envelope:
		w.in.Events(w.st, []wire.Envelope{m})
		return w.wd.Events(w.st, []wire.Event{m.Event}, nowMS()), nil
	}
	return watchdog.Out{}, nil
}

// emit prints the events (of the --root tree, when given), hands the
// notable ones to the hook, and starts the aborts asked for.
func (w *watcher) emit(ctx context.Context, out watchdog.Out) {
	for _, e := range out.Events {
		if w.o.root != "" && e.Root != w.o.root && e.ID != "" {
			continue
		}
		if w.traces != nil && rootEnded(e) {
			w.traces.send(ctx, e.ID)
		}
		if w.o.json {
			b, _ := json.Marshal(e)
			fmt.Fprintf(w.cmd.stdio.out, "%s\n", sanitize.JSON(b))
		} else {
			fmt.Fprintln(w.cmd.stdio.out, e.Line())
		}
		if !e.Notable() {
			continue
		}
		if w.hook != nil {
			w.hook.Run(e)
		}
		if seq := alert.Sequence(w.mode, "octop", e.Summary(), os.Getenv); seq != "" {
			fmt.Fprint(sanitize.Raw(w.cmd.stdio.err), seq) // octop's own sequence, its text cleaned by alert
		}
	}
	for _, a := range out.Aborts {
		go func() {
			actx, cancel := context.WithTimeout(ctx, snapshotTimeout)
			defer cancel()
			_, err := live.AbortTree(actx, w.c, a.ID)
			if err != nil && !errors.Is(err, task.ErrNotRunning) && ctx.Err() == nil {
				w.note(fmt.Sprintf("octop watch: could not abort %s (%s): %s", a.ID, a.Kind, squashSpaces(err.Error())))
			}
		}()
	}
}

func (w *watcher) hookReport(r hook.Result) {
	if r.Err == nil {
		return
	}
	w.note("octop watch: " + hookFailure(r))
}

// finished says whether --until-done's root has stopped, and the code:
// as `octop result`'s, from the model's status of the root's end, so 0
// for complete and codeTaskError for an error (failed, interrupted and
// denied, the bad ends, and aborted, which is not done).
func (w *watcher) finished() (int, bool) {
	if !w.o.untilDone || !w.in.Primed() {
		return 0, false
	}
	k, _ := w.wd.Kind(w.o.root)
	switch k.Status() {
	case model.StatusComplete:
		return codeOK, true
	case model.StatusError:
		return codeTaskError, true
	}
	return 0, false
}

// conn folds a change of the connection: the watchdog's connection.lost
// and connection.restored once the stream has been up, and, while the
// server cannot be reached, connection.lost for the first failure (also
// before watch ever connected) and connection.retrying for each after.
func (w *watcher) conn(cs wire.ConnState) watchdog.Out {
	now := nowMS()
	out := w.wd.Conn(cs, now)
	switch {
	case cs.State == wire.Connected:
		if w.lostEarly {
			out.Events = append(out.Events, watchdog.Event{TS: now, Name: watchdog.ConnectionRestored})
		}
		w.down, w.lostEarly = false, false
	case cs.State == wire.Disconnected && cs.Err != nil:
		reason := cs.Err.Error()
		if !cs.RetryAt.IsZero() {
			reason += fmt.Sprintf("; attempt %d, next in %s", cs.Attempt, time.Until(cs.RetryAt).Round(100*time.Millisecond))
		}
		switch {
		case w.down:
			out.Events = append(out.Events, watchdog.Event{TS: now, Name: watchdog.ConnectionRetrying, Reason: reason})
		case len(out.Events) == 0: // not up yet: the watchdog says nothing
			out.Events = append(out.Events, watchdog.Event{TS: now, Name: watchdog.ConnectionLost, Reason: reason})
			w.lostEarly = true
		}
		w.down = true
	}
	return out
}
