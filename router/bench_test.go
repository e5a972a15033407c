package router

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

const benchBody = `{"instances":[{"name":"blue","intval":1,"strval":"kserve"},{"name":"red","intval":12,"strval":"a-red-server"}]}`

// cannedTransport answers every call in memory, so a benchmark measures the
// router's own work and nothing of the network or a backend.
type cannedTransport struct{ body []byte }

func (c cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode:    http.StatusOK,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(c.body)),
		ContentLength: int64(len(c.body)),
		Request:       req,
	}, nil
}

func benchGraph(routerType string, steps int) string {
	var b strings.Builder
	b.WriteString(`{"nodes":{"root":{"routerType":"` + routerType + `","steps":[`)
	for i := range steps {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"s` + strconv.Itoa(i) + `","serviceUrl":"http://backend.local/v1/models/m:predict","data":"$response","weight":100}`)
	}
	b.WriteString(`]}}}`)
	return b.String()
}

// benchInProcess drives the handler directly with a canned transport; the
// requests carry a trace context.
func benchInProcess(b *testing.B, graph string, propagate string) {
	benchHandler(b, graph, propagate, inboundParent)
}

// benchHandler is benchInProcess with the inbound traceparent, if any.
func benchHandler(b *testing.B, graph, propagate, traceparent string) {
	s, err := NewServer(Options{GraphJSON: graph, Logger: quietLogger(), PropagateHeaders: propagate})
	if err != nil {
		b.Fatal(err)
	}
	s.router.client = &http.Client{Transport: cannedTransport{body: []byte(benchBody)}}
	h := s.Handler()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(benchBody))
		req.Header.Set("Authorization", "Bearer token")
		if traceparent != "" {
			req.Header.Set("Traceparent", traceparent)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}

// The router's own CPU and allocations per request, without network I/O.
func BenchmarkHandlerSequence1(b *testing.B) { benchInProcess(b, benchGraph(typeSequence, 1), "") }
func BenchmarkHandlerSequence3(b *testing.B) { benchInProcess(b, benchGraph(typeSequence, 3), "") }
func BenchmarkHandlerSplitter(b *testing.B)  { benchInProcess(b, benchGraph(typeSplitter, 2), "") }
func BenchmarkHandlerEnsemble3(b *testing.B) { benchInProcess(b, benchGraph(typeEnsemble, 3), "") }

// As routerbench calls it: no inbound trace context, tracing off.
func BenchmarkHandlerSequence1Untraced(b *testing.B) {
	benchHandler(b, benchGraph(typeSequence, 1), "", "")
}
func BenchmarkHandlerPropagateHeaders(b *testing.B) {
	benchInProcess(b, benchGraph(typeSequence, 1), "Authorization,X-Request-.*")
}

// The baseline: client -> bgtest-shaped backend over loopback.
func BenchmarkLoopbackDirect(b *testing.B) { benchLoopback(b, 0) }

// One hop over loopback: client -> router -> bgtest-shaped backend.
func BenchmarkLoopbackOneHop(b *testing.B) { benchLoopback(b, 1) }

// Three steps over loopback.
func BenchmarkLoopbackSequence3(b *testing.B) { benchLoopback(b, 3) }

func benchLoopback(b *testing.B, steps int) {
	backend := newBGTest(b, "single-1")
	url := backend.URL
	if steps > 0 {
		url = startRouter(b, strings.ReplaceAll(benchGraph(typeSequence, steps), "http://backend.local", backend.URL)).url
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	b.SetParallelism(8) // 16 concurrent clients on two cores, like routerbench
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			resp, err := client.Post(url, "application/json", strings.NewReader(benchBody))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

func BenchmarkSelectHeaders(b *testing.B) {
	p := compileHeaderPolicy("Authorization,X-Request-.*", quietLogger())
	in := http.Header{
		"Authorization": {"Bearer t"}, "X-Request-Id": {"1"}, "Accept": {"*/*"},
		"User-Agent": {"bench"}, "Content-Type": {"application/json"}, "Traceparent": {inboundParent},
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = outgoingHeaders(p.selectHeaders(in))
	}
}
