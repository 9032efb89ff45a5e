package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// inlines writes n's inline children to b, drawn as l plus their own
// marks: one string with soft breaks as spaces and hard breaks as
// newlines, ready to wrap.
func (r *Renderer) inlines(b *strings.Builder, n ast.Node, l look) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(b, c, l)
	}
}

func (r *Renderer) inline(b *strings.Builder, n ast.Node, l look) {
	p := r.pal
	switch n := n.(type) {
	case *ast.Text:
		b.WriteString(p.paint(r.text(n), l))
		switch {
		case n.HardLineBreak():
			b.WriteString("\n")
		case n.SoftLineBreak():
			b.WriteString(" ")
		}
	case *ast.String:
		b.WriteString(p.paint(string(n.Value), l))
	case *ast.CodeSpan:
		code := r.code(n)
		if p.noColor {
			code = "`" + code + "`"
		}
		b.WriteString(p.paint(code, l|lookCode))
	case *ast.Emphasis:
		if n.Level >= 2 {
			r.inlines(b, n, l|lookBold)
		} else {
			r.inlines(b, n, l|lookItalic)
		}
	case *east.Strikethrough:
		if p.noColor {
			b.WriteString(p.paint("~~", l))
			r.inlines(b, n, l)
			b.WriteString(p.paint("~~", l))
			return
		}
		r.inlines(b, n, l|lookStrike)
	case *ast.Link:
		r.link(b, n, string(n.Destination), l)
	case *ast.AutoLink:
		b.WriteString(p.paint(string(n.Label(r.src)), l|lookURL))
	case *ast.Image:
		// A terminal cannot show the picture: its alt text stands in,
		// or its address when it has none.
		alt := r.plain(n)
		if alt == "" {
			alt = string(n.Destination)
		}
		b.WriteString(p.paint(alt, l))
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			b.WriteString(p.paint(string(seg.Value(r.src)), l))
		}
	case *east.TaskCheckBox:
		// The list item draws the box in place of its bullet.
	default:
		r.inlines(b, n, l)
	}
}

// link writes a link as its text and its address in parentheses, or the
// address alone when the text is the address.
func (r *Renderer) link(b *strings.Builder, n ast.Node, dest string, l look) {
	text := r.plain(n)
	if text == "" || text == dest || "mailto:"+text == dest {
		b.WriteString(r.pal.paint(dest, l|lookURL))
		return
	}
	r.inlines(b, n, l|lookLink)
	if dest != "" {
		b.WriteString(r.pal.paint(" (", l))
		b.WriteString(r.pal.paint(dest, l|lookURL))
		b.WriteString(r.pal.paint(")", l))
	}
}

// plain is n's text without any marks.
func (r *Renderer) plain(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.WriteString(r.text(c))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.AutoLink:
				b.Write(c.Label(r.src))
			case *ast.RawHTML:
				for i := 0; i < c.Segments.Len(); i++ {
					seg := c.Segments.At(i)
					b.Write(seg.Value(r.src))
				}
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// text is a text node as it reads: backslash escapes and character
// references resolved, as goldmark's own HTML writer does.
func (r *Renderer) text(n *ast.Text) string {
	v := n.Segment.Value(r.src)
	if n.IsRaw() {
		return string(v)
	}
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v))))
}

// code is a code span's text, verbatim, its line breaks as spaces.
func (r *Renderer) code(n *ast.CodeSpan) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(r.src))
		}
	}
	return strings.ReplaceAll(b.String(), "\n", " ")
}
