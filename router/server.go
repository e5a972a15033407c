package router

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Server timeouts when the graph's routerTimeouts does not set them (KServe's
// defaults), and the drain defaults.
const (
	defaultServerRead  = 60 * time.Second
	defaultServerWrite = 60 * time.Second
	defaultServerIdle  = 180 * time.Second
	defaultDrainPeriod = 30 * time.Second
	defaultDrainIdle   = time.Second
	drainPollInterval  = 50 * time.Millisecond
	readinessPath      = "/readyz"
	metricsPath        = "/metrics"
)

// Options configure a Server. Zero values take the defaults of the router
// command's flags.
type Options struct {
	// GraphJSON is the InferenceGraph spec with every serviceUrl resolved.
	GraphJSON string
	// PropagateHeaders is the PROPAGATE_HEADERS value: comma-separated Go
	// regular expressions matched against inbound header names.
	PropagateHeaders string
	// MaxRequestBytes and MaxResponseBytes bound buffered bodies (10 MiB).
	MaxRequestBytes  int64
	MaxResponseBytes int64
	// MaxIdleConnsPerHost sizes the pool of downstream connections (256).
	MaxIdleConnsPerHost int
	// StandardTransport turns the fast path for plain-HTTP/1.1 calls off, so
	// every downstream call goes through net/http's Transport (see
	// transport.go); for operators who suspect the fast path.
	StandardTransport bool
	// DrainPeriod is the longest time the server keeps serving after
	// Shutdown begins while /readyz reports 503 (30s). The drain ends early
	// once no request has been in flight for DrainIdle (1s).
	DrainPeriod time.Duration
	DrainIdle   time.Duration
	// Logger defaults to slog.Default(); TracerProvider to a no-op;
	// Registry to a new registry with the Go and process collectors.
	Logger         *slog.Logger
	TracerProvider trace.TracerProvider
	Registry       *prometheus.Registry
}

func (o *Options) setDefaults() {
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = defaultMaxRequestBytes
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = defaultMaxResponseBytes
	}
	if o.MaxIdleConnsPerHost <= 0 {
		o.MaxIdleConnsPerHost = defaultMaxIdleConnsPerHost
	}
	if o.DrainPeriod < 0 {
		o.DrainPeriod = 0
	}
	if o.DrainIdle < 0 {
		o.DrainIdle = 0
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.TracerProvider == nil {
		o.TracerProvider = noop.NewTracerProvider()
	}
	if o.Registry == nil {
		o.Registry = newRegistry()
	}
}

// Server is the InferenceGraph router: the graph handler on every path, plus
// /readyz and /metrics.
type Server struct {
	opts         Options
	router       *graphRouter
	transport    *transport
	http         *http.Server
	handler      http.Handler
	shuttingDown atomic.Bool
}

// NewServer parses the graph and builds a server ready to Serve.
func NewServer(opts Options) (*Server, error) {
	opts.setDefaults()
	g, err := parseGraph([]byte(opts.GraphJSON))
	if err != nil {
		return nil, err
	}
	for _, w := range g.warnings() {
		opts.Logger.Warn(w)
	}
	m, err := newMetrics(opts.Registry)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, transport: newTransport(opts.MaxIdleConnsPerHost, !opts.StandardTransport)}
	s.router = newGraphRouter(compilePlan(g, m), g, &s.opts, m, &http.Client{Transport: s.transport})
	metricsHandler := promhttp.HandlerFor(opts.Registry, promhttp.HandlerOpts{})
	s.handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case readinessPath:
			s.serveReadiness(w)
		case metricsPath:
			metricsHandler.ServeHTTP(w, r)
		default:
			s.router.ServeHTTP(w, r)
		}
	})
	s.http = newHTTPServer(g, s.handler, opts.Logger)
	return s, nil
}

func newHTTPServer(g *graphSpec, h http.Handler, log *slog.Logger) *http.Server {
	t := g.RouterTimeouts
	if t == nil {
		t = &routerTimeouts{}
	}
	return &http.Server{
		Handler:      h,
		ReadTimeout:  t.ServerRead.duration(defaultServerRead),
		WriteTimeout: t.ServerWrite.duration(defaultServerWrite),
		IdleTimeout:  t.ServerIdle.duration(defaultServerIdle),
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// Handler returns the server's whole handler (graph, /readyz, /metrics).
func (s *Server) Handler() http.Handler { return s.handler }

// Serve accepts connections on ln until Shutdown; it then returns nil.
func (s *Server) Serve(ln net.Listener) error {
	err := s.http.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

func (s *Server) serveReadiness(w http.ResponseWriter) {
	if s.shuttingDown.Load() {
		http.Error(w, "shutting down", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// Shutdown fails the readiness probe, keeps serving while load balancers
// notice (the drain), then stops accepting and waits for requests in flight
// until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shuttingDown.Store(true)
	began := time.Now()
	s.drain(ctx, began)
	s.opts.Logger.Info("drain finished; closing the server", "drained", time.Since(began).Round(time.Millisecond).String(), "inFlight", s.router.metrics.inFlight.Load())
	err := s.http.Shutdown(ctx)
	s.transport.CloseIdleConnections()
	return err
}

// drain waits up to DrainPeriod, ending early once nothing has been in flight
// for DrainIdle since the later of the last request and the start of drain.
func (s *Server) drain(ctx context.Context, began time.Time) {
	deadline := began.Add(s.opts.DrainPeriod)
	tick := time.NewTicker(drainPollInterval)
	defer tick.Stop()
	for {
		now := time.Now()
		if !now.Before(deadline) || s.idleSince(began, now) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (s *Server) idleSince(began, now time.Time) bool {
	if s.router.metrics.inFlight.Load() > 0 {
		return false
	}
	quietFrom := time.Unix(0, s.router.lastActivity.Load())
	if quietFrom.Before(began) {
		quietFrom = began
	}
	return now.Sub(quietFrom) >= s.opts.DrainIdle
}

// shutdownGrace bounds how long Shutdown waits for requests in flight: no
// response can outlive the server's write timeout anyway.
func (s *Server) shutdownGrace() time.Duration {
	grace := s.http.WriteTimeout
	if grace <= 0 {
		grace = defaultServerWrite
	}
	return s.opts.DrainPeriod + grace + 5*time.Second
}
