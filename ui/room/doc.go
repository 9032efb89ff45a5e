// Package room is the contract between the screen's root and its rooms
// (the overlays: forms, inbox, result, transcript, diff, timeline): the
// Dialog every room meets, the Observer a room that follows the live tree
// also meets, the notices and selections a room asks of the root, Send,
// which hands the root a task.Request to carry out, and After, which has
// the root start a timer on the screen's Timer. It has no behaviour and
// imports no network code, so any room may use it.
package room
