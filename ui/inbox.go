package ui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
	"github.com/octop-dev/octop/wire"
)

// InboxKeyMap is the inbox's keys. Deny and Dismiss share d: one rejects a
// permission, the other a question; the hint names the one that applies.
type InboxKeyMap struct {
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

// DefaultInboxKeyMap returns the inbox's keys.
func DefaultInboxKeyMap() InboxKeyMap {
	return InboxKeyMap{
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

// inboxItem is one request waiting on the person: a permission or a
// question (exactly one of perm and question is set).
type inboxItem struct {
	session  string
	perm     *wire.PermissionRequest
	question *wire.QuestionRequest
}

func (it inboxItem) id() string {
	if it.perm != nil {
		return it.perm.ID
	}
	return it.question.ID
}

// inboxCache keeps the item list of one State version, so that a frame
// after no change rebuilds nothing.
type inboxCache struct {
	version uint64
	valid   bool
	items   []inboxItem
}

// inboxRepliedMsg is the reply to one answer sent from the inbox.
type inboxRepliedMsg struct {
	seq   int64
	reqID string
	err   error
}

// inbox is the `i` dialog: every pending permission and question across
// the tree, in tree order (roots newest first, children in the order they
// were made), so the list reads like the tree and an item never moves
// while the person is answering. It reads the live State at each frame;
// an answered item stays, marked sent, until the server's
// permission.replied / question.replied / question.rejected removes it.
// Unlike the other dialogs it is used by pointer: its bookkeeping (sent,
// drafts, the input) lives across many keys, and the root holds one copy.
type inbox struct {
	seq   int64
	c     *client.Client
	st    *styles.Styles
	keys  InboxKeyMap
	state *model.State
	cache inboxCache

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

func newInbox(c *client.Client, st *styles.Styles, state *model.State, w int) *inbox {
	return &inbox{
		seq: nextSeq(), c: c, st: st, keys: DefaultInboxKeyMap(), state: state, width: dialogWidth(w, 100),
		sending: map[string]bool{}, sent: map[string]string{}, failed: map[string]string{},
		drafts: map[string][][]string{}, picks: map[string][]string{},
	}
}

// items lists the pending requests in tree order. Rather than walk the
// whole tree it places each waiting session by its path from its root, so
// a frame over ten thousand sessions costs about what the waiting few do.
func (d *inbox) items() []inboxItem {
	if d.state == nil || d.state.Pending() == 0 {
		return nil
	}
	if d.cache.valid && d.cache.version == d.state.Version() {
		return d.cache.items
	}
	waiting := d.state.Waiting()
	paths := make(map[string][]int, len(waiting))
	for _, id := range waiting {
		paths[id] = treePath(d.state, id)
	}
	slices.SortStableFunc(waiting, func(a, b string) int { return slices.Compare(paths[a], paths[b]) })
	var out []inboxItem
	for _, id := range waiting {
		for _, p := range d.state.Permissions(id) {
			out = append(out, inboxItem{session: id, perm: &p})
		}
		for _, q := range d.state.Questions(id) {
			out = append(out, inboxItem{session: id, question: &q})
		}
	}
	d.cache = inboxCache{version: d.state.Version(), valid: true, items: out}
	return out
}

// treePath is where a session sits in the tree: its root's place among
// the roots, then its place among each parent's children, top down.
// Comparing two paths orders sessions as the tree draws them.
func treePath(st *model.State, id string) []int {
	var rev []int
	seen := map[string]bool{}
	for s := st.Session(id); s != nil && !seen[s.ID]; {
		seen[s.ID] = true // a parent loop in bad data must not hang the screen
		parent := st.Session(s.ParentID)
		if s.ParentID == "" || parent == nil {
			i := slices.Index(st.Roots(), s.ID)
			if i < 0 {
				i = st.Len()
			}
			rev = append(rev, i)
			break
		}
		i := slices.Index(parent.Children, s.ID)
		if i < 0 {
			i = len(parent.Children)
		}
		rev = append(rev, i)
		s = parent
	}
	slices.Reverse(rev)
	return rev
}

// cursor is the index of the selected item in items, or -1 when empty.
func (d *inbox) cursor(items []inboxItem) int {
	if len(items) == 0 {
		return -1
	}
	for i, it := range items {
		if it.id() == d.cur {
			return i
		}
	}
	return min(max(d.idx, 0), len(items)-1)
}

func (d *inbox) moveTo(items []inboxItem, i int) {
	if len(items) == 0 {
		d.cur, d.idx = "", 0
		return
	}
	i = min(max(i, 0), len(items)-1)
	d.cur, d.idx = items[i].id(), i
}

func (d *inbox) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case inboxRepliedMsg:
		if msg.seq != d.seq {
			return d, nil
		}
		delete(d.sending, msg.reqID)
		if msg.err != nil {
			delete(d.sent, msg.reqID)
			d.failed[msg.reqID] = errText(msg.err)
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
func (d *inbox) updateTyping(msg tea.KeyPressMsg) (Dialog, tea.Cmd) {
	items := d.items()
	at := slices.IndexFunc(items, func(it inboxItem) bool { return it.id() == d.typing })
	if at < 0 {
		// Answered elsewhere (another client, the OpenCode TUI) while
		// this was typed: the text has nowhere to go, say so.
		d.stopTyping()
		return d, flashCmd("that question was answered or dismissed elsewhere", true)
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

func (d *inbox) startTyping(it inboxItem) tea.Cmd {
	d.typing = it.id()
	d.input = textinput.New()
	d.input.Prompt = "✎ "
	d.input.Placeholder = "your answer"
	d.input.SetVirtualCursor(true)
	d.input.SetWidth(max(d.width-4-8, 10))
	return d.input.Focus()
}

func (d *inbox) stopTyping() {
	d.typing = ""
	d.input.Blur()
}

func (d *inbox) updateKey(msg tea.KeyPressMsg) (Dialog, tea.Cmd) {
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
		return nil, selectCmd(it.session)
	}
	if d.sending[it.id()] || d.sent[it.id()] != "" {
		return d, nil // one answer per request; the server's event ends it
	}
	if it.perm != nil {
		switch {
		case key.Matches(msg, d.keys.Allow):
			return d, d.replyPermission(it, client.ReplyOnce)
		case key.Matches(msg, d.keys.AllowAlways):
			return d, d.replyPermission(it, client.ReplyAlways)
		case key.Matches(msg, d.keys.Deny):
			return d, d.replyPermission(it, client.ReplyReject)
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

// current is the request's next unanswered question, nil when all have
// an answer.
func (d *inbox) current(q wire.QuestionRequest) *wire.QuestionInfo {
	n := len(d.drafts[q.ID])
	if n >= len(q.Questions) {
		return nil
	}
	return &q.Questions[n]
}

// pick chooses option n (1-based) of the request's current question. A
// question that takes several answers toggles the option instead; s sends
// what is on.
func (d *inbox) pick(it inboxItem, n string) tea.Cmd {
	cq := d.current(*it.question)
	if cq == nil {
		return nil
	}
	k, err := strconv.Atoi(n)
	if err != nil || k < 1 || k > len(cq.Options) {
		return nil
	}
	label := cq.Options[k-1].Label
	if !cq.Multiple {
		return d.answer(it, []string{label})
	}
	picks := d.picks[it.id()]
	if i := slices.Index(picks, label); i >= 0 {
		picks = slices.Delete(slices.Clone(picks), i, i+1)
	} else {
		// Kept in the options' order, whatever order they were pressed in.
		picks = nil
		for _, o := range cq.Options {
			if o.Label == label || slices.Contains(d.picks[it.id()], o.Label) {
				picks = append(picks, o.Label)
			}
		}
	}
	d.picks[it.id()] = picks
	return nil
}

// answer records labels as the current question's answer, and sends the
// request's answers once every question has one.
func (d *inbox) answer(it inboxItem, labels []string) tea.Cmd {
	q := it.question
	delete(d.picks, q.ID)
	draft := d.drafts[q.ID]
	if len(draft) >= len(q.Questions) {
		return nil
	}
	draft = append(append([][]string(nil), draft...), labels)
	if len(draft) < len(q.Questions) {
		d.drafts[q.ID] = draft
		return nil
	}
	delete(d.drafts, q.ID)
	return d.replyQuestion(it, draft)
}

// The replies. Each captures plain values; its message goes back to the
// dialog (to end the "sending" mark) and, as a FlashMsg, to the footer,
// which shows it even if the dialog was closed meanwhile.

func (d *inbox) replyPermission(it inboxItem, reply string) tea.Cmd {
	verb := map[string][2]string{
		client.ReplyOnce:   {"allowed", "allow"},
		client.ReplyAlways: {"allowed always", "allow always"},
		client.ReplyReject: {"denied", "deny"},
	}[reply]
	what := fmt.Sprintf("%s for %s", it.perm.Permission, d.title(it.session))
	c, id := d.c, it.perm.ID
	return d.send(id, verb[0]+" "+what, "could not "+verb[1]+" "+what, func(ctx context.Context) error {
		return c.ReplyPermission(ctx, id, reply, "")
	})
}

func (d *inbox) replyQuestion(it inboxItem, answers [][]string) tea.Cmd {
	var picked []string
	for _, a := range answers {
		picked = append(picked, strings.Join(a, ", "))
	}
	what := fmt.Sprintf("%q for %s", strings.Join(picked, "; "), d.title(it.session))
	c, id := d.c, it.question.ID
	return d.send(id, "answered "+what, "could not answer "+what, func(ctx context.Context) error {
		return c.ReplyQuestion(ctx, id, answers)
	})
}

func (d *inbox) rejectQuestion(it inboxItem) tea.Cmd {
	what := "the question of " + d.title(it.session)
	c, id := d.c, it.question.ID
	return d.send(id, "dismissed "+what, "could not dismiss "+what, func(ctx context.Context) error {
		return c.RejectQuestion(ctx, id)
	})
}

// send marks the request as sending and returns the Cmd that makes the
// call. On success the notice says what was done; on failure, why not.
func (d *inbox) send(reqID, done, failed string, call func(ctx context.Context) error) tea.Cmd {
	d.sending[reqID] = true
	d.sent[reqID] = done
	delete(d.failed, reqID)
	seq := d.seq
	return func() tea.Msg {
		err := withTimeout(call)
		flash := FlashMsg{Text: done}
		if err != nil {
			flash = FlashMsg{Text: failed + ": " + errText(err), Error: true}
		}
		return tea.BatchMsg{
			func() tea.Msg { return inboxRepliedMsg{seq: seq, reqID: reqID, err: err} },
			func() tea.Msg { return flash },
		}
	}
}

// title is a session's description without the agent suffix.
func (d *inbox) title(id string) string {
	var s *model.Session
	if d.state != nil {
		s = d.state.Session(id)
	}
	t, _ := format.SplitTitle(titleOf(s, id))
	return format.OneLine(t)
}

func (d *inbox) View(w, h int) string {
	width := dialogWidth(w, 100)
	inner := width - 4
	items := d.items()
	cur := d.cursor(items)
	if len(items) == 0 {
		return frame(d.st, width, "Inbox", d.st.Dim.Render("nobody is waiting on you"), hint(d.keys.Close))
	}

	// Draw every item, note where the selected one is, then show the
	// window of lines that holds it.
	var lines []string
	selFrom, selTo := 0, 0
	for i, it := range items {
		if i == cur {
			selFrom = len(lines)
		}
		lines = append(lines, d.itemLines(it, i == cur, inner)...)
		if i == cur {
			selTo = len(lines)
		}
	}
	// The box leaves the bottom line free: the footer shows each
	// answer's notice there.
	hintText := d.hint(items[cur])
	room := h - 6 - strings.Count(ansi.Wrap(hintText, inner, " "), "\n") - 1
	if room < 3 {
		// A short screen: the keys get one line, the requests the rest.
		hintText = ansi.Truncate(hintText, inner, "…")
		room = max(h-7, 1)
	}
	top := 0
	if len(lines) > room {
		top = min(max(selTo-room, 0), selFrom)
		lines = lines[top:min(top+room, len(lines))]
	}

	sessions := map[string]bool{}
	for _, it := range items {
		sessions[it.session] = true
	}
	title := fmt.Sprintf("Inbox: %s from %s waiting on you", format.Plural(len(items), "request", "requests"),
		format.Plural(len(sessions), "session", "sessions"))
	if len(items) > 1 {
		title += fmt.Sprintf(" · %d/%d", cur+1, len(items))
	}
	return frame(d.st, width, title, strings.Join(lines, "\n"), hintText)
}

// hint is the dialog's key line for the selected item.
func (d *inbox) hint(it inboxItem) string {
	k := d.keys
	var keys []key.Binding
	if it.perm != nil {
		keys = []key.Binding{k.Allow, k.AllowAlways, k.Deny}
	} else if d.typing == it.id() {
		return hint(k.SendTyped, k.CancelTyped)
	} else {
		if cq := d.current(*it.question); cq != nil {
			if n := len(cq.Options); n > 0 {
				answer := k.Answer
				answer.SetHelp(fmt.Sprintf("1-%d", min(n, 9)), "answer")
				if cq.Multiple {
					answer.SetHelp(fmt.Sprintf("1-%d", min(n, 9)), "toggle")
				}
				keys = append(keys, answer)
			}
			if cq.Multiple && len(d.picks[it.id()]) > 0 {
				keys = append(keys, k.SendPicks)
			}
			if cq.AllowsTyped() {
				keys = append(keys, k.Type)
			}
		}
		keys = append(keys, k.Dismiss)
	}
	keys = append(keys, key.NewBinding(key.WithKeys("j", "k"), key.WithHelp("j/k", "move")), k.Jump, k.Close)
	return hint(keys...)
}

// itemLines draws one item: its session (title, agent, id), what it asks,
// and, once answered, what was sent or why it failed.
func (d *inbox) itemLines(it inboxItem, selected bool, inner int) []string {
	st := d.st
	var s *model.Session
	if d.state != nil {
		s = d.state.Session(it.session)
	}
	title, agent := format.SplitTitle(titleOf(s, it.session))
	mark, titleStyle := "  ", st.Title
	if selected {
		mark, titleStyle = st.Focused.Render("▸ "), st.Focused
	}
	head := mark + titleStyle.Render(format.OneLine(title))
	if agent != "" {
		head += " " + st.Badge.Render("@"+agent)
	}
	head += "  " + st.Dim.Render(it.session)
	out := []string{ansi.Truncate(head, inner, "…")}
	body := inner - 4
	add := func(s string) { out = append(out, "    "+ansi.Truncate(s, body, "…")) }

	if p := it.perm; p != nil {
		what := p.Permission
		if len(p.Patterns) > 0 {
			what += ": " + format.OneLine(strings.Join(p.Patterns, " · "))
		}
		add(st.Waiting.Render("permission") + " " + what)
		// What A would allow for the rest of the session is wider than the
		// ask itself ("rm *" for "rm -rf build"): say it before it is pressed.
		if selected && len(p.Always) > 0 {
			add(st.Dim.Render("A allows from now on: " + format.OneLine(strings.Join(p.Always, " · "))))
		}
	} else {
		draft := d.drafts[it.question.ID]
		for qi, q := range it.question.Questions {
			text := format.OneLine(q.Question)
			if q.Header != "" {
				text = format.OneLine(q.Header) + ": " + text
			}
			wrapped := strings.Split(ansi.Wrap(st.Waiting.Render("question")+" "+text, body, " "), "\n")
			for _, l := range wrapped[:min(len(wrapped), 3)] {
				add(l)
			}
			if qi < len(draft) {
				add(st.Done.Render("→ " + strings.Join(draft[qi], ", ")))
				continue
			}
			if qi > len(draft) {
				continue // its options show once the questions before it are answered
			}
			picks := d.picks[it.question.ID]
			for oi, o := range q.Options {
				n := "·"
				if oi < 9 {
					n = strconv.Itoa(oi + 1)
				}
				box := ""
				if q.Multiple {
					box = "[ ] "
					if slices.Contains(picks, o.Label) {
						box = "[x] "
					}
				}
				line := "  " + st.Label.Render(n) + " " + box + format.OneLine(o.Label)
				if o.Description != "" {
					line += "  " + st.Dim.Render(format.OneLine(o.Description))
				}
				add(line)
			}
			if d.typing == it.id() {
				add("  " + d.input.View())
			} else if len(q.Options) == 0 {
				add(st.Dim.Render("  (no options: t to type an answer)"))
			}
		}
	}
	switch id := it.id(); {
	case d.sending[id]:
		add(st.Busy.Render("sending…"))
	case d.sent[id] != "":
		add(st.Dim.Render(d.sent[id] + "; waiting for the server"))
	case d.failed[id] != "":
		add(st.Failed.Render("✗ " + d.failed[id]))
	}
	return out
}
