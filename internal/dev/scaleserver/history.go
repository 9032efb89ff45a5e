package main

import (
	"fmt"
	"strings"
)

// A session's history, generated from its index: a prompt (a user message
// with one text part) and the reply: three bash calls at once and a text
// answer, in one assistant message or two (-steps). A busy session has only
// the reply's first step, still open: two calls done, the third running.

// A message of the history, as built before encoding.
type message struct {
	id      string
	created int64
	buf     []byte
}

type command struct{ cmd, desc, out string }

// commands are the bash calls a session may make, by template.
func (d *dataset) command(i, k int) command {
	m := d.module(i)
	sym := pick(symbols, d.h(i, 40+uint64(k)))
	r := d.h(i, 30+uint64(k))
	switch r % 5 {
	case 0:
		return command{"go test ./internal/" + m + "/... 2>&1 | tail -5", "Run the " + m + " tests",
			fmt.Sprintf("ok  \texample.com/app/internal/%s\t%d.%03ds\nok  \texample.com/app/internal/%s/store\t0.%03ds\n",
				m, r>>8%3, r>>16%1000, m, r>>28%1000)}
	case 1:
		var b strings.Builder
		for j := range 2 {
			fmt.Fprintf(&b, "internal/%s/%s.go:%d:func %s%s(ctx context.Context) error {\n", m, pick(modules, r>>(8*j)), 20+r>>(6*j)%400, sym, []string{"", "Locked"}[j])
		}
		return command{"rg -n \"func " + sym + "\" internal/" + m, "Find " + sym + " in " + m, b.String()}
	case 2:
		var b strings.Builder
		for j := range 3 {
			fmt.Fprintf(&b, "%s %s: %s %s\n", hexN(r+uint64(j), 7), m, strings.ToLower(pick(verbs, r>>(5*j))), pick(things, r>>(7*j)))
		}
		return command{"git log --oneline -3 -- internal/" + m, "Recent changes to " + m, b.String()}
	case 3:
		return command{"ls internal/" + m, "List the " + m + " package",
			fmt.Sprintf("client.go\nclient_test.go\ndoc.go\n%s.go\n%s_test.go\nstore\ntestdata\n", m, m)}
	default:
		return command{"wc -l internal/" + m + "/*.go", "Count lines in " + m,
			fmt.Sprintf("   %d internal/%s/client.go\n   %d internal/%s/client_test.go\n  %d total\n",
				100+r%400, m, 80+r>>10%300, m, 300+r>>30%700)}
	}
}

func (d *dataset) prompt(i int) string {
	m, thing := d.module(i), pick(things, d.h(i, 13))
	if d.isRoot(i) {
		return "In the " + m + " service, " + strings.ToLower(pick(verbs, d.h(i, 12))) + " " + thing +
			". Keep the API stable, run the tests, and send subagents to check the callers, tests and docs first."
	}
	return d.description(i) + ". List every place in internal/" + m + " that deals with " + thing +
		" and flag anything wrong or untested. Change nothing."
}

func (d *dataset) answer(i int) string {
	m, thing := d.module(i), pick(things, d.h(i, 13))
	return "Done: " + thing + " in " + m + " lives in `internal/" + m + "/client.go` (tested) and `internal/" + m +
		"/store` (drifted; worth merging)."
}

