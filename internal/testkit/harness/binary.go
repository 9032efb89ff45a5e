package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Binary finds the opencode binary of a version: $OCTOP_OPENCODE_<version
// with underscores> (OCTOP_OPENCODE_1_18_34), or for the pinned ones
// $OCTOP_OPENCODE_1_18 (1.18.33) and $OCTOP_OPENCODE_1_1 (1.1.65), else
// .cache/opencode-<version>/… under the module root. The error says where
// it looked.
func Binary(version string) (string, error) {
	if version == "" {
		version = V118
	}
	envs := []string{BinaryEnv(version)}
	switch version {
	case V118:
		envs = append(envs, "OCTOP_OPENCODE_1_18")
	case V11:
		envs = append(envs, "OCTOP_OPENCODE_1_1")
	}
	var tried []string
	for _, env := range envs {
		p := os.Getenv(env)
		if p == "" {
			continue
		}
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p+" ($"+env+")")
	}
	if root := moduleRoot(); root != "" {
		p := filepath.Join(root, ".cache", "opencode-"+version, "node_modules", "opencode-"+platform(), "bin", "opencode")
		if isExecutable(p) {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", fmt.Errorf("opencode %s is not installed (looked at %s)", version, strings.Join(tried, ", "))
}

// BinaryEnv is the variable that names version's binary:
// OCTOP_OPENCODE_1_18_34 for 1.18.34.
func BinaryEnv(version string) string {
	return "OCTOP_OPENCODE_" + strings.ReplaceAll(version, ".", "_")
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// platform is the suffix of the npm package that holds the binary, e.g.
// linux-x64.
func platform() string {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return runtime.GOOS + "-" + arch
}

// moduleRoot is the directory of octop's go.mod: searched upwards from the
// working directory, then from this source file.
func moduleRoot() string {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			b, err := os.ReadFile(filepath.Join(d, "go.mod"))
			if err == nil && bytes.Contains(b, []byte("module github.com/octop-dev/octop\n")) {
				return d
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return ""
}
