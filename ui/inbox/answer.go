package inbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/room"
)

// current is the request's next unanswered question, nil when all have
// an answer.
func (d *Model) current(q wire.QuestionRequest) *wire.QuestionInfo {
	n := len(d.drafts[q.ID])
	if n >= len(q.Questions) {
		return nil
	}
	return &q.Questions[n]
}

// pick chooses option n (1-based) of the request's current question. A
// question that takes several answers toggles the option instead; s sends
// what is on.
func (d *Model) pick(it item, n string) tea.Cmd {
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
func (d *Model) answer(it item, labels []string) tea.Cmd {
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

// The replies. Each is an request the root carries out; the reply
// (task.AnswerReply) comes back here to end the "sending" mark, and goes
// to the footer as a notice even if the inbox was closed meanwhile.

func (d *Model) replyPermission(it item, reply string) tea.Cmd {
	verb := map[string][2]string{
		task.ReplyOnce:   {"allowed", "allow"},
		task.ReplyAlways: {"allowed always", "allow always"},
		task.ReplyReject: {"denied", "deny"},
	}[reply]
	what := fmt.Sprintf("%s for %s", it.perm.Permission, d.title(it.session))
	d.mark(it.perm.ID, verb[0]+" "+what)
	return room.Send(task.AnswerPermissionRequest{RequestID: it.perm.ID, Reply: reply,
		Done: verb[0] + " " + what, Failed: "could not " + verb[1] + " " + what})
}

func (d *Model) replyQuestion(it item, answers [][]string) tea.Cmd {
	var picked []string
	for _, a := range answers {
		picked = append(picked, strings.Join(a, ", "))
	}
	what := fmt.Sprintf("%q for %s", strings.Join(picked, "; "), d.title(it.session))
	d.mark(it.question.ID, "answered "+what)
	return room.Send(task.AnswerQuestionRequest{RequestID: it.question.ID, Answers: answers,
		Done: "answered " + what, Failed: "could not answer " + what})
}

func (d *Model) rejectQuestion(it item) tea.Cmd {
	what := "the question of " + d.title(it.session)
	d.mark(it.question.ID, "dismissed "+what)
	return room.Send(task.RejectQuestionRequest{RequestID: it.question.ID,
		Done: "dismissed " + what, Failed: "could not dismiss " + what})
}

// mark notes a request as sending, with what was sent.
func (d *Model) mark(reqID, done string) {
	d.sending[reqID] = true
	d.sent[reqID] = done
	delete(d.failed, reqID)
}
