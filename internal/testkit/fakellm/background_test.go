package fakellm

import (
	"encoding/json"
	"sync"
	"testing"
)

// TestBackgroundFanout plays the conversation OpenCode 1.18 holds with the
// root of `FANOUT background=true` (OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1):
// task calls with "background": true, the immediate "running" tool results,
// then one synthetic end notice per child as a user message, each answered.
func TestBackgroundFanout(t *testing.T) {
	var mu sync.Mutex
	var raw [][]byte
	srv := listen(t, New(Options{Raw: func(n int64, body []byte) {
		mu.Lock()
		raw = append(raw, body)
		mu.Unlock()
	}}))
	defer srv.Close()

	prompt := `FANOUT k=2 background=true background2=false child="LEAF steps=1"`
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", prompt)}, "tools": tools("task")})
	_, calls, _ := summary(t, chunks)
	if len(calls) != 2 {
		t.Fatalf("turn 0: %d calls", len(calls))
	}
	for i, want := range []bool{true, false} {
		var args map[string]any
		_ = json.Unmarshal([]byte(calls[i].Arguments), &args)
		if args["background"] != want {
			t.Errorf("call %d background = %v, want %v", i, args["background"], want)
		}
	}

	started := `<task id="ses_1" state="running">` + "\n<summary>Background task started</summary>\n<task_result>\n…\n</task_result>\n</task>"
	conv := []any{msg("user", prompt), msg("assistant", "Fanning out to 2 workers."),
		map[string]any{"role": "tool", "tool_call_id": "a", "content": started},
		map[string]any{"role": "tool", "tool_call_id": "b", "content": started}}
	chunks, _ = post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("task")})
	if text, _, _ := summary(t, chunks); text != "fanout started: 2 background tasks" {
		t.Errorf("turn 1 text %q", text)
	}

	for _, n := range []Notice{{ID: "ses_1", State: "completed", Summary: "Background task completed: worker 1"},
		{ID: "ses_2", State: "error", Summary: "Background task failed: worker 2"}} {
		body := "task_result"
		if n.State == "error" {
			body = "task_error"
		}
		text := `<task id="` + n.ID + `" state="` + n.State + `">` + "\n<summary>" + n.Summary + "</summary>\n<" + body + ">\nLEAF would be a keyword\n</" + body + ">\n</task>"
		got, ok := ParseNotice(text)
		if !ok || got != n {
			t.Errorf("ParseNotice = %+v, %v; want %+v", got, ok, n)
		}
		conv = append(conv, msg("assistant", "…"), msg("user", text))
		chunks, _ = post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("task")})
		answer, calls, finish := summary(t, chunks)
		if answer != NoticeText(n) || len(calls) != 0 || finish != "stop" {
			t.Errorf("notice %s: text %q, %d calls, finish %q", n.ID, answer, len(calls), finish)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(raw) != 4 {
		t.Errorf("Raw saw %d bodies, want 4", len(raw))
	}
}
