//go:build !linux

package renderer

import (
	"io"
	"os"
)

// RawOutput is f: only Linux writes frames raw (see rawout_linux.go).
func RawOutput(f *os.File) io.Writer { return f }
