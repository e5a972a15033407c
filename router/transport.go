package router

import (
	"context"
	"net"
	"net/http"
	"net/http/httptrace"
	"time"
)

const defaultMaxIdleConnsPerHost = 256

// fastPathMaxBody bounds the request bodies the fast path sends. It writes a
// whole request before reading the answer; a body this small fits the socket
// buffers, so the write cannot stall on a server that answers before reading.
const fastPathMaxBody = 64 << 10

// transport is the round tripper of every downstream call: an
// http.Transport, plus a faster path for the calls a router makes nearly
// always, plain-HTTP/1.1 requests to a backend reached without a proxy.
//
// http.Transport serves each connection with two goroutines, one writing
// requests and one reading responses, and hands every request and response
// between them and the caller over channels; on a one-hop graph that is about
// a tenth of the router's CPU. The fast path writes the request and reads the
// response on the caller's goroutine, over its own pool of keep-alive
// connections, with http.Request.Write and http.ReadResponse. Whatever it
// does not handle (https, proxies, Expect: 100-continue, Connection or
// Upgrade headers, large bodies...) goes to the embedded http.Transport with
// the same settings, and http.Client above both still follows redirects.
type transport struct {
	*http.Transport
	pool *connPool // nil when the platform cannot probe idle connections
}

// newTransport returns the one transport every downstream call shares. Go's
// default keeps two idle connections per host, so a busy graph would re-dial
// (and strand ports in TIME_WAIT) on most calls; here the idle pool is sized
// for the concurrency a router sees. Deadlines come from request contexts,
// so the client itself has no timeout.
//
// fast enables the fast path (where the platform can probe idle connections).
func newTransport(maxIdlePerHost int, fast bool) *transport {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t := &transport{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * maxIdlePerHost,
		MaxIdleConnsPerHost:   maxIdlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		// Bodies are passed on as the backend sent them; transparent gzip
		// would also hide their length and make every reply look streamed.
		DisableCompression: true,
		ReadBufferSize:     16 << 10,
		WriteBufferSize:    16 << 10,
	}}
	if fast && canProbe {
		t.pool = newConnPool(t.Transport)
	}
	return t
}

// RoundTrip sends the request on the fast path when it can, else through
// http.Transport.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	key, ok := t.fastKey(req)
	if !ok {
		return t.Transport.RoundTrip(req)
	}
	for {
		c, err := t.pool.get(req.Context(), key)
		if err != nil {
			closeRequestBody(req)
			if req.Context().Err() != nil {
				err = context.Cause(req.Context()) // as http.Transport reports a cancelled dial
			}
			return nil, err
		}
		resp, err := c.roundTrip(req)
		if err == nil {
			return resp, nil
		}
		// As http.Transport does: a reused connection that failed before
		// any byte of the request left was closed by the server while
		// idle, so the request goes again on another connection.
		if !c.reused || c.written > 0 || req.GetBody == nil || req.Context().Err() != nil {
			return nil, err
		}
		body, berr := req.GetBody()
		if berr != nil {
			return nil, err
		}
		retry := *req
		retry.Body = body
		req = &retry
	}
}

// CloseIdleConnections closes the idle connections of both paths.
func (t *transport) CloseIdleConnections() {
	t.Transport.CloseIdleConnections()
	if t.pool != nil {
		t.pool.closeIdle()
	}
}

// fastKey returns the host:port the fast path would connect to, and whether
// the request qualifies for it.
func (t *transport) fastKey(req *http.Request) (string, bool) {
	u := req.URL
	if t.pool == nil || u == nil || u.Scheme != "http" || u.Host == "" || req.Close || req.Cancel != nil ||
		len(req.TransferEncoding) > 0 || req.ContentLength < 0 || req.ContentLength > fastPathMaxBody ||
		(req.ContentLength == 0 && req.Body != nil && req.Body != http.NoBody) {
		return "", false
	}
	for _, name := range fallbackHeaders {
		if _, ok := req.Header[name]; ok {
			return "", false
		}
	}
	if httptrace.ContextClientTrace(req.Context()) != nil {
		return "", false // the hooks are http.Transport's to call
	}
	if t.Proxy != nil {
		if proxy, err := t.Proxy(req); proxy != nil || err != nil {
			return "", false
		}
	}
	for i := 0; i < len(u.Host); i++ {
		if u.Host[i] >= 0x80 {
			return "", false // http.Transport converts the name to ASCII
		}
	}
	if u.Port() != "" {
		return u.Host, true
	}
	return net.JoinHostPort(u.Hostname(), "80"), true
}

// fallbackHeaders change how a request travels on its connection; requests
// that carry one go through http.Transport.
var fallbackHeaders = []string{"Connection", "Expect", "Upgrade", "Te", "Transfer-Encoding", "Proxy-Connection", "Keep-Alive"}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close() // the request failed already; its body's close error adds nothing
	}
}
