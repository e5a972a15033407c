package router

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
)

// A downstream response is passed through unbuffered when it is the last step
// of the root's execution and it looks like a stream: server-sent events, or a
// body of unknown length (chunked). Everything else is buffered, within limits.
func isStreaming(resp *http.Response) bool {
	return resp.ContentLength < 0 || isEventStream(resp.Header.Get("Content-Type"))
}

// isEventStream reports whether a Content-Type is text/event-stream, with or
// without parameters, without the allocations of a full media type parse.
func isEventStream(contentType string) bool {
	const eventStream = "text/event-stream"
	ct := strings.TrimSpace(contentType)
	if len(ct) < len(eventStream) || !strings.EqualFold(ct[:len(eventStream)], eventStream) {
		return false
	}
	rest := strings.TrimSpace(ct[len(eventStream):])
	return rest == "" || rest[0] == ';'
}

// stream is a downstream response whose body has not been read yet. The
// contexts and spans of the steps that produced it stay open until close.
type stream struct {
	resp   *http.Response
	onDone []func()
}

// deferUntilDone runs f when the reply's body is consumed: now for a buffered
// reply, after the copy for a stream.
func (r *reply) deferUntilDone(f func()) {
	if r.stream == nil {
		f()
		return
	}
	r.stream.onDone = append(r.stream.onDone, f)
}

func (s *stream) close() {
	_ = s.resp.Body.Close() // the body has been read or abandoned; its close error says nothing new
	for i := len(s.onDone) - 1; i >= 0; i-- {
		s.onDone[i]()
	}
}

var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// errStreamBroken means the downstream stream failed after the response
// headers were sent; the only honest signal left is to abort the connection.
var errStreamBroken = errors.New("downstream stream broken")

// copyStream sends a streaming reply to the client, flushing after every read
// so each event reaches the client as soon as the backend produced it.
func copyStream(w http.ResponseWriter, rep reply) error {
	resp := rep.stream.resp
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "" {
		w.Header().Set("Cache-Control", cc)
	}
	w.WriteHeader(rep.status)
	rc := http.NewResponseController(w)
	bufp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bufp)
	buf := *bufp
	for {
		n, readErr := resp.Body.Read(buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return err // the client went away
			}
			if err := rc.Flush(); err != nil {
				return err
			}
		}
		if readErr == io.EOF {
			return nil
		}
		if readErr != nil {
			return errors.Join(errStreamBroken, readErr)
		}
	}
}
