package transcript

import "charm.land/bubbles/v2/key"

// KeyMap is the transcript's keys.
type KeyMap struct {
	Up, Down         key.Binding // the previous / next entry
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding // Bottom also resumes the tail
	Enter            key.Binding // expand / fold; on a task call, open the child
	Search           key.Binding
	Next, Prev       key.Binding // search matches
	Back             key.Binding // a child's transcript: back to its parent's
	Close            key.Binding
}

// DefaultKeyMap returns the transcript's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "previous")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "next")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom, tail")),
		Enter:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "expand / open child")),
		Search:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "next/prev match")),
		Prev:     key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Back:     key.NewBinding(key.WithKeys("backspace"), key.WithHelp("⌫", "parent"), key.WithDisabled()),
		Close:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp is the keys for the one-line footer.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Down, k.Enter, k.Bottom, k.Search, k.Back, k.Close}
}

// FullHelp is every transcript key.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Enter, k.Search, k.Next, k.Prev, k.Back, k.Close}}
}
