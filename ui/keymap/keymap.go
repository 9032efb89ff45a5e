// Package keymap is the screen's own keys and the actions its reserved
// keys ask for: fixed, so scripts, tests and the help can rely on them.
// The panes and rooms keep their own key maps.
package keymap

import "charm.land/bubbles/v2/key"

// KeyMap is the screen-wide keys. The panes have their own (tree.KeyMap,
// detail.KeyMap); the root's help composes all of them for the footer.
type KeyMap struct {
	Tab         key.Binding
	Filter      key.Binding
	ClearFilter key.Binding
	Follow      key.Binding
	Sort        key.Binding
	Help        key.Binding
	Quit        key.Binding

	// Reserved for actions; they all go through the root's startAction.
	Launch, LaunchRoot, Resume, ResumeByID, Abort, AbortTree, Open, CopyID, Inbox key.Binding
	// Repair: tell a running session something (steer), start one again.
	Steer, Retry key.Binding
	// Undo and Redo take back what a session changed, and bring it back.
	Undo, Redo key.Binding
	// The rooms that look inside a session: transcript, files changed,
	// timeline and usage of the subtree.
	Transcript, Diff, Timeline, Usage key.Binding
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
		Usage:      b("$", "$", "usage"),
		LookInside: key.NewBinding(key.WithKeys("t", "d", "T"), key.WithHelp("t/d/T", "look inside")),
	}
}

// Bound is a reserved key and the action it asks for.
type Bound struct {
	Key    key.Binding
	Action Action
}

// Actions maps the reserved keys to their actions.
func (k KeyMap) Actions() []Bound {
	return []Bound{
		{k.Launch, ActionLaunch}, {k.LaunchRoot, ActionLaunchRoot}, {k.Resume, ActionResume}, {k.ResumeByID, ActionResumeByID},
		{k.Abort, ActionAbort}, {k.AbortTree, ActionAbortTree}, {k.Open, ActionOpen},
		{k.CopyID, ActionCopyID}, {k.Inbox, ActionInbox}, {k.Steer, ActionSteer}, {k.Retry, ActionRetry},
		{k.Undo, ActionUndo}, {k.Redo, ActionRedo},
		{k.Transcript, ActionTranscript}, {k.Diff, ActionDiff}, {k.Timeline, ActionTimeline}, {k.Usage, ActionUsage},
	}
}
