package transcript

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/styles"
)

// Loaded is the root's reply to opening a transcript: the session's
// messages, or why they could not be read.
type Loaded struct {
	ID   string
	Msgs []wire.MessageWithParts
	Err  error
}

// Close asks the root to leave the transcript.
type Close struct{}

// OpenChild asks the root to open the transcript of the child session a
// task call started.
type OpenChild struct{ ID string }

// Model is the transcript room.
type Model struct {
	id, title string
	st        *styles.Styles
	keys      KeyMap
	r         *renderer
	live      *transcript.Live
	entries   []transcript.Entry
	err       error
	running   bool
	aborted   bool // the run was aborted: a call left open shows aborted

	width, height int
	top, topLine  int // the first entry on screen, and its first line shown
	cursor        int
	follow        bool // stay at the bottom as entries arrive
	expanded      map[string]bool

	search    textinput.Model
	searching bool
	query     string
	notFound  bool
}

// New opens the transcript of session id (title shown in its header),
// tailing it from the bottom. md renders markdown for a width (nil: plain
// wrapped text). The root then sends Loaded.
func New(id, title string, st *styles.Styles, md func(string, int) string) Model {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.SetStyles(dialog.InputStyles(st))
	return Model{id: id, title: title, st: st, keys: DefaultKeyMap(), r: newRenderer(st, md),
		follow: true, expanded: map[string]bool{}, search: ti}
}

// ID is the session shown.
func (m Model) ID() string { return m.id }

// Keys is the room's key map, for the root's help.
func (m Model) Keys() KeyMap { return m.keys }

// Searching says the search line has the keys (the root must not act on
// them).
func (m Model) Searching() bool { return m.searching }

// SetSize sets the room's size in cells.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// SetAborted says whether the session's run was aborted: a call it left
// open shows aborted then, else interrupted.
func (m *Model) SetAborted(a bool) {
	if m.aborted != a {
		m.aborted = a
		m.refresh()
	}
}

// SetRunning says whether the session still runs (the header says "live";
// only then is a prompt the model has yet to see marked queued).
func (m *Model) SetRunning(r bool) {
	if m.running != r {
		m.running = r
		m.refresh()
	}
}

// refresh takes the entries from the live transcript: a stopped session
// has nothing queued.
func (m *Model) refresh() {
	if m.live == nil {
		return
	}
	m.entries = m.live.Entries()
	if !m.running {
		m.entries = transcript.Stopped(m.entries, m.aborted)
	}
}

// ApplyEvents folds the stream's events about this session in.
func (m *Model) ApplyEvents(evs []wire.Event) {
	if m.live == nil {
		return
	}
	changed := false
	for _, ev := range evs {
		changed = m.live.Apply(ev) || changed
	}
	if changed {
		m.refresh()
		m.clamp()
		m.tailCursor()
	}
}

// tailCursor keeps the cursor on the last entry while tailing, so enter
// acts on what the tail shows.
func (m *Model) tailCursor() {
	if m.follow && len(m.entries) > 0 {
		m.cursor = len(m.entries) - 1
	}
}

// Update handles keys and Loaded; it returns requests as commands.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Loaded:
		if msg.ID != m.id {
			return m, nil
		}
		m.err = msg.Err
		if msg.Err == nil {
			top, cur := m.keyAt(m.top), m.keyAt(m.cursor)
			m.live = transcript.NewLive(m.id, msg.Msgs)
			m.refresh()
			if !m.follow { // a reload (the whole session after its end): stay put
				m.top, m.cursor = m.indexOf(top, m.top), m.indexOf(cur, m.cursor)
			}
			m.clamp()
			m.tailCursor()
		}
	case tea.KeyPressMsg:
		if m.searching {
			return m.searchKey(msg)
		}
		return m.key(msg)
	}
	return m, nil
}

func send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Close):
		return m, send(Close{})
	case key.Matches(msg, k.Down):
		m.moveCursor(1)
	case key.Matches(msg, k.Up):
		m.moveCursor(-1)
	case key.Matches(msg, k.PageDown):
		m.page(1)
	case key.Matches(msg, k.PageUp):
		m.page(-1)
	case key.Matches(msg, k.Top):
		m.follow, m.cursor, m.top, m.topLine = false, 0, 0, 0
	case key.Matches(msg, k.Bottom):
		m.follow = true
		m.tailCursor()
	case key.Matches(msg, k.Enter):
		return m.enter()
	case key.Matches(msg, k.Search):
		m.searching, m.notFound = true, false
		m.search.SetValue("")
		return m, m.search.Focus()
	case key.Matches(msg, k.Next):
		m.find(m.query, 1)
	case key.Matches(msg, k.Prev):
		m.find(m.query, -1)
	}
	return m, nil
}

// enter opens a task call's child, or folds and unfolds the entry.
func (m Model) enter() (Model, tea.Cmd) {
	if m.cursor >= len(m.entries) {
		return m, nil
	}
	e := &m.entries[m.cursor]
	if e.ChildID != "" {
		return m, send(OpenChild{ID: e.ChildID})
	}
	k := entryKey(e)
	m.expanded[k] = !m.expanded[k]
	m.follow = false
	m.ensureVisible()
	return m, nil
}

func (m Model) searchKey(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch msg.String() {
	case "esc":
		m.searching = false
		m.search.Blur()
		return m, nil
	case "enter":
		m.searching = false
		m.search.Blur()
		m.query = m.search.Value()
		m.find(m.query, 1)
		return m, nil
	}
	var cmd tea.Cmd
	m.search, cmd = m.search.Update(msg)
	return m, cmd
}

// keyAt is the key of entry i, "" when there is none.
func (m *Model) keyAt(i int) string {
	if i < 0 || i >= len(m.entries) {
		return ""
	}
	return entryKey(&m.entries[i])
}

// indexOf finds the entry with key k (searching from the end: a reload
// adds older entries before it), or keeps def.
func (m *Model) indexOf(k string, def int) int {
	for i := len(m.entries) - 1; k != "" && i >= 0; i-- {
		if entryKey(&m.entries[i]) == k {
			return i
		}
	}
	return def
}
