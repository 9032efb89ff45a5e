package ui

import (
	"context"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/inflight"
	"github.com/octop-dev/octop/ui/room"
)

func TestMoveKeys(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	if got := m.Selected(); got != "ses_root" {
		t.Fatalf("first selection = %q, want the root", got)
	}
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"j"}, "ses_c1"},
		{[]string{"down"}, "ses_c2"},
		{[]string{"k"}, "ses_c1"},
		{[]string{"up"}, "ses_root"},
		{[]string{"k"}, "ses_root"}, // stays at the top
		{[]string{"G"}, "ses_c4"},
		{[]string{"j"}, "ses_c4"}, // stays at the bottom
		{[]string{"g"}, "ses_root"},
	} {
		m = press(t, m, tc.keys...)
		if got := m.Selected(); got != tc.want {
			t.Fatalf("after %v: selected %q, want %q", tc.keys, got, tc.want)
		}
	}
	// The detail pane follows the selection.
	m = press(t, m, "j", "j")
	if !strings.Contains(screen(m), "task_id ses_c2") {
		t.Errorf("detail does not show the selected session:\n%s", screen(m))
	}
}

func TestFoldKeys(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), nested())
	rows := func() int { return len(m.tree.Rows()) }
	if rows() != 7 {
		t.Fatalf("nested tree has %d rows, want 7 (everything expanded)", rows())
	}
	m = press(t, m, "j", "h") // fold deep mid 0
	if rows() != 5 || m.Selected() != "ses_m0" {
		t.Fatalf("after h: %d rows, selected %q; want 5 rows, ses_m0", rows(), m.Selected())
	}
	if !strings.Contains(screen(m), "[+2 running]") {
		t.Errorf("a folded node does not say how many run below it:\n%s", screen(m))
	}
	m = press(t, m, "h") // already folded: go to the parent
	if m.Selected() != "ses_root" {
		t.Fatalf("h on a folded node selected %q, want its parent", m.Selected())
	}
	m = press(t, m, "j", "l") // unfold again
	if rows() != 7 {
		t.Fatalf("after l: %d rows, want 7", rows())
	}
	m = press(t, m, "l") // open already: step into the first child
	if m.Selected() != "ses_m0l0" {
		t.Fatalf("l on an open node selected %q, want its first child", m.Selected())
	}
	m = press(t, m, "left", "enter") // up to ses_m0, then toggle it closed
	if rows() != 5 {
		t.Fatalf("enter did not fold: %d rows", rows())
	}
	m = press(t, m, "enter")
	if rows() != 7 {
		t.Fatalf("enter did not unfold: %d rows", rows())
	}
	m = press(t, m, "g", "right") // root is open: right steps in
	if m.Selected() != "ses_m0" {
		t.Fatalf("right selected %q", m.Selected())
	}
}

func TestTabSwitchesPane(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	m = press(t, m, "tab", "j", "j")
	if m.Selected() != "ses_root" {
		t.Fatalf("j with the detail pane focused moved the tree to %q", m.Selected())
	}
	m = press(t, m, "tab", "j")
	if m.Selected() != "ses_c1" {
		t.Fatalf("after tab back, j selected %q", m.Selected())
	}
}

func TestFilter(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	m = press(t, m, "/", "docs")
	if !m.filtering {
		t.Fatal("/ did not open the filter")
	}
	ids := rowIDs(m)
	if strings.Join(ids, " ") != "ses_root ses_c3" {
		t.Fatalf("filter docs shows %v, want the match and its root", ids)
	}
	// While typing, letters are text, not keys: q must not quit.
	nm, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	m = nm.(Model)
	if isQuit(cmd) {
		t.Fatal("q typed into the filter quit octop")
	}
	m = press(t, m, "esc")
	if m.filtering || m.tree.Filter() != "" || len(m.tree.Rows()) != 5 {
		t.Fatalf("esc left filtering=%v filter=%q rows=%d", m.filtering, m.tree.Filter(), len(m.tree.Rows()))
	}
	// enter keeps the filter; esc afterwards clears it.
	m = press(t, m, "/", "unit", "enter")
	if m.filtering || m.tree.Filter() != "unit" {
		t.Fatalf("enter: filtering=%v filter=%q", m.filtering, m.tree.Filter())
	}
	m = press(t, m, "esc")
	if m.tree.Filter() != "" {
		t.Fatalf("esc did not clear the kept filter %q", m.tree.Filter())
	}
}

