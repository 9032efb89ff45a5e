package model

import (
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// msgAcct is what a session keeps of one message: enough for tokens, cost,
// the last error and which text is the assistant's.
type msgAcct struct {
	id   string
	role uint8 // roleUnknown until its message.updated arrives
	// Message-level totals win when the server sent them; otherwise the
	// step-finish parts of the message are summed (never both, so nothing
	// is counted twice).
	hasTotals bool
	// done: an assistant reply that completed, finished or failed. One
	// left not done on an idle session was interrupted.
	done bool
	// notice says it is a background task's end notice, not a prompt.
	notice       bool
	tokens, cost float64
	steps        []stepAcct
	err          *wire.ErrorInfo
	// created is the message's creation time, last the latest time it or
	// its parts name: its run's bounds come from them.
	created, last int64
}

type stepAcct struct {
	part         string
	tokens, cost float64
}

const (
	roleUnknown uint8 = iota
	roleUser
	roleAssistant
)

func (ss *Session) findMsg(id string) *msgAcct {
	msgs := ss.rd().msgs
	if n := len(msgs); n > 0 && msgs[n-1].id == id {
		return &msgs[n-1] // what a part names is nearly always the newest
	}
	i := sort.Search(len(msgs), func(i int) bool { return msgs[i].id >= id })
	if i < len(msgs) && msgs[i].id == id {
		return &msgs[i]
	}
	return nil
}

// msg finds or adds the account of a message. Message ids ascend with
// time, so keeping them sorted keeps them in conversation order.
func (ss *Session) msg(id string) *msgAcct {
	x := ss.more()
	i := sort.Search(len(x.msgs), func(i int) bool { return x.msgs[i].id >= id })
	if i < len(x.msgs) && x.msgs[i].id == id {
		return &x.msgs[i]
	}
	x.msgs = insertAt(x.msgs, i, msgAcct{id: id})
	return &x.msgs[i]
}

func (s *State) applyMessage(ss *Session, m *wire.Message) {
	if m.ID == "" {
		return
	}
	a := ss.msg(m.ID)
	if m.Time.Created != 0 {
		a.created = m.Time.Created
	}
	if m.Role == "user" && !a.notice {
		ss.promptAt(m.Time.Created) // before its times: they fall in its run
	}
	ss.noteMsgTime(m.ID, m.Time.Created)
	ss.sawEnd(m.ID, m.Time.Completed)
	switch m.Role {
	case "user":
		a.role = roleUser
		if m.Time.Created > ss.RunStart && !a.notice {
			ss.RunStart = m.Time.Created
		}
		if x := ss.more(); m.Agent != "" && m.ID >= x.agentMsg {
			// The newest prompt names the agent now running the session
			// (a resume may pick another one than the session began with).
			x.agentMsg = m.ID
			if ss.Agent != m.Agent {
				ss.Agent = s.internStr(m.Agent)
			}
		}
		if ss.rd().textMsg == m.ID {
			// The text taken as the last reply was the user's prompt.
			ss.clearText()
		}
	case "assistant":
		a.role = roleAssistant
		a.done = m.Time.Completed != 0 || m.Finish != "" || m.Error != nil
		if m.Tokens.Sum() > 0 || m.Cost > 0 {
			a.hasTotals, a.tokens, a.cost, a.steps = true, m.Tokens.Sum(), m.Cost, nil
		}
		if m.Error != nil {
			e := *m.Error
			a.err = &e
			if ss.latestAssistant() == a {
				ss.Err = &e
			}
		} else {
			a.err = nil
		}
		if ss.Agent == "" && m.Agent != "" {
			// 1.1.x sessions carry no agent; their replies do.
			ss.Agent = s.internStr(m.Agent)
		}
		ss.recomputeTotals()
	}
}

func (ss *Session) latestAssistant() *msgAcct {
	msgs := ss.rd().msgs
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].role == roleAssistant {
			return &msgs[i]
		}
	}
	return nil
}

func (s *State) removeMessage(ss *Session, id string) {
	if x := ss.x; x != nil && x.frozen == nil {
		i := sort.Search(len(x.msgs), func(i int) bool { return x.msgs[i].id >= id })
		if i < len(x.msgs) && x.msgs[i].id == id {
			x.msgs = append(x.msgs[:i], x.msgs[i+1:]...)
		}
		if x.textMsg == id {
			ss.clearText()
		}
		kept := x.notices[:0]
		for _, n := range x.notices {
			if n.msg != id {
				kept = append(kept, n)
			}
		}
		x.notices = kept
	}
	kept := ss.Tools[:0]
	for _, t := range ss.Tools {
		if t.MessageID == id {
			ss.countTool(t.Status, -1)
			if t.Background {
				ss.nBg--
			}
			continue
		}
		kept = append(kept, t)
	}
	clear(ss.Tools[len(kept):])
	ss.Tools = kept
	ss.recomputeTotals()
	ss.rebuildRuns()
}

