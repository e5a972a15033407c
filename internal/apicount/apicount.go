// Package apicount counts the requests one process sends to the API server,
// by verb and resource, at the process's own transport: exactly its own
// requests and nothing else's, which is what an audit log filtered to its
// identity would give, without an audit policy to install.
package apicount

import (
	"net/http"
	"sort"
	"strings"
	"sync"

	"k8s.io/client-go/rest"
)

// Log records requests. The zero value is ready.
type Log struct {
	mu      sync.Mutex
	counts  map[string]int
	watches int
}

// Attach makes every request sent with cfg (a copy is returned) counted.
func (l *Log) Attach(cfg *rest.Config) *rest.Config {
	out := rest.CopyConfig(cfg)
	out.Wrap(l.wrap)
	return out
}

func (l *Log) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		l.record(req)
		return next.RoundTrip(req)
	})
}

func (l *Log) record(req *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if req.URL.Query().Get("watch") == "true" {
		l.watches++
		return
	}
	if l.counts == nil {
		l.counts = map[string]int{}
	}
	l.counts[Verb(req)+" "+Resource(req.URL.Path)]++
}

// Reset forgets what was recorded.
func (l *Log) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.counts, l.watches = nil, 0
}

// Counts are the requests by "VERB resource", watches apart.
type Counts struct {
	ByKind  map[string]int
	Watches int
}

// Snapshot returns what was recorded so far.
func (l *Log) Snapshot() Counts {
	l.mu.Lock()
	defer l.mu.Unlock()
	by := make(map[string]int, len(l.counts))
	for k, v := range l.counts {
		by[k] = v
	}
	return Counts{ByKind: by, Watches: l.watches}
}

// Writes are the requests that change something.
func (c Counts) Writes() map[string]int { return c.filter(func(v string) bool { return !isRead(v) }) }

// Reads are the uncached reads: GETs and LISTs sent to the API server.
func (c Counts) Reads() map[string]int { return c.filter(isRead) }

// Total sums a map of counts.
func Total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// Keys lists a map's keys, most frequent first.
func Keys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

func (c Counts) filter(keep func(verb string) bool) map[string]int {
	out := map[string]int{}
	for k, v := range c.ByKind {
		if verb, _, _ := strings.Cut(k, " "); keep(verb) {
			out[k] = v
		}
	}
	return out
}

func isRead(verb string) bool { return verb == "GET" || verb == "LIST" }

// Verb is the request's verb as the API server names it (LIST for a GET of
// a collection).
func Verb(req *http.Request) string {
	if req.Method == http.MethodGet && isCollection(req.URL.Path) {
		return "LIST"
	}
	return req.Method
}

// Resource names what a path addresses: "deployments",
// "inferenceservices/status", "events".
func Resource(path string) string {
	parts := pathTail(path)
	if len(parts) == 0 {
		return path
	}
	switch len(parts) {
	case 1, 2:
		return parts[0]
	default:
		return parts[0] + "/" + parts[2]
	}
}

func isCollection(path string) bool { return len(pathTail(path)) == 1 }

// pathTail returns the path after the group version and namespace:
// [resource, name, subresource...].
func pathTail(path string) []string {
	p := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case len(p) >= 2 && p[0] == "api":
		p = p[2:]
	case len(p) >= 3 && p[0] == "apis":
		p = p[3:]
	default:
		return nil
	}
	if len(p) >= 3 && p[0] == "namespaces" {
		p = p[2:]
	}
	return p
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
