//go:build !linux

package renderer

import (
	"io"
	"os"
)

// RawInput is f: only Linux reads keys raw (see rawin_linux.go).
func RawInput(f *os.File) (r io.Reader, stop func()) { return f, func() {} }
