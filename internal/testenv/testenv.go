// Package testenv starts a real kube-apiserver and etcd (envtest) with
// fsmserve's CRDs installed, from the binaries built into the cache outside
// the clone (KUBEBUILDER_ASSETS, when set, wins).
package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/scheme"
)

// Env is a running API server with fsmserve's CRDs.
type Env struct {
	Config *rest.Config
	Client client.Client
	Scheme *runtime.Scheme
	env    *envtest.Environment
	crdDir string
}

// Options tune Start.
type Options struct {
	// WebhookInstall, when set, serves admission webhooks to the API server.
	WebhookInstall *envtest.WebhookInstallOptions
}

// Start starts the API server. Call Stop when done (TestMain is the usual place).
func Start(opts Options) (*Env, error) {
	assets, err := devcluster.EnvtestAssetsDir(context.Background(), os.Stderr)
	if err != nil {
		return nil, fmt.Errorf("envtest binaries: %w (build them with `go run ./hack/ensure-assets`)", err)
	}
	crdDir, err := writeCRDs()
	if err != nil {
		return nil, err
	}
	s := scheme.New()
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		// The InferenceService CRD takes the API server a few seconds to
		// serve; on a loaded two-core machine, longer than envtest's 10 s.
		CRDInstallOptions: envtest.CRDInstallOptions{Paths: []string{crdDir}, ErrorIfPathMissing: true,
			MaxTime: 2 * time.Minute, PollInterval: 200 * time.Millisecond},
		Scheme:                   s,
		ControlPlaneStartTimeout: 60 * time.Second,
		ControlPlaneStopTimeout:  30 * time.Second,
	}
	if opts.WebhookInstall != nil {
		env.WebhookInstallOptions = *opts.WebhookInstall
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("start envtest: %w", err)
	}
	c, err := client.New(cfg, client.Options{Scheme: s})
	if err != nil {
		_ = env.Stop()
		return nil, err
	}
	return &Env{Config: cfg, Client: c, Scheme: s, env: env, crdDir: crdDir}, nil
}

// writeCRDs writes the CRDs embedded in the binary to a scratch directory for
// envtest, so a test (or `fsmserve scenario run`) installs exactly the CRDs it
// was built with, with or without a checkout.
func writeCRDs() (string, error) {
	crds, err := config.CRDs()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "fsmserve-crds-")
	if err != nil {
		return "", err
	}
	for i, doc := range crds {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("crd-%02d.yaml", i)), doc, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// Stop stops the API server and etcd.
func (e *Env) Stop() error {
	defer os.RemoveAll(e.crdDir)
	return e.env.Stop()
}

// Environment exposes the underlying envtest environment (for webhook options).
func (e *Env) Environment() *envtest.Environment { return e.env }
