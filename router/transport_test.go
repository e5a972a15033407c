package router

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingBackend serves h and counts the connections it accepted.
func countingBackend(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// rawBackend answers every request on a connection with respond, which
// writes the bytes of the response itself.
func rawBackend(t *testing.T, respond func(w io.Writer, n int)) (string, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int64
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
			n := int(accepted.Add(1))
			go serveRaw(conn, func(w io.Writer) { respond(w, n) })
		}
	}()
	return "http://" + ln.Addr().String(), &accepted
}

func serveRaw(conn net.Conn, respond func(io.Writer)) {
	br := bufio.NewReader(conn)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		respond(conn)
	}
}

func postVia(t *testing.T, rt http.RoundTripper, url, body string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return resp, string(got), err
}

func idleCount(tr *transport) int {
	tr.pool.mu.Lock()
	defer tr.pool.mu.Unlock()
	return tr.pool.nIdle
}

// echo answers with the request body, read whole first: an HTTP/1 server
// stops reading the body once the response has started.
func echo() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, _ = w.Write(body)
	}
}

func TestFastPathKeepsOneConnectionAlive(t *testing.T) {
	srv, conns := countingBackend(t, echo())
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	for i := range 20 {
		body := fmt.Sprintf(`{"i":%d}`, i)
		if _, got, err := postVia(t, tr, srv.URL, body); err != nil || got != body {
			t.Fatalf("request %d: %q, %v", i, got, err)
		}
	}
	if conns.Load() != 1 || idleCount(tr) != 1 {
		t.Fatalf("%d connections, %d idle in the fast path's pool; want 1 and 1", conns.Load(), idleCount(tr))
	}
}

// A connection the server closed while idle is found dead before use, so
// the next request goes out on a new one instead of failing.
func TestServerClosedIdleConnectionIsNotReused(t *testing.T) {
	srv, conns := countingBackend(t, echo())
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	if _, _, err := postVia(t, tr, srv.URL, "a"); err != nil {
		t.Fatal(err)
	}
	srv.CloseClientConnections()
	time.Sleep(50 * time.Millisecond) // let the close arrive
	if _, got, err := postVia(t, tr, srv.URL, "b"); err != nil || got != "b" {
		t.Fatalf("after the server closed the idle connection: %q, %v", got, err)
	}
	if conns.Load() != 2 {
		t.Fatalf("%d connections, want 2", conns.Load())
	}
}

// A reused connection that fails before any byte of the request is written
// is replaced and the request sent again, as http.Transport does.
func TestRequestRetriedWhenNothingWasWritten(t *testing.T) {
	srv, conns := countingBackend(t, echo())
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	if _, _, err := postVia(t, tr, srv.URL, "a"); err != nil {
		t.Fatal(err)
	}
	c := tr.pool.idle[strings.TrimPrefix(srv.URL, "http://")][0]
	_ = c.conn.Close()                    // the request write will fail at once
	c.alive = func() bool { return true } // as if it closed right after the probe
	if _, got, err := postVia(t, tr, srv.URL, "b"); err != nil || got != "b" {
		t.Fatalf("%q, %v", got, err)
	}
	if conns.Load() != 2 {
		t.Fatalf("%d connections, want 2", conns.Load())
	}
}

