package servers

import "charm.land/bubbles/v2/key"

// ReplayKeyMap is the replay's own keys, over the screen's.
type ReplayKeyMap struct {
	PlayPause key.Binding
	Faster    key.Binding
	Slower    key.Binding
}

// DefaultReplayKeyMap returns the replay's keys.
func DefaultReplayKeyMap() ReplayKeyMap {
	return ReplayKeyMap{
		PlayPause: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "play/pause")),
		Faster:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster")),
		Slower:    key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "slower")),
	}
}

// ShortHelp is the keys in one line.
func (k ReplayKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.PlayPause, k.Faster, k.Slower}
}

// FullHelp is the keys in columns.
func (k ReplayKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
