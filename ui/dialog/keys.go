package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// FormKeyMap is the keys every form shares.
type FormKeyMap struct {
	Submit key.Binding // ctrl+s anywhere; enter on single-line steps
	Cancel key.Binding
	Next   key.Binding
	Prev   key.Binding
}

// DefaultFormKeyMap returns the forms' keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
	}
}

// ShortHelp is the keys a form's hint line names.
func (k FormKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Submit, k.Next, k.Cancel} }

// FullHelp is every form key.
func (k FormKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Next, k.Prev, k.Cancel}}
}

// ConfirmKeyMap is the keys of a yes/no dialog.
type ConfirmKeyMap struct {
	Yes key.Binding
	No  key.Binding
}

// DefaultConfirmKeyMap returns the confirmation keys: y or enter confirms,
// n or esc backs out.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "abort")),
		No:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "keep running")),
	}
}

// ShortHelp is the confirmation's hint.
func (k ConfirmKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Yes, k.No} }

// FullHelp is the same two keys.
func (k ConfirmKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// BusyKeyMap is the choices of the dialog r opens on a running session.
type BusyKeyMap struct {
	Wait   key.Binding
	Steer  key.Binding
	Cancel key.Binding
}

// DefaultBusyKeyMap returns the busy dialog's keys.
func DefaultBusyKeyMap() BusyKeyMap {
	return BusyKeyMap{
		Wait:   key.NewBinding(key.WithKeys("w", "enter"), key.WithHelp("w/enter", "wait for it, then write the prompt")),
		Steer:  key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "tell it now instead")),
		Cancel: key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp is the busy dialog's hint.
func (k BusyKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Wait, k.Steer, k.Cancel} }

// FullHelp is the same keys.
func (k BusyKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Hint renders bindings as "key action · key action", a dialog's last line.
func Hint(bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " · ")
}