func TestFollow(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	m = press(t, m, "f")
	// ses_c3's bash call started last (80s), so it is the most recently
	// active busy session.
	if m.Selected() != "ses_c3" {
		t.Fatalf("follow selected %q, want ses_c3", m.Selected())
	}
	m = send(t, m, events(toolCall("ses_c1", "ses_c1_3", "bash", wire.ToolRunning, "go vet", `{"command":"go vet"}`, 90, -1)))
	if m.Selected() != "ses_c1" {
		t.Fatalf("follow did not move to the newly active session: %q", m.Selected())
	}
	if !strings.Contains(screen(m), "[follow]") {
		t.Error("the header does not show follow mode")
	}
	m = press(t, m, "k") // moving by hand ends follow
	m = send(t, m, events(toolCall("ses_c2", "ses_c2_3", "bash", wire.ToolRunning, "go vet", `{"command":"go vet"}`, 92, -1)))
	if m.Selected() != "ses_root" || m.follow {
		t.Fatalf("after k: selected %q follow=%v; want ses_root, follow off", m.Selected(), m.follow)
	}
}

func TestHelpToggle(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	short := m.areas().footer
	m = press(t, m, "?")
	if full := m.areas().footer; full <= short {
		t.Fatalf("? did not grow the footer: %d lines, was %d", full, short)
	}
	out := screen(m)
	for _, want := range []string{"abort subtree", "copy task_id", "clear"} {
		if !strings.Contains(out, want) {
			t.Errorf("full help lacks %q", want)
		}
	}
	checkScreenShape(t, out, 160, 48)
	if m = press(t, m, "?"); m.areas().footer != short {
		t.Fatal("? did not close the full help")
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		m := newTestModel(t, 80, 24)
		_, cmd := m.Update(keyMsgs(k)[0])
		if !isQuit(cmd) {
			t.Errorf("%s did not quit", k)
		}
	}
}

func TestReservedKeysWithoutActions(t *testing.T) {
	for _, k := range []string{"n", "r", "R", "m", "a", "x", "X", "o", "y", "i"} {
		m := press(t, send(t, newTestModel(t, 80, 24), fanOut()), k)
		if !strings.Contains(screen(m), "not available yet") {
			t.Errorf("%s: footer lacks \"not available yet\":\n%s", k, screen(m))
		}
	}
}

// fakeDialog is a dialog that closes on esc with a notice.
type fakeDialog struct{}

func (d fakeDialog) Update(msg tea.Msg) (room.Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.Code == tea.KeyEscape {
		return nil, func() tea.Msg { return FlashMsg{Text: "dialog closed"} }
	}
	return d, nil
}

func (fakeDialog) View(w, h int) string {
	return "╭─────────╮\n│ DIALOG! │\n╰─────────╯"
}

// TestDialogTakesEveryKey: an open dialog is drawn over the screen, gets
// every key, and its notice shows once it closes.
func TestDialogTakesEveryKey(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	m = press(t, m, "j")
	m.dialog, m.dialogGen = fakeDialog{}, m.dialogGen+1
	if !strings.Contains(screen(m), "DIALOG!") {
		t.Fatal("the dialog is not drawn")
	}
	checkScreenShape(t, screen(m), 160, 48)
	m = press(t, m, "j", "q") // the dialog takes every key
	if m.Selected() != "ses_c1" {
		t.Fatal("a key went to the tree while a dialog was open")
	}
	nm, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	m = nm.(Model)
	if m.dialog != nil || cmd == nil {
		t.Fatal("esc did not close the dialog")
	}
	m = send(t, m, cmd())
	if !strings.Contains(screen(m), "dialog closed") {
		t.Error("the dialog's FlashMsg is not shown")
	}
}