func TestConnectionNotReused(t *testing.T) {
	cases := []struct {
		name    string
		respond func(w io.Writer, n int)
	}{
		{"Connection: close", func(w io.Writer, _ int) {
			_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
		}},
		{"bytes after the response", func(w io.Writer, _ int) {
			_, _ = io.WriteString(w, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n")
		}},
		{"HTTP/1.0", func(w io.Writer, _ int) {
			_, _ = io.WriteString(w, "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, accepted := rawBackend(t, tc.respond)
			tr := newTransport(4, true)
			defer tr.CloseIdleConnections()
			for range 3 {
				if _, got, err := postVia(t, tr, url, "x"); err != nil || got != "ok" {
					t.Fatalf("%q, %v", got, err)
				}
			}
			if accepted.Load() != 3 || idleCount(tr) != 0 {
				t.Fatalf("%d connections, %d idle; want 3 and 0", accepted.Load(), idleCount(tr))
			}
		})
	}
}

func TestInterimResponsesAreSkipped(t *testing.T) {
	url, _ := rawBackend(t, func(w io.Writer, _ int) {
		_, _ = io.WriteString(w, "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
	})
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	resp, got, err := postVia(t, tr, url, "x")
	if err != nil || resp.StatusCode != http.StatusCreated || got != "ok" {
		t.Fatalf("%v %q %v", resp, got, err)
	}
}

func TestResponseHeadersAreLimited(t *testing.T) {
	srv, _ := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("b", 4096))
	}))
	tr := newTransport(4, true)
	tr.pool.maxHeaderBytes = 1024
	if _, _, err := postVia(t, tr, srv.URL, "x"); err == nil || !strings.Contains(err.Error(), "exceeded 1024 bytes") {
		t.Fatalf("err = %v, want the header limit", err)
	}
}

// Cancelling the request's context interrupts the call, waiting for the
// head or reading the body, and the error is the context's cause.
func TestCancellationInterruptsTheCall(t *testing.T) {
	cause := errors.New("the graph gave up")
	for _, stage := range []string{"head", "body"} {
		t.Run(stage, func(t *testing.T) {
			gaveUp := make(chan struct{})
			srv, _ := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body) // a server notices a closed connection once the body is read
				if stage == "body" {
					w.Header().Set("Content-Length", "100")
					_, _ = io.WriteString(w, "partial")
					w.(http.Flusher).Flush()
				}
				<-r.Context().Done()
				close(gaveUp)
			}))
			tr := newTransport(4, true)
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(100*time.Millisecond, func() { cancel(cause) })
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader("x"))
			resp, err := tr.RoundTrip(req)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if !errors.Is(err, cause) {
				t.Fatalf("err = %v, want the cause", err)
			}
			select {
			case <-gaveUp:
			case <-time.After(5 * time.Second):
				t.Fatal("the backend never saw the call end")
			}
			if idleCount(tr) != 0 {
				t.Fatal("an interrupted connection went back to the pool")
			}
		})
	}
}

func TestBodyClosedEarlyClosesTheConnection(t *testing.T) {
	srv, conns := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(make([]byte, 1<<20))
	}))
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("x"))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := resp.Body.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := resp.Body.Read(make([]byte, 10)); !errors.Is(err, errBodyClosed) {
		t.Fatalf("read after close: %v", err)
	}
	if _, _, err := postVia(t, tr, srv.URL, "y"); err != nil {
		t.Fatal(err)
	}
	if conns.Load() != 2 {
		t.Fatalf("%d connections, want 2", conns.Load())
	}
}

func TestCloseDuringReadUnblocksIt(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv, _ := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.(http.Flusher).Flush()
		<-release
	}))
	tr := newTransport(4, true)
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("x"))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := io.ReadAll(resp.Body); done <- err }()
	time.Sleep(50 * time.Millisecond)
	resp.Body.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the read ended cleanly")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the body did not end the read")
	}
}

func TestStreamedBodyReturnsTheConnection(t *testing.T) {
	srv, conns := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for i := range 3 {
			fmt.Fprintf(w, "event %d\n", i)
			w.(http.Flusher).Flush()
		}
	}))
	tr := newTransport(4, true)
	defer tr.CloseIdleConnections()
	for range 2 {
		resp, got, err := postVia(t, tr, srv.URL, "x")
		if err != nil || resp.ContentLength != -1 || got != "event 0\nevent 1\nevent 2\n" {
			t.Fatalf("%v %q %v", resp, got, err)
		}
	}
	if conns.Load() != 1 {
		t.Fatalf("%d connections, want 1", conns.Load())
	}
}

