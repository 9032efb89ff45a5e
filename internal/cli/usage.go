package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// usageErr is bad usage found before any command ran (an unknown flag or
// command, a flag's bad value), as the one line octop prints for it.
type usageErr struct{ line string }

func (e usageErr) Error() string { return e.line }

// flagError is every command's cobra FlagErrorFunc: the error in the
// words octop's flags always used (Go's flag package's), with the help to
// read, in one line. On the root, a word before the flag names no command
// (`octop wach --json`): that is what is said.
func flagError(c *cobra.Command, err error) error {
	msg := flagMessage(err)
	if !c.HasParent() {
		if words := c.Flags().Args(); len(words) > 0 {
			return noCommand(c, words) // a misspelt command before the flag its own command has
		}
		return usageErr{fmt.Sprintf("octop: %s; run `octop --help` for the flags", msg)}
	}
	return usageErr{fmt.Sprintf("octop %s: %s (see octop %s --help)", c.Name(), msg, c.Name())}
}

// flagMessage words a pflag error as Go's flag package did, with the
// flag written --name as the help writes it.
func flagMessage(err error) string {
	var notDefined *pflag.NotExistError
	var noValue *pflag.ValueRequiredError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &notDefined):
		name := "--" + notDefined.GetSpecifiedName()
		if short := notDefined.GetSpecifiedShortnames(); short != "" {
			name = "-" + short
		}
		return "flag provided but not defined: " + name
	case errors.As(err, &noValue):
		return "flag needs an argument: --" + noValue.GetSpecifiedName()
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		if f.Value.Type() == "bool" {
			return fmt.Sprintf("invalid boolean value %q for --%s: parse error", invalid.GetValue(), f.Name)
		}
		return fmt.Sprintf("invalid value %q for flag --%s: %s", invalid.GetValue(), f.Name, valueProblem(f, errors.Unwrap(invalid)))
	}
	return err.Error()
}

// valueProblem is why a flag's value was refused: for a number or a
// duration, "parse error" or "value out of range" as Go's flag package
// said; for the others, their own reason.
func valueProblem(f *pflag.Flag, err error) string {
	var num *strconv.NumError
	switch {
	case errors.Is(err, errNegativeTimeout):
		return err.Error()
	case errors.As(err, &num) && errors.Is(num.Err, strconv.ErrRange):
		return "value out of range"
	case errors.As(err, &num) || f.Value.Type() == "duration":
		return "parse error"
	case err == nil:
		return "parse error"
	}
	return err.Error()
}

// reportUsage is fang's error handler. Only cobra's own refusals reach it
// (a command that ran said what went wrong itself, and set the exit
// code): one line, never fang's styled box.
func reportUsage(w io.Writer, _ fang.Styles, err error) {
	if u, ok := errors.AsType[usageErr](err); ok {
		fmt.Fprintln(w, u.line)
		return
	}
	fmt.Fprintf(w, "octop: %s; run `octop --help`\n", squashSpaces(err.Error()))
}