// fakeBackend answers snapshots from a function; the other operations
// are not called by the tests that use it.
type fakeBackend struct {
	task.Server
	snap func() model.Snapshot
}

func (f fakeBackend) Snapshot(context.Context) (model.Snapshot, error) { return f.snap(), nil }
func (f fakeBackend) Health(context.Context) (wire.Health, error) {
	return wire.Health{Healthy: true, Version: "1.18.33"}, nil
}

func TestResyncKeepsSelectionAndFolds(t *testing.T) {
	snap := model.Snapshot{Complete: true, Status: map[string]wire.SessionStatus{}}
	for _, e := range nested() {
		if c, ok := e.Event.(wire.SessionCreated); ok {
			snap.Sessions = append(snap.Sessions, c.Info)
		}
	}
	m := newTestModel(t, 160, 48, func(o *Options) { o.Server = fakeBackend{snap: func() model.Snapshot { return snap }} })
	m = send(t, m, nested())
	m = press(t, m, "j", "h", "j", "j") // fold ses_m0, select ses_m1l0
	if m.Selected() != "ses_m1l0" {
		t.Fatalf("setup: selected %q", m.Selected())
	}
	nm, cmd := m.Update(wire.ResyncNeeded{})
	m = nm.(Model)
	if cmd == nil {
		t.Fatal("ResyncNeeded started no fetch")
	}
	m = send(t, m, cmd())
	if m.Selected() != "ses_m1l0" || !m.tree.Collapsed("ses_m0") {
		t.Fatalf("after resync: selected %q, ses_m0 folded=%v", m.Selected(), m.tree.Collapsed("ses_m0"))
	}
	if got := len(m.tree.Rows()); got != 5 {
		t.Fatalf("after resync: %d rows, want 5", got)
	}
}

func TestStaleSnapshotDropped(t *testing.T) {
	m := newTestModel(t, 80, 24, func(o *Options) {
		o.Server = fakeBackend{snap: func() model.Snapshot { return model.Snapshot{} }}
	})
	m = send(t, m, wire.ResyncNeeded{})
	old := m.in.Tag()
	m = send(t, m, wire.ResyncNeeded{})
	stale := model.Snapshot{Sessions: []wire.Session{{ID: "ses_stale", Title: "from an old fetch"}}}
	m = send(t, m, inflight.SnapshotReply{Tag: old, Snap: stale})
	if m.State().Session("ses_stale") != nil {
		t.Fatal("a reply to an older fetch was applied")
	}
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: stale})
	if m.State().Session("ses_stale") == nil {
		t.Fatal("the reply to the newest fetch was dropped")
	}
}

