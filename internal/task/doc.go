// Package task is the vocabulary of work on an OpenCode server, shared by
// the screen and the command line. Each operation is a Request (launch,
// resume, abort, wait, find, read a result or messages, answer an ask)
// answered by a Reply carrying its error; the errors are the values below,
// tested with errors.Is by both sides; a task's outcome is a Result.
//
// Server is what carries requests out, over a running server, a recording
// or, in tests, a fake: its Do answers each request with its reply. Each
// request says whether it Changes the server and builds its own Refused
// reply, so ReadOnly, written once, refuses every change before it is
// sent, and a new call is a request, its reply and a case in the Do of
// each Server that can answer it. Nothing here does I/O or imports
// network code, so any room of the ui may use it.
package task
