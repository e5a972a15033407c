package devcluster

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// requireBinaries fails (never skips) when the real binaries are missing.
func requireBinaries(t *testing.T) Binaries {
	t.Helper()
	b, err := CachedBinaries()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Missing(false); err != nil {
		t.Fatalf("%v\nThis integration test runs the real control plane: build it once with `go run ./hack/ensure-assets` (about 10 minutes on 2 cores).", err)
	}
	return b
}

// logWriter sends progress lines to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// lineBuffer is an io.Writer safe for concurrent use that signals when a
// given line has been written.
type lineBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	want  string
	found chan struct{}
	once  sync.Once
}

func newLineBuffer(want string) *lineBuffer {
	return &lineBuffer{want: want, found: make(chan struct{})}
}

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	for _, line := range strings.Split(b.buf.String(), "\n") {
		if line == b.want {
			b.once.Do(func() { close(b.found) })
		}
	}
	return n, err
}

func (b *lineBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
