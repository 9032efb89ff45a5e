package timeline

import "charm.land/bubbles/v2/key"

// KeyMap is the timeline room's keys.
type KeyMap struct {
	Down, Up key.Binding
	Close    key.Binding
}

// DefaultKeyMap returns the room's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Down:  key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/k", "scroll")),
		Up:    key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k", "scroll up")),
		Close: key.NewBinding(key.WithKeys("esc", "q", "T"), key.WithHelp("esc", "back")),
	}
}

// ShortHelp is the keys for the footer.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Down, k.Close} }

// FullHelp is every key of the room.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Down, k.Up, k.Close}} }
