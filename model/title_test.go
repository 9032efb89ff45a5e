package model

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/wire"
)

// TestTitleIsBounded: a session keeps at most maxTitle bytes of its
// title, valid UTF-8, with the agent suffix a child's title ends in.
func TestTitleIsBounded(t *testing.T) {
	huge := strings.Repeat("日本 title ", 500_000) + " (@explore subagent)"
	s := New()
	s.Apply(wire.SessionCreated{Info: wire.Session{ID: "ses_a", Title: huge, Time: wire.SessionTime{Created: 1, Updated: 1}}})
	got := s.Session("ses_a").Title
	if len(got) > maxTitle || !utf8.ValidString(got) || !strings.HasSuffix(got, " (@explore subagent)") || !strings.HasPrefix(got, "日本 title") {
		t.Errorf("kept %d bytes: %.80q … %q", len(got), got, got[max(len(got)-40, 0):])
	}
	if !strings.Contains(got, "…") {
		t.Error("no ellipsis shows where the title was cut")
	}
	s.Apply(wire.SessionUpdated{Info: wire.Session{ID: "ses_a", Title: "short", Time: wire.SessionTime{Created: 1, Updated: 2}}})
	if got := s.Session("ses_a").Title; got != "short" {
		t.Errorf("a short title kept as %q", got)
	}
}
