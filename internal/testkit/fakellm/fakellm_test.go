package fakellm

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	sse "github.com/tmaxmax/go-sse"
)

func TestParseScript(t *testing.T) {
	tests := []struct {
		text   string
		name   string
		params map[string]string
		ok     bool
	}{
		{"FANOUT k=3 agent=general", Fanout, map[string]string{"k": "3", "agent": "general"}, true},
		{"please FANOUT: k=2", Fanout, map[string]string{"k": "2"}, true},
		{`FANOUT k=2 child="LEAF steps=1 sleep=0.1"`, Fanout, map[string]string{"k": "2", "child": "LEAF steps=1 sleep=0.1"}, true},
		{`FANOUT child="FANOUT k=1 child=\"LEAF steps=1\""`, Fanout, map[string]string{"child": `FANOUT k=1 child="LEAF steps=1"`}, true},
		{"x=1 LEAF steps=4", Leaf, map[string]string{"steps": "4"}, true},
		{"leaf steps=4", "", map[string]string{}, false},
		{"", "", map[string]string{}, false},
		{`SLOW words=3 broken="unterminated`, Slow, map[string]string{"words": "3", "broken": `"unterminated`}, true},
	}
	for _, tt := range tests {
		s, ok := ParseScript(tt.text)
		if ok != tt.ok || s.Name != tt.name || !equalMaps(s.Params, tt.params) {
			t.Errorf("ParseScript(%q) = %+v, %v; want %s %v, %v", tt.text, s, ok, tt.name, tt.params, tt.ok)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// msg builds one chat message for a request body.
func msg(role, content string) map[string]any {
	return map[string]any{"role": role, "content": content}
}

func tools(names ...string) []any {
	var out []any
	for _, n := range names {
		out = append(out, map[string]any{"type": "function", "function": map[string]any{"name": n}})
	}
	return out
}

// post sends a streaming request and returns the decoded chunks and
// whether the stream ended with [DONE].
func post(t *testing.T, url string, body map[string]any) ([]Chunk, bool) {
	t.Helper()
	body["stream"] = true
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q, want text/event-stream", ct)
	}
	var chunks []Chunk
	done := false
	for ev, err := range sse.Read(resp.Body, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if done {
			t.Fatalf("data after [DONE]: %q", ev.Data)
		}
		if ev.Data == "[DONE]" {
			done = true
			continue
		}
		var c Chunk
		if err := json.Unmarshal([]byte(ev.Data), &c); err != nil {
			t.Fatalf("chunk %q: %v", ev.Data, err)
		}
		chunks = append(chunks, c)
	}
	return chunks, done
}

// summary gathers a stream's text, tool calls and finish reason.
func summary(t *testing.T, chunks []Chunk) (text string, calls []FunctionCall, finish string) {
	t.Helper()
	for i, c := range chunks {
		if c.Object != "chat.completion.chunk" || len(c.Choices) != 1 || c.ID == "" {
			t.Fatalf("chunk %d malformed: %+v", i, c)
		}
		d := c.Choices[0].Delta
		if i == 0 && d.Role != "assistant" {
			t.Errorf("first chunk role = %q, want assistant", d.Role)
		}
		text += d.Content
		for _, tc := range d.ToolCalls {
			if tc.Type != "function" || tc.ID == "" || tc.Index != len(calls) {
				t.Errorf("tool call %+v: want type function, an id, index %d", tc, len(calls))
			}
			calls = append(calls, tc.Function)
		}
		if fr := c.Choices[0].FinishReason; fr != nil {
			if i != len(chunks)-1 {
				t.Errorf("finish_reason on chunk %d of %d", i, len(chunks))
			}
			finish = *fr
			if c.Usage == nil || c.Usage.TotalTokens != c.Usage.PromptTokens+c.Usage.CompletionTokens {
				t.Errorf("last chunk usage = %+v", c.Usage)
			}
		}
	}
	return text, calls, finish
}

func TestFanoutTurns(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()

	prompt := `FANOUT k=3 agent=general child="LEAF steps=2 sleep=0.5" agent2=deep`
	chunks, done := post(t, srv.URL, map[string]any{
		"messages": []any{msg("system", "sys"), msg("user", prompt)},
		"tools":    tools("bash", "task", "read"),
	})
	if !done {
		t.Fatal("stream did not end with [DONE]")
	}
	text, calls, finish := summary(t, chunks)
	if text != "Fanning out to 3 workers." || finish != "tool_calls" || len(calls) != 3 {
		t.Fatalf("turn 0: text %q, finish %q, %d calls", text, finish, len(calls))
	}
	for i, c := range calls {
		var args struct{ Description, Prompt, Subagent_type string }
		if c.Name != "task" || json.Unmarshal([]byte(c.Arguments), &args) != nil {
			t.Fatalf("call %d = %+v", i, c)
		}
		wantAgent := "general"
		if i == 1 {
			wantAgent = "deep"
		}
		if args.Description != "worker "+string(rune('1'+i)) || args.Prompt != "LEAF steps=2 sleep=0.5" || args.Subagent_type != wantAgent {
			t.Errorf("call %d args = %+v", i, args)
		}
	}

	// After the tool results, the root answers its final text.
	chunks, _ = post(t, srv.URL, map[string]any{
		"messages": []any{msg("user", prompt), msg("assistant", "Fanning out to 3 workers."),
			map[string]any{"role": "tool", "tool_call_id": "a", "content": "r1"},
			map[string]any{"role": "tool", "tool_call_id": "b", "content": "r2"}},
		"tools": tools("task"),
	})
	text, calls, finish = summary(t, chunks)
	if text != "fanout finished: 3 tasks returned" || len(calls) != 0 || finish != "stop" {
		t.Errorf("turn 1: text %q, %d calls, finish %q", text, len(calls), finish)
	}
}

func TestLeafSteps(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	conv := []any{msg("user", "LEAF steps=2 sleep=0.1")}
	for step := 1; step <= 2; step++ {
		chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("bash")})
		_, calls, finish := summary(t, chunks)
		if len(calls) != 1 || calls[0].Name != "bash" || finish != "tool_calls" {
			t.Fatalf("step %d: calls %+v finish %q", step, calls, finish)
		}
		var args struct{ Command string }
		_ = json.Unmarshal([]byte(calls[0].Arguments), &args)
		if want := "sleep 0.1; echo step " + string(rune('0'+step)); args.Command != want {
			t.Errorf("step %d command %q, want %q", step, args.Command, want)
		}
		conv = append(conv, msg("assistant", ""), map[string]any{"role": "tool", "tool_call_id": "x", "content": "ok"})
	}
	chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("bash")})
	if text, _, _ := summary(t, chunks); text != "leaf finished after 2 steps" {
		t.Errorf("final text %q", text)
	}
}

