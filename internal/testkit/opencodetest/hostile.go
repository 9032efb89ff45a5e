package opencodetest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Payload is what Options.Hostile puts around every string the fake
// sends: what an agent that read a hostile page could write into a title
// or a tool's output. It sets the terminal's window title (OSC 0), writes
// the clipboard (OSC 52), clears the screen (CSI 2J), opens a CSI and an
// OSC with the C1 controls U+009B and U+009D, reverses the text after it
// (U+202E), backspaces over what came before, rings the bell, and carries
// a NUL and a DEL.
const Payload = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b31m\u009d0;x\x07\u202e\b\b\x07\x00\x7f"

// hostileKeeps are the keys whose string values Hostile leaves alone:
// what octop must send back for the fake to find the thing again, and the
// enumerations the protocol switches on. Every identifier key (id, and
// any key ending in ID or Id) is kept too. What these carry reaches the
// screen through the same code as every other string; tests that want
// hostile identifiers put them in by hand.
var hostileKeeps = map[string]bool{"type": true, "status": true, "role": true, "mode": true, "finish": true, "reply": true}

// keepsValue says the string under key is left as it is.
func keepsValue(key string) bool {
	return key == "id" || strings.HasSuffix(key, "ID") || strings.HasSuffix(key, "Id") || hostileKeeps[key]
}

// poison puts Payload before and after every string of the JSON text b
// (but those under the keys keepsValue names), at any depth: the answers'
// fields, the events' properties, a tool's input and metadata. It leaves
// b as it was when it is not JSON.
func poison(b []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return b
	}
	out, err := json.Marshal(poisonValue(v, ""))
	if err != nil {
		return b
	}
	if bytes.HasSuffix(b, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

func poisonValue(v any, key string) any {
	switch v := v.(type) {
	case string:
		if keepsValue(key) {
			return v
		}
		return Payload + v + Payload
	case map[string]any:
		for k, x := range v {
			v[k] = poisonValue(x, k)
		}
	case []any:
		for i, x := range v {
			v[i] = poisonValue(x, key) // a list of ids keeps its ids
		}
	}
	return v
}

// hostile is poison when Options.Hostile is set, else b as it is.
func (s *Server) hostile(b []byte) []byte {
	if !s.opts.Hostile {
		return b
	}
	return poison(b)
}
