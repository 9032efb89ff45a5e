// Package task is the vocabulary of work on an OpenCode server, shared by
// the screen and the command line. Each operation is a Request (launch,
// resume, abort, wait, find, read a result or messages, answer an ask)
// answered by a Reply carrying its error; the errors are the values below,
// tested with errors.Is by both sides; a task's outcome is a Result.
//
// Server is what carries requests out: package live over a running
// server, package record over a recording (read-only), tests over a fake.
// Do maps a request onto its Server call and its reply. Nothing here does
// I/O or imports network code, so any room of the ui may use it.
package task
