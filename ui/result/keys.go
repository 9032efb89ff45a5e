package result

import "charm.land/bubbles/v2/key"

// KeyMap is the result view's own keys; the viewport's keys scroll.
type KeyMap struct {
	Close key.Binding
	Copy  key.Binding
}

// DefaultKeyMap returns the result view's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Close: key.NewBinding(key.WithKeys("esc", "q", "o"), key.WithHelp("esc", "close")),
		Copy:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy task_id")),
	}
}

// ShortHelp is the view's hint line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Close, k.Copy} }

// FullHelp is the same keys.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
