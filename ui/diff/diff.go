// Package diff is the files-changed room: the files a session changed,
// each with its +/− counts, and the selected file's unified diff in
// colour. It reads the session's messages (their summary diffs, see
// package changes), which the root fetches on Loaded and again on each
// Reload the room asks for while the session runs. It draws only the diff
// lines on screen.
package diff

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// RefreshEvery is how often the room asks for the messages again while the
// session runs.
const RefreshEvery = 2 * time.Second

// Loaded carries the session's messages (or why they could not be read).
type Loaded struct {
	ID   string
	Msgs []wire.MessageWithParts
	Err  error
}

// Reload asks the root to read the messages again (the session runs).
type Reload struct{ ID string }

// Close asks the root to leave the room.
type Close struct{}

type tick struct{ id string }

// Model is the files-changed room.
type Model struct {
	id, title     string
	st            *styles.Styles
	keys          KeyMap
	files         []File
	loaded        bool
	err           error
	running       bool
	cursor        int
	scroll        int
	width, height int
}

// New opens the room for session id; the root then sends Loaded.
func New(id, title string, st *styles.Styles) Model {
	return Model{id: id, title: title, st: st, keys: DefaultKeyMap()}
}

// Init starts the refresh tick.
func (m Model) Init() tea.Cmd { return m.tick() }

func (m Model) tick() tea.Cmd {
	return room.After(RefreshEvery, tick{m.id})
}

// SetSize sets the room's size in cells.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// SetRunning says whether the session still runs (then it refreshes).
func (m *Model) SetRunning(r bool) { m.running = r }

// Keys is the room's key map.
func (m Model) Keys() KeyMap { return m.keys }

// Update handles Loaded, the refresh tick and keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Loaded:
		if msg.ID == m.id {
			m.loaded, m.err = true, msg.Err
			if msg.Err == nil {
				m.files = Files(msg.Msgs)
				m.cursor = min(m.cursor, max(len(m.files)-1, 0))
			}
		}
	case tick:
		if msg.id != m.id {
			return m, nil
		}
		if m.running {
			id := m.id
			return m, tea.Batch(func() tea.Msg { return Reload{id} }, m.tick())
		}
		return m, m.tick()
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Close):
		return m, func() tea.Msg { return Close{} }
	case key.Matches(msg, k.Next):
		m.cursor, m.scroll = min(m.cursor+1, max(len(m.files)-1, 0)), 0
	case key.Matches(msg, k.Prev):
		m.cursor, m.scroll = max(m.cursor-1, 0), 0
	case key.Matches(msg, k.Down):
		m.scroll++
	case key.Matches(msg, k.Up):
		m.scroll = max(m.scroll-1, 0)
	case key.Matches(msg, k.PageDown):
		m.scroll += max(m.height/2, 1)
	case key.Matches(msg, k.PageUp):
		m.scroll = max(m.scroll-max(m.height/2, 1), 0)
	}
	return m, nil
}

// View draws the header, the file list and the selected file's diff.
func (m Model) View() string {
	ink := m.st.Ink
	add, del := Totals(m.files)
	head := fmt.Sprintf("%s  %s  %s  %s", ink.App.Render("files changed"), ink.Title.Render(format.OneLine(m.title)),
		ink.Dim.Render(format.OneLine(m.id)), counts(ink, len(m.files), add, del))
	lines := []string{head}
	switch {
	case m.err != nil:
		lines = append(lines, ink.Failed.Render("could not read the changes: "+format.OneLine(m.err.Error())))
	case !m.loaded:
		lines = append(lines, ink.Dim.Render("loading…"))
	case len(m.files) == 0:
		lines = append(lines, ink.Dim.Render("no files changed"))
	default:
		lines = append(lines, m.fileList()...)
		lines = append(lines, ink.Border.Render(strings.Repeat("─", max(m.width, 1))))
		lines = append(lines, m.patch(max(m.height-len(lines), 0))...)
	}
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], m.width, "…")
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:min(len(lines), max(m.height, 1))], "\n")
}

func counts(ink styles.Inks, files, add, del int) string {
	noun := "files"
	if files == 1 {
		noun = "file"
	}
	return fmt.Sprintf("%d %s  %s %s", files, noun, ink.Done.Render(fmt.Sprintf("+%d", add)), ink.Failed.Render(fmt.Sprintf("−%d", del)))
}

// fileList shows at most a third of the height of files, around the
// cursor.
func (m Model) fileList() []string {
	ink := m.st.Ink
	n := max(min(len(m.files), m.height/3), 1)
	first := min(max(m.cursor-n/2, 0), len(m.files)-n)
	out := make([]string, 0, n)
	for i := first; i < first+n; i++ {
		f := m.files[i]
		mark := "  "
		if i == m.cursor {
			mark = ink.Focused.Render("▌ ")
		}
		out = append(out, fmt.Sprintf("%s%s %s  %s", mark, ink.Done.Render(fmt.Sprintf("+%-4d", f.Additions)),
			ink.Failed.Render(fmt.Sprintf("−%-4d", f.Deletions)), ink.Title.Render(format.OneLine(f.Path))))
	}
	return out
}

// patch draws the visible lines of the selected file's diff.
func (m Model) patch(h int) []string {
	ink := m.st.Ink
	all := Lines(m.files[m.cursor].Patch)
	if len(all) == 0 {
		return []string{ink.Dim.Render("(the server sent no patch for this file)")}
	}
	start := min(m.scroll, max(len(all)-h, 0))
	out := make([]string, 0, h)
	for _, l := range all[start:min(start+h, len(all))] {
		text := ansi.Truncate(l.Text, m.width, "…")
		switch l.Kind {
		case Added:
			text = ink.Done.Render(text)
		case Removed:
			text = ink.Failed.Render(text)
		case Hunk:
			text = ink.Badge.Render(text)
		case Header:
			text = ink.Dim.Render(text)
		}
		out = append(out, text)
	}
	return out
}
