package inbox

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

// Model is the `i` dialog: every pending permission and question across
// the tree, in tree order (roots newest first, children in the order they
// were made), so the list reads like the tree and an item never moves
// while the person is answering. It reads the live State at each frame;
// an answered item stays, marked sent, until the server's
// permission.replied / question.replied / question.rejected removes it.
// Unlike the other dialogs it is used by pointer: its bookkeeping (sent,
// drafts, the input) lives across many keys, and the root holds one copy.
type Model struct {
	st    *styles.Styles
	keys  KeyMap
	state *model.State
	cache itemCache

	// The cursor follows a request id, so an item above it leaving does
	// not move it; idx is where it was, for when its own item leaves.
	cur string
	idx int

	sending map[string]bool
	sent    map[string]string // request id → what was sent, until the event removes it
	failed  map[string]string // request id → the last error, one line
	// drafts holds the answers picked so far for a request with several
	// questions; it is sent once each has one.
	drafts map[string][][]string
	// picks are the options toggled on for a request's current question,
	// when that question takes several answers.
	picks map[string][]string

	// typing is the request whose current question gets a typed answer
	// in input, "" when none does.
	typing string
	input  textinput.Model
	width  int // of the box, for the input
}

// New opens the inbox over the live state on a screen w wide. It reads
// state at every frame and never changes it.
func New(st *styles.Styles, state *model.State, w int) *Model {
	return &Model{
		st: st, keys: DefaultKeyMap(), state: state, width: dialog.Width(w, 100),
		sending: map[string]bool{}, sent: map[string]string{}, failed: map[string]string{},
		drafts: map[string][][]string{}, picks: map[string][]string{},
	}
}

// Update handles the replies to the inbox's answers and its keys.
func (d *Model) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case task.AnswerReply:
		delete(d.sending, msg.RequestID)
		if msg.Err != nil {
			delete(d.sent, msg.RequestID)
			d.failed[msg.RequestID] = dialog.ErrText(msg.Err)
		}
		return d, nil
	case tea.KeyPressMsg:
		if d.typing != "" {
			return d.updateTyping(msg)
		}
		return d.updateKey(msg)
	}
	if d.typing != "" { // a paste, the cursor's blink
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return d, cmd
	}
	return d, nil
}

// updateTyping feeds the answer being typed: enter sends it as the
// current question's answer, esc goes back to the list.
func (d *Model) updateTyping(msg tea.KeyPressMsg) (room.Dialog, tea.Cmd) {
	items := d.items()
	at := slices.IndexFunc(items, func(it item) bool { return it.id() == d.typing })
	if at < 0 {
		// Answered elsewhere (another client, the OpenCode TUI) while
		// this was typed: the text has nowhere to go, say so.
		d.stopTyping()
		return d, room.Flash("that question was answered or dismissed elsewhere", true)
	}
	switch {
	case key.Matches(msg, d.keys.CancelTyped):
		d.stopTyping()
		return d, nil
	case key.Matches(msg, d.keys.SendTyped):
		text := strings.TrimSpace(d.input.Value())
		if text == "" {
			return d, nil
		}
		d.stopTyping()
		return d, d.answer(items[at], []string{text})
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, cmd
}

func (d *Model) startTyping(it item) tea.Cmd {
	d.typing = it.id()
	d.input = textinput.New()
	d.input.Prompt = "✎ "
	d.input.Placeholder = "your answer"
	d.input.SetVirtualCursor(true)
	d.input.SetStyles(dialog.InputStyles(d.st)) // plain under NO_COLOR
	// The box's border and padding (4), the item's indent (4), the
	// input's own indent and prompt (4) and its cursor cell (1).
	d.input.SetWidth(max(d.width-13, 10))
	return d.input.Focus()
}

func (d *Model) stopTyping() {
	d.typing = ""
	d.input.Blur()
}

func (d *Model) updateKey(msg tea.KeyPressMsg) (room.Dialog, tea.Cmd) {
	items := d.items()
	i := d.cursor(items)
	switch {
	case key.Matches(msg, d.keys.Close):
		return nil, nil
	case key.Matches(msg, d.keys.Up):
		d.moveTo(items, i-1)
		return d, nil
	case key.Matches(msg, d.keys.Down):
		d.moveTo(items, i+1)
		return d, nil
	}
	if i < 0 {
		return d, nil
	}
	d.moveTo(items, i)
	it := items[i]
	if key.Matches(msg, d.keys.Jump) {
		return nil, room.Select(it.session)
	}
	if d.sending[it.id()] || d.sent[it.id()] != "" {
		return d, nil // one answer per request; the server's event ends it
	}
	if it.perm != nil {
		switch {
		case key.Matches(msg, d.keys.Allow):
			return d, d.replyPermission(it, task.ReplyOnce)
		case key.Matches(msg, d.keys.AllowAlways):
			return d, d.replyPermission(it, task.ReplyAlways)
		case key.Matches(msg, d.keys.Deny):
			return d, d.replyPermission(it, task.ReplyReject)
		}
		return d, nil
	}
	switch {
	case key.Matches(msg, d.keys.Dismiss):
		delete(d.drafts, it.id())
		return d, d.rejectQuestion(it)
	case key.Matches(msg, d.keys.Answer):
		return d, d.pick(it, msg.String())
	case key.Matches(msg, d.keys.SendPicks):
		if picks := d.picks[it.id()]; len(picks) > 0 {
			return d, d.answer(it, picks)
		}
	case key.Matches(msg, d.keys.Type):
		if cq := d.current(*it.question); cq != nil && cq.AllowsTyped() {
			return d, d.startTyping(it)
		}
	}
	return d, nil
}
