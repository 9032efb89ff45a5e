package discover

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestServiceFile(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/a"}, "/home/a/.local/state/opencode/service.json"},
		{map[string]string{"HOME": "/home/a", "XDG_STATE_HOME": "/st"}, "/st/opencode/service.json"},
		{map[string]string{"HOME": "/home/a", "XDG_STATE_HOME": "rel"}, "/home/a/.local/state/opencode/service.json"},
		{map[string]string{}, ""},
	} {
		if got := ServiceFile(env(c.env)); got != c.want {
			t.Errorf("ServiceFile(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestReadLocal(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "service.json")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, ok, err := ReadLocal(filepath.Join(dir, "none.json")); ok || err != nil {
		t.Errorf("no file: ok %v err %v", ok, err)
	}
	me := strconv.Itoa(os.Getpid())
	l, ok, err := ReadLocal(write(`{"id":"svc_1","version":"2.0.0","url":"http://127.0.0.1:4096","pid":` + me + `,"password":"pw"}`))
	if !ok || err != nil || l.URL != "http://127.0.0.1:4096" || l.Password != "pw" || l.Version != "2.0.0" {
		t.Errorf("a live service: %+v ok %v err %v", l, ok, err)
	}
	// A server that died without removing its file is not there.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := ReadLocal(write(`{"url":"http://127.0.0.1:4096","pid":` + strconv.Itoa(dead.Process.Pid) + `}`)); ok || err != nil {
		t.Errorf("a dead server's file: ok %v err %v", ok, err)
	}
	for _, bad := range []string{`{"url":"ftp://x"}`, `{"url":"http://u:SECRET@127.0.0.1:1"}`, `{"url":"u:SECRET@127.0.0.1:1"}`,
		`{"url":"http://u:SECRET@h:1:x"}`, `{"url":""}`, `not json`,
		`{"url":"http://127.0.0.1:1","x":` + strings.Repeat("[", 60000) + strings.Repeat("]", 60000) + `}`,
		`{"url":"http://127.0.0.1:1","x":"` + strings.Repeat("x", 10<<20) + `"}`} {
		_, ok, err := ReadLocal(write(bad))
		if ok || err == nil {
			t.Errorf("%.40s: ok %v err %v, want a clear error", bad, ok, err)
		} else if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "\n") || len(err.Error()) > 300 {
			t.Errorf("%.40s: the error shows the password, or is not one short line: %v", bad, err)
		}
	}
}
