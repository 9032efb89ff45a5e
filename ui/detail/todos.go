package detail

import (
	"fmt"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
)

// todoLines is the session's todo list under a rule that counts what is
// done: ✓ completed, ▸ in progress, ○ pending, – cancelled. Nothing when
// the session keeps no list.
func (m Model) todoLines(s *model.Session) []string {
	todos := s.Todos()
	if len(todos) == 0 {
		return nil
	}
	ink := m.styles.Ink
	done := 0
	for _, t := range todos {
		if t.Status == wire.TodoCompleted {
			done++
		}
	}
	out := []string{rule(m.styles, fmt.Sprintf("todos %d/%d done", done, len(todos)), m.width)}
	for _, t := range todos {
		text := format.OneLine(t.Content)
		switch t.Status {
		case wire.TodoCompleted:
			out = append(out, ink.Done.Render("✓")+" "+ink.Dim.Render(text))
		case wire.TodoInProgress:
			out = append(out, ink.Busy.Render("▸")+" "+ink.Title.Render(text))
		case wire.TodoCancelled:
			out = append(out, ink.Dim.Render("– "+text))
		default:
			out = append(out, ink.Dim.Render("○")+" "+text)
		}
	}
	return out
}
