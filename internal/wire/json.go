package wire

import (
	"bytes"
	"encoding/json"
	"reflect"

	fastjson "github.com/segmentio/encoding/json"
)

// Unmarshal decodes JSON from a server into out with segmentio/encoding's
// decoder, a drop-in for encoding/json's that is several times faster
// (reading 50,000 histories is mostly decoding, make bench-scale; so is
// reading a busy event stream, make bench-live). The standard library
// stays the judge: what the fast decoder refuses is decoded again by
// encoding/json, from a zeroed out, so what is accepted, and the words an
// error uses, are encoding/json's.
//
// The fast decoder recurses once per level of nesting with no limit of
// its own, where encoding/json stops at maxNesting: data that may nest
// deeper than that (a hostile one of a million brackets would end octop
// with a stack overflow) goes to encoding/json alone.
func Unmarshal(data []byte, out any) error {
	if shallow(data) && fastjson.Unmarshal(data, out) == nil {
		return nil
	}
	if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero() // what the fast decoder left half-done
	}
	return json.Unmarshal(data, out)
}

// maxNesting is encoding/json's own limit on nesting.
const maxNesting = 10000

// shallow says data cannot nest deeper than maxNesting: it holds no more
// opening brackets than that, inside strings or not. Counting a byte is
// a vector loop, far cheaper than a scan that knows where strings are.
func shallow(data []byte) bool {
	return bytes.Count(data, []byte{'['})+bytes.Count(data, []byte{'{'}) <= maxNesting
}
