package transcript

import (
	"sort"

	"github.com/octop-dev/octop/internal/wire"
)

// Live is one session's messages kept current from the event stream, so a
// transcript view tails a running session without reading it again. Each
// message's entries are rebuilt only when one of its parts changes.
type Live struct {
	id      string
	msgs    []wire.MessageWithParts // by message id, ascending (ids ascend with time)
	entries [][]Entry               // per message; nil means rebuild
	flat    []Entry
	version uint64 // bumped by every change
	flatV   uint64
}

// NewLive starts from a REST read of the session's messages.
func NewLive(id string, msgs []wire.MessageWithParts) *Live {
	l := &Live{id: id, msgs: append([]wire.MessageWithParts(nil), msgs...), version: 1}
	sort.SliceStable(l.msgs, func(i, j int) bool { return l.msgs[i].Info.ID < l.msgs[j].Info.ID })
	l.entries = make([][]Entry, len(l.msgs))
	return l
}

// ID is the session the transcript is of.
func (l *Live) ID() string { return l.id }

// Version changes whenever Entries would.
func (l *Live) Version() uint64 { return l.version }

// Apply folds an event about this session in and reports whether it
// changed anything. Events of other sessions are ignored.
func (l *Live) Apply(ev wire.Event) bool {
	switch e := ev.(type) {
	case wire.MessageUpdated:
		if e.Info.SessionID != l.id {
			return false
		}
		i := l.message(e.Info.ID, true)
		l.msgs[i].Info = e.Info
		return l.touch(i)
	case wire.MessageRemoved:
		if e.SessionID != l.id {
			return false
		}
		if i := l.message(e.MessageID, false); i >= 0 {
			l.msgs = append(l.msgs[:i], l.msgs[i+1:]...)
			l.entries = append(l.entries[:i], l.entries[i+1:]...)
			l.version++
			return true
		}
	case wire.PartUpdated:
		if e.Part.SessionID != l.id {
			return false
		}
		i := l.message(e.Part.MessageID, true)
		l.upsertPart(i, e.Part)
		return l.touch(i)
	case wire.PartRemoved:
		return l.removePart(e)
	case wire.PartDelta:
		return l.delta(e)
	}
	return false
}

func (l *Live) touch(i int) bool {
	l.entries[i] = nil
	l.version++
	return true
}

// message finds a message's index, adding an empty one when asked.
func (l *Live) message(id string, add bool) int {
	i := sort.Search(len(l.msgs), func(i int) bool { return l.msgs[i].Info.ID >= id })
	if i < len(l.msgs) && l.msgs[i].Info.ID == id {
		return i
	}
	if !add {
		return -1
	}
	l.msgs = append(l.msgs, wire.MessageWithParts{})
	copy(l.msgs[i+1:], l.msgs[i:])
	l.msgs[i] = wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: l.id, Role: "assistant"}}
	l.entries = append(l.entries, nil)
	copy(l.entries[i+1:], l.entries[i:])
	l.entries[i] = nil
	return i
}

func (l *Live) upsertPart(i int, p wire.Part) {
	parts := l.msgs[i].Parts
	j := sort.Search(len(parts), func(j int) bool { return parts[j].ID >= p.ID })
	if j < len(parts) && parts[j].ID == p.ID {
		parts[j] = p
		return
	}
	parts = append(parts, wire.Part{})
	copy(parts[j+1:], parts[j:])
	parts[j] = p
	l.msgs[i].Parts = parts
}

func (l *Live) removePart(e wire.PartRemoved) bool {
	if e.SessionID != l.id {
		return false
	}
	i := l.message(e.MessageID, false)
	if i < 0 {
		return false
	}
	parts := l.msgs[i].Parts
	for j := range parts {
		if parts[j].ID == e.PartID {
			l.msgs[i].Parts = append(parts[:j], parts[j+1:]...)
			return l.touch(i)
		}
	}
	return false
}

// delta appends streamed text to a part its update already announced.
func (l *Live) delta(e wire.PartDelta) bool {
	if e.SessionID != l.id || e.Field != "text" {
		return false
	}
	i := l.message(e.MessageID, false)
	if i < 0 {
		return false
	}
	for j := range l.msgs[i].Parts {
		if p := &l.msgs[i].Parts[j]; p.ID == e.PartID {
			p.Text += e.Delta
			return l.touch(i)
		}
	}
	return false
}

// Entries is the transcript as it is now (shared: do not change it).
func (l *Live) Entries() []Entry {
	if l.flatV == l.version && l.flat != nil {
		return l.flat
	}
	l.flat = l.flat[:0]
	for i := range l.msgs {
		if l.entries[i] == nil {
			l.entries[i] = appendMessage([]Entry{}, &l.msgs[i])
		}
		l.flat = append(l.flat, l.entries[i]...)
	}
	l.flat = markQueued(l.flat, l.msgs)
	l.flatV = l.version
	return l.flat
}

// Messages is a copy of the messages as they are now, oldest first: safe
// to keep while Live goes on changing.
func (l *Live) Messages() []wire.MessageWithParts {
	out := make([]wire.MessageWithParts, len(l.msgs))
	for i, m := range l.msgs {
		out[i] = wire.MessageWithParts{Info: m.Info, Parts: append([]wire.Part(nil), m.Parts...)}
	}
	return out
}
