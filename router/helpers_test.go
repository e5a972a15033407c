package router

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// bgInstance and bgResponse are the shapes of KServe's bgtest sample service.
type bgInstance struct {
	Name   string `json:"name"`
	IntVal int    `json:"intval"`
	StrVal string `json:"strval"`
}

type bgResponse struct {
	From      string       `json:"from"`
	Instances []bgInstance `json:"instances"`
}

// bgtestHandler answers like the bgtest service: it binds the instances of
// the request (ignoring what does not fit) and returns them with "from".
func bgtestHandler(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in bgResponse
		_ = json.NewDecoder(r.Body).Decode(&in) // bgtest ignores binding errors too
		in.From = target
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(in)
	}
}

// newBackend starts a loopback HTTP server closed at the end of the test.
func newBackend(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func newBGTest(t testing.TB, target string) *httptest.Server {
	return newBackend(t, bgtestHandler(target))
}

// fixed answers every request with the given status and body.
func fixed(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// recorded is one request a recorder backend received.
type recorded struct {
	method string
	header http.Header
	body   string
}

// recorder answers like fixed and remembers every request.
type recorder struct {
	mu       sync.Mutex
	requests []recorded
	status   int
	body     string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.requests = append(rec.requests, recorded{method: r.Method, header: r.Header.Clone(), body: string(body)})
	rec.mu.Unlock()
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, rec.body)
}

func (rec *recorder) all() []recorded {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]recorded(nil), rec.requests...)
}

// testRouter is a router serving on a loopback port.
type testRouter struct {
	*Server
	url string
}

func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// startRouter serves the graph on loopback; the server is shut down (without
// a drain) at the end of the test.
func startRouter(t testing.TB, graph string, mods ...func(*Options)) *testRouter {
	t.Helper()
	opts := Options{GraphJSON: graph, Logger: quietLogger(), DrainPeriod: 0}
	for _, m := range mods {
		m(&opts)
	}
	s, err := NewServer(opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.opts.DrainPeriod = 0
		_ = s.Shutdown(ctx)
		<-done
	})
	return &testRouter{Server: s, url: "http://" + ln.Addr().String()}
}

// result is a response as a test sees it.
type result struct {
	status int
	header http.Header
	body   string
}

func post(t testing.TB, url, body string, headers ...string) result {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the response: %v", err)
	}
	return result{status: resp.StatusCode, header: resp.Header, body: string(got)}
}

// graphOf builds the graph JSON from nodes and optional top-level fields.
func graphOf(t testing.TB, nodes map[string]nodeSpec, mods ...func(*graphSpec)) string {
	t.Helper()
	g := graphSpec{Nodes: nodes}
	for _, m := range mods {
		m(&g)
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func sequence(steps ...stepSpec) nodeSpec { return nodeSpec{RouterType: typeSequence, Steps: steps} }
func splitter(steps ...stepSpec) nodeSpec { return nodeSpec{RouterType: typeSplitter, Steps: steps} }
func switchOf(steps ...stepSpec) nodeSpec { return nodeSpec{RouterType: typeSwitch, Steps: steps} }
func ensemble(steps ...stepSpec) nodeSpec { return nodeSpec{RouterType: typeEnsemble, Steps: steps} }

func weight(w int64) *int64 { return &w }

func secs(d time.Duration) *seconds { s := seconds(d); return &s }

// wantJSON compares two JSON documents by meaning, not bytes.
func wantJSON(t testing.TB, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("expectation is not JSON: %v", err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if !bytes.Equal(gb, wb) {
		t.Fatalf("body = %s\nwant   %s", gb, wb)
	}
}

// wantError checks the KServe error shape, its status and that the cause
// contains the given text.
func wantError(t testing.TB, r result, status int, causeContains string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d (body %s)", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var e map[string]string
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, r.body)
	}
	if len(e) != 2 || e["error"] != "Failed to process request" {
		t.Fatalf("error body = %s, want exactly error and cause", r.body)
	}
	if !strings.Contains(e["cause"], causeContains) {
		t.Fatalf("cause = %q, want it to contain %q", e["cause"], causeContains)
	}
}

func mustUnmarshal(t testing.TB, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, data)
	}
}
