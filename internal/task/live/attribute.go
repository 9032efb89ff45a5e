package live

import (
	"github.com/octop-dev/octop/internal/task"

	"math"
	"sort"
	"strings"
)

// The ways a session is found to have changed a file, weakest first.
const (
	byStep = iota
	byCommand
	byTool
)

// claim is a tool call that names a file: a file tool's (sure) or a
// command's.
type claim struct {
	session, file, how string
	strength           int
	at                 int64
}

// step is one step of a session (an assistant message) and the files its
// patch part says changed during it, whoever changed them.
type step struct {
	session  string
	files    []string
	from, to int64
}

// evidence is what the histories say about who changed which file.
type evidence struct {
	claims []claim
	steps  []step
}

// gather reads the histories (by session id) for calls and steps from
// since on. A command counts for the files of watch it names.
func gather(h map[string][]spanMsg, root string, since int64, watch map[string]bool) evidence {
	w := worktree{root: root}
	var ev evidence
	for id, msgs := range h {
		for _, m := range msgs {
			end := m.Info.Time.Completed
			if end == 0 {
				end = math.MaxInt64 // still running
			}
			if end < since {
				continue
			}
			cwd := m.Info.Path.Cwd
			st := step{session: id, from: m.Info.Time.Created, to: end}
			for _, p := range m.Parts {
				switch {
				case p.Type == "patch":
					for _, f := range p.Files {
						st.files = append(st.files, w.rel(f, cwd))
					}
				case p.Type == "tool" && p.State != nil && p.State.Time.Start >= since:
					ev.claims = append(ev.claims, w.claims(id, p, cwd, watch)...)
				}
			}
			if len(st.files) > 0 {
				ev.steps = append(ev.steps, st)
			}
		}
	}
	return ev
}

// claims are the files one tool call names.
func (w worktree) claims(id string, p spanPart, cwd string, watch map[string]bool) []claim {
	at := p.State.Time.Start
	if fileTools[p.Tool] {
		var out []claim
		for _, f := range w.toolFiles(p, cwd) {
			out = append(out, claim{session: id, file: f, how: p.Tool, strength: byTool, at: at})
		}
		return out
	}
	cmd := command(p)
	if cmd == "" {
		return nil
	}
	var out []claim
	for f := range watch {
		if names(cmd, f) {
			out = append(out, claim{session: id, file: f, how: "bash: " + oneLine(cmd), strength: byCommand, at: at})
		}
	}
	return out
}

// attribute names, for each file of files, the sessions that changed it
// besides those mine says are the ones being undone or redone. noSteps
// says whose steps alone prove nothing: the ancestors whose task call
// waited on the session, whose steps saw every change of their children.
//
// A session's step that saw a file change counts against it only when no
// call of any session (the ones being undone included) explains the
// change: a sibling's step lists the files its sibling wrote meanwhile.
func attribute(ev evidence, files map[string]bool, mine, noSteps func(id string) bool) map[string][]task.Change {
	best := map[[2]string]claim{}
	keep := func(c claim) {
		k := [2]string{c.file, c.session}
		if old, ok := best[k]; !ok || c.strength > old.strength {
			best[k] = c
		}
	}
	for _, c := range ev.claims {
		if files[c.file] && !mine(c.session) {
			keep(c)
		}
	}
	for _, st := range ev.steps {
		if mine(st.session) || noSteps(st.session) {
			continue
		}
		for _, f := range st.files {
			if files[f] && !explained(ev.claims, f, st.from, st.to) {
				keep(claim{session: st.session, file: f, how: "a step of it saw the file change", strength: byStep})
			}
		}
	}
	out := map[string][]task.Change{}
	for k, c := range best {
		out[k[0]] = append(out[k[0]], task.Change{SessionID: c.session, Sure: c.strength == byTool, How: c.how})
	}
	for _, cs := range out {
		sort.Slice(cs, func(i, j int) bool { return cs[i].SessionID < cs[j].SessionID })
	}
	return out
}

// explained says a call of some session names file between from and to.
func explained(claims []claim, file string, from, to int64) bool {
	for _, c := range claims {
		if c.file == file && c.at >= from && c.at <= to {
			return true
		}
	}
	return false
}

// oneLine is s on one line, cut to a length a list can show.
func oneLine(s string) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return string(r)
}
