package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/octop-dev/octop/assets"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/ui"
)

// demoFrames decodes the embedded recording. Events of types octop does
// not know decode as Unknown and are kept: they cost nothing.
func demoFrames() ([]ui.DemoFrame, error) {
	recs, err := client.ReadRecording(bytes.NewReader(assets.DemoRecording))
	if err != nil {
		return nil, err
	}
	frames := make([]ui.DemoFrame, 0, len(recs))
	for i, r := range recs {
		env, err := r.Decode()
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		frames = append(frames, ui.DemoFrame{At: time.Duration(r.MS) * time.Millisecond, Event: env})
	}
	return frames, nil
}
