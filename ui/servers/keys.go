package servers

import (
	"charm.land/bubbles/v2/key"
	"github.com/octop-dev/octop/ui/keymap"
	"github.com/octop-dev/octop/ui/tree"
)

// KeyMap is the keys of the one tree: the jumps between servers, and the
// tree's and screen's keys it reads to move the cursor across servers,
// fold a group, and keep a group line's keys off any session. Every
// other key goes to the selected server's screen.
type KeyMap struct {
	Prev, Next key.Binding
	// Pick is 1-9: the group of the server of that number.
	Pick key.Binding

	Tree   tree.KeyMap
	Screen keymap.KeyMap
}

// DefaultKeyMap returns the one tree's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Prev:   key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous server")),
		Next:   key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next server")),
		Pick:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "server N")),
		Tree:   tree.DefaultKeyMap(),
		Screen: keymap.DefaultKeyMap(),
	}
}

// ShortHelp is the server keys in one line.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Prev, k.Next, k.Pick} }

// FullHelp is the server keys in columns.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
