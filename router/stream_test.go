package router

import (
	"bufio"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sseBackend sends one event, then waits for next before sending the second
// and last one, so a test can prove the first event arrived on its own.
type sseBackend struct {
	next chan struct{}
	body chan string // what the backend received
}

func newSSEBackend(t *testing.T) (*sseBackend, string) {
	b := &sseBackend{next: make(chan struct{}), body: make(chan string, 1)}
	return b, newBackend(t, b).URL
}

func (b *sseBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in, _ := io.ReadAll(r.Body)
	b.body <- string(in)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "data: {\"token\":\"Hello\"}\n\n")
	w.(http.Flusher).Flush()
	select {
	case <-b.next:
	case <-r.Context().Done():
		return
	case <-time.After(10 * time.Second):
		// Nobody saw the first event in time: a buffering router. Say so
		// in the body, which the test then rejects.
		_, _ = io.WriteString(w, "event: the first event was not delivered alone\n\n")
		return
	}
	_, _ = io.WriteString(w, "data: {\"token\":\"world\"}\n\ndata: [DONE]\n\n")
}

func TestStreamingPassThrough(t *testing.T) {
	cases := []struct {
		name  string
		nodes func(sse, ok string) map[string]nodeSpec
	}{
		{"single step", func(sse, ok string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: sse})}
		}},
		{"last step of a sequence, within timeouts", func(sse, ok string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: ok}, stepSpec{ServiceURL: sse, Timeout: secs(20 * time.Second)})}
		}},
		{"switch inside a sequence", func(sse, ok string) map[string]nodeSpec {
			return map[string]nodeSpec{
				"root": sequence(stepSpec{ServiceURL: ok}, stepSpec{NodeName: "pick"}),
				"pick": switchOf(stepSpec{ServiceURL: sse, Condition: "prompt"}),
			}
		}},
		{"splitter", func(sse, ok string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": splitter(stepSpec{ServiceURL: sse, Weight: weight(100)})}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, sse := newSSEBackend(t)
			ok := newBackend(t, fixed(200, `{"ok":true}`))
			r := startRouter(t, graphOf(t, tc.nodes(sse, ok.URL), func(g *graphSpec) { g.Timeout = secs(20 * time.Second) }))
			resp, err := http.Post(r.url, "application/json", strings.NewReader(`{"prompt":"hi"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
				t.Fatalf("status %d, Content-Type %q", resp.StatusCode, ct)
			}
			lines := bufio.NewReader(resp.Body)
			first, err := lines.ReadString('\n')
			if err != nil || first != "data: {\"token\":\"Hello\"}\n" {
				t.Fatalf("first event %q, %v", first, err)
			}
			// Only now may the backend produce the rest: the first event
			// reached the client while the backend was still running.
			close(b.next)
			rest, err := io.ReadAll(lines)
			if err != nil {
				t.Fatal(err)
			}
			if want := "\ndata: {\"token\":\"world\"}\n\ndata: [DONE]\n\n"; string(rest) != want {
				t.Fatalf("rest %q, want %q", rest, want)
			}
		})
	}
}

// A stream that is not the last step is read whole (within the response
// limit) and handed to the next step.
func TestIntermediateStreamIsBuffered(t *testing.T) {
	b, sse := newSSEBackend(t)
	close(b.next)
	rec := &recorder{body: `{"done":true}`}
	next := newBackend(t, rec)
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(
		stepSpec{ServiceURL: sse}, stepSpec{ServiceURL: next.URL, Data: dataResponse},
	)}))
	got := post(t, r.url, `{}`)
	if got.status != 200 || got.body != `{"done":true}` {
		t.Fatalf("got %d %s", got.status, got.body)
	}
	want := "data: {\"token\":\"Hello\"}\n\ndata: {\"token\":\"world\"}\n\ndata: [DONE]\n\n"
	if in := rec.all()[0].body; in != want {
		t.Fatalf("the next step got %q, want the whole stream", in)
	}
}

// A chunked response of unknown length streams too, keeping its status.
func TestChunkedFinalStepStreamsWithItsStatus(t *testing.T) {
	backend := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusPartialContent)
		for i := range 3 {
			_, _ = io.WriteString(w, `{"i":`+string(rune('0'+i))+"}\n")
			w.(http.Flusher).Flush()
		}
	}))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL, Dependency: dependencyHard})}))
	got := post(t, r.url, `{}`)
	if got.status != http.StatusPartialContent || got.body != "{\"i\":0}\n{\"i\":1}\n{\"i\":2}\n" || got.header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("got %d %q %q", got.status, got.header.Get("Content-Type"), got.body)
	}
}

// When the backend breaks a stream midway, the client must not see a clean
// end of body.
func TestBrokenStreamAbortsTheResponse(t *testing.T) {
	backend := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: 1\n\n")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // drop the connection mid-stream
	}))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL})}))
	resp, err := http.Post(r.url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Fatalf("the client read %q and a clean end; want an error", body)
	}
	if !strings.HasPrefix(string(body), "data: 1\n\n") {
		t.Fatalf("the client got %q before the break", body)
	}
}

func TestIsStreaming(t *testing.T) {
	cases := []struct {
		name   string
		ct     string
		length int64
		want   bool
	}{
		{"event stream with length", "text/event-stream; charset=utf-8", 10, true},
		{"event stream, any case", " Text/Event-Stream ", 10, true},
		{"a longer media type", "text/event-streams", 10, false},
		{"unknown length", "application/json", -1, true},
		{"known length JSON", "application/json", 10, false},
		{"empty", "", 0, false},
	}
	for _, tc := range cases {
		resp := &http.Response{Header: http.Header{"Content-Type": {tc.ct}}, ContentLength: tc.length}
		if got := isStreaming(resp); got != tc.want {
			t.Errorf("%s: isStreaming = %v, want %v", tc.name, got, tc.want)
		}
	}
}
