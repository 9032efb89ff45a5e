//go:build !linux

package renderer

import (
	"io"
	"os"
)

// QuietOutput is f: only Linux writes frames raw (see quiet_linux.go).
func QuietOutput(f *os.File) io.Writer { return f }
