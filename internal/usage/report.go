package usage

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Session is one session as the ledger reads it.
type Session struct {
	ID string
	// Root is the id of the session's root (its own id for a root), and
	// RootTitle that root's title.
	Root, RootTitle string
	// Agent is the session's agent, for replies that name none.
	Agent string
	// End is how the session stands: one of the model's end words
	// (model.Ends).
	End  string
	Msgs []wire.MessageWithParts
}

// endOrder orders the rows of --by end: the model's order of end words.
var endOrder = func() map[string]int {
	m := make(map[string]int, len(model.Ends))
	for i, e := range model.Ends {
		m[e] = i
	}
	return m
}()

// By is a grouping.
type By string

// The groupings.
const (
	ByAgent By = "agent"
	ByModel By = "model"
	ByRoot  By = "root"
	ByDay   By = "day"
	ByEnd   By = "end"
)

// Bys lists the groupings in the order the screen cycles through them.
var Bys = []By{ByAgent, ByModel, ByRoot, ByDay, ByEnd}

// ParseBy reads a grouping's name; the error lists the choices.
func ParseBy(s string) (By, error) {
	for _, b := range Bys {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("--by takes agent, model, root, day or end, not %q", s)
}

// Options narrow and place a ledger.
type Options struct {
	// Since (Unix ms) leaves out replies created before it; 0 keeps all.
	Since int64
	// Loc is where days begin (--by day); nil is UTC.
	Loc *time.Location
}

// Row is one group's figures. Key is what the group is (an agent, a
// model, a root's id, a day, an end); Label says it for a person (a
// root's title, else the key).
type Row struct {
	Key   string `json:"key"`
	Label string `json:"label,omitempty"`
	Figures
}

// MarshalJSON writes the row's key and label beside its figures, as
// Figures.MarshalJSON writes them (which, promoted, would drop the key).
func (r Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key   string `json:"key"`
		Label string `json:"label,omitempty"`
		figuresJSON
	}{r.Key, r.Label, r.json()})
}

// Report is the figures of a set of sessions, grouped.
type Report struct {
	By    By      `json:"by"`
	Rows  []Row   `json:"rows"`
	Total Figures `json:"total"`
	// Ends are the figures by how sessions ended, whatever By is, so
	// what ended badly can always be said.
	Ends map[string]Figures `json:"ends"`
}

// Build adds up the sessions' replies by the grouping.
func Build(sessions []Session, by By, o Options) Report {
	if o.Loc == nil {
		o.Loc = time.UTC
	}
	l := Report{By: by, Rows: []Row{}, Ends: map[string]Figures{}}
	rows := map[string]*Row{}
	for i := range sessions {
		s := &sessions[i]
		// Each group this session's replies fall in counts it once.
		seen := map[string]bool{}
		counted := false
		for j := range s.Msgs {
			m := &s.Msgs[j]
			r, ok := ReplyOf(m)
			if !ok || m.Info.Time.Created < o.Since {
				continue
			}
			key, label := groupOf(s, m, by, o.Loc)
			row := rows[key]
			if row == nil {
				row = &Row{Key: key, Label: label}
				rows[key] = row
			}
			row.Add(r)
			if !seen[key] {
				seen[key] = true
				row.Sessions++
			}
			l.Total.Add(r)
			e := l.Ends[s.End]
			e.Add(r)
			if !counted {
				e.Sessions++
				l.Total.Sessions++
				counted = true
			}
			l.Ends[s.End] = e
		}
	}
	for _, r := range rows {
		l.Rows = append(l.Rows, *r)
	}
	sortRows(l.Rows, by)
	return l
}

// groupOf is the group a reply falls in.
func groupOf(s *Session, m *wire.MessageWithParts, by By, loc *time.Location) (key, label string) {
	switch by {
	case ByModel:
		if m.Info.ModelID == "" {
			return "unknown", ""
		}
		if m.Info.ProviderID == "" {
			return m.Info.ModelID, ""
		}
		return m.Info.ProviderID + "/" + m.Info.ModelID, ""
	case ByRoot:
		return s.Root, s.RootTitle
	case ByDay:
		return time.UnixMilli(m.Info.Time.Created).In(loc).Format("2006-01-02"), ""
	case ByEnd:
		return s.End, ""
	}
	for _, a := range []string{m.Info.Agent, m.Info.Mode, s.Agent} {
		if a != "" {
			return a, ""
		}
	}
	return "unknown", ""
}

// sortRows orders days and ends in their own order, anything else by
// cost, then tokens, most first.
func sortRows(rows []Row, by By) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		switch by {
		case ByDay:
			return a.Key < b.Key
		case ByEnd:
			return endOrder[a.Key] < endOrder[b.Key]
		}
		if a.Cost != b.Cost {
			return a.Cost > b.Cost
		}
		if at, bt := a.Tokens.Sum(), b.Tokens.Sum(); at != bt {
			return at > bt
		}
		return a.Key < b.Key
	})
}

// Bad is what ended badly used: the ends whose kind is bad (failed,
// interrupted, denied; model.Kind.Bad). Aborted work is not in it: someone
// chose to stop it (Aborted).
func (l Report) Bad() Figures {
	var f Figures
	for _, e := range badEnds() {
		f.Plus(l.Ends[e])
	}
	return f
}

// Aborted is what the sessions someone stopped used.
func (l Report) Aborted() Figures { return l.Ends[model.EndAborted] }

// badEnds are the end words of the bad kinds, in the model's order.
func badEnds() []string {
	var out []string
	for _, e := range model.Ends {
		if k, ok := model.KindOfEnd(e); ok && k.Bad() {
			out = append(out, e)
		}
	}
	return out
}
