// Package alert calls the person at the terminal when the watchdog says
// something matters: a bell, OSC 9, OSC 777 (inside tmux wrapped for
// passthrough). It only builds the sequence; the screen writes it. Which
// events are worth it is watchdog.Event.Notable's call; the --exec hook
// is package hook's.
package alert
