package cli

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/octop-dev/octop/internal/task/live"
)

// nodeJSON is root and its subtree as json.Marshal writes them, built
// without descending the Go stack a level per level of the tree:
// json.Marshal does, and a hostile server's chain of a million sessions
// (tens of MB of session list) overflowed the stack and ended octop.
// Each node is marshalled without its children, which live.Node keeps
// last, and its children are written in their place.
func nodeJSON(root *live.Node) ([]byte, error) {
	type level struct {
		rest    []*live.Node // the children still to write
		started bool
	}
	var out []byte
	var stack []level
	for n := root; n != nil; {
		flat := *n
		flat.Children = nil
		head, err := json.Marshal(&flat)
		if err != nil {
			return nil, err
		}
		head, ok := bytes.CutSuffix(head, []byte(`null}`))
		if !ok {
			return nil, errors.New(`a tree node does not end with its "children"`)
		}
		out = append(out, head...)
		if n.Children == nil {
			out = append(out, "null}"...)
		} else {
			out = append(out, '[')
			stack = append(stack, level{rest: n.Children})
		}
		n = nil
		for len(stack) > 0 && n == nil {
			top := &stack[len(stack)-1]
			if len(top.rest) == 0 {
				out = append(out, "]}"...)
				stack = stack[:len(stack)-1]
				continue
			}
			if top.started {
				out = append(out, ',')
			}
			n, top.rest, top.started = top.rest[0], top.rest[1:], true
		}
	}
	return out, nil
}
