// Package sleep waits for a while the way that wakes octop least: For
// is time.Sleep that a context can cut short.
//
// # Why
//
// A Go timer costs an idle process four thread wake-ups, not one. The
// netpoller waits for it in epoll_wait(2), whose timeout is in whole
// milliseconds, rounded down: it wakes a fraction of a millisecond early,
// finds the timer not yet due, and sleeps again. And Go's system monitor
// sleeps until the next timer, so it wakes at each one too, and once
// more before it sleeps again. The screen waits every time it reads a
// busy stream (client.StreamOptions.Pace) and every second for its clock;
// those waits were most of what octop's threads woke for (make
// bench-live, and the replay bench).
//
// # How
//
// On Linux For arms a timerfd(2) with the whole wait, to the nanosecond,
// and waits for it in the netpoller as for a socket: one wake-up when it
// fires, and no Go timer for the monitor to wake for. Elsewhere, and if a
// timerfd cannot be had, it is a Go timer.
package sleep
