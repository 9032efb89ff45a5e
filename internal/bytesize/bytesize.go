// Package bytesize says a size in bytes for a person, as octop's errors
// name their limits ("the answer is larger than 256 MiB"). It is a leaf,
// so the client and the recording reader can both use it.
package bytesize

import "fmt"

// Text is n for a person: "256 MiB", "64 KiB", "512 bytes". A size that
// is not a whole number of KiB or MiB is given in bytes, so a limit is
// never rounded into one it is not.
func Text(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
