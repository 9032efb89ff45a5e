// Command perfdoc writes benchmark figures into docs/perf.md, so the bench
// targets keep the figures in one place and nobody copies them by hand
// into comments or the README, where they go stale.
//
//	go test -run '^$' -bench . ./model | go run ./internal/dev/perfdoc -section model
//
// It copies its input to stdout as it comes, and replaces the section
// between "<!-- perf:NAME -->" and "<!-- /perf:NAME -->" in the document
// (appending the section when it is missing) with the lines that carry
// figures (benchmark lines and "figure:" lines, or every line with -all),
// under a line saying when, at which commit, on how many cores and at
// what load they were measured.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

func main() {
	doc := flag.String("doc", "docs/perf.md", "the performance document to rewrite")
	section := flag.String("section", "", "the section `NAME` to replace (required)")
	all := flag.Bool("all", false, "keep every input line, not only those with figures")
	flag.Parse()
	if *section == "" {
		fmt.Fprintln(os.Stderr, "perfdoc: -section is required")
		os.Exit(2)
	}
	lines, err := copyLines(os.Stdin, os.Stdout, *all)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfdoc:", err)
		os.Exit(1)
	}
	if len(lines) == 0 {
		fmt.Fprintf(os.Stderr, "perfdoc: no figures in the input; %s left as it was\n", *doc)
		os.Exit(1)
	}
	if err := rewrite(*doc, *section, block(lines)); err != nil {
		fmt.Fprintln(os.Stderr, "perfdoc:", err)
		os.Exit(1)
	}
}

// copyLines copies r to w and returns the lines worth keeping.
func copyLines(r io.Reader, w io.Writer, all bool) ([]string, error) {
	var keep []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		t := strings.TrimSpace(line)
		if all || strings.HasPrefix(t, "Benchmark") || strings.HasPrefix(t, "figure:") {
			keep = append(keep, strings.TrimPrefix(t, "figure: "))
		}
	}
	return keep, sc.Err()
}

// block is the section's new text: where and when, then the figures.
func block(lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s at %s on %d cores (load %s):\n\n```\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), commit(), runtime.NumCPU(), load())
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("```\n")
	return b.String()
}

func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "an unknown commit"
	}
	c := strings.TrimSpace(string(out))
	if exec.Command("git", "diff", "--quiet", "HEAD").Run() != nil {
		c += " (with uncommitted changes)"
	}
	return c
}

func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// rewrite replaces section name of the document at path with text.
func rewrite(path, name, text string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	open, end := "<!-- perf:"+name+" -->", "<!-- /perf:"+name+" -->"
	i, j := bytes.Index(old, []byte(open)), bytes.Index(old, []byte(end))
	var out []byte
	switch {
	case i >= 0 && j > i:
		out = append(out, old[:i+len(open)]...)
		out = append(out, "\n"+text...)
		out = append(out, old[j:]...)
	default:
		out = append(old, fmt.Sprintf("\n%s\n%s%s\n", open, text, end)...)
	}
	return os.WriteFile(path, out, 0o644)
}