func TestTitleAndMissingTool(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", "Generate a title for: FANOUT k=2")}})
	if text, _, _ := summary(t, chunks); text != "Octop fanout run" {
		t.Errorf("title %q", text)
	}
	chunks, _ = post(t, srv.URL, map[string]any{"messages": []any{msg("user", "FANOUT k=2")}, "tools": tools("bash")})
	if text, _, _ := summary(t, chunks); text != "FANOUT needs the task tool, which this agent lacks" {
		t.Errorf("missing tool text %q", text)
	}
}

func TestContentParts(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	user := map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "FAIL"},
	}}
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{user}, "tools": tools("read")})
	_, calls, _ := summary(t, chunks)
	if len(calls) != 1 || calls[0].Name != "read" || !strings.Contains(calls[0].Arguments, DefaultMissing) {
		t.Errorf("FAIL calls = %+v", calls)
	}
}

func TestBigWritesExactBytes(t *testing.T) {
	if got := len(BigContent(5_000_000)); got != 5_000_000 {
		t.Fatalf("BigContent length %d", got)
	}
	srv := listen(t, New(Options{}))
	defer srv.Close()
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", "BIG bytes=1234")}, "tools": tools("write")})
	_, calls, _ := summary(t, chunks)
	var args struct{ FilePath, Content string }
	if len(calls) != 1 || json.Unmarshal([]byte(calls[0].Arguments), &args) != nil || len(args.Content) != 1234 {
		t.Errorf("BIG call %+v", calls)
	}
}

func TestSlowStreamsWordsWithDelay(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	start := time.Now()
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", "SLOW words=4 delay=0.05")}, "tools": tools("bash")})
	text, _, _ := summary(t, chunks)
	if text != "word1 word2 word3 word4" {
		t.Errorf("text %q", text)
	}
	// Three gaps of 50 ms: the stream cannot be faster than that.
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Errorf("SLOW took %v, want at least 150ms", el)
	}
	if len(chunks) != 1+4+1 {
		t.Errorf("%d chunks, want role + 4 words + finish", len(chunks))
	}
}

func TestNonStreamingAndBadRequests(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	b, _ := json.Marshal(map[string]any{"messages": []any{msg("user", "LEAF steps=1")}, "tools": tools("bash")})
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Object  string
		Choices []struct {
			Message struct {
				ToolCalls []ToolCallDelta `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil || out.Object != "chat.completion" || len(out.Choices) != 1 ||
		out.Choices[0].FinishReason != "tool_calls" || len(out.Choices[0].Message.ToolCalls) != 1 {
		t.Errorf("non-streaming answer %+v, %v", out, err)
	}

	resp, err = http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "chat/completions") {
		t.Errorf("GET /v1/models: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader("{"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad body: status %d", resp.StatusCode)
	}
}

// TestErrorAnswersWithStatus: ERROR runs its bash steps, then answers the
// HTTP status with msg as the error's message.
func TestErrorAnswersWithStatus(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	conv := []any{msg("user", `ERROR steps=1 sleep=0.1 status=400 msg="no more"`)}
	chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("bash")})
	if _, calls, finish := summary(t, chunks); len(calls) != 1 || calls[0].Name != "bash" || finish != "tool_calls" {
		t.Fatalf("turn 0: calls %+v finish %q, want one bash call", calls, finish)
	}
	conv = append(conv, msg("assistant", ""), map[string]any{"role": "tool", "tool_call_id": "x", "content": "ok"})
	b, _ := json.Marshal(map[string]any{"messages": conv, "tools": tools("bash"), "stream": true})
	resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Error struct{ Message string } }
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || err != nil || out.Error.Message != "no more" {
		t.Errorf("turn 1: status %d, body %+v (%v); want 400 with message \"no more\"", resp.StatusCode, out, err)
	}
}

// listen serves h for the test's length.
func listen(t *testing.T, h http.Handler) *Listener {
	t.Helper()
	l, err := Listen(h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}
