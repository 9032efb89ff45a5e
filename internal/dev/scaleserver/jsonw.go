package main

import (
	"strconv"
)

// A tiny append-only JSON writer: the fake writes tens of megabytes per
// list and thousands of histories a second, so it builds its answers by
// appending to a byte slice in the key order the real server uses, rather
// than through encoding/json and maps.

// str appends s as a JSON string.
func str(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// key appends `"k":` (k must need no escaping), preceded by a comma
// unless it opens an object.
func key(b []byte, k string) []byte {
	if n := len(b); n > 0 && b[n-1] != '{' && b[n-1] != '[' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"', ':')
}

func kstr(b []byte, k, v string) []byte { return str(key(b, k), v) }

func kint(b []byte, k string, v int64) []byte { return strconv.AppendInt(key(b, k), v, 10) }

// num appends a number the way JavaScript prints it for the values the
// fake uses (shortest round-trip form, no exponent for these magnitudes).
func num(b []byte, v float64) []byte {
	if v == float64(int64(v)) {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func knum(b []byte, k string, v float64) []byte { return num(key(b, k), v) }

func kbool(b []byte, k string, v bool) []byte { return strconv.AppendBool(key(b, k), v) }
