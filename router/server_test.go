package router

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// serving runs the server the way the command does, with ctx standing in for
// SIGTERM.
func serving(t *testing.T, opts Options) (url string, stop context.CancelFunc, stopped <-chan error) {
	t.Helper()
	opts.Logger = quietLogger()
	s, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, s, ln)
		close(done) // later receives, like the cleanup's, return at once
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return "http://" + ln.Addr().String(), cancel, done
}

func TestReadinessAndGracefulDrain(t *testing.T) {
	release, arrived := make(chan struct{}), make(chan struct{}, 1)
	slow := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		_, _ = w.Write([]byte(`{"slow":true}`))
	}))
	url, signal, stopped := serving(t, Options{
		GraphJSON:   graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: slow.URL})}),
		DrainPeriod: time.Minute,
		DrainIdle:   100 * time.Millisecond,
	})
	if code, _ := get(t, url+readinessPath); code != http.StatusOK {
		t.Fatalf("/readyz = %d before shutdown, want 200", code)
	}
	inFlight := make(chan result, 1)
	go func() { inFlight <- post(t, url, `{}`) }()
	<-arrived

	signal() // SIGTERM
	waitFor(t, "/readyz to fail", func() bool {
		code, body := get(t, url+readinessPath)
		return code == http.StatusServiceUnavailable && strings.TrimSpace(body) == "shutting down"
	})
	select {
	case err := <-stopped:
		t.Fatalf("the server stopped (%v) with a request in flight", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if got := <-inFlight; got.status != http.StatusOK || got.body != `{"slow":true}` {
		t.Fatalf("the request in flight got %d %s", got.status, got.body)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatalf("run returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the drain did not end once nothing was in flight")
	}
	if _, err := http.Get(url + readinessPath); err == nil {
		t.Fatal("the server still accepts connections after shutdown")
	}
}

func TestDrainPeriodBoundsTheDrain(t *testing.T) {
	url, signal, stopped := serving(t, Options{
		GraphJSON:   `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://127.0.0.1:1"}]}}}`,
		DrainPeriod: 200 * time.Millisecond,
		DrainIdle:   time.Hour, // never idle long enough: only the period ends the drain
	})
	signal()
	waitFor(t, "/readyz to fail", func() bool { code, _ := get(t, url+readinessPath); return code == http.StatusServiceUnavailable })
	select {
	case err := <-stopped:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the drain outlived its period")
	}
}

func TestNewCommand(t *testing.T) {
	cmd := NewCommand()
	if cmd.Name() != "router" {
		t.Fatalf("command name %q", cmd.Name())
	}
	defaults := map[string]string{
		"graph-json": "", "port": "8080", "max-request-bytes": "10485760", "max-response-bytes": "10485760",
		"drain-period": "30s", "drain-idle": "1s", "max-idle-conns-per-host": "256", "log-level": "info",
	}
	for name, want := range defaults {
		f := cmd.Flags().Lookup(name)
		if f == nil || f.DefValue != want {
			t.Errorf("flag --%s = %v, want default %q", name, f, want)
		}
	}
}

func TestCommandRejectsBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing graph", []string{}, `"graph-json" not set`},
		{"bad graph", []string{"--graph-json", `{"nodes":{}}`}, "nodes.root is missing"},
		{"bad log level", []string{"--graph-json", "{}", "--log-level", "loud"}, `--log-level "loud"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := NewCommand()
			cmd.SetArgs(tc.args)
			cmd.SetOut(io.Discard)
			cmd.SetErr(io.Discard)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// The whole command: it serves, and stops cleanly when its context ends (as
// it does on SIGTERM).
func TestCommandServesUntilSignalled(t *testing.T) {
	t.Setenv(propagateHeadersEnv, "Authorization")
	cmd := NewCommand()
	cmd.SetArgs([]string{"--graph-json", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://127.0.0.1:1"}]}}}`,
		"--port", "0", "--drain-period", "0s", "--log-level", "error"})
	cmd.SetErr(io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop")
	}
}
