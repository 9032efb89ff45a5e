package model

import "testing"

func TestSplitRetry(t *testing.T) {
	for _, c := range []struct{ title, rest, of string }{
		{"find callers (retry of ses_2b9aF0) (@explore subagent)", "find callers (@explore subagent)", "ses_2b9aF0"},
		{"fix the build (retry of ses_1)", "fix the build", "ses_1"},
		{"a (retry of ses_1) (retry of ses_2) (@general subagent)", "a (retry of ses_1) (@general subagent)", "ses_2"},
		{"find callers (@explore subagent)", "find callers (@explore subagent)", ""},
		{"no id (retry of abc) (@general subagent)", "no id (retry of abc) (@general subagent)", ""},
		{"bad id (retry of ses_a b)", "bad id (retry of ses_a b)", ""},
		{"mid (retry of ses_1) and more", "mid (retry of ses_1) and more", ""},
		{"unclosed (retry of ses_1", "unclosed (retry of ses_1", ""},
		{"", "", ""},
	} {
		rest, of := SplitRetry(c.title)
		if rest != c.rest || of != c.of {
			t.Errorf("SplitRetry(%q) = %q, %q; want %q, %q", c.title, rest, of, c.rest, c.of)
		}
	}
	if rest, of := SplitRetry("d" + RetryMark("ses_9") + " (@general subagent)"); rest != "d (@general subagent)" || of != "ses_9" {
		t.Errorf("RetryMark does not round-trip: %q, %q", rest, of)
	}
}

// TestRetryOf: the link holds only to a known session under the same
// parent; a title naming a stranger, itself or a missing session links
// nothing.
func TestRetryOf(t *testing.T) {
	s := apply(
		created("ses_root", "", "root", 1),
		created("ses_other", "", "other root", 2),
		created("ses_a", "ses_root", "find (@general subagent)", 3),
		created("ses_b", "ses_root", "find (retry of ses_a) (@general subagent)", 4),
		created("ses_c", "ses_root", "x (retry of ses_other) (@general subagent)", 5),
		created("ses_d", "ses_root", "x (retry of ses_d) (@general subagent)", 6),
		created("ses_e", "ses_root", "x (retry of ses_gone) (@general subagent)", 7),
		created("ses_r2", "", "other root (retry of ses_other)", 8),
	)
	for id, want := range map[string]string{"ses_b": "ses_a", "ses_c": "", "ses_d": "", "ses_e": "", "ses_r2": "ses_other", "ses_a": "", "ses_none": ""} {
		if got := s.RetryOf(id); got != want {
			t.Errorf("RetryOf(%s) = %q, want %q", id, got, want)
		}
	}
}
