// Package wire holds the shapes an OpenCode server speaks: sessions,
// messages, parts, permission and question requests, the typed events of
// its stream (DecodeEvent), and the stream's connection states.
//
// It is a leaf: encoding/json and nothing else of octop's, so the pure
// model can import it without pulling in net/http or an SSE parser.
// client fills these types over HTTP; model folds them into the tree.
package wire
