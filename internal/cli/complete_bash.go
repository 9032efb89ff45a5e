package cli

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// bashNeeds is what cobra's bash script calls of the bash-completion
// package; bashInit is the function of the script that calls it.
const (
	bashNeeds = "_get_comp_words_by_ref"
	bashInit  = "__octop_init_completion()\n{\n    COMPREPLY=()\n"
)

// bashMissing is said once a shell, at the first Tab, when the
// bash-completion package is not loaded: without it each Tab printed
// `_get_comp_words_by_ref: command not found`, twice.
const bashMissing = `    if ! declare -F ` + bashNeeds + ` >/dev/null 2>&1; then
        if [[ -z ${__octop_told_missing-} ]]; then
            __octop_told_missing=1
            printf '\noctop: bash completion needs the bash-completion package (apt, dnf or brew install bash-completion)\n' >&2
        fi
        return 1
    fi
`

// writeBashCompletion is `octop completion bash`: cobra's script, saying
// in one line when the package it needs is missing.
func writeBashCompletion(c *cobra.Command, descriptions bool) error {
	var b bytes.Buffer
	if err := c.Root().GenBashCompletionV2(&b, descriptions); err != nil {
		return err
	}
	script := b.String()
	if !strings.Contains(script, bashInit) {
		return fmt.Errorf("octop completion bash: cobra's script no longer has %s", strings.TrimSpace(strings.SplitN(bashInit, "\n", 2)[0]))
	}
	_, err := fmt.Fprint(c.OutOrStdout(), strings.Replace(script, bashInit, bashInit+bashMissing, 1))
	return err
}
