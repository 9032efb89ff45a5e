package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
)

// canAsk says whether a person can answer a question on in: it is a
// terminal. Tests replace it.
var canAsk = func(in io.Reader) bool {
	f, ok := in.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// ask puts question on stderr and reads the answer from stdin: yes only
// for "y" or "yes".
func (c *command) ask(question string) bool {
	fmt.Fprintf(c.stdio.err, "%s [y/N] ", question)
	line, err := bufio.NewReader(c.stdio.in).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(c.stdio.err)
		return false
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes"
}
