package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// elements frames data with eachElement, through a reader handing out a
// byte at a time when slow, and returns copies of the elements.
func elements(data string, slow bool) ([]string, error) {
	var r io.Reader = strings.NewReader(data)
	if slow {
		r = iotest.OneByteReader(r)
	}
	var out []string
	err := eachElement(r, func(b []byte) error {
		out = append(out, string(b))
		return nil
	})
	return out, err
}

// TestEachElementFramesWhatEncodingJSONDoes: every element of a valid
// array comes out as its bytes, whatever its strings hold (quotes,
// brackets, escapes) and however the reads split it; null and [] are no
// elements.
func TestEachElementFramesWhatEncodingJSONDoes(t *testing.T) {
	big := `{"title":"` + strings.Repeat(`x\"]}{[`, 30000) + `"}`
	for _, data := range []string{
		`[]`, ` null `, `[ ]`, "[\n{\"id\":\"a\"} ,\t{\"id\":\"b\",\"n\":[1,{\"c\":\"]\"}]}\n]\n",
		`[{"t":"say \"hi\" \\"},{"t":"\\\\"},{"t":"}{]["}]`, `[1,-2.5e3,true,false,null,"s,]"]`, `[[[]],{}]`, `[` + big + `,` + big + `]`,
	} {
		var want []json.RawMessage
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatalf("%.40q: %v", data, err)
		}
		for _, slow := range []bool{false, true} {
			got, err := elements(data, slow)
			if err != nil {
				t.Fatalf("%.40q (slow %v): %v", data, slow, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%.40q (slow %v): %d elements, want %d", data, slow, len(got), len(want))
			}
			for i := range got {
				var a, b bytes.Buffer
				_ = json.Compact(&a, []byte(got[i]))
				_ = json.Compact(&b, want[i])
				if a.String() != b.String() {
					t.Errorf("%.40q element %d: %.60q, want %.60q", data, i, got[i], want[i])
				}
			}
		}
	}
}

// TestEachElementRefusesWhatIsNoList: what is not one array, or is cut
// short, is an error, never a shorter list; fn's error stops the read.
func TestEachElementRefusesWhatIsNoList(t *testing.T) {
	for _, data := range []string{``, `{}`, `[{"a":1}`, `[{"a":"1}]`, `[{"a":1}] x`, `[{"a":1}}`, `[{"a":1} {"b":2}]`, `nul`, `[1,2`} {
		if got, err := elements(data, false); err == nil {
			t.Errorf("%q: no error, elements %q", data, got)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := eachElement(strings.NewReader(`[1,2,3]`), func([]byte) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("fn's error: %v after %d elements", err, n)
	}
}

// FuzzEachElement: what encoding/json reads as a list, eachElement frames
// into as many elements; for any input it never panics.
func FuzzEachElement(f *testing.F) {
	for _, s := range []string{`[]`, `null`, `[{"a":"\"]"},2]`, `[[1,[2]],"x"]`, `[{"a":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		got, err := elements(data, len(data)%2 == 1)
		var want []json.RawMessage
		if json.Unmarshal([]byte(data), &want) != nil {
			return // a malformed element is the decoder's to refuse
		}
		if err != nil {
			t.Fatalf("%q: %v; encoding/json reads it as a list", data, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d elements, want %d", data, len(got), len(want))
		}
	})
}
