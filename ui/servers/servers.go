package servers

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui"
	"github.com/octop-dev/octop/ui/styles"
)

// Msg is a message for one server's screen: its stream's events and
// connection changes, and the replies to that screen's own commands.
type Msg struct {
	Server int
	Msg    tea.Msg
}

// Added is a server found after the start (--discover): its screen joins
// the others, numbered after them, and its Msgs use that number.
type Added struct{ Screen ui.Model }

// barHeight is the servers bar's one line.
const barHeight = 1

// Model is the screen of several servers.
type Model struct {
	screens []ui.Model
	// sel is the server the cursor is on, whose screen takes the keys;
	// onGroup says the cursor is on its group line, not on a session.
	sel     int
	onGroup bool
	// folded holds the servers whose group is folded to its one line.
	folded map[int]bool
	// offset is the first line of the one tree shown.
	offset int
	// told is what each server's screen was last told it shows (ShownMsg).
	told []shown

	keys          KeyMap
	styles        *styles.Styles
	noColor       bool
	width, height int
}

// New shows screens, one per server, the cursor on the first one's group.
func New(screens []ui.Model, noColor bool) Model {
	return Model{screens: screens, onGroup: true, folded: map[int]bool{}, keys: DefaultKeyMap(),
		styles: styles.New(true, noColor), noColor: noColor}
}

// Init starts every screen.
func (m Model) Init() tea.Cmd {
	cmds := make([]tea.Cmd, len(m.screens))
	for i, s := range m.screens {
		cmds[i] = tag(i, s.Init())
	}
	return tea.Batch(cmds...)
}

// Selected is the server the cursor is on and the session selected
// there, "" on its group line.
func (m Model) Selected() (server int, id string) {
	if m.onGroup {
		return m.sel, ""
	}
	return m.sel, m.screens[m.sel].Selected()
}

// Typing says the selected server's screen takes every key (a form, the
// filter, a room), so a screen around this one (a replay's) passes them on.
func (m Model) Typing() bool { return m.screens[m.sel].Typing() }

// Screen is server i's screen.
func (m Model) Screen(i int) ui.Model { return m.screens[i] }

// Update routes msg: a server's own to its screen, the terminal's size
// and colours to every screen, keys and the mouse by where the cursor is
// (see route.go); then it keeps the cursor in view.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	next, told := next.settle().tellShown()
	return next, tea.Batch(cmd, told)
}

func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Msg:
		if msg.Server < 0 || msg.Server >= len(m.screens) {
			return m, nil
		}
		return m.to(msg.Server, msg.Msg)
	case Added:
		m.screens = append(append([]ui.Model(nil), m.screens...), msg.Screen)
		i := len(m.screens) - 1
		init := tag(i, msg.Screen.Init())
		var size tea.Cmd
		m, size = m.to(i, tea.WindowSizeMsg{Width: m.width, Height: max(m.height-barHeight, 0)})
		if f := m.screens[m.sel].Tree().Filter(); f != "" {
			m.screens[i].SetFilter(f) // the filter shown applies to it too
		}
		// So does the order: s steps its sort until it is the others'.
		want, s := m.screens[m.sel].Tree().Sort(), m.keys.Screen.Sort.Keys()[0]
		for n := 0; n < 16 && m.screens[i].Tree().Sort() != want; n++ {
			m, _ = m.to(i, tea.KeyPressMsg{Code: []rune(s)[0], Text: s})
		}
		return m, tea.Batch(init, size)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m.all(tea.WindowSizeMsg{Width: msg.Width, Height: max(msg.Height-barHeight, 0)})
	case tea.BackgroundColorMsg:
		m.styles = styles.New(msg.IsDark(), m.noColor)
		return m.all(msg)
	case ui.PlaybackMsg:
		return m.all(msg) // one replay's pause is every server's
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseClickMsg:
		return m.click(msg)
	case tea.MouseWheelMsg:
		return m.wheel(msg)
	}
	return m.to(m.sel, msg)
}

// to updates server i's screen with msg and tags what it returns.
func (m Model) to(i int, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.screens[i].Update(msg)
	m.screens = append([]ui.Model(nil), m.screens...)
	m.screens[i] = next.(ui.Model)
	return m, tag(i, cmd)
}

// all hands msg to every screen.
func (m Model) all(msg tea.Msg) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, len(m.screens))
	for i := range m.screens {
		var cmd tea.Cmd
		m, cmd = m.to(i, msg)
		cmds[i] = cmd
	}
	return m, tea.Batch(cmds...)
}

// tag makes the messages cmd yields come back to server i's screen. Bubble
// Tea's own messages (quit, the terminal queries) go to the program as
// they are, and a batch is tagged command by command.
func tag(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		msg := cmd()
		switch msg := msg.(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for j, c := range msg {
				out[j] = tag(i, c)
			}
			return out
		}
		if isTeas(msg) {
			return msg
		}
		return Msg{Server: i, Msg: msg}
	}
}

// isTeas says msg is one of Bubble Tea's own, which the program handles.
func isTeas(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == reflect.TypeOf(tea.QuitMsg{}).PkgPath()
}
