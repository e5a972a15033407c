package router

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// chunked writes body in pieces without a Content-Length.
func chunked(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		for i := 0; i < len(body); i += 10 {
			_, _ = io.WriteString(w, body[i:min(i+10, len(body))])
			w.(http.Flusher).Flush()
		}
	}
}

func TestRequestBodyLimit(t *testing.T) {
	const limit = 64
	rec := &recorder{body: `{}`}
	backend := newBackend(t, rec)
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL})}),
		func(o *Options) { o.MaxRequestBytes = limit })
	big := `{"x":"` + strings.Repeat("a", limit) + `"}`
	cases := []struct {
		name   string
		body   io.Reader
		length int64
		status int
	}{
		{"declared length over the limit", strings.NewReader(big), int64(len(big)), http.StatusRequestEntityTooLarge},
		{"chunked body over the limit", io.MultiReader(strings.NewReader(big)), -1, http.StatusRequestEntityTooLarge},
		{"exactly the limit", strings.NewReader(strings.Repeat(" ", limit)), limit, http.StatusOK},
		{"chunked within the limit", io.MultiReader(strings.NewReader(`{}`)), -1, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, r.url, tc.body)
			req.ContentLength = tc.length
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			got := result{status: resp.StatusCode, header: resp.Header, body: string(body)}
			if tc.status == http.StatusOK {
				if got.status != http.StatusOK {
					t.Fatalf("status %d: %s", got.status, got.body)
				}
				return
			}
			wantError(t, got, tc.status, "request body exceeds the limit of 64 bytes (--max-request-bytes)")
		})
	}
	for _, req := range rec.all() {
		if len(req.body) > limit {
			t.Fatalf("a body of %d bytes reached the backend", len(req.body))
		}
	}
}

func TestResponseBodyLimit(t *testing.T) {
	const limit = 64
	big := `{"x":"` + strings.Repeat("a", limit) + `"}`
	cases := []struct {
		name  string
		nodes func(bigURL, okURL string) map[string]nodeSpec
		cause string
	}{
		{"declared length over the limit", func(bigURL, okURL string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": sequence(stepSpec{Name: "big", ServiceURL: bigURL})}
		}, `response body of step "big" of node "root" exceeds the limit of 64 bytes (--max-response-bytes)`},
		{"chunked intermediate step over the limit", func(bigURL, okURL string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: bigURL + "/chunked"}, stepSpec{ServiceURL: okURL})}
		}, `response body of step 0 of node "root" exceeds the limit of 64 bytes (--max-response-bytes)`},
		{"ensemble member over the limit", func(bigURL, okURL string) map[string]nodeSpec {
			return map[string]nodeSpec{"root": ensemble(stepSpec{Name: "ok", ServiceURL: okURL}, stepSpec{Name: "big", ServiceURL: bigURL + "/chunked"})}
		}, `response body of step "big" of node "root" exceeds the limit`},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Length", strconv.Itoa(len(big)))
		_, _ = io.WriteString(w, big)
	})
	mux.Handle("/chunked", chunked(big))
	bigSrv := newBackend(t, mux)
	ok := newBackend(t, fixed(200, `{}`))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := startRouter(t, graphOf(t, tc.nodes(bigSrv.URL, ok.URL)), func(o *Options) { o.MaxResponseBytes = limit })
			wantError(t, post(t, r.url, `{}`), http.StatusRequestEntityTooLarge, tc.cause)
		})
	}
}
