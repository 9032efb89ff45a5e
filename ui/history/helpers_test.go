package history

import (
	"context"
	"errors"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// fake is a server that counts its reads of each session and fails the
// reads of some a number of times before they succeed.
type fake struct {
	task.Server
	mu    sync.Mutex
	fails map[string]int
	reads map[string]int
}

func newFake(fails map[string]int) *fake { return &fake{fails: fails, reads: map[string]int{}} }

func (f *fake) History(_ context.Context, id, _ string) ([]wire.MessageWithParts, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads[id]++
	if f.fails[id] > 0 {
		f.fails[id]--
		return nil, errors.New("HTTP 500")
	}
	return []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Time: wire.MessageTime{Created: 1}}}}, nil
}

// total is how many reads the server answered, of every session.
func (f *fake) total() int {
	n := 0
	for _, r := range f.reads {
		n += r
	}
	return n
}

// each runs cmd and the commands it leads to, one after the other,
// handing each read's Msg to f, whose Cmd joins the queue.
func each(cmd tea.Cmd, f func(Msg) tea.Cmd) {
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch msg := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case Msg:
			queue = append(queue, f(msg))
		}
	}
}

// pump runs the reads the way the root does: each reply goes through
// Done, its messages into the state, then Next.
func pump(t *testing.T, h *Reader, st *model.State, srv task.Server, cmd tea.Cmd) {
	t.Helper()
	each(cmd, func(msg Msg) tea.Cmd {
		msgs, ok := h.Done(msg)
		if !ok {
			return nil
		}
		st.ApplyMessages(msgs)
		return h.Next(st, srv)
	})
}

// msgsOf runs cmd, a read or a batch of them, and returns the reads' Msgs.
func msgsOf(cmd tea.Cmd) []Msg {
	var out []Msg
	each(cmd, func(m Msg) tea.Cmd { out = append(out, m); return nil })
	return out
}

// wanted is what a screen shows: the selected session sel, the rows ids,
// and whether a sort or filter needs every history.
func wanted(sel string, ids []string, all bool) Wanted {
	return Wanted{Selected: sel, Shown: ids, All: all}
}
