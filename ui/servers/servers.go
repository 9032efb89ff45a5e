package servers

import (
	"reflect"

	"charm.land/bubbles/v2/key"
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
	screens       []ui.Model
	shown         int
	keys          KeyMap
	styles        *styles.Styles
	noColor       bool
	width, height int
}

// New shows screens, one per server, the first one first.
func New(screens []ui.Model, noColor bool) Model {
	return Model{screens: screens, keys: DefaultKeyMap(), styles: styles.New(true, noColor), noColor: noColor}
}

// Init starts every screen.
func (m Model) Init() tea.Cmd {
	cmds := make([]tea.Cmd, len(m.screens))
	for i, s := range m.screens {
		cmds[i] = tag(i, s.Init())
	}
	return tea.Batch(cmds...)
}

// Shown is the index of the server on screen.
func (m Model) Shown() int { return m.shown }

// Screen is server i's screen.
func (m Model) Screen(i int) ui.Model { return m.screens[i] }

// Update routes msg: a server's own to its screen, the terminal's size
// and colours to every screen, keys and the mouse to the shown one.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
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
		return m, tea.Batch(init, size)
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m.all(tea.WindowSizeMsg{Width: msg.Width, Height: max(msg.Height-barHeight, 0)})
	case tea.BackgroundColorMsg:
		m.styles = styles.New(msg.IsDark(), m.noColor)
		return m.all(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseClickMsg:
		p := msg.Mouse()
		p.Y -= barHeight
		return m.to(m.shown, tea.MouseClickMsg(p))
	case tea.MouseWheelMsg:
		p := msg.Mouse()
		p.Y -= barHeight
		return m.to(m.shown, tea.MouseWheelMsg(p))
	}
	return m.to(m.shown, msg)
}

// key switches servers on [ ] 1-9, else hands the key to the shown one;
// while that one takes text (a form, the filter), every key is its.
func (m Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.screens[m.shown].Typing() {
		return m.to(m.shown, k)
	}
	n := len(m.screens)
	switch {
	case key.Matches(k, m.keys.Prev):
		m.shown = (m.shown + n - 1) % n
		return m, nil
	case key.Matches(k, m.keys.Next):
		m.shown = (m.shown + 1) % n
		return m, nil
	case key.Matches(k, m.keys.Pick):
		if i := int(k.Code - '1'); i >= 0 && i < n {
			m.shown = i
		}
		return m, nil
	}
	return m.to(m.shown, k)
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

// View is the bar over the shown server's screen.
func (m Model) View() tea.View {
	v := m.screens[m.shown].View()
	if m.width <= 0 {
		return v
	}
	v.Content = m.bar() + "\n" + v.Content
	return v
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
