package tree

import (
	"testing"

	"github.com/octop-dev/octop/model"
)

// TestToolCountCountsEveryCall: the row's count is every call, whatever
// its outcome: aborted and interrupted ones too.
func TestToolCountCountsEveryCall(t *testing.T) {
	c := model.Counts{ToolsRunning: 1, ToolsDone: 2, ToolsFailed: 1, ToolsAborted: 1, ToolsInterrupted: 1}
	if got := toolCount(c); got != "6 tools" {
		t.Errorf("toolCount = %q, want 6 tools", got)
	}
	if got := toolCount(model.Counts{ToolsAborted: 1}); got != "1 tool" {
		t.Errorf("one aborted call: %q, want 1 tool", got)
	}
}
