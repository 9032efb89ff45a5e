package bytesize

import "testing"

func TestText(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 100: "100 bytes", 1 << 10: "1 KiB", 64 << 10: "64 KiB", 1500: "1500 bytes",
		1 << 20: "1 MiB", 256 << 20: "256 MiB", 1<<20 + 1<<10: "1025 KiB", 1<<20 + 1: "1048577 bytes",
	} {
		if got := Text(n); got != want {
			t.Errorf("Text(%d) = %q, want %q", n, got, want)
		}
	}
}
