// Package assets holds the files embedded in the octop binary.
package assets

import _ "embed"

// DemoRecording is what `octop --demo` replays: JSON lines of
// {"ms": offset from the start, "data": a raw server event}, recorded from a
// real `opencode serve` driven by the fake model (see internal/dev/record).
//
//go:embed demo.jsonl
var DemoRecording []byte
