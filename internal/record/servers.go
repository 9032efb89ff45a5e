package record

import (
	"errors"
	"io"
	"time"
)

// Info is what Scan learns of a recording, reading it through once.
type Info struct {
	// Servers are the servers it holds entries of, as Recording.Servers.
	Servers []string
	// First is its first entry's time (the earliest), zero when it has
	// none.
	First time.Time
	// Truncated says it ends mid-way, as Recording.Truncated.
	Truncated bool
}

// Scan reads the recording src through once, an entry at a time, and
// says what it holds; an error is the first thing wrong with it.
func Scan(src Source) (Info, error) {
	var info Info
	f, err := src()
	if err != nil {
		return info, err
	}
	defer f.Close()
	rd, err := NewEntryReader(f)
	if err != nil {
		return info, err
	}
	seen := map[string]bool{}
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			info.Truncated = rd.Truncated()
			return info, nil
		}
		if err != nil {
			return info, err
		}
		if e.Server != "" && !seen[e.Server] {
			seen[e.Server] = true
			info.Servers = append(info.Servers, e.Server)
		}
		if t := e.Time(); info.First.IsZero() || t.Before(info.First) {
			info.First = t
		}
	}
}

// Servers are the servers a recording holds entries of, in the order
// each first appears (a recording of several announces each first, in
// the screen's order). A recording of one server has one; an entry with
// no server counts as the first's.
func (r Recording) Servers() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range r.Entries {
		if e.Server != "" && !seen[e.Server] {
			seen[e.Server] = true
			out = append(out, e.Server)
		}
	}
	return out
}

// Of is the part of the recording one server sent: the header and that
// server's entries, in order (and those with no server when it is the
// first), so it plays as a recording of that server alone.
func (r Recording) Of(server string) Recording {
	first := ""
	if s := r.Servers(); len(s) > 0 {
		first = s[0]
	}
	out := Recording{Header: r.Header, Truncated: r.Truncated}
	for _, e := range r.Entries {
		if e.Server == server || (e.Server == "" && server == first) {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}
