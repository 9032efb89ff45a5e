package transcript

import "strings"

// bodyHeight is the lines below the header.
func (m *Model) bodyHeight() int { return max(m.height-1, 1) }

func (m *Model) entryLines(i int) []string {
	e := &m.entries[i]
	return m.r.lines(e, m.width, m.expanded[entryKey(e)], i == m.cursor)
}

func (m *Model) clamp() {
	n := len(m.entries)
	if n == 0 {
		m.cursor, m.top, m.topLine = 0, 0, 0
		return
	}
	m.cursor = min(max(m.cursor, 0), n-1)
	m.top = min(max(m.top, 0), n-1)
}

// moveCursor moves to the next or previous entry; moving stops the tail.
func (m *Model) moveCursor(d int) {
	if len(m.entries) == 0 {
		return
	}
	if m.follow {
		m.anchorBottom()
		m.follow = false
	}
	m.cursor = min(max(m.cursor+d, 0), len(m.entries)-1)
	m.ensureVisible()
}

// ensureVisible scrolls the least that shows the cursor's entry whole (or
// its top, when it is taller than the screen). It renders only the
// entries between the top and the cursor: about a screen's worth.
func (m *Model) ensureVisible() {
	if m.cursor < m.top || (m.cursor == m.top && m.topLine > 0) {
		m.top, m.topLine = m.cursor, 0
		return
	}
	h, used := m.bodyHeight(), -m.topLine
	for i := m.top; i <= m.cursor; i++ {
		used += len(m.entryLines(i))
		if used > h && i < m.cursor {
			break
		}
	}
	if used <= h {
		return
	}
	m.fitBottom(m.cursor)
}

// fitBottom sets the top so that entry last ends on the screen's last line
// (or starts on its first, when taller than the screen).
func (m *Model) fitBottom(last int) {
	h := m.bodyHeight()
	n := len(m.entryLines(last))
	if n >= h {
		m.top, m.topLine = last, 0
		return
	}
	used := n
	for i := last - 1; i >= 0; i-- {
		k := len(m.entryLines(i))
		if used+k >= h {
			m.top, m.topLine = i, used+k-h
			return
		}
		used += k
	}
	m.top, m.topLine = 0, 0
}

// anchorBottom turns the tail's view into a fixed position.
func (m *Model) anchorBottom() {
	if len(m.entries) == 0 {
		return
	}
	m.cursor = len(m.entries) - 1
	m.fitBottom(m.cursor)
}

// page scrolls a screen down (1) or up (-1) and puts the cursor on the
// first entry that starts on screen.
func (m *Model) page(d int) {
	if len(m.entries) == 0 {
		return
	}
	if m.follow {
		m.anchorBottom()
		m.follow = false
	}
	h := m.bodyHeight()
	if d > 0 {
		m.scrollDown(h)
	} else {
		m.scrollUp(h)
	}
	m.cursor = m.top
	if m.topLine > 0 && m.top+1 < len(m.entries) {
		m.cursor = m.top + 1
	}
}

func (m *Model) scrollDown(n int) {
	for n > 0 {
		k := len(m.entryLines(m.top))
		if m.top == len(m.entries)-1 {
			m.topLine = min(m.topLine+n, max(k-1, 0))
			return
		}
		if rest := k - m.topLine; n < rest {
			m.topLine += n
			return
		} else {
			n -= rest
		}
		m.top, m.topLine = m.top+1, 0
	}
}

func (m *Model) scrollUp(n int) {
	for n > 0 {
		if n <= m.topLine {
			m.topLine -= n
			return
		}
		n -= m.topLine
		if m.top == 0 {
			m.topLine = 0
			return
		}
		m.top--
		m.topLine = len(m.entryLines(m.top))
	}
}

// body draws the visible lines: from the top entry down, or, while
// tailing, from the last entry up.
func (m *Model) body() []string {
	h := m.bodyHeight()
	if len(m.entries) == 0 {
		return nil
	}
	if m.follow {
		m.anchorBottom()
	}
	out := make([]string, 0, h)
	for i := m.top; i < len(m.entries) && len(out) < h; i++ {
		lines := m.entryLines(i)
		if i == m.top {
			lines = lines[min(m.topLine, len(lines)):]
		}
		out = append(out, lines[:min(len(lines), h-len(out))]...)
	}
	return out
}

// find moves the cursor to the next (d=1) or previous (d=-1) entry that
// contains q, wrapping around.
func (m *Model) find(q string, d int) {
	q = strings.ToLower(strings.TrimSpace(q))
	n := len(m.entries)
	if q == "" || n == 0 {
		return
	}
	for step := 1; step <= n; step++ {
		i := ((m.cursor+d*step)%n + n) % n
		e := &m.entries[i]
		hay := strings.ToLower(e.Text + "\n" + e.Tool + "\n" + e.Input + "\n" + e.Output + "\n" + e.Error + "\n" + e.Title)
		if strings.Contains(hay, q) {
			m.follow, m.notFound = false, false
			m.cursor = i
			m.ensureVisible()
			return
		}
	}
	m.notFound = true
}
