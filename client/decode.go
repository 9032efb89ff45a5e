package client

import "github.com/octop-dev/octop/internal/wire"

// decode unmarshals a JSON answer into out: wire.Unmarshal, the fast
// decoder with encoding/json as the judge.
func decode(data []byte, out any) error { return wire.Unmarshal(data, out) }
