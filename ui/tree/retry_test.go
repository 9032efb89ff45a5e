package tree

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/styles"
)

// A retry's row names the session it retries once, after the agent, and
// its title loses the mark; a title naming a session that is not its
// sibling is drawn as it is.
func TestRetryRow(t *testing.T) {
	st := model.New()
	for _, s := range []wire.Session{
		{ID: "ses_p", Title: "fan"},
		{ID: "ses_a", ParentID: "ses_p", Title: "find callers (@explore subagent)"},
		{ID: "ses_b", ParentID: "ses_p", Title: "find callers" + model.RetryMark("ses_a") + " (@explore subagent)"},
		{ID: "ses_c", ParentID: "ses_p", Title: "fake" + model.RetryMark("ses_p") + " (@explore subagent)"},
	} {
		st.Apply(wire.SessionCreated{Info: s})
	}
	m := New(styles.New(true, true))
	m.SetSize(90, 10)
	m.SetState(st)
	out := ansi.Strip(m.View())
	for _, want := range []string{"find callers @explore ↺ retry of ses_a", "fake (retry of ses_p) @explore"} {
		if !strings.Contains(out, want) {
			t.Errorf("the tree lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "retry of ses_a") != 1 {
		t.Errorf("the link shows more than once:\n%s", out)
	}
}
