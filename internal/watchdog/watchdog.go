package watchdog

import (
	"sort"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Watchdog turns the model's sessions into lifecycle events and runaway
// marks. It is pure: the caller applies events to the model, then hands
// the Watchdog the same events and the time they arrived. It does no I/O;
// the aborts it asks for are the caller's to carry out.
type Watchdog struct {
	cfg      Config
	tracks   map[string]*track
	primed   bool // a full look (Resync) has set the baseline
	down     bool // the stream is disconnected
	everUp   bool
	abortWhy map[string]string   // session id → "aborted by octop: loop"
	marked   map[string]struct{} // sessions with at least one mark
	// awaits says histories follow every resync (see AwaitHistory).
	awaits bool
}

// track is what the Watchdog remembers of one session: one for every
// session of the tree (50,000 on a server with a year of sessions), so
// it is small, its marks kept apart once it has one.
type track struct {
	// runStart is the newest run's start as the last look that read the
	// session's messages saw it (loaded), or, before one did, the latest
	// it can have started (see lookLifecycle).
	runStart int64
	heard    int64 // Unix ms an event last named this session
	marks    *[len(kinds)]*Mark
	phase    phase
	// fresh: first seen after the baseline was set, so it is new since;
	// loaded: runStart was taken from its messages, so a later RunStart
	// is a run it made (see ranSince).
	fresh, loaded bool
}

// mark is the session's mark of kinds[i], or nil.
func (t *track) mark(i int) *Mark {
	if t.marks == nil {
		return nil
	}
	return t.marks[i]
}

// setMark sets (or, nil, clears) the session's mark of kinds[i].
func (t *track) setMark(i int, m *Mark) {
	if t.marks == nil {
		if m == nil {
			return
		}
		t.marks = new([len(kinds)]*Mark)
	}
	t.marks[i] = m
}

// Abort asks the caller to abort a session and its subtree, once.
type Abort struct {
	ID     string
	Kind   Kind
	Reason string // "aborted by octop: loop"
}

// Out is what one step produced.
type Out struct {
	Events []Event
	Aborts []Abort
}

func (o *Out) add(e Event) { o.Events = append(o.Events, e) }

// New returns a Watchdog with cfg's thresholds (zero fields: defaults).
func New(cfg Config) *Watchdog {
	return &Watchdog{cfg: cfg.withDefaults(), tracks: map[string]*track{}, abortWhy: map[string]string{},
		marked: map[string]struct{}{}}
}

// Config is the configuration in force, defaults filled in.
func (w *Watchdog) Config() Config { return w.cfg }

// Events looks again at the sessions evs name, after the caller applied
// evs to st; nowMS is when they arrived. Before the first Resync it only
// records, so the sessions found at start are a baseline, not news.
func (w *Watchdog) Events(st *model.State, evs []wire.Event, nowMS int64) Out {
	type touch struct {
		id   string
		mask uint8
	}
	var touched []touch
	for _, ev := range evs {
		if id := wire.SessionOf(ev); id != "" {
			touched = append(touched, touch{id, kindsTouched(ev)})
		}
	}
	sort.SliceStable(touched, func(i, j int) bool { return touched[i].id < touched[j].id })
	var out Out
	for i := 0; i < len(touched); i++ {
		id, mask := touched[i].id, touched[i].mask
		for i+1 < len(touched) && touched[i+1].id == id {
			i++
			mask |= touched[i].mask
		}
		ss := st.Session(id)
		if ss == nil {
			w.forget(id)
			continue
		}
		t := w.track(ss, nowMS)
		t.heard = nowMS
		news := w.lookLifecycle(&out, st, ss, t, nowMS, false)
		w.lookFollowers(&out, st, ss, nowMS)
		w.mark(&out, st, ss, t, mask|1<<stallIdx, nowMS, news)
		// A child's spend counts against its root's tree budget.
		if r := rootOf(st, ss); r != ss && mask&(1<<budgetIdx) != 0 {
			w.mark(&out, st, r, w.track(r, nowMS), 1<<budgetIdx, nowMS, news)
		}
	}
	return out
}

// lookFollowers looks again at the ancestors that wait on ss through a
// background task: a child's end can end them with no event of their own
// (an aborted background child sends its parent no notice).
func (w *Watchdog) lookFollowers(out *Out, st *model.State, ss *model.Session, nowMS int64) {
	for p := st.Session(ss.ParentID); p != nil && p.LaunchedBackground(); p = st.Session(p.ParentID) {
		w.lookLifecycle(out, st, p, w.track(p, nowMS), nowMS, false)
	}
}

// kindsTouched is the detectors an event can change, as a mask of kinds
// indexes: streamed text changes none of loop, errors or budget, so the
// most frequent event costs least.
func kindsTouched(ev wire.Event) uint8 {
	switch e := ev.(type) {
	case wire.PartDelta:
		return 0
	case wire.PartUpdated:
		if e.Part.Type == wire.PartTool {
			return 1<<loopIdx | 1<<errorsIdx
		}
		if e.Part.Type == wire.PartStepFinish {
			return 1 << budgetIdx
		}
		return 0
	case wire.MessageUpdated, wire.SessionUpdated:
		return 1 << budgetIdx
	}
	return allKinds
}

// Tick checks the busy sessions for what time alone brings: a stall, and
// the end of a run that stopped without a word on how, once its grace is
// over (model.State.SetNow, which the caller calls first). Everything
// else changes only with events.
func (w *Watchdog) Tick(st *model.State, nowMS int64) Out {
	var out Out
	for id, t := range w.tracks {
		if t.phase != phaseBusy && t.mark(stallIdx) == nil {
			continue
		}
		if ss := st.Session(id); ss != nil {
			var news bool
			if t.phase == phaseBusy && w.primed {
				news = w.lookLifecycle(&out, st, ss, t, nowMS, false)
			} else {
				news = w.news(ss, t, t.phase, false)
			}
			w.mark(&out, st, ss, t, 1<<stallIdx, nowMS, news)
		}
	}
	sortOut(&out)
	return out
}

// Resync follows a full REST read applied to st (at start and after every
// reconnect). The first one sets the baseline and emits nothing; later
// ones emit only what truly changed while the stream was down (see
// news). Quiet clocks restart: silence while disconnected proves nothing.
func (w *Watchdog) Resync(st *model.State, nowMS int64) Out {
	for id, t := range w.tracks {
		if st.Session(id) == nil {
			w.forget(id)
			continue
		}
		t.heard = nowMS
	}
	var out Out
	w.lookAll(&out, st, nowMS)
	w.primed = true
	return out
}

// Conn notes a change of the stream's connection: connection.lost when a
// live stream drops, connection.restored when it comes back.
func (w *Watchdog) Conn(cs wire.ConnState, nowMS int64) Out {
	var out Out
	switch cs.State {
	case wire.Connected:
		if w.down && w.everUp {
			out.add(Event{TS: nowMS, Name: ConnectionRestored})
		}
		w.down, w.everUp = false, true
	case wire.Disconnected:
		if !w.down && w.everUp {
			e := Event{TS: nowMS, Name: ConnectionLost}
			if cs.Err != nil {
				e.Reason = cs.Err.Error()
			}
			out.add(e)
		}
		w.down = true
	}
	return out
}

// sortOut orders what a map walk produced by session id, so the same
// input always gives the same output.
func sortOut(out *Out) {
	sort.SliceStable(out.Events, func(i, j int) bool { return out.Events[i].ID < out.Events[j].ID })
	sort.SliceStable(out.Aborts, func(i, j int) bool { return out.Aborts[i].ID < out.Aborts[j].ID })
}

func (w *Watchdog) lookAll(out *Out, st *model.State, nowMS int64) {
	for _, r := range st.Roots() {
		for _, id := range st.SubtreeIDs(r) {
			ss := st.Session(id)
			w.look(out, st, ss, w.track(ss, nowMS), nowMS, true)
		}
	}
}

func (w *Watchdog) track(ss *model.Session, nowMS int64) *track {
	t := w.tracks[ss.ID]
	if t == nil {
		t = &track{heard: nowMS, fresh: w.primed}
		w.tracks[ss.ID] = t
	}
	return t
}

// Kind is the model's kind of the session's phase as last seen (waiting
// is KindWaiting); ok is false for a session not seen.
func (w *Watchdog) Kind(id string) (k model.Kind, ok bool) {
	if t := w.tracks[id]; t != nil {
		return t.phase.kind(), true
	}
	return model.KindNotLoaded, false
}

// Marks returns the session's current marks, in kinds order.
func (w *Watchdog) Marks(id string) []Mark {
	t := w.tracks[id]
	if t == nil {
		return nil
	}
	var out []Mark
	for i := range kinds {
		if m := t.mark(i); m != nil {
			out = append(out, *m)
		}
	}
	return out
}

// Marked is how many sessions carry at least one mark. It is kept as
// marks come and go, so the header can ask on every step.
func (w *Watchdog) Marked() int { return len(w.marked) }

// Running is how many of the marked sessions run now (model.Kind.Live):
// the runaways to act on. A looper that has completed keeps its mark as
// evidence, but is no longer one.
func (w *Watchdog) Running(st *model.State) int {
	n := 0
	for id := range w.marked {
		if model.StateOf(st.Session(id)).Kind.Live() {
			n++
		}
	}
	return n
}

// forget drops a deleted session's track, and its marks from the count.
func (w *Watchdog) forget(id string) {
	delete(w.marked, id)
	delete(w.tracks, id)
}

// marked reports whether the session carries any mark.
func (t *track) marked() bool {
	for i := range kinds {
		if t.mark(i) != nil {
			return true
		}
	}
	return false
}

// AbortReason is "aborted by octop: KIND" when the watchdog aborted the
// session (or the subtree it is in), else "".
func (w *Watchdog) AbortReason(st *model.State, id string) string {
	for ss := st.Session(id); ss != nil; ss = st.Session(ss.ParentID) {
		if r, ok := w.abortWhy[ss.ID]; ok {
			return r
		}
		if ss.ParentID == "" {
			break
		}
	}
	return ""
}

// rootOf walks up to the topmost known ancestor.
func rootOf(st *model.State, ss *model.Session) *model.Session {
	for ss.ParentID != "" {
		p := st.Session(ss.ParentID)
		if p == nil {
			break
		}
		ss = p
	}
	return ss
}
