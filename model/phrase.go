package model

import (
	"strings"
	"unicode/utf8"
)

// The filter's free text is matched against each session's id, title and
// agent as the session has them, without keeping a lower-cased copy of
// each per session: at scale those copies cost more than the sessions'
// own titles (docs/perf.md, scale), held for a filter nobody may type.

// phraseIn says whether text (lower case, words joined by one space)
// begins the session's id or appears in its title or agent, each folded
// as fold folds it: lower case, every run of blanks one space.
func phraseIn(ss *Session, text string) bool {
	return hasLowerPrefix(ss.ID, text) || foldedContains(ss.Title, text) || foldedContains(ss.Agent, text)
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

// foldBuf is how long a string foldedContains folds on the stack; a
// longer one is folded the allocating way.
const foldBuf = 256

// foldedContains is strings.Contains(fold(v), text), folding an ASCII v
// into a buffer on the stack.
func foldedContains(v, text string) bool {
	if text == "" {
		return true
	}
	if len(v) > foldBuf || !ascii(v) {
		return strings.Contains(fold(v), text)
	}
	var buf [foldBuf]byte
	n := 0
	space := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if asciiSpace(c) {
			space = n > 0
			continue
		}
		if space {
			buf[n] = ' '
			n++
			space = false
		}
		buf[n] = lowerASCII(c)
		n++
	}
	folded := buf[:n]
	for i := 0; i+len(text) <= len(folded); i++ {
		if folded[i] == text[0] && string(folded[i:i+len(text)]) == text {
			return true
		}
	}
	return false
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
