package router

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

const defaultPort = 8080

// NewCommand returns the `router` command: the data plane of one
// InferenceGraph, run as its own Deployment.
func NewCommand() *cobra.Command {
	var (
		opts     Options
		port     int
		logLevel string
	)
	cmd := &cobra.Command{
		Use:   "router",
		Short: "Serve one InferenceGraph: route each request through its nodes and steps",
		Long: `Serve one InferenceGraph. Every request, whatever its method and path, enters
the node named "root"; /readyz answers the readiness probe and /metrics serves
Prometheus metrics. PROPAGATE_HEADERS (comma-separated Go regular expressions)
selects the inbound headers copied to every step; OTEL_EXPORTER_OTLP_ENDPOINT
turns on OTLP/HTTP tracing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SilenceUsage = true // from here on, errors are not about usage
			logger, err := newLogger(cmd.ErrOrStderr(), logLevel)
			if err != nil {
				return err
			}
			opts.Logger = logger
			opts.PropagateHeaders = os.Getenv(propagateHeadersEnv)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runCommand(ctx, opts, port)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.GraphJSON, "graph-json", "", "the InferenceGraph spec as JSON, with every serviceUrl resolved (required)")
	f.IntVar(&port, "port", defaultPort, "port to listen on")
	f.Int64Var(&opts.MaxRequestBytes, "max-request-bytes", defaultMaxRequestBytes, "largest request body accepted; larger ones get 413")
	f.Int64Var(&opts.MaxResponseBytes, "max-response-bytes", defaultMaxResponseBytes, "largest buffered response body of a step; larger ones fail the request with 413")
	f.IntVar(&opts.MaxIdleConnsPerHost, "max-idle-conns-per-host", defaultMaxIdleConnsPerHost, "idle connections kept per backend")
	f.BoolVar(&opts.StandardTransport, "standard-transport", false,
		"send every downstream call through net/http's Transport, without the router's fast path for plain-HTTP/1.1 calls")
	f.DurationVar(&opts.DrainPeriod, "drain-period", defaultDrainPeriod, "longest time to keep serving after SIGTERM while /readyz reports 503")
	f.DurationVar(&opts.DrainIdle, "drain-idle", defaultDrainIdle, "end the drain early once no request has been in flight for this long (0: as soon as none is)")
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error; steps are logged at debug")
	_ = cmd.MarkFlagRequired("graph-json") // the flag exists; this cannot fail
	return cmd
}

func runCommand(ctx context.Context, opts Options, port int) error {
	tp, shutdownTracing, err := newTracerProvider(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err := shutdownTracing(context.Background()); err != nil {
			opts.Logger.Warn("flushing spans failed", "error", err)
		}
	}()
	opts.TracerProvider = tp
	s, err := NewServer(opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return fmt.Errorf("--port %d: %w", port, err)
	}
	return run(ctx, s, ln)
}

// run serves on ln until ctx ends (SIGTERM or SIGINT in the command; a plain
// cancel in tests), then drains and shuts down.
func run(ctx context.Context, s *Server, ln net.Listener) error {
	log := s.opts.Logger
	log.Info("router listening", "address", ln.Addr().String(), "nodes", len(s.router.plan.nodes))
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutdown signal received; failing readiness and draining", "drainPeriod", s.opts.DrainPeriod.String(), "drainIdle", s.opts.DrainIdle.String())
	sctx, cancel := context.WithTimeout(context.Background(), s.shutdownGrace())
	defer cancel()
	err := s.Shutdown(sctx)
	if serveErr := <-served; err == nil {
		err = serveErr
	}
	if err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	log.Info("router stopped")
	return nil
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l})), nil
}
