package sanitize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is what a hostile agent puts in a title: a window title, a
// clipboard write, a screen clear, C1 controls, a bidi override,
// backspaces and a bell.
const hostile = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b31m\u009d0;x\x07\u202eevil\u202c\b\b\x07\x00\x7f"

func TestLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain title":          "plain title",
		"a\nb\r\nc\td":         "a b  c d",
		"\x1b[2Jclear":         "␛[2Jclear",
		"\x1b]0;title\x07":     "␛]0;title␇",
		"\u009b31m \u009d":     "\uFFFD31m \uFFFD",
		"\u202eevil\u2066":     "\uFFFDevil\uFFFD",
		"nul\x00 del\x7f bs\b": "nul␀ del␡ bs␈",
		"bad \xff byte":        "bad \uFFFD byte",
		"日本語 ok":               "日本語 ok",
		"\u200f rlm goes":      " rlm goes",
		"soft\u00adhyphen":     "softhyphen",
		"love ❤\ufe0f":         "love ❤",
		"ok 👍🏽":                "ok 👍",
		"👨\u200d👩\u200d👧":      "👨👩👧",
		"tag\U000e0041":        "tag",
	} {
		if got := Line(in); got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"one\ntwo\tcol":   "one\ntwo\tcol",
		"crlf\r\nline":    "crlf\nline",
		"bar 50%\r100%":   "bar 50%␍100%",
		"end\r":           "end␍",
		"\x1b[31mred\x07": "␛[31mred␇",
		"\u202e\u0085":    "\uFFFD\uFFFD",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNothingBadIsLeft: after cleaning, the hostile payload holds no
// byte a terminal acts on, and each removed character left a mark.
func TestNothingBadIsLeft(t *testing.T) {
	for name, got := range map[string]string{"Line": Line(hostile), "Text": Text(hostile)} {
		if r := firstBad(got, name == "Text"); r >= 0 {
			t.Errorf("%s left %U in %q", name, r, got)
		}
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(hostile) {
			t.Errorf("%s(%q) = %q: a character went without a mark", name, hostile, got)
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if NewWriter(w) != w {
		t.Error("NewWriter wrapped a Writer again")
	}
	if Raw(w) != &b || Raw(&b) != &b {
		t.Error("Raw does not unwrap")
	}
	n, err := w.Write([]byte("ok line\n" + hostile + "\n"))
	if err != nil || n != len("ok line\n"+hostile+"\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got, want := b.String(), "ok line\n"+Text(hostile)+"\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

func TestJSON(t *testing.T) {
	in, _ := json.Marshal(map[string]string{"title": hostile, "ok": "fine \"quoted\" \\ \u00e9"})
	out := JSON(in)
	if !json.Valid(out) {
		t.Fatalf("JSON made invalid JSON: %s", out)
	}
	var a, b map[string]string
	_ = json.Unmarshal(in, &a)
	_ = json.Unmarshal(out, &b)
	if a["title"] != b["title"] || a["ok"] != b["ok"] {
		t.Errorf("JSON changed the meaning: %q, want %q", b, a)
	}
	for _, want := range []string{`\u001b`, `\u009b`, `\u009d`, `\u202e`, `\u0007`, `\u007f`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("JSON wrote no %s: %s", want, out)
		}
	}
	if r := firstBad(string(out), true); r >= 0 {
		t.Errorf("JSON left %U raw: %s", r, out)
	}
	clean := []byte(`{"a": [1, "b"]}` + "\n")
	if got := JSON(clean); &got[0] != &clean[0] {
		t.Error("JSON copied text that needed nothing")
	}
	// Bytes that are not UTF-8 inside a string (a raw message) become \ufffd.
	if got := string(JSON([]byte("[\"a\xffb\"]"))); got != `["a\ufffdb"]` {
		t.Errorf("JSON(invalid UTF-8) = %s", got)
	}
}

// invisible counts the characters of s that Line and Text drop.
func invisible(s string) int {
	n := 0
	for _, r := range s {
		if Invisible(r) {
			n++
		}
	}
	return n
}

// TestInvisible: the default-ignorable code points and the skin-tone
// modifiers are invisible; the bidi controls are Bad instead, and what
// a person reads is neither.
func TestInvisible(t *testing.T) {
	for _, r := range []rune{0xad, 0x200b, 0x200d, 0x2060, 0xfe0f, 0xfeff, 0x1f3fd, 0xe0041, 0x115f} {
		if !Invisible(r) || Bad(r) {
			t.Errorf("%U: Invisible %v, Bad %v; want invisible only", r, Invisible(r), Bad(r))
		}
	}
	for _, r := range []rune{'a', ' ', 0xe9, 0x2764, 0x1f44d, 0x202e, 0x2066, 0x301, '\n'} {
		if Invisible(r) {
			t.Errorf("%U is not invisible", r)
		}
	}
}

// firstBad is the first rune a terminal would act on in s (newline and
// tab allowed with text), or -1.
func firstBad(s string, text bool) rune {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, w := utf8.DecodeRuneInString(s[i:]); w == 1 {
				return r
			}
		}
		if text && (r == '\n' || r == '\t') {
			continue
		}
		if Bad(r) {
			return r
		}
	}
	return -1
}

// FuzzSanitize holds every cleaner to its promise for any input: valid
// UTF-8 out, nothing a terminal acts on, one mark per removed character,
// the same result when cleaned again, and JSON that stays valid and means
// what it meant.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", hostile, "a\r\nb\rc\n", "\xff\xfe", "\u202e\u2069\u0085", "\xe2\x80", "\xc2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, text := Line(s), Text(s)
		for name, got := range map[string]string{"Line": line, "Text": text} {
			isText := name == "Text"
			if !utf8.ValidString(got) {
				t.Fatalf("%s(%q) = %q: not UTF-8", name, s, got)
			}
			if r := firstBad(got, isText); r >= 0 {
				t.Fatalf("%s(%q) = %q: %U left", name, s, got, r)
			}
			again := Line(got)
			if isText {
				again = Text(got)
			}
			if again != got {
				t.Fatalf("%s is not idempotent on %q: %q then %q", name, s, got, again)
			}
		}
		if utf8.RuneCountInString(line) != utf8.RuneCountInString(s)-invisible(s) {
			t.Fatalf("Line(%q) = %q: not one character for each", s, line)
		}
		if want := utf8.RuneCountInString(s) - invisible(s) - strings.Count(s, "\r\n"); utf8.RuneCountInString(text) != want {
			t.Fatalf("Text(%q) = %q: not one character for each", s, text)
		}
		if IsClean(s) && line != s {
			t.Fatalf("Line changed clean %q to %q", s, line)
		}
		var w bytes.Buffer
		if _, err := NewWriter(&w).Write([]byte(s)); err != nil || w.String() != text {
			t.Fatalf("Writer wrote %q, want %q", w.String(), text)
		}
		in, _ := json.Marshal(s)
		out := JSON(in)
		var a, b string
		if json.Unmarshal(in, &a) != nil || json.Unmarshal(out, &b) != nil || a != b {
			t.Fatalf("JSON(%s) = %s: %q, want %q", in, out, b, a)
		}
		if r := firstBad(string(out), false); r >= 0 {
			t.Fatalf("JSON(%s) = %s: %U left", in, out, r)
		}
	})
}
