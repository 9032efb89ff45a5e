package model

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/wire"
)

// TestFilterMatchesAtWordBounds: the phrase starts where a word starts,
// a number in it matches a whole number, and a title matches as stored or
// as its row draws it (issue 28: `/worker 1` kept worker 10, and typing
// what the row shows, `worker 1 @general`, matched nothing).
func TestFilterMatchesAtWordBounds(t *testing.T) {
	created := func(id, parent, title string, at int64) wire.Event {
		return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title, Agent: "general",
			Time: wire.SessionTime{Created: at, Updated: at}}}
	}
	s := apply(
		created("ses_root", "", "gs root", 1),
		created("ses_w1", "ses_root", "worker 1 (@general subagent)", 2),
		created("ses_w10", "ses_root", "worker 10 (@general subagent)", 3),
		created("ses_v2", "ses_root", "build v2 (@explore subagent)", 4),
		created("ses_re", "ses_root", "worker 1 (retry of ses_w1) (@general subagent)", 5),
	)
	for _, tt := range []struct{ filter, want string }{
		{"worker 1", "(root) .w1 .re"},
		{"worker 10", "(root) .w10"},
		{"work", "(root) .w1 .w10 .re"},         // a word's start: typing on narrows
		{"orker", ""},                           // not inside a word
		{"worker 1 @general", "(root) .w1 .re"}, // as the row draws it
		{"WORKER  1  @General", "(root) .w1 .re"},
		{"worker 1 (@general subagent)", "(root) .w1"}, // as stored
		{"1 @general", "(root) .w1 .re"},
		{"@general", "(root) .w1 .w10 .re"},
		{"general", "root .w1 .w10 .v2 .re"}, // the agent, every session's here
		{"2", "(root) .v2"},                  // a number after a letter is its own word
		{"v", "(root) .v2"},
		{"ses_w1", "(root) .w1 .w10 .re"}, // the id's start, numbers or not; re's title names it
	} {
		if got := ids(Flatten(s, nil, tt.filter)); got != tt.want {
			t.Errorf("filter %q: rows %q, want %q", tt.filter, got, tt.want)
		}
	}
}

// boundedRef is the rule phraseIn keeps, written as a regexp: text where
// a word (letters, or digits) starts, and not followed by a digit when it
// ends in one.
func boundedRef(hay, text string) bool {
	first, _ := utf8.DecodeRuneInString(text)
	last, _ := utf8.DecodeLastRuneInString(text)
	pre, post := "", ""
	switch {
	case unicode.IsLetter(first):
		pre = `(?:^|[^\pL])`
	case unicode.IsDigit(first):
		pre = `(?:^|[^\p{Nd}])`
	}
	if unicode.IsDigit(last) {
		post = `(?:$|[^\p{Nd}])`
	}
	return regexp.MustCompile(pre + regexp.QuoteMeta(text) + post).MatchString(hay)
}

// TestPhraseMatchesFolded: the free text matches the id's start, and the
// title (stored or drawn) and agent lower-cased with blanks folded at a
// word's start, exactly as the regexp over a folded copy would, for
// ASCII, other scripts and long titles alike.
func TestPhraseMatchesFolded(t *testing.T) {
	long := strings.Repeat("Lorem  ipsum ", 40) + "the END 12"
	titles := []string{"Fix the  Parser", "\tfix\nthe parser ", "ÉCOLE  Straße", "fix the parser", long, "",
		"worker 10 (@Gen subagent)", "vérifier 10 (@général subagent)", "a2b3 x_1", long + " (@gen subagent)"}
	phrases := []string{"fix the parser", "the p", "école straße", "straße", "ses_abc", "ses_ab", "abc", "the end",
		"r  e", "x", "worker 1", "worker 10 @gen", "10 (@gen", "1", "3", "b", "_1", "end 1", "end 12 @gen",
		"vérifier 10 @général", "ipsum lorem"}
	for _, title := range titles {
		ss := &Session{ID: "ses_ABC1", Title: title, Agent: "Explore Agent"}
		desc, agent := SplitTitle(title)
		drawn := desc
		if agent != "" {
			drawn += " @" + agent
		}
		for _, text := range phrases {
			text = fold(text)
			want := strings.HasPrefix(strings.ToLower(ss.ID), text) || boundedRef(fold(ss.Title), text) ||
				boundedRef(fold(drawn), text) || boundedRef(fold(ss.Agent), text)
			if got := phraseIn(ss, text); got != want {
				t.Errorf("title %.40q, phrase %q: got %v, want %v", title, text, got, want)
			}
		}
	}
}

// TestPhraseAllocatesNothing: matching an ASCII title, stored and drawn
// with a retry mark cut, allocates nothing, so a filter's pass over
// 50,000 sessions costs no garbage.
func TestPhraseAllocatesNothing(t *testing.T) {
	ss := &Session{ID: "ses_x1", Title: "Worker 1 (retry of ses_w1) (@general subagent)", Agent: "general"}
	for _, text := range []string{"worker 1 @general", "worker 10", "nothing like it"} {
		if n := testing.AllocsPerRun(100, func() { phraseIn(ss, text) }); n != 0 {
			t.Errorf("phrase %q: %v allocations a match, want 0", text, n)
		}
	}
}
