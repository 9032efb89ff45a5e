package dialog

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/list"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// Width is the width of a dialog box on a screen of width w: room to
// read, never wider than the screen.
func Width(w, want int) int {
	if w <= 0 {
		w = 80
	}
	return max(min(want, w-2), 20)
}

// Frame draws a dialog: a bordered box with a bold title, the body, and a
// hint line of keys at the bottom. width is the box's outer width.
func Frame(st *styles.Styles, width int, title, body, hint string) string {
	inner := width - 4 // border and one cell of padding each side
	var b strings.Builder
	b.WriteString(st.Focused.Render(ansi.Truncate(format.OneLine(title), inner, "…")))
	b.WriteString("\n\n")
	b.WriteString(body)
	if hint != "" {
		b.WriteString("\n\n")
		b.WriteString(st.Dim.Render(format.Wrap(hint, inner)))
	}
	box := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(borderColor(st)).
		Padding(0, 1).
		Width(width)
	return box.Render(b.String())
}

func borderColor(st *styles.Styles) color.Color {
	if st.NoColor {
		return lipgloss.NoColor{}
	}
	return st.Focused.GetForeground()
}

// ErrorLine draws a dialog's error, wrapped to the box.
func ErrorLine(st *styles.Styles, inner int, msg string) string {
	if msg == "" {
		return ""
	}
	return st.Failed.Render(format.Wrap("✗ "+format.OneLine(msg), inner))
}

// SessionLabel is "title  ses_…" cut to n cells, the title as the row
// names it (format.SessionName).
func SessionLabel(st *model.State, id string, n int) string {
	t := format.OneLine(id)
	if st != nil {
		if s := st.Session(id); s != nil && s.Title != "" {
			t = format.SessionName(s.Title) + "  " + t
		}
	}
	return ansi.Truncate(t, n, "…")
}

// TitleOf is a session's title, or its id when it has none, as one line
// a dialog can show.
func TitleOf(s *model.Session, id string) string {
	if s == nil || s.Title == "" {
		return format.OneLine(id)
	}
	return format.OneLine(s.Title)
}

// ErrText is an error as one line for a dialog or a notice.
func ErrText(err error) string { return format.OneLine(err.Error()) }

// InputStyles are a text input's styles; none without colour.
func InputStyles(st *styles.Styles) textinput.Styles {
	s := textinput.Styles{}
	if !st.NoColor {
		s = textinput.DefaultStyles(st.IsDark)
	}
	s.Cursor.Blink = s.Cursor.Blink && !st.StillCursor
	return s
}

// AreaStyles are a text area's styles; none without colour.
func AreaStyles(st *styles.Styles) textarea.Styles {
	s := textarea.Styles{}
	if !st.NoColor {
		s = textarea.DefaultStyles(st.IsDark)
	}
	s.Cursor.Blink = s.Cursor.Blink && !st.StillCursor
	return s
}

// PickerStyles draw a list with the screen's colours; without colour the
// chosen item keeps the default delegate's left bar, so it still shows.
func PickerStyles(st *styles.Styles) list.DefaultItemStyles {
	if !st.NoColor {
		return list.NewDefaultItemStyles(st.IsDark)
	}
	plain := lipgloss.NewStyle()
	chosen := plain.Border(lipgloss.NormalBorder(), false, false, false, true).PaddingLeft(1)
	return list.DefaultItemStyles{
		NormalTitle:   plain.PaddingLeft(2),
		NormalDesc:    plain.PaddingLeft(2),
		SelectedTitle: chosen.Bold(true),
		SelectedDesc:  chosen,
		DimmedTitle:   plain.PaddingLeft(2),
		DimmedDesc:    plain.PaddingLeft(2),
	}
}

// Overlay draws box (a dialog's View) centred over screen, w by h cells.
// It splices the box into the lines it covers, cutting each around it,
// which costs what the box covers rather than a cell buffer of the whole
// screen. A box larger than the screen is clipped to it.
func Overlay(screen, box string, w, h int, noColor bool) string {
	lines := strings.Split(box, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	bw := 0
	for _, l := range lines {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw, w)
	x, y := max((w-bw)/2, 0), max((h-len(lines))/2, 0)
	reset := "\x1b[m" // each piece ends with one, so no style leaks across the seams
	if noColor {
		reset = ""
	}
	under := strings.Split(screen, "\n")
	for i, b := range lines {
		if y+i >= len(under) {
			break
		}
		bg := format.Fit(under[y+i], w)
		under[y+i] = ansi.Truncate(bg, x, "") + reset + format.Fit(b, bw) + reset + ansi.Cut(bg, x+bw, w)
	}
	return strings.Join(under, "\n")
}
