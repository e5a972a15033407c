package devcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// builder builds components into the cache. Every build goes to a .tmp file
// renamed into place, under a per-component file lock, so a killed build
// leaves nothing half-written and two processes never build the same thing.
type builder struct {
	cache    string
	progress io.Writer
}

// ensure makes sure the named tools of c exist in the cache.
func (b *builder) ensure(ctx context.Context, c component, names []string) error {
	if len(b.missing(c, names)) == 0 {
		return nil
	}
	unlock, err := b.lock(ctx, c)
	if err != nil {
		return err
	}
	defer unlock()
	// Another process may have built them while we waited for the lock.
	missing := b.missing(c, names)
	if len(missing) == 0 {
		return nil
	}
	src := filepath.Join(b.cache, "src", c.key())
	if err := b.prepareModule(ctx, c, src); err != nil {
		return err
	}
	for _, t := range missing {
		if err := b.buildTool(ctx, c, t, src); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) missing(c component, names []string) []tool {
	var out []tool
	for _, t := range c.tools {
		if contains(names, t.name) && !isExecutable(binaryPath(b.cache, c, t.name)) {
			out = append(out, t)
		}
	}
	return out
}

// lock takes an exclusive flock on the component's lock file, polling so the
// wait honours ctx and the user is told why nothing happens.
func (b *builder) lock(ctx context.Context, c component) (func(), error) {
	dir := filepath.Join(b.cache, "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating lock dir %s: %w (is the cache writable? set FSMSERVE_CACHE to move it)", dir, err)
	}
	path := filepath.Join(dir, c.key()+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening lock file %s: %w", path, err)
	}
	told := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); _ = f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			_ = f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if !told {
			fmt.Fprintf(b.progress, "fsmserve: waiting for another process building %s %s (lock %s)...\n", c.name, c.version, path)
			told = true
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("waiting for the build lock %s: %w", path, ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// prepareModule writes the scratch module that pins c and resolves its
// dependencies. A module whose go.sum exists was resolved before (go writes
// go.sum only on success) and is reused as is.
func (b *builder) prepareModule(ctx context.Context, c component, src string) error {
	if fileExists(filepath.Join(src, "go.mod")) && fileExists(filepath.Join(src, "go.sum")) {
		return nil
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		return fmt.Errorf("creating scratch module dir %s: %w", src, err)
	}
	var replaces []string
	if c.stagingReplaces {
		var err error
		if replaces, err = b.stagingReplacesOf(ctx, c); err != nil {
			return err
		}
	}
	require := c.module + " " + c.version
	if c.viaGetTool {
		require = ""
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte(scratchGoMod(c.name, require, replaces)), 0o644); err != nil {
		return fmt.Errorf("writing scratch go.mod in %s: %w", src, err)
	}
	start := time.Now()
	fmt.Fprintf(b.progress, "fsmserve: resolving modules for %s %s (first run only)...\n", c.name, c.version)
	if c.viaGetTool {
		for _, t := range c.tools {
			if err := b.runGo(ctx, src, "get", "-tool", t.pkg+"@"+c.version); err != nil {
				return err
			}
		}
	} else {
		if err := os.WriteFile(filepath.Join(src, "tools.go"), []byte(toolsGo(c.tools)), 0o644); err != nil {
			return fmt.Errorf("writing tools.go in %s: %w", src, err)
		}
		if err := b.runGo(ctx, src, "mod", "tidy"); err != nil {
			return err
		}
	}
	fmt.Fprintf(b.progress, "fsmserve: modules for %s %s resolved in %s\n", c.name, c.version, roundDuration(time.Since(start)))
	return nil
}

func (b *builder) stagingReplacesOf(ctx context.Context, c component) ([]string, error) {
	goMod, err := b.downloadGoMod(ctx, c.module, c.version)
	if err != nil {
		return nil, err
	}
	replaces, err := stagingReplaces(goMod, stagingVersion(c.version))
	if err != nil {
		return nil, fmt.Errorf("reading the staging replaces of %s@%s: %w", c.module, c.version, err)
	}
	return replaces, nil
}

// buildTool builds one binary to a .tmp file and renames it into place.
func (b *builder) buildTool(ctx context.Context, c component, t tool, src string) error {
	out := binaryPath(b.cache, c, t.name)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(out), err)
	}
	tmp := out + ".tmp"
	ldflags := c.ldflags
	if ldflags == "" {
		ldflags = "-s -w"
	}
	start := time.Now()
	fmt.Fprintf(b.progress, "fsmserve: building %s %s (first run only, %s)...\n", t.name, c.version, t.estimate)
	if err := b.runGo(ctx, src, "build", "-trimpath", "-ldflags", ldflags, "-o", tmp, t.pkg); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return fmt.Errorf("moving %s into place: %w", tmp, err)
	}
	fmt.Fprintf(b.progress, "fsmserve: %s %s done in %s\n", t.name, c.version, roundDuration(time.Since(start)))
	return nil
}

// runGo runs the go command in dir, appending its output to dir/build.log.
func (b *builder) runGo(ctx context.Context, dir string, args ...string) error {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is needed to build the local cluster binaries but is not on PATH: %w", err)
	}
	logPath := filepath.Join(dir, "build.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("opening build log %s: %w", logPath, err)
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "\n$ go %v\n", args)
	cmd := exec.CommandContext(ctx, goBin, args...)
	cmd.Dir = dir
	// GOWORK=off: a go.work above the cache must not leak into the scratch module.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	if err := cmd.Run(); err != nil {
		_ = logFile.Sync()
		return fmt.Errorf("go %v in %s failed: %w\nlast lines of %s:\n%s\n(if the scratch module is broken, delete %s and retry)",
			args, dir, err, logPath, tailFile(logPath, 20), dir)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func roundDuration(d time.Duration) time.Duration {
	if d > 10*time.Second {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}
