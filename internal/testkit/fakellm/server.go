package fakellm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Options configure a Server. The zero value is ready to use.
type Options struct {
	// Model is the model name echoed in every chunk; "mock-1" when empty.
	Model string
	// Logf, when set, gets one line per request: what the conversation
	// asked for and what the fake answered. Handy in a failing test's log.
	Logf func(format string, args ...any)
	// Raw, when set, gets every request body as received (numbered from
	// 1), e.g. to capture the tools[] schemas OpenCode sends.
	Raw func(n int64, body []byte)
}

// Server is a scripted, stateless OpenAI-compatible chat-completions
// server. It is an http.Handler: serve it with Listen, or any http.Server.
type Server struct {
	opts     Options
	seq      atomic.Int64
	requests atomic.Int64
}

// New returns a Server.
func New(opts Options) *Server {
	if opts.Model == "" {
		opts.Model = "mock-1"
	}
	return &Server{opts: opts}
}

// Requests is how many chat-completion requests the server has answered.
func (s *Server) Requests() int64 { return s.requests.Load() }

// chatRequest is the part of an OpenAI chat-completions request the fake
// reads.
type chatRequest struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// text returns a message's text whether content is a string or an array of
// content parts.
func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// conversation is what a turn decision needs to know about a request.
type conversation struct {
	tools    map[string]bool
	script   Script
	scripted bool
	// turn counts the assistant messages after the scripted user message:
	// 0 on the first call, 1 after the first round of tool results, …
	turn        int
	toolResults []string
	// later are the user messages after the scripted one (a person's
	// word to a running session), oldest first; notices are not.
	later []string
	// notice is set when the conversation's last message is a user message
	// holding a background task's end notice (see ParseNotice).
	notice *Notice
}

func readConversation(req chatRequest) conversation {
	c := conversation{tools: map[string]bool{}}
	for _, t := range req.Tools {
		c.tools[t.Function.Name] = true
	}
	// A background task's end notice is a user message too (OpenCode 1.18
	// adds it to the parent); it is never a script, even if the child's
	// answer inside it names a keyword.
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
		if nt, ok := ParseNotice(req.Messages[n-1].text()); ok {
			c.notice = &nt
		}
	}
	// The last user message that names a scenario rules; a child's prompt
	// is its last user message, and the root's stays its own after tool
	// results come back (they are tool messages, not user ones).
	at := -1
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != "user" {
			continue
		}
		text := m.text()
		if _, notice := ParseNotice(text); notice {
			continue
		}
		if s, ok := ParseScript(text); ok {
			c.script, c.scripted, at = s, true, i
			break
		}
	}
	for _, m := range req.Messages[at+1:] {
		switch m.Role {
		case "assistant":
			c.turn++
		case "tool":
			c.toolResults = append(c.toolResults, m.text())
		case "user":
			if text := m.text(); at >= 0 && !isNotice(text) {
				c.later = append(c.later, strings.TrimSpace(unwrapReminder(text)))
			}
		}
	}
	return c
}

// reply is one scripted answer: text, then tool calls.
type reply struct {
	text      string
	wordDelay time.Duration
	// firstDelay is a silence before the first chunk (HANG).
	firstDelay time.Duration
	// status, when not 0, answers with this HTTP status and text as the
	// error's message instead of a completion (ERROR).
	status int
	calls  []toolCall
}

type toolCall struct {
	name string
	args any
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, "fakellm serves only POST /v1/chat/completions")
		return
	}
	body, err := io.ReadAll(r.Body)
	var req chatRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "fakellm: bad request body: "+err.Error())
		return
	}
	n := s.requests.Add(1)
	if s.opts.Raw != nil {
		s.opts.Raw(n, body)
	}
	c := readConversation(req)
	rep := decide(c)
	if s.opts.Logf != nil {
		name := "-"
		if c.scripted {
			name = c.script.Name
		}
		tools := make([]string, 0, len(c.tools))
		for t := range c.tools {
			tools = append(tools, t)
		}
		sort.Strings(tools)
		s.opts.Logf("fakellm: request %d: tools [%s], script %s, turn %d -> %d tool calls, text %q",
			n, strings.Join(tools, " "), name, c.turn, len(rep.calls), clip(rep.text, 60))
	}
	if rep.status != 0 {
		writeError(w, rep.status, rep.text)
		return
	}
	id := fmt.Sprintf("chatcmpl-%d", s.seq.Add(1))
	if !req.Stream {
		s.writeCompletion(w, id, c, rep)
		return
	}
	s.stream(w, r, id, c, rep)
}

func writeError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
