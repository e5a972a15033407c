package devcluster

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// scratchGoMod renders the go.mod of a scratch build module. require is
// "module version" or empty; replaces are full `old => new version` lines.
func scratchGoMod(name, require string, replaces []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "module fsmserve.local/build/%s\n\ngo 1.26\n", name)
	if require != "" {
		fmt.Fprintf(&b, "\nrequire %s\n", require)
	}
	if len(replaces) > 0 {
		b.WriteString("\nreplace (\n")
		for _, r := range replaces {
			fmt.Fprintf(&b, "\t%s\n", r)
		}
		b.WriteString(")\n")
	}
	return b.String()
}

// toolsGo renders a file that imports the tools' main packages so that
// `go mod tidy` resolves everything they need; the build tag keeps it out of
// every build.
func toolsGo(tools []tool) string {
	var b strings.Builder
	b.WriteString("//go:build tools\n\npackage tools\n\nimport (\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "\t_ %q\n", t.pkg)
	}
	b.WriteString(")\n")
	return b.String()
}

// stagingVersion maps a Kubernetes release to the version of its published
// staging modules: v1.35.4 -> v0.35.4.
func stagingVersion(kubernetesVersion string) string {
	if rest, ok := strings.CutPrefix(kubernetesVersion, "v1."); ok {
		return "v0." + rest
	}
	return kubernetesVersion
}

// stagingReplaces reads a go.mod and returns, sorted, one
// `X => X version` line for every `X => ./staging/src/...` replace in it.
func stagingReplaces(goMod []byte, version string) ([]string, error) {
	var out []string
	inBlock := false
	sc := bufio.NewScanner(bytes.NewReader(goMod))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "replace (":
			inBlock = true
			continue
		case inBlock && line == ")":
			inBlock = false
			continue
		case strings.HasPrefix(line, "replace "):
			line = strings.TrimSpace(strings.TrimPrefix(line, "replace "))
		case !inBlock:
			continue
		}
		old, target, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		oldPath := strings.Fields(old)
		if len(oldPath) == 0 || !strings.HasPrefix(strings.TrimSpace(target), "./staging/src/") {
			continue
		}
		out = append(out, fmt.Sprintf("%s => %s %s", oldPath[0], oldPath[0], version))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no `=> ./staging/src/...` replace found")
	}
	sort.Strings(out)
	return out, nil
}

// downloadGoMod fetches module@version's go.mod through the module proxy
// (`go mod download -json`) and returns its content.
func (b *builder) downloadGoMod(ctx context.Context, module, version string) ([]byte, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the go command is needed to build the local cluster binaries but is not on PATH: %w", err)
	}
	cmd := exec.CommandContext(ctx, goBin, "mod", "download", "-json", module+"@"+version)
	cmd.Dir = b.cache
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct {
		GoMod string
		Error string
	}
	_ = json.Unmarshal(out, &info)
	if err != nil || info.GoMod == "" {
		return nil, fmt.Errorf("go mod download %s@%s failed (is the Go module proxy reachable? check GOPROXY): %v %s %s",
			module, version, err, info.Error, strings.TrimSpace(stderr.String()))
	}
	data, err := os.ReadFile(info.GoMod)
	if err != nil {
		return nil, fmt.Errorf("reading go.mod of %s@%s: %w", module, version, err)
	}
	return data, nil
}
