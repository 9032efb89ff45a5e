package markdown

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table draws a table as aligned columns, the header bold over a rule.
// A table too wide for the width is shown as its markdown lines instead,
// since columns squeezed or cut would lose the cells' text.
func (r *Renderer) table(n *east.Table, width int) []string {
	var rows [][]string
	var widths []int
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		_, head := row.(*east.TableHeader)
		var cells []string
		for i, c := 0, row.FirstChild(); c != nil; i, c = i+1, c.NextSibling() {
			var b strings.Builder
			l := look(0)
			if head {
				l = lookBold
			}
			r.inlines(&b, c, l)
			cell := strings.ReplaceAll(b.String(), "\n", " ")
			cells = append(cells, cell)
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
		rows = append(rows, cells)
	}
	total := 3 * max(len(widths)-1, 0)
	for _, w := range widths {
		total += w
	}
	if total > width || len(rows) == 0 {
		return wrap(r.pal.paint(strings.Join(r.tableSource(n), "\n"), 0), width)
	}
	sep := r.pal.paint(" │ ", lookDim)
	var out []string
	for i, cells := range rows {
		for j, cell := range cells {
			cells[j] = align(cell, widths[j], alignment(n, j))
		}
		out = append(out, strings.Join(cells, sep))
		if i == 0 {
			rule := make([]string, len(widths))
			for j, w := range widths {
				rule[j] = strings.Repeat("─", w)
			}
			out = append(out, r.pal.paint(strings.Join(rule, "─┼─"), lookDim))
		}
	}
	return out
}

func alignment(n *east.Table, col int) east.Alignment {
	if col < len(n.Alignments) {
		return n.Alignments[col]
	}
	return east.AlignNone
}

// align pads cell to w cells on the side its column's alignment asks.
func align(cell string, w int, a east.Alignment) string {
	pad := max(w-ansi.StringWidth(cell), 0)
	switch a {
	case east.AlignRight:
		return strings.Repeat(" ", pad) + cell
	case east.AlignCenter:
		return strings.Repeat(" ", pad/2) + cell + strings.Repeat(" ", pad-pad/2)
	}
	return cell + strings.Repeat(" ", pad)
}

// tableSource is the table's markdown: the source lines from its header
// row to its last row.
func (r *Renderer) tableSource(n *east.Table) []string {
	start, end := -1, -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			if c.Lines().Len() == 0 {
				continue
			}
			seg := c.Lines().At(0)
			if start < 0 {
				start = seg.Start
			}
			end = seg.Stop
		}
	}
	if start < 0 {
		return nil
	}
	start = strings.LastIndexByte(string(r.src[:start]), '\n') + 1
	if i := strings.IndexByte(string(r.src[end:]), '\n'); i >= 0 {
		end += i
	} else {
		end = len(r.src)
	}
	return strings.Split(string(r.src[start:end]), "\n")
}
