package fakellm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Defaults of the scenario parameters, documented in doc.go.
const (
	DefaultChild      = "LEAF steps=2 sleep=0.5"
	DefaultNestedLeaf = "LEAF steps=1 sleep=0.5"
	DefaultMissing    = "octop-missing/does-not-exist.txt"
	DefaultBigBytes   = 5_000_000
	DefaultBigPath    = "octop-big.txt"
	DefaultLoopCmd    = "sleep 0.2; echo same again"
	DefaultErrorMsg   = "fakellm: refused on purpose"
)

// NoScenarioText answers a conversation that names no scenario.
const NoScenarioText = "fakellm: no scenario keyword in the conversation"

// FinalText is the deterministic last answer of a scenario whose parameters
// are those of s; tests compare against it. RUNAWAY's is only reached at
// max; SLOW's is the streamed words.
func FinalText(s Script) string {
	switch s.Name {
	case Fanout:
		if s.String("background", "") == "true" {
			return fmt.Sprintf("fanout started: %d background tasks", s.Int("k", 3))
		}
		return fmt.Sprintf("fanout finished: %d tasks returned", s.Int("k", 3))
	case Nested:
		return fmt.Sprintf("nested finished: %d tasks returned", s.Int("k", 1))
	case Leaf:
		return fmt.Sprintf("leaf finished after %d steps", s.Int("steps", 2))
	case Fail:
		return "fail finished: the tool failed as planned"
	case Loop:
		return fmt.Sprintf("loop finished after %d calls", s.Int("max", 100000))
	case Hang:
		return fmt.Sprintf("hang finished after %ss", s.String("secs", "10"))
	case Big:
		return fmt.Sprintf("big finished: %d bytes", s.Int("bytes", DefaultBigBytes))
	case Runaway:
		return fmt.Sprintf("runaway finished after %d steps", s.Int("max", 100000))
	case Slow:
		n := s.Int("words", 20)
		words := make([]string, n)
		for i := range words {
			words[i] = "word" + strconv.Itoa(i+1)
		}
		return strings.Join(words, " ")
	case Call:
		return "call finished: " + s.String("tool", "bash")
	case Error:
		return s.String("msg", DefaultErrorMsg)
	case Question:
		return "question finished"
	case Steer:
		return steerFinal(s)
	case Edit:
		return editFinal(s)
	}
	return NoScenarioText
}

// Title is the answer to a title-generation request (one with no tools).
func Title(s Script, scripted bool) string {
	if !scripted {
		return "Octop session"
	}
	return "Octop " + strings.ToLower(s.Name) + " run"
}

