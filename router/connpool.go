package router

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// connPool keeps the fast path's idle connections, by host:port, within the
// limits of the http.Transport it stands beside: MaxIdleConnsPerHost,
// MaxIdleConns and IdleConnTimeout.
type connPool struct {
	dial            func(ctx context.Context, network, addr string) (net.Conn, error)
	maxIdlePerHost  int
	maxIdle         int
	idleTimeout     time.Duration
	maxHeaderBytes  int64
	readBufferSize  int
	writeBufferSize int

	mu    sync.Mutex
	idle  map[string][]*h1Conn // most recently used last
	nIdle int
}

func newConnPool(t *http.Transport) *connPool {
	p := &connPool{
		dial:            t.DialContext,
		maxIdlePerHost:  t.MaxIdleConnsPerHost,
		maxIdle:         t.MaxIdleConns,
		idleTimeout:     t.IdleConnTimeout,
		maxHeaderBytes:  t.MaxResponseHeaderBytes,
		readBufferSize:  t.ReadBufferSize,
		writeBufferSize: t.WriteBufferSize,
		idle:            map[string][]*h1Conn{},
	}
	if p.dial == nil {
		p.dial = (&net.Dialer{}).DialContext
	}
	if p.maxIdlePerHost <= 0 {
		p.maxIdlePerHost = http.DefaultMaxIdleConnsPerHost
	}
	if p.maxHeaderBytes <= 0 {
		p.maxHeaderBytes = 10 << 20 // http.Transport's default
	}
	return p
}

// get returns a live idle connection to key, or a new one. The most recently
// used connection goes first: it is the least likely to have been closed by
// the server, and the others can then expire.
func (p *connPool) get(ctx context.Context, key string) (*h1Conn, error) {
	for {
		c := p.takeIdle(key)
		if c == nil {
			break
		}
		// http.Transport learns at once that a server closed an idle
		// connection, from the goroutine it keeps reading each one; the
		// fast path looks just before reuse instead.
		if (p.idleTimeout <= 0 || time.Since(c.idleSince) < p.idleTimeout) && c.alive() {
			return c, nil
		}
		c.close()
	}
	conn, err := p.dial(ctx, "tcp", key)
	if err != nil {
		return nil, err
	}
	return newH1Conn(p, key, conn), nil
}

func (p *connPool) takeIdle(key string) *h1Conn {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := p.idle[key]
	if len(list) == 0 {
		return nil
	}
	c := list[len(list)-1]
	list[len(list)-1] = nil
	p.idle[key] = list[:len(list)-1]
	p.nIdle--
	return c
}

// put keeps a connection whose exchange ended cleanly, or closes it when the
// pool is full. The idle timer is armed under the lock: once the connection
// is in the list, another request may take it.
func (p *connPool) put(c *h1Conn) {
	c.idleSince = time.Now()
	p.mu.Lock()
	list := p.idle[c.key]
	if len(list) >= p.maxIdlePerHost || (p.maxIdle > 0 && p.nIdle >= p.maxIdle) {
		p.mu.Unlock()
		c.close()
		return
	}
	p.idle[c.key] = append(list, c)
	p.nIdle++
	if p.idleTimeout > 0 {
		if c.idleTimer == nil {
			c.idleTimer = time.AfterFunc(p.idleTimeout, func() { p.expire(c) })
		} else {
			c.idleTimer.Reset(p.idleTimeout)
		}
	}
	p.mu.Unlock()
}

// expire closes a connection left idle for the idle timeout. A connection
// taken since is left alone: its next put re-arms the timer.
func (p *connPool) expire(c *h1Conn) {
	p.mu.Lock()
	list := p.idle[c.key]
	for i, idle := range list {
		if idle == c && time.Since(c.idleSince) >= p.idleTimeout {
			p.idle[c.key] = append(list[:i], list[i+1:]...)
			p.nIdle--
			p.mu.Unlock()
			_ = c.conn.Close() // nothing can be done about a failed close
			return
		}
	}
	p.mu.Unlock()
}

// closeIdle closes every idle connection; those in use are pooled again
// when their exchange ends, as with http.Transport.
func (p *connPool) closeIdle() {
	p.mu.Lock()
	var all []*h1Conn
	for key, list := range p.idle {
		all = append(all, list...)
		delete(p.idle, key)
	}
	p.nIdle = 0
	p.mu.Unlock()
	for _, c := range all {
		c.close()
	}
}
