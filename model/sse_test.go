package model

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/octop-dev/octop/client"
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

func decodeAll(t testing.TB, datas [][]byte) []client.Event {
	t.Helper()
	evs := make([]client.Event, 0, len(datas))
	for _, d := range datas {
		env, err := client.DecodeEvent(d)
		if err != nil {
			t.Fatalf("decode %s: %v", d, err)
		}
		evs = append(evs, env.Event)
	}
	return evs
}

func captures(t testing.TB) []string {
	files, _ := filepath.Glob("../client/testdata/*.sse")
	if len(files) == 0 {
		t.Fatal("no captures in ../client/testdata")
	}
	return files
}