// BigContent is the n-byte text BIG writes: lines of 99 x's, each ended by
// a newline, the last one cut short at n bytes.
func BigContent(n int) string {
	line := strings.Repeat("x", 99) + "\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// decide plays one turn of the conversation's scenario.
func decide(c conversation) reply {
	if len(c.tools) == 0 {
		return reply{text: Title(c.script, c.scripted)}
	}
	if c.notice != nil {
		// A background task ended: OpenCode added its notice to the
		// parent as a (synthetic) user message and runs the parent again;
		// the model must answer it, once per child.
		return reply{text: NoticeText(*c.notice)}
	}
	if !c.scripted {
		return reply{text: NoScenarioText}
	}
	s := c.script
	final := reply{text: FinalText(s)}
	if play := scenario(s.Name); play != nil {
		return play(c, s, final)
	}
	return final
}

// scenario is the function that plays the named scenario, nil for none.
func scenario(name string) func(c conversation, s Script, final reply) reply {
	switch name {
	case Fanout:
		return conversation.playFanout
	case Nested:
		return conversation.playNested
	case Leaf:
		return conversation.playLeaf
	case Fail:
		return conversation.playFail
	case Loop:
		return conversation.playLoop
	case Hang:
		return conversation.playHang
	case Error:
		return conversation.playError
	case Big:
		return conversation.playBig
	case Runaway:
		return conversation.playRunaway
	case Slow:
		return conversation.playSlow
	case Question:
		return conversation.playQuestion
	case Call:
		return conversation.playCall
	case Steer:
		return conversation.playSteer
	case Edit:
		return conversation.playEdit
	}
	return nil
}

// need says whether the agent has tool, and if not, the reply that says
// the scenario cannot run.
func (c conversation) need(s Script, tool string) (reply, bool) {
	if c.tools[tool] {
		return reply{}, true
	}
	return reply{text: fmt.Sprintf("%s needs the %s tool, which this agent lacks", s.Name, tool)}, false
}

// step is the bash call of a stepping scenario's turn (LEAF, ERROR's steps):
// sleep, then say which step it is.
func (c conversation) step(s Script) reply {
	n := c.turn + 1
	return reply{calls: []toolCall{bashCall(
		fmt.Sprintf("sleep %s; echo step %d", s.String("sleep", "0.5"), n),
		fmt.Sprintf("step %d", n))}}
}

// playFanout plays the Fanout scenario.
func (c conversation) playFanout(s Script, final reply) reply {
	if r, ok := c.need(s, "task"); !ok {
		return r
	}
	if c.turn > 0 {
		return final
	}
	k := s.Int("k", 3)
	r := reply{text: fmt.Sprintf("Fanning out to %d workers.", k)}
	desc := s.String("desc", "worker")
	for i := 1; i <= k; i++ {
		n := strconv.Itoa(i)
		call := taskCall(
			s.String("desc"+n, fmt.Sprintf("%s %d", desc, i)),
			s.String("child"+n, s.String("child", DefaultChild)),
			s.String("agent"+n, s.String("agent", "general")))
		// background=true|false (or backgroundN) adds the task tool's
		// "background" argument (OpenCode 1.18 with
		// OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1).
		switch s.String("background"+n, s.String("background", "")) {
		case "true":
			call.args.(map[string]any)["background"] = true
		case "false":
			call.args.(map[string]any)["background"] = false
		}
		r.calls = append(r.calls, call)
	}
	return r
}

// playNested plays the Nested scenario.
func (c conversation) playNested(s Script, final reply) reply {
	if r, ok := c.need(s, "task"); !ok {
		return r
	}
	if c.turn > 0 {
		return final
	}
	k := s.Int("k", 1)
	mid := fmt.Sprintf("FANOUT k=%d agent=%s desc=leaf child=%s",
		s.Int("kids", 2), s.String("leafagent", "general"), strconv.Quote(s.String("leaf", DefaultNestedLeaf)))
	r := reply{text: fmt.Sprintf("Delegating to %d mid-level agents.", k)}
	for i := 1; i <= k; i++ {
		r.calls = append(r.calls, taskCall(fmt.Sprintf("mid %d", i), mid, s.String("agent", "deep")))
	}
	return r
}

// playLeaf plays the Leaf scenario.
func (c conversation) playLeaf(s Script, final reply) reply {
	if r, ok := c.need(s, "bash"); !ok {
		return r
	}
	if c.turn >= s.Int("steps", 2) {
		return final
	}
	return c.step(s)
}

// playFail plays the Fail scenario.
func (c conversation) playFail(s Script, final reply) reply {
	if c.turn >= s.Int("times", 1) {
		return final
	}
	if s.String("how", "read") == "bash" {
		if r, ok := c.need(s, "bash"); !ok {
			return r
		}
		return reply{calls: []toolCall{bashCall("echo failing on purpose >&2; exit 3", "fail on purpose")}}
	}
	if r, ok := c.need(s, "read"); !ok {
		return r
	}
	path := s.String("path", DefaultMissing)
	if c.turn > 0 {
		path = fmt.Sprintf("%s.%d", path, c.turn+1) // a new path: failures, not a loop
	}
	return reply{text: "Reading a file that is not there.",
		calls: []toolCall{{name: "read", args: map[string]any{"filePath": path}}}}
}

// playLoop plays the Loop scenario.
func (c conversation) playLoop(s Script, final reply) reply {
	if r, ok := c.need(s, "bash"); !ok {
		return r
	}
	if c.turn >= s.Int("max", 100000) {
		return final
	}
	return reply{calls: []toolCall{bashCall(s.String("cmd", DefaultLoopCmd), "look again")}}
}

// playHang plays the Hang scenario.
func (c conversation) playHang(s Script, final reply) reply {
	return reply{text: final.text, firstDelay: s.Duration("secs", 10)}
}

// playError plays the Error scenario.
func (c conversation) playError(s Script, final reply) reply {
	if c.turn >= s.Int("steps", 0) {
		return reply{text: final.text, status: s.Int("status", 400)}
	}
	if r, ok := c.need(s, "bash"); !ok {
		return r
	}
	return c.step(s)
}

// playBig plays the Big scenario.
func (c conversation) playBig(s Script, final reply) reply {
	if c.turn > 0 {
		return final
	}
	n := s.Int("bytes", DefaultBigBytes)
	switch s.String("via", "write") {
	case "text":
		return reply{text: BigContent(n)}
	case "task":
		if r, ok := c.need(s, "task"); !ok {
			return r
		}
		return reply{calls: []toolCall{taskCall("big answer", fmt.Sprintf("BIG via=text bytes=%d", n), s.String("agent", "general"))}}
	case "bash":
		if r, ok := c.need(s, "bash"); !ok {
			return r
		}
		// OpenCode cuts a tool's output to about fifty kilobytes, so this output
		// does not reach the event stream whole; the write tool's input
		// does.
		cmd := fmt.Sprintf("head -c %d /dev/zero | tr '\\0' x | fold -w 99", n-n/100)
		return reply{calls: []toolCall{bashCall(cmd, fmt.Sprintf("print %d bytes", n))}}
	}
	if r, ok := c.need(s, "write"); !ok {
		return r
	}
	return reply{calls: []toolCall{{name: "write", args: map[string]any{
		"filePath": s.String("path", DefaultBigPath), "content": BigContent(n)}}}}
}

// playRunaway plays the Runaway scenario.
func (c conversation) playRunaway(s Script, final reply) reply {
	if r, ok := c.need(s, "bash"); !ok {
		return r
	}
	if c.turn >= s.Int("max", 100000) {
		return final
	}
	return reply{calls: []toolCall{bashCall(
		fmt.Sprintf("sleep %s; echo tick %d", s.String("sleep", "1"), c.turn+1),
		fmt.Sprintf("tick %d", c.turn+1))}}
}

// playSlow plays the Slow scenario.
func (c conversation) playSlow(s Script, final reply) reply {
	return reply{text: final.text, wordDelay: s.Duration("delay", 0.2)}
}

// playQuestion plays the Question scenario.
func (c conversation) playQuestion(s Script, final reply) reply {
	if c.turn > 0 {
		return final
	}
	if r, ok := c.need(s, "question"); !ok {
		return r
	}
	return reply{calls: []toolCall{{name: "question", args: map[string]any{"questions": []any{map[string]any{
		"question": s.String("text", "Which database should the config loader use?"),
		"header":   "Database",
		"options": []any{
			map[string]any{"label": "sqlite", "description": "one file, no server"},
			map[string]any{"label": "postgres", "description": "the shared server"},
		},
	}}}}}}
}

// playCall plays the Call scenario.
func (c conversation) playCall(s Script, final reply) reply {
	if c.turn > 0 {
		return final
	}
	tool := s.String("tool", "bash")
	if r, ok := c.need(s, tool); !ok {
		return r
	}
	return reply{calls: []toolCall{{name: tool, args: rawArgs(s.String("args", "{}"))}}}
}

func taskCall(description, prompt, agent string) toolCall {
	return toolCall{name: "task", args: map[string]any{
		"description": description, "prompt": prompt, "subagent_type": agent,
	}}
}

func bashCall(command, description string) toolCall {
	return toolCall{name: "bash", args: map[string]any{"command": command, "description": description}}
}

// rawArgs is a JSON arguments object passed through as is.
type rawArgs string

// MarshalJSON returns the arguments unchanged, or {} if they are not a
// JSON object.
func (r rawArgs) MarshalJSON() ([]byte, error) {
	s := strings.TrimSpace(string(r))
	if strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
		return []byte(s), nil
	}
	return []byte("{}"), nil
}

// Notice is a background task's end notice, as OpenCode 1.18 (with
// OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1) adds it to the parent
// session as a synthetic user message:
//
//	<task id="ses_…" state="completed">
//	<summary>Background task completed: worker 1</summary>
//	<task_result>
//	…the child's last text…
//	</task_result>
//	</task>
//
// state is "completed" or "error" (then the body is <task_error>).
type Notice struct {
	ID, State, Summary string
}

var noticeRE = regexp.MustCompile(`<task id="([^"]+)" state="([^"]+)">\s*(?:<summary>([^<]*)</summary>)?`)

// ParseNotice finds a task notice in a user message's text.
func ParseNotice(text string) (Notice, bool) {
	m := noticeRE.FindStringSubmatch(text)
	if m == nil {
		return Notice{}, false
	}
	return Notice{ID: m[1], State: m[2], Summary: m[3]}, true
}

// NoticeText is the fake's answer to a background task's end notice.
func NoticeText(n Notice) string {
	return fmt.Sprintf("noticed task %s %s", n.ID, n.State)
}
