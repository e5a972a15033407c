package certs

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// certificateExpiry lets an alert fire long before the webhook certificate
// expires, the failure mode behind "x509: certificate signed by unknown
// authority" outages.
var certificateExpiry = prometheus.NewGauge(prometheus.GaugeOpts{
	Name: "fsmserve_webhook_certificate_expiry_timestamp_seconds",
	Help: "When the webhook serving certificate expires (Unix time).",
})

func init() { metrics.Registry.MustRegister(certificateExpiry) }
