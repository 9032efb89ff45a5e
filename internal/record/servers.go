package record

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