// history is session i's GET /session/{id}/message answer.
func (d *dataset) history(i int) []message {
	C := d.created[i]
	E := d.updated[i] - 8
	sid, agent := d.ids[i], d.agent(i)
	snapshot := hexN(d.h(i, 50), 40)
	var g idGen
	id := func(prefix string, ts int64, salt uint64) string {
		ts, c := g.next(ts)
		return prefix + "_" + ascendingID(ts, c) + base62(d.h(i, salt), 14)
	}
	root := d.isRoot(i)
	var userAt, a1At, a1Done int64
	if root {
		userAt, a1At, a1Done = C+40, C+60, C+3850
	} else {
		userAt, a1At = C+12, C+40
		a1Done = C + (E-C)*6/10
	}

	// The prompt.
	var msgs []message
	uid := id("msg", userAt, 60)
	msgs = append(msgs, message{uid, userAt, d.userMessage(i, uid, sid, agent, id("prt", userAt+2, 61), userAt)})

	// The reply. In one step (d.steps == 1, the issue's ~3,900 bytes shape):
	// three bash calls at once and the answer, finish "stop". In two (as
	// a model that answers after its tools' results does): the calls
	// (finish "tool-calls"), then the answer in a second message.
	busy := d.busy[i]
	one := d.steps == 1
	finish1 := "tool-calls"
	if one {
		a1Done, finish1 = E, "stop"
	}
	a1 := id("msg", a1At, 62)
	t1 := d.stepTokens(i, 0)
	b := d.assistantInfo(nil, i, a1, uid, t1, a1At, a1Done, finish1, busy)
	b = append(b, `,"parts":[`...)
	b = appendStepStart(b, id("prt", a1At+340, 63), a1, sid, snapshot)
	toolsEnd := a1Done - 300
	if one {
		toolsEnd = a1At + (E-a1At)*6/10
	}
	for k := range 3 {
		start := a1At + 400 + int64(k)*20
		end := start + (toolsEnd-start)*int64(30+d.h(i, 70+uint64(k))%70)/100
		running := busy && k == 2
		b = append(b, ',')
		b = d.appendBash(b, i, k, id("prt", start-2, 64+uint64(k)), a1, sid, start, end, running)
	}
	if busy {
		b = append(b, "]}"...)
		return append(msgs, message{a1, a1At, b})
	}
	if !one {
		b = append(b, ',')
		b = appendStepFinish(b, id("prt", a1Done-50, 67), a1, sid, snapshot, "tool-calls", t1)
		b = append(b, "]}"...)
		msgs = append(msgs, message{a1, a1At, b})
	}

	msgID, tEnd := a1, t1
	if !one {
		a2At := a1Done + 30
		msgID, tEnd = id("msg", a2At, 68), d.stepTokens(i, 1)
		b = d.assistantInfo(nil, i, msgID, uid, tEnd, a2At, E, "stop", false)
		b = append(b, `,"parts":[`...)
		b = appendStepStart(b, id("prt", a2At+350, 69), msgID, sid, snapshot)
	}
	b = append(b, ',')
	b = appendText(b, id("prt", E-900, 70), msgID, sid, d.answer(i), E-900, E-300)
	b = append(b, ',')
	b = appendStepFinish(b, id("prt", E-100, 71), msgID, sid, snapshot, "stop", tEnd)
	b = append(b, "]}"...)
	return append(msgs, message{msgID, a1At, b})
}

// userMessage is the prompt's message element: its info and one text part.
func (d *dataset) userMessage(i int, id, sid, agent, partID string, at int64) []byte {
	b := append([]byte(nil), `{"info":{`...)
	b = kstr(b, "role", "user")
	b = append(key(b, "time"), '{')
	b = kint(b, "created", at)
	b = append(b, '}')
	b = kstr(b, "agent", agent)
	b = append(key(b, "model"), '{')
	b = kstr(b, "providerID", model.provider)
	b = kstr(b, "modelID", model.id)
	b = append(b, '}')
	b = append(key(b, "summary"), `{"diffs":[]}`...)
	b = kstr(b, "id", id)
	b = kstr(b, "sessionID", sid)
	b = append(b, `},"parts":[{`...)
	b = kstr(b, "type", "text")
	b = kstr(b, "text", d.prompt(i))
	b = kstr(b, "messageID", id)
	b = kstr(b, "sessionID", sid)
	b = kstr(b, "id", partID)
	return append(b, "}]}"...)
}

// appendText appends a finished text part.
func appendText(b []byte, id, msgID, sid, text string, start, end int64) []byte {
	b = append(b, '{')
	b = kstr(b, "id", id)
	b = kstr(b, "messageID", msgID)
	b = kstr(b, "sessionID", sid)
	b = kstr(b, "type", "text")
	b = kstr(b, "text", text)
	b = append(key(b, "time"), '{')
	b = kint(b, "start", start)
	b = kint(b, "end", end)
	return append(b, "}}"...)
}

