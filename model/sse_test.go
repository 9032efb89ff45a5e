package model

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// readSSE reads the data payloads of a raw SSE capture.
func readSSE(t testing.TB, path string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read capture: %v", err)
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			out = append(out, bytes.Clone(d))
		}
	}
	return out
}

func decodeAll(t testing.TB, datas [][]byte) []wire.Event {
	t.Helper()
	evs := make([]wire.Event, 0, len(datas))
	for _, d := range datas {
		env, err := wire.DecodeEvent(d)
		if err != nil {
			t.Fatalf("decode %s: %v", d, err)
		}
		evs = append(evs, env.Event)
	}
	return evs
}

func captures(t testing.TB) []string {
	files, _ := filepath.Glob("../internal/wire/testdata/*.sse")
	if len(files) == 0 {
		t.Fatal("no captures in ../internal/wire/testdata")
	}
	return files
}

// TestReferenceCaptures replays the hand-made reference captures (no REST
// view beside them) and checks what must hold at their end: no
// placeholder left, every task call linked to a child of its session, all
// idle, and the aborted sessions shown as errors.
func TestReferenceCaptures(t *testing.T) {
	for _, f := range captures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := New()
			for _, ev := range decodeAll(t, readSSE(t, f)) {
				s.Apply(ev)
			}
			if s.Len() < 3 {
				t.Fatalf("only %d sessions", s.Len())
			}
			errored := 0
			for _, ss := range s.list {
				if !ss.Known {
					t.Errorf("placeholder %s left", ss.ID)
				}
				if ss.Running() {
					t.Errorf("%s still running", ss.ID)
				}
				if s.StateOf(ss.ID).Kind == KindAborted {
					errored++
				}
				for _, tc := range ss.Tools {
					if tc.Tool != "task" {
						continue
					}
					c := s.Session(tc.ChildID)
					if c == nil || c.ParentID != ss.ID || c.TaskPartID != tc.PartID {
						t.Errorf("%s: task call %s links %q", ss.ID, tc.PartID, tc.ChildID)
					}
				}
			}
			if strings.Contains(f, "abort") != (errored > 0) {
				t.Errorf("%d sessions shown as aborted", errored)
			}
		})
	}
}
