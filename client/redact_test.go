package client

import (
	"strings"
	"testing"
)

// TestRedact: a password never survives Redact, whatever shape the URL
// has.
func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"http://opencode:PW@host:4096": "http://opencode:xxxxx@host:4096",
		"opencode:PW@host:4096":        "opencode:xxxxx@host:4096",
		"PW@host:4096":                 "xxxxx@host:4096",
		"http://op:PW@host:4096/p@th":  "http://op:xxxxx@host:4096/p@th",
		"ftp//op:PW@host":              "ftp//op:xxxxx@host",
		"http://host:4096":             "http://host:4096",
		"http://[::1:PW@host:4096":     "http://[:xxxxx@host:4096",
		"  opencode:P:W@x  ":           "opencode:xxxxx@x",
		"http://127.0.0.1:4096/prefix": "http://127.0.0.1:4096/prefix",
	} {
		got := Redact(in)
		if got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(got, "PW") || strings.Contains(got, "P:W") {
			t.Errorf("Redact(%q) = %q: the password shows", in, got)
		}
	}
}

// TestInvalidURLErrorHidesPassword: the error for a server URL octop
// cannot use quotes it without its password, scheme or none.
func TestInvalidURLErrorHidesPassword(t *testing.T) {
	for _, raw := range []string{"opencode:PW@host:4096", "ftp://opencode:PW@host", "http://opencode:PW@host/?q=1"} {
		_, err := New(Options{BaseURL: raw})
		if err == nil || strings.Contains(err.Error(), "PW") {
			t.Errorf("New(%q) = %v: want an error without the password", raw, err)
		}
	}
}