// assistantInfo opens a message element and writes its info; an open
// step (busy) has no tokens, completion or finish yet.
func (d *dataset) assistantInfo(b []byte, i int, id, parent string, t tokens, created, completed int64, finish string, open bool) []byte {
	b = append(b, `{"info":{`...)
	b = kstr(b, "id", id)
	b = kstr(b, "parentID", parent)
	b = kstr(b, "role", "assistant")
	b = kstr(b, "mode", d.agent(i))
	b = kstr(b, "agent", d.agent(i))
	b = append(key(b, "path"), '{')
	b = kstr(b, "cwd", d.dir)
	b = kstr(b, "root", d.dir)
	b = append(b, '}')
	if open {
		t = tokens{}
	}
	b = knum(b, "cost", t.cost())
	b = appendMessageTokens(b, t)
	b = kstr(b, "modelID", model.id)
	b = kstr(b, "providerID", model.provider)
	b = append(key(b, "time"), '{')
	b = kint(b, "created", created)
	if !open {
		b = kint(b, "completed", completed)
	}
	b = append(b, '}')
	b = kstr(b, "sessionID", d.ids[i])
	if !open {
		b = kstr(b, "finish", finish)
	}
	return append(b, '}')
}

// appendMessageTokens is a message's or step's tokens: a total, cache
// write first.
func appendMessageTokens(b []byte, t tokens) []byte {
	b = append(key(b, "tokens"), '{')
	b = knum(b, "total", t.total())
	b = knum(b, "input", t.input)
	b = knum(b, "output", t.output)
	b = knum(b, "reasoning", t.reasoning)
	b = append(key(b, "cache"), '{')
	b = knum(b, "write", t.write)
	b = knum(b, "read", t.read)
	return append(b, '}', '}')
}

func appendStepStart(b []byte, id, msg, sid, snapshot string) []byte {
	b = append(b, '{')
	b = kstr(b, "id", id)
	b = kstr(b, "messageID", msg)
	b = kstr(b, "sessionID", sid)
	b = kstr(b, "snapshot", snapshot)
	b = kstr(b, "type", "step-start")
	return append(b, '}')
}

func appendStepFinish(b []byte, id, msg, sid, snapshot, reason string, t tokens) []byte {
	b = append(b, '{')
	b = kstr(b, "id", id)
	b = kstr(b, "reason", reason)
	b = kstr(b, "snapshot", snapshot)
	b = kstr(b, "messageID", msg)
	b = kstr(b, "sessionID", sid)
	b = kstr(b, "type", "step-finish")
	b = appendMessageTokens(b, t)
	b = knum(b, "cost", t.cost())
	return append(b, '}')
}

// appendBash is a bash tool part, completed or still running.
func (d *dataset) appendBash(b []byte, i, k int, id, msg, sid string, start, end int64, running bool) []byte {
	c := d.command(i, k)
	b = append(b, '{')
	b = kstr(b, "type", "tool")
	b = kstr(b, "tool", "bash")
	b = kstr(b, "callID", "toolu_01"+base62(d.h(i, 80+uint64(k)), 22))
	b = append(key(b, "state"), '{')
	if running {
		b = append(key(b, "metadata"), '{')
		b = kstr(b, "output", firstLine(c.out))
		b = kstr(b, "description", c.desc)
		b = append(b, '}')
		b = kstr(b, "status", "running")
		b = appendBashInput(b, c)
		b = kstr(b, "title", c.cmd)
		b = append(key(b, "time"), '{')
		b = kint(b, "start", start)
		b = append(b, '}')
	} else {
		b = kstr(b, "status", "completed")
		b = appendBashInput(b, c)
		b = kstr(b, "output", c.out)
		b = append(key(b, "metadata"), '{')
		b = kstr(b, "output", c.out)
		b = kint(b, "exit", 0)
		b = kbool(b, "truncated", false)
		b = append(b, '}')
		b = kstr(b, "title", c.cmd)
		b = append(key(b, "time"), '{')
		b = kint(b, "start", start)
		b = kint(b, "end", end)
		b = append(b, '}')
	}
	b = append(b, '}')
	b = kstr(b, "id", id)
	b = kstr(b, "sessionID", sid)
	b = kstr(b, "messageID", msg)
	return append(b, '}')
}

func appendBashInput(b []byte, c command) []byte {
	b = append(key(b, "input"), '{')
	b = kstr(b, "command", c.cmd)
	b = kstr(b, "description", c.desc)
	return append(b, '}')
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i+1]
	}
	return s
}
