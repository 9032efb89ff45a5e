package servers

import "charm.land/bubbles/v2/key"

// KeyMap is the keys that switch between servers; every other key goes
// to the shown server's screen.
type KeyMap struct {
	Prev, Next key.Binding
	// Pick is 1-9: the server of that number.
	Pick key.Binding
}

// DefaultKeyMap returns the switching keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous server")),
		Next: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next server")),
		Pick: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "server N")),
	}
}

// ShortHelp is the keys in one line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Prev, k.Next, k.Pick} }

// FullHelp is the keys in columns.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
