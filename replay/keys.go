package replay

import "charm.land/bubbles/v2/key"

// KeyMap is the replay's own keys, over the screen's.
type KeyMap struct {
	PlayPause key.Binding
	Faster    key.Binding
	Slower    key.Binding
}

// DefaultKeyMap returns the replay's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		PlayPause: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play/pause")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:    key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "slower")),
	}
}

// ShortHelp is the keys in one line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.PlayPause, k.Faster, k.Slower} }

// FullHelp is the keys in columns.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