// What the fast path does not handle goes through http.Transport.
func TestFallbacksToHTTPTransport(t *testing.T) {
	plain, _ := countingBackend(t, echo())
	tlsSrv := httptest.NewTLSServer(echo())
	defer tlsSrv.Close()
	var proxied atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Store(r.URL.IsAbs())
		echo()(w, r)
	}))
	defer proxy.Close()
	cases := []struct {
		name string
		url  string
		body string
		mod  func(*transport, *http.Request)
	}{
		{"https", tlsSrv.URL, "x", func(tr *transport, _ *http.Request) {
			tr.TLSClientConfig = tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig
		}},
		{"Expect: 100-continue", plain.URL, "x", func(_ *transport, r *http.Request) { r.Header.Set("Expect", "100-continue") }},
		{"a large body", plain.URL, strings.Repeat("x", fastPathMaxBody+1), nil},
		{"a proxy", plain.URL, "x", func(tr *transport, _ *http.Request) {
			tr.Proxy = func(*http.Request) (*url.URL, error) { return url.Parse(proxy.URL) }
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTransport(4, true)
			defer tr.CloseIdleConnections()
			req, _ := http.NewRequest(http.MethodPost, tc.url, strings.NewReader(tc.body))
			if tc.mod != nil {
				tc.mod(tr, req)
			}
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(got) != tc.body || idleCount(tr) != 0 {
				t.Fatalf("got %d bytes, %d idle in the fast path's pool", len(got), idleCount(tr))
			}
		})
	}
	if !proxied.Load() {
		t.Fatal("the proxy was not used")
	}
}

// http.Client above the transport still follows redirects, resending the
// body on 307.
func TestRedirectsAreFollowed(t *testing.T) {
	target, _ := countingBackend(t, echo())
	redirect, _ := countingBackend(t, http.RedirectHandler(target.URL+"/moved", http.StatusTemporaryRedirect))
	client := &http.Client{Transport: newTransport(4, true)}
	resp, err := client.Post(redirect.URL, "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if got, _ := io.ReadAll(resp.Body); string(got) != `{"a":1}` || resp.Request.URL.Path != "/moved" {
		t.Fatalf("%q from %s", got, resp.Request.URL)
	}
}

func TestIdleConnectionsExpire(t *testing.T) {
	closed := make(chan struct{}, 1)
	srv := httptest.NewUnstartedServer(echo())
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()
	tr := newTransport(4, true)
	tr.pool.idleTimeout = 50 * time.Millisecond
	if _, _, err := postVia(t, tr, srv.URL, "x"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the idle connection was never closed")
	}
	if idleCount(tr) != 0 {
		t.Fatal("an expired connection is still pooled")
	}
}

func TestIdlePoolIsBounded(t *testing.T) {
	const concurrent = 5
	var arrived sync.WaitGroup
	arrived.Add(concurrent)
	srv, _ := countingBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		arrived.Wait() // every request holds its own connection
		echo()(w, r)
	}))
	tr := newTransport(2, true)
	defer tr.CloseIdleConnections()
	var wg sync.WaitGroup
	for range concurrent {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := postVia(t, tr, srv.URL, "x"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := idleCount(tr); n != 2 {
		t.Fatalf("%d idle connections, want MaxIdleConnsPerHost = 2", n)
	}
}

// With the fast path switched off (--standard-transport) every call goes
// through http.Transport and the fast path's pool stays unused.
func TestStandardTransportSkipsTheFastPath(t *testing.T) {
	srv, _ := countingBackend(t, echo())
	tr := newTransport(4, false)
	defer tr.CloseIdleConnections()
	if _, got, err := postVia(t, tr, srv.URL, `{"a":1}`); err != nil || got != `{"a":1}` {
		t.Fatalf("call through the standard transport: %q, %v", got, err)
	}
	if tr.pool != nil {
		t.Fatal("the fast path's pool exists with the fast path off")
	}
}
