package frametrace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/wire"
)

type fakeModel struct{ content string }

func (f fakeModel) Init() tea.Cmd { return nil }
func (f fakeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(string); ok {
		f.content = s
	}
	return f, nil
}
func (f fakeModel) View() tea.View { return tea.NewView(f.content) }

// An event is timed from its arrival to the first write after the frame
// that changed; one after which the frame stayed the same is not timed.
func TestTraceTimesEventsToTheWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace")
	tr, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Unix(100, 0)
	tr.now = func() time.Time { return clock }
	var got []any
	send := tr.Send(func(v any) { got = append(got, v) })
	send(wire.Envelope{})
	send(wire.Envelope{})
	if len(got) != 2 {
		t.Fatalf("send passed on %d values, want 2", len(got))
	}
	// Update sees a message carrying both events; View changes.
	m := tr.Model(fakeModel{}, func(msg tea.Msg) int {
		if _, ok := msg.(string); ok {
			return 2
		}
		return 0
	})
	m, _ = m.Update("frame 1")
	m.View()
	clock = clock.Add(30 * time.Millisecond)
	if _, err := tr.Output(os.Stderr).Write(nil); err != nil {
		t.Fatal(err)
	}
	// A key that changes nothing: not timed.
	m, _ = m.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	m.View()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{"event 100000000000 100030000000 ", "event 100000000000 100030000000 ", "unseen 1"}
	if len(lines) != len(want) {
		t.Fatalf("trace:\n%s\nwant %d lines", b, len(want))
	}
	for i := range want {
		if strings.TrimSpace(lines[i]) != strings.TrimSpace(want[i]) {
			t.Errorf("line %d = %q, want %q", i, lines[i], want[i])
		}
	}
}
