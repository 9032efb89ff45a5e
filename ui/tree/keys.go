package tree

import "charm.land/bubbles/v2/key"

// KeyMap is the tree pane's keys. They are fixed by the issue so scripts and
// tests can rely on them.
type KeyMap struct {
	Up, Down         key.Binding
	Collapse, Expand key.Binding
	Top, Bottom      key.Binding
	Toggle           key.Binding
	PageUp, PageDown key.Binding

	// Move and Fold only label the short help: "j/k move", "h/l fold".
	Move, Fold key.Binding
}

// DefaultKeyMap returns the tree's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Collapse: key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("←/h", "collapse")),
		Expand:   key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("→/l", "expand")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		Toggle:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "toggle")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Move:     key.NewBinding(key.WithKeys("j", "k", "up", "down"), key.WithHelp("j/k", "move")),
		Fold:     key.NewBinding(key.WithKeys("h", "l", "left", "right"), key.WithHelp("h/l", "fold")),
	}
}

// ShortHelp is the keys worth a place in the one-line footer.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Move, k.Fold}
}

// FullHelp is every tree key, in one column.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}, {k.Expand, k.Collapse, k.Toggle}}
}
