package ui

import (
	"charm.land/bubbles/v2/key"
	"github.com/octop-dev/octop/ui/detail"
	"github.com/octop-dev/octop/ui/tree"
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
	// The rooms that look inside a session: transcript, files changed,
	// timeline of the subtree.
	Transcript, Diff, Timeline key.Binding
	// LookInside only names t, d and T together in the one-line footer,
	// which has no room for the three; the keys act through the three above.
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
		Transcript: b("t", "t", "transcript"),
		Diff:       b("d", "d", "files changed"),
		Timeline:   b("T", "T", "timeline"),
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
		{k.CopyID, ActionCopyID}, {k.Inbox, ActionInbox},
		{k.Transcript, ActionTranscript}, {k.Diff, ActionDiff}, {k.Timeline, ActionTimeline},
	}
}

// helpKeys is what the footer's help.Model reads: the focused pane's keys
// first, then the screen's.
type helpKeys struct {
	root         KeyMap
	tree         tree.KeyMap
	detail       detail.KeyMap
	detailFocus  bool
	filterActive bool
	// waiting puts the inbox key first while someone waits on you: it is
	// then the one key that matters, and the line has no room for it
	// otherwise.
	waiting bool
}

// ShortHelp is the one-line footer.
func (h helpKeys) ShortHelp() []key.Binding {
	var ks []key.Binding
	if h.waiting {
		ks = append(ks, h.root.Inbox)
	}
	if h.detailFocus {
		ks = append(ks, h.detail.ShortHelp()...)
	} else {
		ks = append(ks, h.tree.ShortHelp()...)
	}
	ks = append(ks, h.root.Tab, h.root.Filter)
	if h.filterActive {
		ks = append(ks, h.root.ClearFilter)
	}
	// What does not fit the width is cut from the end: help and quit
	// first, then t/d/T, follow and sort (all in the ? screen).
	return append(ks, h.root.Help, h.root.Quit, h.root.LookInside, h.root.Follow, h.root.Sort)
}

// FullHelp is the ? screen, in four columns of seven so it fits 80 cells:
// the focused pane's keys, the view, then the actions.
func (h helpKeys) FullHelp() [][]key.Binding {
	var pane []key.Binding
	for _, col := range h.tree.FullHelp() {
		pane = append(pane, col...)
	}
	if h.detailFocus {
		pane = nil
		for _, col := range h.detail.FullHelp() {
			pane = append(pane, col...)
		}
	}
	r := h.root
	view := []key.Binding{r.Tab, r.Filter, r.ClearFilter, r.Follow, r.Sort, r.Help, r.Quit}
	acts := []key.Binding{r.Transcript, r.Diff, r.Timeline, r.Launch, r.LaunchRoot, r.Resume, r.ResumeByID, r.Abort, r.AbortTree, r.Open, r.CopyID, r.Inbox}
	all := append(append(pane, view...), acts...)
	var cols [][]key.Binding
	for len(all) > 0 {
		n := min(7, len(all))
		cols = append(cols, all[:n])
		all = all[n:]
	}
	return cols
}
