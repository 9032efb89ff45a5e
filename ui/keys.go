package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/octop-dev/octop/ui/footer"
)

// helpKeys is what the footer's help lists: the focused pane's keys
// first, then the screen's.
func (m Model) helpKeys() footer.Keys {
	r := m.keys
	k := footer.Keys{
		PaneShort: m.tree.KeyMap().ShortHelp(),
		PaneFull:  m.tree.KeyMap().FullHelp(),
		Short:     []key.Binding{r.Tab, r.Filter},
		View:      append([]key.Binding{r.Tab, r.Filter, r.ClearFilter, r.Follow, r.Sort, r.Help, r.Quit}, m.opts.MoreKeys...),
		Actions: []key.Binding{r.Transcript, r.Diff, r.Timeline, r.Usage, r.Launch, r.LaunchRoot, r.Resume,
			r.ResumeByID, r.Steer, r.Retry, r.Abort, r.AbortTree, r.Undo, r.Redo, r.Open, r.CopyID, r.Inbox},
	}
	if m.focus == paneDetail {
		k.PaneShort, k.PaneFull = m.detail.KeyMap().ShortHelp(), m.detail.KeyMap().FullHelp()
	}
	if m.counts.Waiting > 0 {
		k.Urgent = []key.Binding{r.Inbox}
	}
	if m.tree.Filter() != "" {
		k.Short = append(k.Short, r.ClearFilter)
	}
	// What does not fit the width is cut from the end: help and quit
	// first, then t/d/T, follow and sort (all in the ? screen).
	k.Short = append(k.Short, r.Help, r.Quit, r.LookInside, r.Follow, r.Sort)
	return k
}
