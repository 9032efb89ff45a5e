package fakellm

import (
	"encoding/json"
	"testing"
	"time"
)

// LOOP repeats the very same call every turn until max; FAIL times=N reads
// a different missing file each turn; HANG is silent before it answers.
func TestLoopFailHang(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	turns := func(prompt, tool string, n int) []string {
		conv := []any{msg("user", prompt)}
		var args []string
		for i := 0; i < n; i++ {
			chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools(tool)})
			_, calls, _ := summary(t, chunks)
			if len(calls) != 1 || calls[0].Name != tool {
				t.Fatalf("%s turn %d: calls %+v", prompt, i, calls)
			}
			args = append(args, calls[0].Arguments)
			conv = append(conv, msg("assistant", ""), map[string]any{"role": "tool", "tool_call_id": "x", "content": "ok"})
		}
		chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools(tool)})
		text, _, _ := summary(t, chunks)
		return append(args, text)
	}
	loop := turns(`LOOP max=3 cmd="grep -r x ."`, "bash", 3)
	if loop[0] != loop[1] || loop[1] != loop[2] || loop[3] != "loop finished after 3 calls" {
		t.Errorf("LOOP: %q", loop)
	}
	var a struct{ Command string }
	if err := json.Unmarshal([]byte(loop[0]), &a); err != nil || a.Command != "grep -r x ." {
		t.Errorf("LOOP command %q", a.Command)
	}
	fail := turns("FAIL times=2 path=nope.txt", "read", 2)
	if fail[0] == fail[1] || fail[2] != "fail finished: the tool failed as planned" {
		t.Errorf("FAIL times=2: %q", fail)
	}
	start := time.Now()
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", "HANG secs=0.5")}, "tools": tools("bash")})
	if text, _, _ := summary(t, chunks); text != "hang finished after 0.5s" {
		t.Errorf("HANG text %q", text)
	}
	if d := time.Since(start); d < 500*time.Millisecond {
		t.Errorf("HANG answered after %s, before its 0.5s", d)
	}
}
