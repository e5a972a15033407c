package devcluster

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// Jaeger's fixed ports when run with no arguments.
const (
	JaegerOTLPGRPCPort = 4317
	JaegerOTLPHTTPPort = 4318
	JaegerUIPort       = 16686
)

// JaegerUIURL is where the Jaeger UI and query API answer.
var JaegerUIURL = loopbackURL("http", JaegerUIPort)

const jaegerReadyTimeout = 60 * time.Second

// StartJaeger runs the cached Jaeger all-in-one (in-memory storage) next to
// the cluster and returns its OTLP/HTTP endpoint, http://127.0.0.1:4318. The
// UI is at JaegerUIURL. Stop stops it with the rest.
func (c *Cluster) StartJaeger(ctx context.Context) (string, error) {
	bin := c.opts.Binaries.Jaeger
	if !isExecutable(bin) {
		return "", fmt.Errorf("jaeger binary %s is missing; run `go run ./hack/ensure-assets --jaeger` (about 8 minutes, once)", bin)
	}
	for _, port := range []int{JaegerOTLPGRPCPort, JaegerOTLPHTTPPort, JaegerUIPort} {
		if err := checkPortFree(port); err != nil {
			return "", fmt.Errorf("cannot start Jaeger: %w (another Jaeger or fsmserve dev --jaeger running?)", err)
		}
	}
	if err := os.MkdirAll(c.opts.LogDir, 0o755); err != nil {
		return "", fmt.Errorf("creating log dir %s: %w", c.opts.LogDir, err)
	}
	// Jaeger traces its own query service into its own OTLP receiver, which
	// shuts down first; without a short export timeout every stop waits 10 s.
	p, err := c.launch(BinJaeger, bin, nil, []string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=500"})
	if err != nil {
		return "", err
	}
	services := JaegerUIURL + "/api/services"
	// The query API starts before the OTLP receivers: wait for both.
	err = waitFor(ctx, "Jaeger to answer "+services+" and accept OTLP", jaegerReadyTimeout, []*process{p}, func(ctx context.Context) (bool, error) {
		if _, err := httpGet(ctx, http.DefaultClient, services); err != nil {
			return false, err
		}
		for _, port := range []int{JaegerOTLPHTTPPort, JaegerOTLPGRPCPort} {
			if err := checkListening(ctx, port); err != nil {
				return false, err
			}
		}
		return true, nil
	})
	if err != nil {
		return "", err
	}
	return loopbackURL("http", JaegerOTLPHTTPPort), nil
}

func checkPortFree(port int) error {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("port %d is in use: %w", port, err)
	}
	return l.Close()
}

func checkListening(ctx context.Context, port int) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	return conn.Close()
}
