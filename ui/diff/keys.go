package diff

import "charm.land/bubbles/v2/key"

// KeyMap is the files-changed room's keys.
type KeyMap struct {
	Next, Prev       key.Binding // files
	Down, Up         key.Binding // the diff, a line
	PageDown, PageUp key.Binding
	Close            key.Binding
}

// DefaultKeyMap returns the room's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:     key.NewBinding(key.WithKeys("tab", "J", "n"), key.WithHelp("tab/n", "next file")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab", "K", "p"), key.WithHelp("shift+tab/p", "previous file")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/k", "scroll the diff")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u", "b"), key.WithHelp("pgup", "page up")),
		Close:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp is the keys for the footer.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Down, k.Close} }

// FullHelp is every key of the room.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Down, k.Up, k.PageDown, k.PageUp, k.Close}}
}
