package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/octop-dev/octop/assets"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui"
)

// demoFrames decodes the embedded recording. Events of types octop does
// not know decode as Unknown and are kept: they cost nothing.
func demoFrames() ([]ui.DemoFrame, error) {
	var frames []ui.DemoFrame
	sc := bufio.NewScanner(bytes.NewReader(assets.DemoRecording))
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec struct {
			MS   int64           `json:"ms"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		env, err := client.DecodeEvent(rec.Data)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		frames = append(frames, ui.DemoFrame{At: time.Duration(rec.MS) * time.Millisecond, Event: env})
	}
	return frames, sc.Err()
}
