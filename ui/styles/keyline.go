package styles

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// KeyLine is a full-screen room's one-line footer: its keys as the root's
// footer shows them, cut to width.
func (s *Styles) KeyLine(width int, keys []key.Binding) string {
	h := help.New()
	h.Styles = s.Help
	h.SetWidth(width)
	return h.ShortHelpView(keys)
}
