package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// historyOnly is a server whose every session has one message.
type historyOnly struct{ task.Server }

func (historyOnly) History(_ context.Context, id, _ string) ([]wire.MessageWithParts, error) {
	return []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user"}}}, nil
}

// TestRecordKeepsTheUsageHistories: a subtree's histories read for the
// $ ledger (a HistoriesRequest) are recorded as the history reader's are,
// so a replay answers them too.
func TestRecordKeepsTheUsageHistories(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.octop")
	r, err := openRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	tapped := r.also(&client.Options{BaseURL: "http://a:1"}).server(historyOnly{})
	reply := task.Run(context.Background(), tapped, task.HistoriesRequest{IDs: []string{"ses_a", "ses_b"}})
	if h, ok := reply.(task.HistoriesReply); !ok || h.Err != nil || len(h.Msgs) != 2 {
		t.Fatalf("reply %#v", reply)
	}
	var stderr bytes.Buffer
	r.close(&stderr)
	if stderr.Len() > 0 {
		t.Fatal(stderr.String())
	}
	got := map[string]bool{}
	for _, e := range readRecording(t, path).Entries {
		if e.Kind == record.KindHistory {
			d, err := e.Decode()
			if h, ok := d.(record.History); err == nil && ok {
				got[h.ID] = len(h.Messages) == 1
			}
		}
	}
	if !got["ses_a"] || !got["ses_b"] {
		t.Errorf("histories recorded: %v, want ses_a and ses_b", got)
	}
}