// applyStep counts a step-finish part, unless its message already has
// message-level totals.
func (ss *Session) applyStep(p *wire.Part) {
	if p.MessageID == "" || p.Tokens == nil && p.Cost == 0 {
		return
	}
	a := ss.msg(p.MessageID)
	if a.hasTotals {
		return
	}
	var tok float64
	if p.Tokens != nil {
		tok = p.Tokens.Sum()
	}
	for i := range a.steps {
		if a.steps[i].part == p.ID {
			a.steps[i].tokens, a.steps[i].cost = tok, p.Cost
			ss.recomputeTotals()
			return
		}
	}
	a.steps = append(a.steps, stepAcct{part: p.ID, tokens: tok, cost: p.Cost})
	ss.recomputeTotals()
}

func (ss *Session) removeStep(msgID, partID string) {
	a := ss.findMsg(msgID)
	if a == nil {
		return
	}
	for i := range a.steps {
		if a.steps[i].part == partID {
			a.steps = append(a.steps[:i], a.steps[i+1:]...)
			ss.recomputeTotals()
			return
		}
	}
}

// recomputeTotals sums in message order, so the result does not depend on
// the order events arrived in. The server's own session totals (1.18 sends
// them) are a floor: they may lag the messages but never overcount.
//
// A reply that used tokens with no cost reported is counted unpriced
// (Unpriced). Replies not read are not counted, so the count kept from
// before (infoUnpriced) is a floor too; and a session that used tokens
// and cost nothing at all has at least one.
func (ss *Session) recomputeTotals() {
	var tok, cost float64
	var unpriced int32
	msgs := ss.rd().msgs
	for i := range msgs {
		a := &msgs[i]
		mt, mc := a.tokens, a.cost
		if !a.hasTotals {
			mt, mc = 0, 0
			for _, st := range a.steps {
				mt += st.tokens
				mc += st.cost
			}
		}
		tok += mt
		cost += mc
		if a.role != roleUser && Unpriced(mt, mc) {
			unpriced++
		}
	}
	x := ss.rd()
	ss.Tokens = max(tok, x.infoTokens)
	ss.Cost = max(cost, x.infoCost)
	ss.setUnpriced(max(unpriced, x.infoUnpriced))
}

// setUnpriced sets the session's count of unpriced replies: n, or one
// when n is none but its totals say it used tokens with no cost.
func (ss *Session) setUnpriced(n int32) {
	if n == 0 && Unpriced(ss.Tokens, ss.Cost) {
		n = 1
	}
	ss.unpriced = n
}

// applyText follows the newest assistant text part of the session.
func (ss *Session) applyText(p *wire.Part) {
	if a := ss.findMsg(p.MessageID); a != nil && a.role == roleUser {
		return
	}
	ended := p.Time != nil && p.Time.End != 0
	if p.Time != nil {
		ss.noteMsgTime(p.MessageID, p.Time.Start)
		ss.sawEnd(p.MessageID, p.Time.End)
	}
	x := ss.more()
	if p.ID == x.textPart {
		if x.textDone && !ended {
			return // a late copy of an earlier state
		}
		x.lastText, x.textDone = boundTail(p.Text, maxText), ended
		return
	}
	if !newerPart(p.MessageID, p.ID, x.textMsg, x.textPart) {
		return
	}
	x.textMsg, x.textPart = p.MessageID, p.ID
	x.lastText, x.textDone = boundTail(p.Text, maxText), ended
}

// applyDelta appends streamed text. Only the current text part takes
// deltas: its message.part.updated (type text) always comes first, and a
// delta cannot tell a text part from a reasoning one by itself.
func (s *State) applyDelta(ss *Session, msgID, partID, delta string) {
	x := ss.x
	if x == nil || x.frozen != nil || partID != x.textPart || x.textDone {
		return
	}
	x.lastText = boundTail(x.lastText+delta, maxText)
}

func newerPart(msgA, partA, msgB, partB string) bool {
	if msgA != msgB {
		return msgA > msgB
	}
	return partA > partB
}

// insertAt inserts v at i. It grows a full slice by a quarter, not by
// doubling as append does: a session's lists are long-lived and mostly
// done growing, so the slack doubling leaves would be most of their memory.
func insertAt[T any](xs []T, i int, v T) []T {
	if len(xs) == cap(xs) {
		n := make([]T, len(xs)+1, len(xs)+len(xs)/4+2)
		copy(n, xs[:i])
		n[i] = v
		copy(n[i+1:], xs[i:])
		return n
	}
	xs = xs[:len(xs)+1]
	copy(xs[i+1:], xs[i:])
	xs[i] = v
	return xs
}
