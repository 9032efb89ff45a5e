package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// dashed rewrites -name and -name=value to --name and --name=value for
// each of octop's long flags. Go's flag package, which octop's command line
// was first written on, took one dash or two; pflag reads one dash as a
// run of one-letter flags, and octop has none but -h. So a script written
// with -server or -json keeps working. A flag's value is never rewritten
// (--prompt -json sends "-json"), nor anything after "--", nor a word
// that names no flag of the command it is given to. The shell's
// completion requests (cobra's __complete) are left as they are.
func dashed(root *cobra.Command, args []string) []string {
	if len(args) > 0 && strings.HasPrefix(args[0], cobra.ShellCompRequestCmd) {
		return args
	}
	out := make([]string, 0, len(args))
	cmd := root
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			return append(out, args[i:]...)
		}
		if len(arg) < 2 || arg[0] != '-' {
			if sub, ok := subcommandNamed(cmd, arg); ok {
				cmd = sub
			}
			out = append(out, arg)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		takesValue := false
		if f := cmd.Flag(name); f != nil {
			takesValue = f.NoOptDefVal == ""
		} else if name != "help" {
			out = append(out, arg) // not octop's: pflag says what is wrong with it
			continue
		}
		if !strings.HasPrefix(arg, "--") && len(name) > 1 {
			arg = "-" + arg
		}
		out = append(out, arg)
		if takesValue && !hasValue && i+1 < len(args) {
			i++
			out = append(out, args[i]) // the flag's value, as it is
		}
	}
	return out
}
