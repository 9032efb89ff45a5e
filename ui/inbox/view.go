package inbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/dialog"
	"github.com/octop-dev/octop/ui/format"
)

// title is a session's description without the agent suffix.
func (d *Model) title(id string) string {
	var s *model.Session
	if d.state != nil {
		s = d.state.Session(id)
	}
	t, _ := format.SplitTitle(dialog.TitleOf(s, id))
	return format.OneLine(t)
}

func (d *Model) View(w, h int) string {
	width := dialog.Width(w, 100)
	inner := width - 4
	items := d.items()
	cur := d.cursor(items)
	if len(items) == 0 {
		return dialog.Frame(d.st, width, "Inbox", d.st.Dim.Render("nobody is waiting on you"), dialog.Hint(d.keys.Close))
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
	return dialog.Frame(d.st, width, title, strings.Join(lines, "\n"), hintText)
}

// hint is the dialog's key line for the selected item.
func (d *Model) hint(it item) string {
	k := d.keys
	var keys []key.Binding
	if it.perm != nil {
		keys = []key.Binding{k.Allow, k.AllowAlways, k.Deny}
	} else if d.typing == it.id() {
		return dialog.Hint(k.SendTyped, k.CancelTyped)
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
	return dialog.Hint(keys...)
}

// itemLines draws one item: its session (title, agent, id), what it asks,
// and, once answered, what was sent or why it failed.
func (d *Model) itemLines(it item, selected bool, inner int) []string {
	b := &block{out: []string{d.itemHead(it, selected, inner)}, width: inner - 4}
	if it.perm != nil {
		d.permission(b, it.perm, selected)
	} else {
		d.questions(b, it)
	}
	switch id := it.id(); {
	case d.sending[id]:
		b.add(d.st.Busy.Render("sending…"))
	case d.sent[id] != "":
		b.add(d.st.Dim.Render(format.OneLine(d.sent[id]) + "; waiting for the server"))
	case d.failed[id] != "":
		b.add(d.st.Failed.Render("✗ " + format.OneLine(d.failed[id])))
	}
	return b.out
}

// block is an item's lines as they are drawn: the head, then indented
// lines cut to width.
type block struct {
	out   []string
	width int
}

func (b *block) add(s string) { b.out = append(b.out, "    "+ansi.Truncate(s, b.width, "…")) }

// itemHead is an item's first line: the session's title, agent and id.
func (d *Model) itemHead(it item, selected bool, inner int) string {
	st := d.st
	var s *model.Session
	if d.state != nil {
		s = d.state.Session(it.session)
	}
	title, agent := format.SplitTitle(dialog.TitleOf(s, it.session))
	mark, titleStyle := "  ", st.Title
	if selected {
		mark, titleStyle = st.Focused.Render("▸ "), st.Focused
	}
	head := mark + titleStyle.Render(format.OneLine(title))
	if agent != "" {
		head += " " + st.Badge.Render("@"+agent)
	}
	head += "  " + st.Dim.Render(format.OneLine(it.session))
	return ansi.Truncate(head, inner, "…")
}

// permission draws what a permission asks.
func (d *Model) permission(b *block, p *wire.PermissionRequest, selected bool) {
	what := format.OneLine(p.Permission)
	if len(p.Patterns) > 0 {
		what += ": " + format.OneLine(strings.Join(p.Patterns, " · "))
	}
	b.add(d.st.Waiting.Render("permission") + " " + what)
	// What A would allow for the rest of the session is wider than the
	// ask itself ("rm *" for "rm -rf build"): say it before it is pressed.
	if selected && len(p.Always) > 0 {
		b.add(d.st.Dim.Render("A allows from now on: " + format.OneLine(strings.Join(p.Always, " · "))))
	}
}

// questions draws a question request: each question, the answers drafted
// so far, and the options of the first one still open.
func (d *Model) questions(b *block, it item) {
	st := d.st
	draft := d.drafts[it.question.ID]
	for qi, q := range it.question.Questions {
		text := format.OneLine(q.Question)
		if q.Header != "" {
			text = format.OneLine(q.Header) + ": " + text
		}
		wrapped := strings.Split(ansi.Wrap(st.Waiting.Render("question")+" "+text, b.width, " "), "\n")
		for _, l := range wrapped[:min(len(wrapped), 3)] {
			b.add(l)
		}
		if qi < len(draft) {
			b.add(st.Done.Render("→ " + format.OneLine(strings.Join(draft[qi], ", "))))
			continue
		}
		if qi > len(draft) {
			continue // its options show once the questions before it are answered
		}
		d.options(b, q, d.picks[it.question.ID])
		if d.typing == it.id() {
			b.add("  " + d.input.View())
		} else if len(q.Options) == 0 {
			b.add(st.Dim.Render("  (no options: t to type an answer)"))
		}
	}
}

// options draws a question's options, numbered, with boxes when several
// may be picked.
func (d *Model) options(b *block, q wire.QuestionInfo, picks []string) {
	st := d.st
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
		b.add(line)
	}
}
