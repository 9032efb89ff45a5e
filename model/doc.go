// Package model turns a REST snapshot plus the server's event stream into
// the parent/child session tree, with each session's live tool calls.
//
// It is pure: no I/O, no goroutines, no clock (time arrives with the data),
// no Bubble Tea. A State is owned by one goroutine; Apply and ApplySnapshot
// change it deterministically.
package model
