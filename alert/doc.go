// Package alert calls the person when the watchdog says something
// matters: terminal notifications (a bell, OSC 9, OSC 777) and the
// --exec hook, a shell command run with the event in its environment.
// It does the I/O the pure watchdog package must not; which events are
// worth it is watchdog.Event.Notable's call.
package alert
