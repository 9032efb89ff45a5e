package fakellm

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Scenario keywords. See the package documentation for what each plays.
const (
	Fanout   = "FANOUT"
	Leaf     = "LEAF"
	Nested   = "NESTED"
	Fail     = "FAIL"
	Big      = "BIG"
	Runaway  = "RUNAWAY"
	Slow     = "SLOW"
	Call     = "CALL"
	Question = "QUESTION"
	Loop     = "LOOP"
	Hang     = "HANG"
	Error    = "ERROR"
)

var keywords = map[string]bool{
	Fanout: true, Leaf: true, Nested: true, Fail: true,
	Big: true, Runaway: true, Slow: true, Call: true, Question: true,
	Loop: true, Hang: true, Error: true, Steer: true, Edit: true,
}

// Script is a scenario keyword with its parameters, as parsed from a user
// message by ParseScript.
type Script struct {
	Name   string
	Params map[string]string
}

// ParseScript finds the first scenario keyword in text and the key=value
// parameters that follow it. A value is either a bare word or a Go
// double-quoted string, so scripts nest: child="LEAF steps=2" or
// child="FANOUT k=1 child=\"LEAF steps=1\"". ok is false when text holds no
// keyword.
func ParseScript(text string) (s Script, ok bool) {
	s.Params = map[string]string{}
	i := 0
	for i < len(text) {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if i >= len(text) {
			break
		}
		j := i
		for j < len(text) && !isSpace(text[j]) && text[j] != '=' {
			j++
		}
		if j < len(text) && text[j] == '=' && j > i {
			key := text[i:j]
			rest := text[j+1:]
			val, n := parseValue(rest)
			i = j + 1 + n
			if ok {
				s.Params[key] = val
			}
			continue
		}
		word := strings.TrimRightFunc(text[i:j], unicode.IsPunct)
		i = j
		if !ok && keywords[word] {
			s.Name, ok = word, true
		}
	}
	return s, ok
}

// parseValue reads a value at the start of rest and reports how many bytes
// it took: a Go-quoted string if rest starts with a quote, else a bare word.
func parseValue(rest string) (string, int) {
	if strings.HasPrefix(rest, `"`) {
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			if v, err := strconv.Unquote(q); err == nil {
				return v, len(q)
			}
		}
	}
	n := 0
	for n < len(rest) && !isSpace(rest[n]) {
		n++
	}
	return rest[:n], n
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// Int returns the integer parameter key, or def when it is absent or not a
// number.
func (s Script) Int(key string, def int) int {
	if v, err := strconv.Atoi(s.Params[key]); err == nil {
		return v
	}
	return def
}

// Seconds returns the parameter key read as seconds (e.g. "0.5"), or def.
func (s Script) Seconds(key string, def float64) float64 {
	if v, err := strconv.ParseFloat(s.Params[key], 64); err == nil && v >= 0 {
		return v
	}
	return def
}

// Duration is Seconds as a time.Duration.
func (s Script) Duration(key string, def float64) time.Duration {
	return time.Duration(s.Seconds(key, def) * float64(time.Second))
}

// String returns the parameter key, or def when it is absent.
func (s Script) String(key, def string) string {
	if v, ok := s.Params[key]; ok {
		return v
	}
	return def
}
