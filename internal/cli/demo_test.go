package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/wire"
)

// TestDemoRecording checks the embedded recording is one `--demo` can play:
// it decodes, its times only go forward, and it has a tree to show.
func TestDemoRecording(t *testing.T) {
	rec, err := demoRecording()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := record.New(rec, record.Options{}); err != nil {
		t.Fatalf("the player refuses the demo: %v", err)
	}
	created, children := 0, 0
	for i, e := range rec.Entries {
		if i > 0 && e.At < rec.Entries[i-1].At {
			t.Fatalf("entry %d goes back in time: %d after %d", i+1, e.At, rec.Entries[i-1].At)
		}
		v, err := e.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if env, ok := v.(wire.Envelope); ok {
			if c, ok := env.Event.(wire.SessionCreated); ok {
				created++
				if c.Info.ParentID != "" {
					children++
				}
			}
		}
	}
	if created < 2 || children < 1 {
		t.Fatalf("the recording creates %d sessions, %d of them children; a demo needs a tree", created, children)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--version"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"--bogus"}, 2},
		{[]string{"--server", "ftp://nope"}, 2},
		{[]string{"stray"}, 2},
		{[]string{"--replay", "/nonexistent/rec.gz"}, 1},
		{[]string{"--server", "http://127.0.0.1:1,ftp://nope"}, 2},
		// Several servers record into one file; one that cannot be made
		// is a one-line error before the screen starts.
		{[]string{"--server", "http://127.0.0.1:1", "--server", "http://127.0.0.1:2", "--record", "/nonexistent/x.gz"}, 1},
	} {
		var out, errb stringsBuilder
		if got := realMain(tc.args, nil, &out, &errb); got != tc.code {
			t.Errorf("octop %v exited %d, want %d (stderr %q)", tc.args, got, tc.code, errb.String())
		}
		if tc.code != 0 && (errb.Len() == 0 || errb.lines() != 1) {
			t.Errorf("octop %v: want one line on stderr, got %q", tc.args, errb.String())
		}
	}
}

// stringsBuilder is a strings.Builder that counts its lines.
type stringsBuilder struct{ strings.Builder }

func (b *stringsBuilder) lines() int {
	return strings.Count(strings.TrimRight(b.String(), "\n"), "\n") + 1
}

// The help must not print a password taken from the environment.
func TestHelpHidesThePassword(t *testing.T) {
	t.Setenv("OPENCODE_SERVER_PASSWORD", "hunter2-secret")
	var out, errb stringsBuilder
	if code := realMain([]string{"--help"}, nil, &out, &errb); code != 0 {
		t.Fatalf("--help exited %d", code)
	}
	if strings.Contains(out.String(), "hunter2-secret") {
		t.Fatal("--help printed the password from the environment")
	}
	if !strings.Contains(out.String(), "--demo") && !strings.Contains(out.String(), "-demo") {
		t.Fatal("--help does not mention the demo")
	}
}

// The demo's recording has no snapshots: its operations answer the
// screen's first reads without a reader (an empty partial snapshot, no
// version) rather than panic, as a nil reader's Health once did.
func TestDemoReadsWithoutSnapshots(t *testing.T) {
	rec, err := demoRecording()
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.New(rec, record.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Backend() != nil {
		t.Fatal("the demo's recording has snapshots now; this test no longer covers a nil reader")
	}
	o := record.ReadOnly(p.Backend(), record.NewRecorded(), "demo")
	ctx := context.Background()
	if snap, err := o.Snapshot(ctx); err != nil || len(snap.Sessions) != 0 || snap.Complete {
		t.Errorf("Snapshot = %+v, %v; want an empty partial one", snap, err)
	}
	if _, err := o.Health(ctx); err == nil {
		t.Error("Health answered a version the recording does not hold")
	}
}

// TestReplayRefusesBadFiles: a file that is not a recording, a corrupt
// one, or a speed the replay does not have, is one line and no screen.
func TestReplayRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := []byte(`{"kind":"header","format":"octop-recording/1","at":1}` + "\n" + `{"kind":"resync","at":2,"server":"s"}` + "\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--replay", write("notes.txt", []byte("hello\n"))}, 1, "not an octop recording"},
		{[]string{"--replay", write("bad.gz", []byte{0x1f, 0x8b, 0, 0, 0})}, 1, "corrupt"},
		{[]string{"--replay", write("mid.ndjson", append(good[:60:60], "\n{\"kind\":\n{\"kind\":\"resync\",\"at\":3}\n"...))}, 1, "corrupt at line"},
		{[]string{"--replay", write("good.ndjson", good), "--speed", "3"}, 2, "speed"},
	} {
		var out, errb stringsBuilder
		code := realMain(tc.args, nil, &out, &errb)
		if code != tc.code || errb.lines() != 1 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("octop %v: exit %d, stderr %q; want %d and one line with %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
