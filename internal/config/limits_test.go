package config

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileNestingIsRefusedBeforeParsing: what drove the TOML parser
// into a stack overflow (a long run of "[") or into gigabytes (nested
// inline tables, dotted keys and table names, whose cost grows with the
// square of their depth) is refused with one line naming the limit,
// having allocated next to nothing.
func TestHostileNestingIsRefusedBeforeParsing(t *testing.T) {
	deep := 4000
	for name, text := range map[string]string{
		"arrays":        "x = " + strings.Repeat("[", MaxSize-10),
		"inline tables": "x = " + strings.Repeat("{a=", deep) + "1" + strings.Repeat("}", deep),
		"dotted key":    "[watchdog]\n" + strings.Repeat("a.", deep) + "b = 1",
		"table name":    "[" + strings.Repeat("a.", deep) + "b]",
		"array table":   "[[" + strings.Repeat("a.", deep) + "b]]",
		"mixed":         "x = [{a.b = [{c.d = [[{e = [[1]]}]]}]}]",
		"under a table": "[a.b.c.d.e]\nf.g.h.i.j = 1",
		"dotted inline": "x = {a.b.c = {d.e.f = {g.h.i = 1}}}",
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			data := []byte(text)
			n := allocated(func() { _, err = Parse(data) })
			if err == nil || !strings.Contains(err.Error(), "nested more than 8 levels deep") || strings.Contains(err.Error(), "\n") {
				t.Errorf("Parse = %v, want one line naming the nesting limit", err)
			}
			if n > 1<<20 {
				t.Errorf("Parse allocated %d bytes refusing it, want under 1 MiB", n)
			}
		})
	}
}

// TestNestingWithinTheLimitIsParsed: the deepest nesting allowed reaches
// the parser (which says the key is unknown), and brackets, braces and
// dots inside strings and comments are not nesting.
func TestNestingWithinTheLimitIsParsed(t *testing.T) {
	for name, text := range map[string]string{
		"inline tables": "x = {a={b={c={d={e={f={g=1}}}}}}}",
		"dotted key":    "a.b.c.d.e.f.g.h = 1",
		"arrays":        "x = [[[[[[[[1]]]]]]]]",
		"under a table": "[a.b.c.d.e]\nf.g.h = 1\n[[x]]\ny.z = [[[[1]]]]",
	} {
		if _, err := Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), "unknown setting") {
			t.Errorf("%s: Parse = %v, want it parsed, and its key unknown", name, err)
		}
	}
	brackets := strings.Repeat("[{.", 20)
	text := "# " + brackets + "\n[notify]\nexec = \"echo " + brackets + " \\\" " + brackets + "\"\n" +
		"notify = '" + brackets + "'\n" +
		"[watchdog]\nstall = \"\"\"\n" + brackets + "\"\"\" # " + brackets + "\n" +
		"budget_cost = '''" + brackets + "\n" + brackets + "'''\n" +
		"abort_on = [\"loop\", # " + brackets + "\n \"stall\"]\n"
	f, err := Parse([]byte(text))
	if err == nil || !strings.Contains(err.Error(), "is not a duration") {
		t.Fatalf("Parse = %v, want it parsed to the check of stall", err)
	}
	_ = f
	text = strings.Replace(text, "stall = \"\"\"\n"+brackets+"\"\"\"", "stall = \"2m\"", 1)
	if f, err = Parse([]byte(text)); err != nil || len(f.Watchdog.AbortOn) != 2 || !strings.HasPrefix(f.Notify.Exec, "echo [{.") {
		t.Errorf("Parse = %+v, %v", f, err)
	}
}

// TestNestingErrorNamesTheLine: the line counts the newlines of the
// multi-line strings before it.
func TestNestingErrorNamesTheLine(t *testing.T) {
	text := "[notify]\nexec = \"\"\"\none\ntwo\n\"\"\"\nnotify = '''\n'''\n\nx = " + strings.Repeat("[", 9)
	if _, err := Parse([]byte(text)); err == nil || !strings.HasPrefix(err.Error(), "line 9: nested more than 8") {
		t.Errorf("Parse = %v, want it on line 9", err)
	}
}

// TestLargeFileIsRefused: a file over MaxSize is refused with one line
// naming the limit, having read no more than one byte past it.
func TestLargeFileIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(strings.Repeat("# a comment, nothing to parse\n", 200_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OCTOP_CONFIG", p)
	var err error
	n := allocated(func() { _, err = Load() })
	if err == nil || !strings.Contains(err.Error(), "more than the 64 KiB a config file may be") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Load = %v, want one line naming the 64 KiB limit", err)
	}
	if n > 1<<20 {
		t.Errorf("Load allocated %d bytes refusing a 6 MB file, want under 1 MiB", n)
	}
	if _, err := Parse([]byte(strings.Repeat("#", MaxSize))); err != nil {
		t.Errorf("a file of MaxSize: %v", err)
	}
}

// FuzzParse: whatever the text, Parse ends without a panic, and its error
// is one line.
func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("x = [[[[[[[[[1]]]]]]]]]"))
	f.Add([]byte("s = \"\"\"a\"\"\"\"\"\nt = '''b'''''"))
	f.Add([]byte("a.b.\"c.d\".e = 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Parse(data); err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("a multi-line error: %q", err)
		}
	})
}
