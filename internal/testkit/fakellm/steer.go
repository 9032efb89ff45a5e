package fakellm

import (
	"fmt"
	"strings"
)

// Steer is the keyword of the scenario a steered session plays: it works
// in steps until a message comes after its script, then says it heard it.
const Steer = "STEER"

// HeardText is STEER's answer once it has seen a message after its script.
func HeardText(message string) string { return "heard: " + strings.Join(strings.Fields(message), " ") }

// steerFinal is STEER's answer when no message came in steps steps.
func steerFinal(s Script) string {
	return fmt.Sprintf("steer finished after %d steps, heard nothing", s.Int("steps", 30))
}

// reminderOpen and reminderClose frame a message sent to a busy session
// in the one request that first shows it to the model, on 1.1.65 (1.18
// sends it as it is).
const (
	reminderOpen  = "The user sent the following message:\n"
	reminderClose = "\n\nPlease address this message and continue with your tasks."
)

// unwrapReminder is a message without 1.1.65's frame, if it has one.
func unwrapReminder(text string) string {
	_, rest, ok := strings.Cut(text, reminderOpen)
	if !ok {
		return text
	}
	msg, _, _ := strings.Cut(rest, reminderClose)
	return msg
}

// playSteer plays the Steer scenario.
func (c conversation) playSteer(s Script, final reply) reply {
	if n := len(c.later); n > 0 {
		return reply{text: HeardText(c.later[n-1])}
	}
	if c.turn < s.Int("steps", 30) {
		if r, ok := c.need(s, "bash"); !ok {
			return r
		}
		return c.step(s)
	}
	return final
}

// isNotice says whether a user message is a background task's end notice.
func isNotice(text string) bool {
	_, ok := ParseNotice(text)
	return ok
}
