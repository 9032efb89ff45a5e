package fakellm

import "testing"

// STEER steps until a message follows its script, then says it heard the
// latest one, as 1.18 sends it and as 1.1.65 frames it.
func TestSteer(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	ask := func(conv []any) (string, []FunctionCall) {
		chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("bash")})
		text, calls, _ := summary(t, chunks)
		return text, calls
	}
	stepDone := []any{msg("user", "STEER steps=2 sleep=0.1"), msg("assistant", ""),
		map[string]any{"role": "tool", "tool_call_id": "x", "content": "step 1"}}
	if text, calls := ask(stepDone); text != "" || len(calls) != 1 || calls[0].Name != "bash" {
		t.Errorf("unsteered: text %q, calls %+v; want one more step", text, calls)
	}
	plain := append(append([]any{}, stepDone...), msg("user", "only the  parser"))
	if text, calls := ask(plain); text != HeardText("only the parser") || text != "heard: only the parser" || len(calls) != 0 {
		t.Errorf("steered: text %q, calls %+v", text, calls)
	}
	framed := append(append([]any{}, stepDone...), msg("user",
		"<system-reminder>\nThe user sent the following message:\nonly the parser\n\nPlease address this message and continue with your tasks.\n</system-reminder>"))
	if text, _ := ask(framed); text != "heard: only the parser" {
		t.Errorf("steered on 1.1.65: text %q", text)
	}
	done := append(append([]any{}, stepDone...), msg("assistant", ""), map[string]any{"role": "tool", "tool_call_id": "y", "content": "step 2"})
	if text, calls := ask(done); text != FinalText(Script{Name: Steer, Params: map[string]string{"steps": "2"}}) ||
		text != "steer finished after 2 steps, heard nothing" || len(calls) != 0 {
		t.Errorf("never steered: text %q, calls %+v", text, calls)
	}
}
