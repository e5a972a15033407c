package router

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
	"time"
)

// h1Conn is one keep-alive connection of the fast path. It carries one
// request at a time: from pool.get until its response body is done.
type h1Conn struct {
	pool *connPool
	key  string // host:port
	conn net.Conn
	// alive probes the connection while idle; see newProbe.
	alive func() bool
	br    *bufio.Reader // reads through limit, from conn
	bw    *bufio.Writer // writes through the conn, counting

	// limit bounds the response header bytes read from conn, as
	// http.Transport's MaxResponseHeaderBytes does; it is lifted for bodies.
	limit int64

	reused    bool  // served a request before this one
	written   int64 // bytes of the current request that reached the socket
	idleSince time.Time
	idleTimer *time.Timer

	// Cancellation of the current request: the context's AfterFunc sets
	// canceled and a past deadline, which interrupts any read or write.
	stop      func() bool
	canceled  atomic.Bool
	interrupt func()
}

var aLongTimeAgo = time.Unix(1, 0)

func newH1Conn(p *connPool, key string, conn net.Conn) *h1Conn {
	c := &h1Conn{pool: p, key: key, conn: conn}
	var raw syscall.RawConn
	if sc, ok := conn.(syscall.Conn); ok {
		raw, _ = sc.SyscallConn() // nil on error: the probe then fails and the connection is not reused
	}
	c.alive = newProbe(raw)
	c.br = bufio.NewReaderSize(connReader{c}, p.readBufferSize)
	c.bw = bufio.NewWriterSize(connWriter{c}, p.writeBufferSize)
	c.interrupt = func() {
		c.canceled.Store(true)
		_ = c.conn.SetDeadline(aLongTimeAgo) // wakes a blocked read or write; the connection is not reused
	}
	return c
}

type connReader struct{ c *h1Conn }

func (r connReader) Read(p []byte) (int, error) {
	c := r.c
	if c.limit <= 0 {
		return 0, fmt.Errorf("read limit of %d bytes exhausted", c.pool.maxHeaderBytes)
	}
	if int64(len(p)) > c.limit {
		p = p[:c.limit]
	}
	n, err := c.conn.Read(p)
	c.limit -= int64(n)
	return n, err
}

type connWriter struct{ c *h1Conn }

func (w connWriter) Write(p []byte) (int, error) {
	n, err := w.c.conn.Write(p)
	w.c.written += int64(n)
	return n, err
}

// roundTrip writes req and reads the response head. The connection belongs
// to the response body from then on, and returns to the pool when the body
// has been read to its end.
func (c *h1Conn) roundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	c.stop = context.AfterFunc(ctx, c.interrupt)
	c.written = 0
	err := req.Write(c.bw) // closes the request body
	if err == nil {
		err = c.bw.Flush()
	}
	if err != nil {
		return nil, c.fail(ctx, err, c.written > 0)
	}
	resp, err := c.readResponse(req)
	if err != nil {
		return nil, c.fail(ctx, err, false)
	}
	switch {
	case resp.StatusCode == http.StatusSwitchingProtocols:
		// The connection now speaks another protocol; the caller owns it.
		c.stop()
		resp.Body = switchedBody{c.br, c.conn}
	case resp.Body == http.NoBody:
		c.release(resp.Close || req.Close)
	default:
		resp.Body = &h1Body{c: c, ctx: ctx, body: resp.Body, closeAfter: resp.Close || req.Close}
	}
	return resp, nil
}

// readResponse reads the final response head, skipping interim 1xx ones.
func (c *h1Conn) readResponse(req *http.Request) (*http.Response, error) {
	c.limit = c.pool.maxHeaderBytes
	for {
		// A connection that ends before the first byte fails with io.EOF,
		// as with http.Transport; http.ReadResponse would say "unexpected".
		if _, err := c.br.Peek(1); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(c.br, req)
		if err != nil {
			if c.limit <= 0 {
				err = fmt.Errorf("net/http: server response headers exceeded %d bytes; aborted", c.pool.maxHeaderBytes)
			}
			return nil, err
		}
		if resp.StatusCode >= 100 && resp.StatusCode <= 199 && resp.StatusCode != http.StatusSwitchingProtocols {
			continue // informational; the limit covers all heads together
		}
		c.limit = 1<<63 - 1
		return resp, nil
	}
}

// fail closes the connection after a failed exchange and returns the error
// the caller sees: the context's cause when it was cancelled, as with
// http.Transport.
func (c *h1Conn) fail(ctx context.Context, err error, partial bool) error {
	c.stop()
	c.close()
	if c.canceled.Load() {
		return context.Cause(ctx)
	}
	if partial {
		return fmt.Errorf("net/http: HTTP/1.x transport connection broken: %w", err)
	}
	return err
}

// release ends the current exchange, pooling the connection unless it must
// close: the server or the request asked to, the context fired, or bytes
// beyond the response arrived (the next response would be misread).
func (c *h1Conn) release(mustClose bool) {
	if !c.stop() || mustClose || c.br.Buffered() > 0 {
		c.close()
		return
	}
	c.reused = true
	c.pool.put(c)
}

func (c *h1Conn) close() {
	_ = c.conn.Close() // nothing can be done about a failed close
	if c.idleTimer != nil {
		c.idleTimer.Stop()
	}
}

// h1Body is a response body of the fast path. Reaching its end returns the
// connection to the pool; closing it earlier closes the connection, as
// http.Transport does, rather than reading a body nobody wants.
type h1Body struct {
	c          *h1Conn
	ctx        context.Context
	body       io.ReadCloser // http.ReadResponse's, reading from c.br
	closeAfter bool
	// state leaves bodyOpen once; from then on the connection is no longer
	// this body's and body is never read again.
	state atomic.Int32
	err   error // the read error that ended the body, for later reads
}

const (
	bodyOpen int32 = iota
	bodyEOF
	bodyFailed
	bodyClosed
)

var errBodyClosed = errors.New("http: read on closed response body")

func (b *h1Body) Read(p []byte) (int, error) {
	switch b.state.Load() {
	case bodyEOF:
		return 0, io.EOF
	case bodyFailed:
		return 0, b.err
	case bodyClosed:
		return 0, errBodyClosed
	}
	n, err := b.body.Read(p)
	if err == nil {
		return n, nil
	}
	if err == io.EOF {
		if b.state.CompareAndSwap(bodyOpen, bodyEOF) {
			b.c.release(b.closeAfter)
		}
		return n, io.EOF
	}
	if b.c.canceled.Load() {
		err = context.Cause(b.ctx) // as http.Transport reports it
	}
	b.err = err
	if b.state.CompareAndSwap(bodyOpen, bodyFailed) {
		b.c.stop()
		b.c.close()
	}
	return n, err
}

func (b *h1Body) Close() error {
	if b.state.CompareAndSwap(bodyOpen, bodyClosed) {
		b.c.stop()
		b.c.close()
	}
	return nil
}

// switchedBody hands a connection that switched protocols to the caller.
type switchedBody struct {
	br   *bufio.Reader
	conn net.Conn
}

func (s switchedBody) Read(p []byte) (int, error) { return s.br.Read(p) }
func (s switchedBody) Close() error               { return s.conn.Close() }
