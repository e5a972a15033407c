package devcluster

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helloComponent is a component whose scratch module already exists and
// holds its own main package, so building it needs no module proxy.
var helloComponent = component{
	name: "hello", module: "fsmserve.local/build/hello", version: "v0.0.1",
	tools: []tool{{"hello", "fsmserve.local/build/hello", "~1 s"}},
}

func writeHelloModule(t *testing.T, cache string) {
	t.Helper()
	src := filepath.Join(cache, "src", helloComponent.key())
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "go.mod"), []byte(scratchGoMod("hello", "", nil)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(src, "go.sum"), nil, 0o644))
	main := "package main\n\nfunc main() { println(\"hello\") }\n"
	require.NoError(t, os.WriteFile(filepath.Join(src, "main.go"), []byte(main), 0o644))
}

func TestBuilderBuildsOnceAndReuses(t *testing.T) {
	cache := t.TempDir()
	writeHelloModule(t, cache)
	bin := binaryPath(cache, helloComponent, "hello")

	var progress bytes.Buffer
	b := &builder{cache: cache, progress: &progress}
	require.NoError(t, b.ensure(t.Context(), helloComponent, []string{"hello"}))
	out, err := exec.Command(bin).CombinedOutput()
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(out))
	assert.Contains(t, progress.String(), "fsmserve: building hello v0.0.1 (first run only, ~1 s)...")
	assert.Contains(t, progress.String(), "fsmserve: hello v0.0.1 done in ")
	assert.NoFileExists(t, bin+".tmp")

	progress.Reset()
	require.NoError(t, b.ensure(t.Context(), helloComponent, []string{"hello"}))
	assert.Empty(t, progress.String(), "a cached binary is reused silently")
}

func TestBuilderConcurrentCallersBuildOnce(t *testing.T) {
	cache := t.TempDir()
	writeHelloModule(t, cache)

	const callers = 3
	outputs := make([]bytes.Buffer, callers)
	var wg sync.WaitGroup
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() {
			b := &builder{cache: cache, progress: &outputs[i]}
			errs[i] = b.ensure(t.Context(), helloComponent, []string{"hello"})
		})
	}
	wg.Wait()
	builds := 0
	for i := range callers {
		require.NoError(t, errs[i])
		builds += strings.Count(outputs[i].String(), "fsmserve: building hello")
	}
	assert.Equal(t, 1, builds, "exactly one caller builds; the others wait and reuse")
	assert.FileExists(t, binaryPath(cache, helloComponent, "hello"))
}

func TestBuilderLockWaitsForHolder(t *testing.T) {
	cache := t.TempDir()
	var progress bytes.Buffer
	holder := &builder{cache: cache, progress: &bytes.Buffer{}}
	unlock, err := holder.lock(t.Context(), helloComponent)
	require.NoError(t, err)

	acquired := make(chan time.Time, 1)
	go func() {
		waiter := &builder{cache: cache, progress: &progress}
		unlockWaiter, err := waiter.lock(t.Context(), helloComponent)
		if err == nil {
			unlockWaiter()
		}
		acquired <- time.Now()
	}()
	time.Sleep(300 * time.Millisecond)
	released := time.Now()
	unlock()
	assert.True(t, (<-acquired).After(released), "the second locker waits for the first")
	assert.Contains(t, progress.String(), "waiting for another process building hello v0.0.1")
}

func TestBuilderReportsBuildFailureWithLog(t *testing.T) {
	cache := t.TempDir()
	writeHelloModule(t, cache)
	src := filepath.Join(cache, "src", helloComponent.key())
	require.NoError(t, os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() { undefined() }\n"), 0o644))

	b := &builder{cache: cache, progress: &bytes.Buffer{}}
	err := b.ensure(t.Context(), helloComponent, []string{"hello"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "undefined")
	assert.Contains(t, err.Error(), filepath.Join(src, "build.log"))
	assert.NoFileExists(t, binaryPath(cache, helloComponent, "hello"))
	assert.NoFileExists(t, binaryPath(cache, helloComponent, "hello")+".tmp")
}
