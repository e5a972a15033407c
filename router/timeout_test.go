package router

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// hanging is a backend that answers only after 10s, and reports when its
// caller gave up first.
type hanging struct {
	started chan struct{}
	gaveUp  chan struct{}
}

func newHanging(t *testing.T) (*hanging, string) {
	h := &hanging{started: make(chan struct{}, 16), gaveUp: make(chan struct{}, 16)}
	srv := newBackend(t, h)
	return h, srv.URL
}

func (h *hanging) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body) // a server notices a closed connection once the body is read
	h.started <- struct{}{}
	select {
	case <-r.Context().Done():
		h.gaveUp <- struct{}{}
	case <-time.After(10 * time.Second):
		_, _ = w.Write([]byte(`{"late":true}`))
	}
}

func (h *hanging) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-h.started:
	case <-time.After(5 * time.Second):
		t.Error("the slow backend was never called")
	}
}

func (h *hanging) wantGaveUp(t *testing.T) {
	t.Helper()
	select {
	case <-h.gaveUp:
	case <-time.After(5 * time.Second):
		t.Fatal("the backend call was not cancelled")
	}
}

// Every deadline ends the request with 504 Gateway Timeout, an error body
// naming the limit and the step, and the backend call cancelled.
func TestDeadlines(t *testing.T) {
	for _, tc := range deadlineCases() {
		t.Run(tc.name, func(t *testing.T) {
			fast := newBackend(t, fixed(200, `{"fast":true}`))
			h, slow := newHanging(t)
			var mods []func(*graphSpec)
			if tc.mod != nil {
				mods = append(mods, tc.mod)
			}
			r := startRouter(t, graphOf(t, tc.graph(fast.URL, slow), mods...))
			start := time.Now()
			got := post(t, r.url, `{}`)
			wantError(t, got, http.StatusGatewayTimeout, tc.cause)
			h.wantGaveUp(t)
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Fatalf("answered after %v; the deadline did not cut the call short", elapsed)
			}
		})
	}
}

type deadlineCase struct {
	name  string
	graph func(fast, slow string) map[string]nodeSpec
	mod   func(*graphSpec)
	cause string
}

func deadlineCases() []deadlineCase {
	return []deadlineCase{
		{"graph timeout",
			func(fast, slow string) map[string]nodeSpec {
				return map[string]nodeSpec{"root": sequence(stepSpec{Name: "fast", ServiceURL: fast}, stepSpec{Name: "slow", ServiceURL: slow})}
			},
			func(g *graphSpec) { g.Timeout = secs(300 * time.Millisecond) },
			`graph timeout (300ms) exceeded while calling step "slow" of node "root"`},
		{"step timeout",
			func(fast, slow string) map[string]nodeSpec {
				return map[string]nodeSpec{"root": sequence(
					stepSpec{Name: "fast", ServiceURL: fast, Timeout: secs(5 * time.Second)},
					stepSpec{Name: "slow", ServiceURL: slow, Timeout: secs(200 * time.Millisecond)})}
			},
			func(g *graphSpec) { g.Timeout = secs(30 * time.Second) },
			`timeout of step "slow" of node "root" (200ms) exceeded`},
		{"step timeout around a nested node",
			func(fast, slow string) map[string]nodeSpec {
				return map[string]nodeSpec{
					"root":  sequence(stepSpec{Name: "outer", NodeName: "inner", Timeout: secs(200 * time.Millisecond)}),
					"inner": sequence(stepSpec{ServiceURL: fast}, stepSpec{ServiceURL: slow}),
				}
			},
			nil,
			`timeout of step "outer" of node "root" (200ms) exceeded while calling step 1 of node "inner"`},
		{"service client timeout",
			func(fast, slow string) map[string]nodeSpec {
				return map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: fast}, stepSpec{Name: "slow", ServiceURL: slow})}
			},
			func(g *graphSpec) { g.RouterTimeouts = &routerTimeouts{ServiceClient: secs(200 * time.Millisecond)} },
			`routerTimeouts.serviceClient (200ms) exceeded while calling step "slow" of node "root"`},
		{"timeout inside an ensemble",
			func(fast, slow string) map[string]nodeSpec {
				return map[string]nodeSpec{"root": ensemble(stepSpec{Name: "a", ServiceURL: fast}, stepSpec{Name: "b", ServiceURL: slow, Timeout: secs(200 * time.Millisecond)})}
			},
			nil,
			`timeout of step "b" of node "root" (200ms) exceeded`},
	}
}

// A step that finishes within its timeout is unaffected by it, including a
// streamed final step whose body outlives the call that started it.
func TestStepTimeoutNotHitIsHarmless(t *testing.T) {
	backend := newBGTest(t, "single-1")
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(
		stepSpec{ServiceURL: backend.URL, Timeout: secs(5 * time.Second)},
	)}, func(g *graphSpec) {
		g.Timeout = secs(5 * time.Second)
		g.RouterTimeouts = &routerTimeouts{ServiceClient: secs(5 * time.Second)}
	}))
	got := post(t, r.url, `{"instances":[{"name":"a"}]}`)
	if got.status != http.StatusOK || !strings.Contains(got.body, `"from":"single-1"`) {
		t.Fatalf("got %d %s", got.status, got.body)
	}
}

// When the client gives up, the router's downstream call is cancelled too.
func TestClientCancellationReachesBackend(t *testing.T) {
	h, slow := newHanging(t)
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: slow})}))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.url, strings.NewReader(`{}`))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the request succeeded with %d; it should have been cancelled", resp.StatusCode)
	}
	h.wantGaveUp(t)
	waitFor(t, "the request to be counted as 499", func() bool {
		return metricValue(t, r, `fsmserve_router_requests_total{code="499"}`) == 1
	})
}
