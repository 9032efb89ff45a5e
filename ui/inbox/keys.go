package inbox

import "charm.land/bubbles/v2/key"

// KeyMap is the inbox's keys. Deny and Dismiss share d: one rejects a
// permission, the other a question; the hint names the one that applies.
type KeyMap struct {
	Up          key.Binding
	Down        key.Binding
	Jump        key.Binding
	Allow       key.Binding
	AllowAlways key.Binding
	Deny        key.Binding
	Answer      key.Binding
	SendPicks   key.Binding
	Type        key.Binding
	Dismiss     key.Binding
	Close       key.Binding

	// While an answer is typed, only these two are keys; the rest is text.
	SendTyped   key.Binding
	CancelTyped key.Binding
}

// DefaultKeyMap returns the inbox's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "up")),
		Down:        key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "down")),
		Jump:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to session")),
		Allow:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow once")),
		AllowAlways: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "allow always")),
		Deny:        key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "deny")),
		Answer:      key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "answer")),
		SendPicks:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "send picks")),
		Type:        key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "type answer")),
		Dismiss:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "dismiss")),
		Close:       key.NewBinding(key.WithKeys("esc", "q", "i"), key.WithHelp("esc", "close")),
		SendTyped:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		CancelTyped: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop typing")),
	}
}

// ShortHelp is the keys of a permission; the view's hint line picks the
// ones that apply to the selected item.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Allow, k.AllowAlways, k.Deny, k.Jump, k.Close}
}

// FullHelp is every inbox key.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.Jump, k.Close},
		{k.Allow, k.AllowAlways, k.Deny},
		{k.Answer, k.SendPicks, k.Type, k.Dismiss},
		{k.SendTyped, k.CancelTyped},
	}
}