func TestMouse(t *testing.T) {
	m := send(t, newTestModel(t, 160, 48), fanOut())
	// Rows start under the two header lines: y=4 is the third row.
	m = send(t, m, tea.MouseClickMsg{X: 10, Y: 4, Button: tea.MouseLeft})
	if m.Selected() != "ses_c2" {
		t.Fatalf("click on the third row selected %q", m.Selected())
	}
	m = send(t, m, tea.MouseClickMsg{X: 120, Y: 10, Button: tea.MouseLeft})
	if m.focus != paneDetail {
		t.Fatal("a click in the detail pane did not focus it")
	}
	// A tree taller than the pane scrolls with the wheel.
	many := []wire.Event{}
	for i := range 80 {
		many = append(many, created(strings.Repeat("x", 3)+string(rune('A'+i%26))+string(rune('a'+i/26)), "", "root", float64(i)))
	}
	m = send(t, send(t, newTestModel(t, 80, 24), events(many...)), tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
	if m.tree.Offset() != 3 {
		t.Fatalf("wheel down scrolled to offset %d, want 3", m.tree.Offset())
	}
	if i := indexOf(rowIDs(m), m.Selected()); i < 3 {
		t.Fatalf("the selection (row %d) was left above the viewport", i)
	}
}

func TestResetEmptiesTheTree(t *testing.T) {
	m := send(t, send(t, newTestModel(t, 80, 24, func(o *Options) { o.Demo = true }), fanOut()), ResetMsg{})
	if m.State().Len() != 0 || len(m.tree.Rows()) != 0 || m.counts.Running != 0 {
		t.Fatalf("reset left %d sessions, %d rows, %d running", m.State().Len(), len(m.tree.Rows()), m.counts.Running)
	}
}

func TestDisconnectedCountdown(t *testing.T) {
	m := send(t, newTestModel(t, 80, 24), wire.ConnState{State: wire.Disconnected, Err: errRefused,
		RetryAt: now.Add(2100 * 1e6), Attempt: 2})
	out := screen(m)
	if !strings.Contains(out, "disconnected 0s, retrying in 3s") || !strings.Contains(out, "cannot reach OpenCode") {
		t.Fatalf("disconnected header lacks the countdown or the error:\n%s", out)
	}
	m = send(t, m, wire.ConnState{State: wire.Connected, Attempt: 2})
	if out := screen(m); !strings.Contains(out, "re-reading the sessions") || strings.Contains(out, "cannot reach") {
		t.Fatalf("reconnected, not re-read yet: the header must still say the screen is stale:\n%s", out)
	}
	m = send(t, m, wire.ResyncNeeded{})
	m = send(t, m, inflight.SnapshotReply{Tag: m.in.Tag(), Snap: model.Snapshot{Complete: true}})
	if out := screen(m); !strings.Contains(out, "● connected") || strings.Contains(out, "disconnected") {
		t.Fatalf("after the resync the header still says disconnected:\n%s", out)
	}
}

func rowIDs(m Model) []string {
	var ids []string
	for _, r := range m.tree.Rows() {
		ids = append(ids, r.ID)
	}
	return ids
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

// isQuit runs cmd and reports whether it asks the program to quit.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestBackgroundPicksTheStyles(t *testing.T) {
	m := New(Options{ServerURL: "http://x", Clock: fixedClock})
	if !m.styles.IsDark {
		t.Fatal("before the terminal answers, the styles should assume dark")
	}
	m = send(t, m, tea.BackgroundColorMsg{Color: color.White})
	if m.styles.IsDark {
		t.Fatal("a white background left dark styles")
	}
	m = send(t, m, tea.BackgroundColorMsg{Color: color.Black})
	if !m.styles.IsDark {
		t.Fatal("a black background left light styles")
	}
	// The same screen with colour has colour codes, so the check below
	// can fail.
	col := send(t, send(t, New(Options{ServerURL: "http://x", Clock: fixedClock}), tea.WindowSizeMsg{Width: 80, Height: 24}), fanOut())
	if out := col.View().Content; !strings.Contains(out, "\x1b[38") {
		t.Fatal("the coloured screen has no colour codes")
	}
	nc := New(Options{ServerURL: "http://x", Clock: fixedClock, NoColor: true})
	nc = send(t, send(t, nc, tea.WindowSizeMsg{Width: 80, Height: 24}), fanOut())
	if out := nc.View().Content; colourtest.Escape(out) != "" {
		t.Fatalf("NO_COLOR output has colour codes: %q", out[:min(len(out), 200)])
	}
}

// A failure retrying cannot fix (a rejected password) says so: no
// countdown, and no "waiting for the server" promise on the empty tree.
func TestFinalErrorSaysItStopped(t *testing.T) {
	m := send(t, newTestModel(t, 100, 12), wire.ConnState{State: wire.Disconnected,
		Err: &client.Error{Kind: client.KindUnauthorized, Msg: "the server rejected the password; set OPENCODE_SERVER_PASSWORD"}})
	out := screen(m)
	// At 100 columns the hint is wrapped in the tree pane, not cut.
	for _, want := range []string{"error, not retrying", "rejected the password", "stopped trying",
		"fix the error above", "start it again"} {
		if !strings.Contains(out, want) {
			t.Fatalf("screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "waiting for the server") {
		t.Fatalf("a final error still promises to wait:\n%s", out)
	}
}
