package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The filter's free text is matched against each session's id, title and
// agent as the session has them, without keeping a lower-cased copy of
// each per session: at scale those copies cost more than the sessions'
// own titles (docs/perf.md, scale), held for a filter nobody may type.
// An ASCII title is folded into a buffer on the stack, so a pass of the
// filter allocates nothing per session.

// phraseIn says whether text (lower case, words joined by one space)
// begins the session's id, or appears at a word's start (see bounded) in
// its agent, its title as stored, or its title as a row draws it: the
// description without a retry mark, then "@agent" (SplitTitle). Each is
// folded as fold folds it: lower case, every run of blanks one space.
func phraseIn(ss *Session, text string) bool {
	if text == "" || hasLowerPrefix(ss.ID, text) {
		return true
	}
	if foldedHas(text, ss.Title) || foldedHas(text, ss.Agent) {
		return true
	}
	desc, agent := SplitTitle(ss.Title)
	i, j := retrySpan(desc)
	if agent == "" && i == j {
		return false // drawn as stored
	}
	at := ""
	if agent != "" {
		at = " @"
	}
	return foldedHas(text, desc[:i], desc[j:], at, agent)
}

// fold is v lower-cased with its blanks folded: words joined by one space.
func fold(v string) string { return strings.Join(strings.Fields(strings.ToLower(v)), " ") }

// hasLowerPrefix is strings.HasPrefix(strings.ToLower(v), text).
func hasLowerPrefix(v, text string) bool {
	if !ascii(v) {
		return strings.HasPrefix(strings.ToLower(v), text)
	}
	if len(v) < len(text) {
		return false
	}
	for i := 0; i < len(text); i++ {
		if lowerASCII(v[i]) != text[i] {
			return false
		}
	}
	return true
}

// foldBuf is how long a string foldedHas folds on the stack; a longer one
// is folded the allocating way.
const foldBuf = 256

// foldedHas is bounded(fold(strings.Join(parts, "")), text), folding
// ASCII parts into a buffer on the stack.
func foldedHas(text string, parts ...string) bool {
	size, plain := 0, true
	for _, v := range parts {
		size += len(v)
		plain = plain && ascii(v)
	}
	if size > foldBuf || !plain {
		return bounded(fold(strings.Join(parts, "")), text)
	}
	var buf [foldBuf]byte
	n := 0
	space := false
	for _, v := range parts {
		for i := 0; i < len(v); i++ {
			ch := v[i]
			if asciiSpace(ch) {
				space = n > 0
				continue
			}
			if space {
				buf[n] = ' '
				n++
				space = false
			}
			buf[n] = lowerASCII(ch)
			n++
		}
	}
	return bounded(buf[:n], text)
}

// bounded says whether text occurs in hay where a word starts and, when
// text ends in a digit, where a number ends: "worker 1" is in "worker 1
// (@general subagent)" and not in "worker 10" or "coworker 1". A word is
// a run of letters or of digits, so "2" starts a word in "v2". Text that
// begins with neither may start anywhere.
func bounded[S string | []byte](hay S, text string) bool {
	if text == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(text)
	last, _ := utf8.DecodeLastRuneInString(text)
	n := len(text)
	for i := 0; i+n <= len(hay); i++ {
		if hay[i] != text[0] || !sameBytes(hay[i:i+n], text) {
			continue
		}
		if class(first) != 0 && i > 0 && class(runeBefore(hay, i)) == class(first) {
			continue // inside a word
		}
		if unicode.IsDigit(last) && i+n < len(hay) && unicode.IsDigit(runeAt(hay, i+n)) {
			continue // inside a number
		}
		return true
	}
	return false
}

// class is 1 for a letter, 2 for a digit and 0 for anything else.
func class(r rune) int {
	switch {
	case unicode.IsLetter(r):
		return 1
	case unicode.IsDigit(r):
		return 2
	}
	return 0
}

func sameBytes[S string | []byte](v S, text string) bool {
	for i := 0; i < len(text); i++ {
		if v[i] != text[i] {
			return false
		}
	}
	return true
}

// runeBefore is the rune that ends at v[i].
func runeBefore[S string | []byte](v S, i int) rune {
	if c := v[i-1]; c < utf8.RuneSelf {
		return rune(c)
	}
	k := i - 1
	for k > 0 && i-k < utf8.UTFMax && !utf8.RuneStart(v[k]) {
		k--
	}
	r, _ := utf8.DecodeRuneInString(string(v[k:i]))
	return r
}

// runeAt is the rune that starts at v[i].
func runeAt[S string | []byte](v S, i int) rune {
	if c := v[i]; c < utf8.RuneSelf {
		return rune(c)
	}
	r, _ := utf8.DecodeRuneInString(string(v[i:min(i+utf8.UTFMax, len(v))]))
	return r
}

func ascii(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// asciiSpace is unicode.IsSpace for an ASCII byte, as strings.Fields
// splits.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
