package detail

import "charm.land/bubbles/v2/key"

// KeyMap is the detail pane's keys, active when it has focus.
type KeyMap struct {
	Up, Down    key.Binding
	Top, Bottom key.Binding
	// Scroll only labels the short help.
	Scroll key.Binding
}

// DefaultKeyMap returns the detail pane's keys: the same motion keys as
// the tree, so tab is the only thing to learn.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:     key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "scroll up")),
		Down:   key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "scroll down")),
		Top:    key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom: key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		Scroll: key.NewBinding(key.WithKeys("j", "k", "up", "down"), key.WithHelp("j/k", "scroll")),
	}
}

// ShortHelp is the keys for the one-line footer.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Scroll} }

// FullHelp is every detail key.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Top, k.Bottom}}
}
