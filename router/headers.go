package router

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"
)

// propagateHeadersEnv names the environment variable the controller fills with
// the inferenceservice-config router.headers.propagate list.
const propagateHeadersEnv = "PROPAGATE_HEADERS"

// neverPropagated are inbound headers that are not copied even when a pattern
// matches: the trace context belongs to the propagator (a copied traceparent
// would make every step a sibling of the caller's span instead of a child of
// the router's), and hop-by-hop headers describe the inbound connection only.
var neverPropagated = map[string]bool{
	"Traceparent":        true,
	"Tracestate":         true,
	"Connection":         true,
	"Keep-Alive":         true,
	"Proxy-Connection":   true,
	"Proxy-Authenticate": true,
	"Te":                 true,
	"Trailer":            true,
	"Transfer-Encoding":  true,
	"Upgrade":            true,
	"Content-Length":     true,
	"Host":               true,
}

var jsonContentType = []string{"application/json"}

// headerPolicy selects the inbound headers every downstream call carries.
type headerPolicy struct {
	patterns []*regexp.Regexp
}

// compileHeaderPolicy parses the comma-separated Go regular expressions of
// PROPAGATE_HEADERS. As in KServe, a pattern that does not compile is logged
// and skipped, and the others still apply. Empty entries are ignored (KServe
// would compile "" into a pattern that matches every header).
func compileHeaderPolicy(value string, log *slog.Logger) headerPolicy {
	var p headerPolicy
	for _, raw := range strings.Split(value, ",") {
		pattern := strings.TrimSpace(raw)
		if pattern == "" {
			continue
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			log.Error("skipping a header pattern that does not compile", "env", propagateHeadersEnv, "pattern", pattern, "error", err)
			continue
		}
		p.patterns = append(p.patterns, re)
	}
	return p
}

// selectHeaders returns the inbound headers to propagate. A header is copied,
// with all its values, when its canonical name matches any pattern anywhere
// (unanchored, as KServe does: "Authorization" also matches
// "X-Authorization-Foo"). It runs once per request, not once per step.
func (p headerPolicy) selectHeaders(in http.Header) http.Header {
	if len(p.patterns) == 0 {
		return nil
	}
	var out http.Header
	for name, values := range in {
		if neverPropagated[name] || !p.matches(name) {
			continue
		}
		if out == nil {
			out = make(http.Header, 4)
		}
		out[name] = values
	}
	return out
}

func (p headerPolicy) matches(name string) bool {
	for _, re := range p.patterns {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// defaultCallHeaders are the headers of a call when nothing is propagated
// and no trace context is sent. They are shared by every such call: neither
// http.Client nor the transport modifies a request's headers.
var defaultCallHeaders = http.Header{"Content-Type": jsonContentType}

// sharedCallHeaders returns the headers that every call of one request can
// share when none of them carries a trace context: built once per request
// rather than once per call, or none at all when nothing is propagated.
func sharedCallHeaders(selected http.Header) http.Header {
	if selected == nil {
		return defaultCallHeaders
	}
	return outgoingHeaders(selected)
}

// outgoingHeaders builds the header map of one downstream call. Value slices
// are shared with the inbound request; nothing downstream modifies them.
func outgoingHeaders(selected http.Header) http.Header {
	h := make(http.Header, len(selected)+2)
	for name, values := range selected {
		h[name] = values
	}
	if _, ok := h["Content-Type"]; !ok {
		h["Content-Type"] = jsonContentType
	}
	return h
}
