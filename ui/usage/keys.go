package usage

import "charm.land/bubbles/v2/key"

// KeyMap is the ledger room's keys.
type KeyMap struct {
	By       key.Binding
	Down, Up key.Binding
	Reload   key.Binding
	Close    key.Binding
}

// DefaultKeyMap returns the room's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		By:     key.NewBinding(key.WithKeys("b", "tab"), key.WithHelp("b", "group by")),
		Down:   key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/k", "scroll")),
		Up:     key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k", "scroll up")),
		Reload: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "read again")),
		Close:  key.NewBinding(key.WithKeys("esc", "q", "$"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp is the keys for the footer.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.By, k.Down, k.Reload, k.Close} }

// FullHelp is every key of the room.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.By, k.Down, k.Up, k.Reload, k.Close}}
}
