package harness

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestBackgroundFanout runs `FANOUT background=true` on 1.18.33 with the
// flag: both task parts complete at once with state="running" and metadata
// {background, jobId, sessionId, parentSessionId}; each child's end adds one
// synthetic user message to the parent, which the fake answers.
func TestBackgroundFanout(t *testing.T) {
	s := Start(t, Config{Version: V118, Env: []string{BackgroundEnv}})
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(90*time.Second))
	defer cancel()
	var root struct{ ID string }
	if err := s.JSON(ctx, http.MethodPost, "/session", map[string]any{"title": "bg"}, &root); err != nil {
		t.Fatal(err)
	}
	prompt := `FANOUT k=2 background=true child="LEAF steps=1 sleep=0.5"`
	if err := s.JSON(ctx, http.MethodPost, "/session/"+root.ID+"/prompt_async",
		map[string]any{"parts": []any{map[string]any{"type": "text", "text": prompt}}}, nil); err != nil {
		t.Fatal(err)
	}
	type part struct {
		Type, Tool, Text string
		Synthetic        bool
		State            struct {
			Status, Output string
			Metadata       struct {
				Background      bool
				JobID           string `json:"jobId"`
				SessionID       string `json:"sessionId"`
				ParentSessionID string `json:"parentSessionId"`
			}
		}
	}
	type message struct {
		Info  struct{ Role string }
		Parts []part
	}
	var msgs []message
	notices := func() (n int) {
		for _, m := range msgs {
			for _, p := range m.Parts {
				if m.Info.Role == "user" && p.Synthetic {
					n++
				}
			}
		}
		return n
	}
	testwait.Check(t, func() error {
		if err := s.JSON(ctx, http.MethodGet, "/session/"+root.ID+"/message", nil, &msgs); err != nil {
			return err
		}
		if n := notices(); n < 2 {
			return fmt.Errorf("%d notices so far", n)
		}
		st, err := s.Statuses(ctx)
		if err != nil || len(st) > 0 {
			return fmt.Errorf("still busy: %v %v", st, err)
		}
		return nil
	}, 60*time.Second, "two end notices and all idle")

	tasks, answers := 0, 0
	for _, m := range msgs {
		for _, p := range m.Parts {
			switch {
			case p.Type == "tool" && p.Tool == "task":
				tasks++
				md := p.State.Metadata
				if p.State.Status != "completed" || !md.Background || md.JobID != md.SessionID || md.ParentSessionID != root.ID ||
					!strings.HasPrefix(p.State.Output, `<task id="`+md.SessionID+`" state="running">`) {
					t.Errorf("task part %+v", p.State)
				}
			case m.Info.Role == "user" && p.Synthetic:
				n, ok := fakellm.ParseNotice(p.Text)
				if !ok || n.State != "completed" || !strings.HasPrefix(n.Summary, "Background task completed: ") {
					t.Errorf("notice %q", p.Text)
				}
			case m.Info.Role == "assistant" && p.Type == "text" && strings.HasPrefix(p.Text, "noticed task "):
				answers++
			}
		}
	}
	if tasks != 2 || answers != 2 {
		t.Errorf("%d task parts, %d answered notices; want 2 and 2", tasks, answers)
	}
}
