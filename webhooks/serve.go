package webhooks

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/webhooks/certs"
	isvcwebhook "github.com/fsmserve/fsmserve/webhooks/inferenceservice"
	lmwebhook "github.com/fsmserve/fsmserve/webhooks/localmodel"
	"github.com/fsmserve/fsmserve/webhooks/pod"
)

// +kubebuilder:rbac:groups=admissionregistration.k8s.io,resources=mutatingwebhookconfigurations;validatingwebhookconfigurations,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups="",namespace=kserve,resources=secrets,verbs=create
// +kubebuilder:rbac:groups="",namespace=kserve,resources=secrets,resourceNames=fsmserve-webhook-server-cert,verbs=get;list;watch;update
// +kubebuilder:rbac:groups="",resources=serviceaccounts;secrets,verbs=get
// +kubebuilder:rbac:groups=serving.kserve.io,resources=clusterstoragecontainers,verbs=get;list;watch

// SecretName keeps the self-managed webhook PKI in the system namespace.
const SecretName = "fsmserve-webhook-server-cert"

// ServeOptions choose where the webhook server listens and where its
// certificate comes from.
type ServeOptions struct {
	SystemNamespace string
	Host            string
	Port            int
	// CertDir, when it holds tls.crt and tls.key (mounted from cert-manager),
	// makes the server use those files; otherwise fsmserve manages its own.
	CertDir string
	// DNSNames and IPs the self-managed certificate covers; the in-cluster
	// Service names are added.
	DNSNames []string
	IPs      []net.IP
}

// NewServer builds the webhook server and, when fsmserve manages the
// certificate, the certificate manager that must run beside it (add it to the
// manager and to its readiness checks).
func NewServer(cfg *rest.Config, o ServeOptions) (webhook.Server, *certs.Manager, error) {
	if externalCerts(o.CertDir) {
		return webhook.NewServer(webhook.Options{Host: o.Host, Port: o.Port, CertDir: o.CertDir}), nil, nil
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return nil, nil, err
	}
	mutating, validating := ConfigurationNames(o.SystemNamespace)
	svc := ServiceName + "." + o.SystemNamespace + ".svc"
	objects, err := certificateCache(cfg, o.SystemNamespace)
	if err != nil {
		return nil, nil, err
	}
	cm := certs.New(c, certs.Options{
		Namespace: o.SystemNamespace, SecretName: SecretName,
		DNSNames: append([]string{svc, svc + ".cluster.local"}, o.DNSNames...), IPs: o.IPs,
		MutatingWebhooks: mutating, ValidatingWebhooks: validating, Cache: objects,
	})
	srv := webhook.NewServer(webhook.Options{Host: o.Host, Port: o.Port, TLSOpts: []func(*tls.Config){cm.TLSOpt}})
	return srv, cm, nil
}

// certificateCache holds what the certificate manager reads: its one Secret
// (no other Secret is cached) and the webhook configurations (a handful in
// any cluster). Watching them makes the manager's checks free while nothing
// changes, and immediate when someone reinstalls a configuration.
func certificateCache(cfg *rest.Config, namespace string) (cache.Cache, error) {
	return cache.New(cfg, cache.Options{Scheme: scheme.New(), ByObject: map[client.Object]cache.ByObject{
		&corev1.Secret{}: {Namespaces: map[string]cache.Config{namespace: {}},
			Field: fields.OneTermEqualSelector("metadata.name", SecretName)},
		&admissionregistrationv1.MutatingWebhookConfiguration{}:   {},
		&admissionregistrationv1.ValidatingWebhookConfiguration{}: {},
	}})
}

func externalCerts(dir string) bool {
	if dir == "" {
		return false
	}
	_, errCrt := os.Stat(filepath.Join(dir, "tls.crt"))
	_, errKey := os.Stat(filepath.Join(dir, "tls.key"))
	return errCrt == nil && errKey == nil
}

// Register adds every admission handler to the manager's webhook server and
// its readiness to the manager's readyz: not ready until the server serves
// and, when self-managed, its CA is injected.
func Register(mgr ctrl.Manager, systemNamespace string, cm *certs.Manager) error {
	src := &config.Source{Reader: mgr.GetClient(), Namespace: systemNamespace}
	loader := isvcwebhook.ConfigLoader(src.Load)
	srv := mgr.GetWebhookServer()
	s := mgr.GetScheme()
	srv.Register(PathISVCDefaulter, admission.WithDefaulter[*v1beta1.InferenceService](s, &isvcwebhook.Defaulter{Config: loader,
		LocalModelLabeler: &lmwebhook.Labeler{Client: mgr.GetClient(), Config: lmwebhook.ConfigLoader(src.Load)}}))
	srv.Register(PathISVCValidator, admission.WithValidator[*v1beta1.InferenceService](s,
		&isvcwebhook.Validator{Config: loader, Capabilities: isvcwebhook.CurrentCapabilities()}))
	reader := credentialReader{cache: mgr.GetClient(), api: mgr.GetAPIReader()}
	srv.Register(PathPodMutator, &webhook.Admission{Handler: &pod.Mutator{Reader: reader, Config: pod.ConfigLoader(src.Load), SystemNamespace: systemNamespace}})
	registerValidators(mgr, src)
	lmwebhook.Register(srv, s, mgr.GetAPIReader(), PathLMCValidator, PathLMNCValidator)
	if err := mgr.AddReadyzCheck("webhook-server", srv.StartedChecker()); err != nil {
		return err
	}
	if cm != nil {
		if err := mgr.Add(cm); err != nil {
			return err
		}
		if err := mgr.AddReadyzCheck("webhook-certificate", cm.Ready); err != nil {
			return fmt.Errorf("readiness: %w", err)
		}
	}
	return nil
}

// WaitServing blocks until the certificate is issued and injected and the
// server at addr completes a TLS handshake trusting that CA: the point from
// which the API server's admission calls succeed.
func WaitServing(ctx context.Context, cm *certs.Manager, addr string) error {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		err := servingCheck(ctx, cm, addr)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("webhook server at %s not serving: %w", addr, err)
		case <-t.C:
		}
	}
}

func servingCheck(ctx context.Context, cm *certs.Manager, addr string) error {
	cfg := &tls.Config{InsecureSkipVerify: true} // external certificates: any handshake will do
	if cm != nil {
		if err := cm.Ready(nil); err != nil {
			return err
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(cm.CABundle())
		host, _, _ := net.SplitHostPort(addr)
		cfg = &tls.Config{RootCAs: pool, ServerName: host}
	}
	d := &tls.Dialer{NetDialer: &net.Dialer{Timeout: time.Second}, Config: cfg}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return conn.Close()
}
