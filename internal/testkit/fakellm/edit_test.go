package fakellm

import (
	"encoding/json"
	"testing"
)

// TestEditSteps plays EDIT's turns for each way of writing: the file's
// content after every step is lines 1…n, and the last answer says so.
func TestEditSteps(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	for _, via := range []string{"write", "edit", "bash"} {
		prompt := `EDIT path=out.txt steps=3 sleep=0 tag=w1 via=` + via
		conv := []any{msg("user", prompt)}
		for step := 1; step <= 3; step++ {
			chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("write", "edit", "bash")})
			_, calls, finish := summary(t, chunks)
			if len(calls) != 1 || finish != "tool_calls" {
				t.Fatalf("%s step %d: calls %+v finish %q", via, step, calls, finish)
			}
			var args map[string]string
			_ = json.Unmarshal([]byte(calls[0].Arguments), &args)
			want := map[string]string{"name": "write", "filePath": "out.txt", "content": EditContent("w1", step)}
			switch {
			case via == "bash":
				want = map[string]string{"name": "bash", "command": `echo "w1 line ` + string(rune('0'+step)) + `" >> "out.txt"`}
			case via == "edit" && step > 1:
				prev := EditLine("w1", step-1) + "\n"
				want = map[string]string{"name": "edit", "filePath": "out.txt", "oldString": prev, "newString": prev + EditLine("w1", step) + "\n"}
			}
			args["name"] = calls[0].Name
			for k, v := range want {
				if args[k] != v {
					t.Errorf("%s step %d: %s = %q, want %q", via, step, k, args[k], v)
				}
			}
			conv = append(conv, msg("assistant", ""), map[string]any{"role": "tool", "tool_call_id": "x", "content": "ok"})
		}
		chunks, _ := post(t, srv.URL, map[string]any{"messages": conv, "tools": tools("write", "edit", "bash")})
		if text, _, _ := summary(t, chunks); text != "edit finished: out.txt after 3 steps" {
			t.Errorf("%s final text %q", via, text)
		}
	}
}

// TestEditNeedsItsTool: an agent without the tool says so instead.
func TestEditNeedsItsTool(t *testing.T) {
	srv := listen(t, New(Options{}))
	defer srv.Close()
	chunks, _ := post(t, srv.URL, map[string]any{"messages": []any{msg("user", "EDIT via=bash sleep=0")}, "tools": tools("write")})
	if text, _, _ := summary(t, chunks); text != "EDIT needs the bash tool, which this agent lacks" {
		t.Errorf("text %q", text)
	}
}
