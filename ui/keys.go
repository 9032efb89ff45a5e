package ui

import (
	"charm.land/bubbles/v2/key"
	"github.com/octop-dev/octop/ui/footer"
)

// KeyMap is the screen-wide keys. The panes have their own (tree.KeyMap,
// detail.KeyMap); helpKeys composes all of them for the footer.
type KeyMap struct {
	Tab         key.Binding
	Filter      key.Binding
	ClearFilter key.Binding
	Follow      key.Binding
	Sort        key.Binding
	Help        key.Binding
	Quit        key.Binding

	// Reserved for actions; they all go through Model.startAction.
	Launch, LaunchRoot, Resume, ResumeByID, Abort, AbortTree, Open, CopyID, Inbox key.Binding
	// Repair: tell a running session something (steer), start one again.
	Steer, Retry key.Binding
	// Undo and Redo take back what a session changed, and bring it back.
	Undo, Redo key.Binding
	// The rooms that look inside a session: transcript, files changed,
	// timeline and spend ledger of the subtree.
	Transcript, Diff, Timeline, Ledger key.Binding
	// LookInside names t, d and T as one entry of the short footer.
	LookInside key.Binding
}

// DefaultKeyMap returns the screen's keys. They are fixed by the issue so
// scripts and tests can rely on them.
func DefaultKeyMap() KeyMap {
	b := func(k, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(k), key.WithHelp(help, desc))
	}
	return KeyMap{
		Tab:         b("tab", "tab", "pane"),
		Filter:      b("/", "/", "filter"),
		ClearFilter: b("esc", "esc", "clear"),
		Follow:      b("f", "f", "follow"),
		Sort:        b("s", "s", "sort"),
		Help:        b("?", "?", "help"),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		Launch:     b("n", "n", "launch"),
		LaunchRoot: b("N", "N", "launch root"),
		Resume:     b("r", "r", "resume"),
		ResumeByID: b("R", "R", "resume task_id"),
		Abort:      b("x", "x", "abort"),
		AbortTree:  b("X", "X", "abort subtree"),
		Open:       b("o", "o", "open result"),
		CopyID:     b("y", "y", "copy task_id"),
		Inbox:      b("i", "i", "inbox"),
		Steer:      b("m", "m", "tell (steer)"),
		Retry:      b("a", "a", "retry"),
		Undo:       b("u", "u", "undo changes"),
		Redo:       b("U", "U", "redo changes"),
		Transcript: b("t", "t", "transcript"),
		Diff:       b("d", "d", "files changed"),
		Timeline:   b("T", "T", "timeline"),
		Ledger:     b("$", "$", "spend"),
		LookInside: key.NewBinding(key.WithKeys("t", "d", "T"), key.WithHelp("t/d/T", "look inside")),
	}
}

// actionFor maps the reserved keys to their actions.
func (k KeyMap) actionFor() []struct {
	b key.Binding
	a Action
} {
	return []struct {
		b key.Binding
		a Action
	}{
		{k.Launch, ActionLaunch}, {k.LaunchRoot, ActionLaunchRoot}, {k.Resume, ActionResume}, {k.ResumeByID, ActionResumeByID},
		{k.Abort, ActionAbort}, {k.AbortTree, ActionAbortTree}, {k.Open, ActionOpen},
		{k.CopyID, ActionCopyID}, {k.Inbox, ActionInbox}, {k.Steer, ActionSteer}, {k.Retry, ActionRetry},
		{k.Undo, ActionUndo}, {k.Redo, ActionRedo},
		{k.Transcript, ActionTranscript}, {k.Diff, ActionDiff}, {k.Timeline, ActionTimeline}, {k.Ledger, ActionLedger},
	}
}

// helpKeys is what the footer's help lists: the focused pane's keys
// first, then the screen's.
func (m Model) helpKeys() footer.Keys {
	r := m.keys
	k := footer.Keys{
		PaneShort: m.tree.KeyMap().ShortHelp(),
		PaneFull:  m.tree.KeyMap().FullHelp(),
		Short:     []key.Binding{r.Tab, r.Filter},
		View:      append([]key.Binding{r.Tab, r.Filter, r.ClearFilter, r.Follow, r.Sort, r.Help, r.Quit}, m.opts.MoreKeys...),
		Actions: []key.Binding{r.Transcript, r.Diff, r.Timeline, r.Ledger, r.Launch, r.LaunchRoot, r.Resume,
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
