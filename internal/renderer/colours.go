package renderer

import (
	"bytes"

	"github.com/charmbracelet/colorprofile"
)

// colours brings a frame's colours down to a terminal's profile, as
// colorprofile.Writer does, byte for byte, at a fraction of its cost.
//
// The Writer decodes the whole frame, every grapheme of its text as well
// as every escape sequence, to find the styles (SGR sequences) whose
// colours it converts; on a 256-colour terminal (tmux's own TERM) that
// was most of what writing a frame cost. A frame's styles are few and
// come back frame after frame, so colours converts each distinct one
// once, with the Writer, and copies everything else as it is: text
// needs no decoding to be copied.
type colours struct {
	profile colorprofile.Profile
	seen    map[string][]byte // SGR sequence -> the same, converted
	out     bytes.Buffer
}

// maxStyles bounds the styles kept; past it they are forgotten and
// converted again as they come.
const maxStyles = 4096

func newColours(p colorprofile.Profile) *colours {
	return &colours{profile: p, seen: map[string][]byte{}}
}

// convert returns frame with its colours brought down; the result is
// good until the next call.
func (c *colours) convert(frame []byte) []byte {
	if c.profile <= colorprofile.NoTTY {
		// No terminal: everything but the text goes (the Writer's way).
		c.out.Reset()
		w := colorprofile.Writer{Forward: &c.out, Profile: c.profile}
		_, _ = w.Write(frame)
		return c.out.Bytes()
	}
	c.out.Reset()
	for len(frame) > 0 {
		i := bytes.Index(frame, []byte("\x1b["))
		if i < 0 {
			c.out.Write(frame)
			break
		}
		c.out.Write(frame[:i])
		n := csiLen(frame[i:])
		if n == 0 || frame[i+n-1] != 'm' {
			// Not a whole CSI sequence, or not a style: as it is.
			n = max(n, 2)
			c.out.Write(frame[i : i+n])
		} else {
			c.out.Write(c.style(frame[i : i+n]))
		}
		frame = frame[i+n:]
	}
	return c.out.Bytes()
}

// style is the SGR sequence seq converted, from the cache or the Writer.
func (c *colours) style(seq []byte) []byte {
	if conv, ok := c.seen[string(seq)]; ok {
		return conv
	}
	if len(c.seen) >= maxStyles {
		clear(c.seen)
	}
	var b bytes.Buffer
	w := colorprofile.Writer{Forward: &b, Profile: c.profile}
	_, _ = w.Write(seq)
	conv := b.Bytes()
	c.seen[string(seq)] = conv
	return conv
}

// csiLen is the length of the CSI sequence that b starts with (ESC [,
// parameter bytes, intermediate bytes, a final byte), or 0 if b does not
// hold a whole one.
func csiLen(b []byte) int {
	i := 2
	for i < len(b) && b[i] >= 0x30 && b[i] <= 0x3f {
		i++
	}
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2f {
		i++
	}
	if i < len(b) && b[i] >= 0x40 && b[i] <= 0x7e {
		return i + 1
	}
	return 0
}
