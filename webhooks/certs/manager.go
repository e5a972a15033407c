package certs

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Options configure the certificate manager.
type Options struct {
	// Namespace and SecretName locate the Secret that keeps the PKI.
	Namespace, SecretName string
	// DNSNames and IPs the serving certificate must cover.
	DNSNames []string
	IPs      []net.IP
	// MutatingWebhooks and ValidatingWebhooks name the configurations whose
	// caBundle this manager keeps current.
	MutatingWebhooks, ValidatingWebhooks  []string
	CAValidity, CertValidity, RenewBefore time.Duration
	// Interval between checks of expiry and of the injected caBundle.
	Interval time.Duration
	Clock    clock.WithTicker
	// Cache, when set, is where the Secret and the webhook configurations
	// are read: Start starts it and checks again on every change it sees,
	// so the periodic check costs no request while nothing changes. Without
	// it (tests, one-off Ensure calls) reads go to the client.
	Cache cache.Cache
}

func (o *Options) defaults() {
	if o.CAValidity == 0 {
		o.CAValidity = 10 * 365 * 24 * time.Hour
	}
	if o.CertValidity == 0 {
		o.CertValidity = 90 * 24 * time.Hour
	}
	if o.RenewBefore == 0 {
		o.RenewBefore = 30 * 24 * time.Hour
	}
	if o.Interval == 0 {
		o.Interval = 10 * time.Second
	}
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
}

// Manager issues, serves, injects and renews the webhook certificate.
type Manager struct {
	client  client.Client
	reader  client.Reader
	wake    chan struct{}
	opts    Options
	serving atomic.Pointer[tls.Certificate]
	mu      sync.Mutex
	state   state
	// injected is true once every configuration carries the current bundle.
	injected atomic.Bool
}

// New returns a manager; call Ensure (or run it) before serving.
func New(c client.Client, o Options) *Manager {
	o.defaults()
	m := &Manager{client: c, reader: c, opts: o, wake: make(chan struct{}, 1)}
	if o.Cache != nil {
		m.reader = o.Cache
	}
	return m
}

// TLSOpt makes the webhook server serve the managed certificate from memory.
func (m *Manager) TLSOpt(cfg *tls.Config) { cfg.GetCertificate = m.getCertificate }

func (m *Manager) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	if c := m.serving.Load(); c != nil {
		return c, nil
	}
	return nil, errors.New("the webhook serving certificate is not issued yet")
}

// CABundle returns the CA bundle clients must trust.
func (m *Manager) CABundle() []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]byte(nil), m.state.Bundle...)
}

// Ensure brings the Secret, the served certificate and the injected bundle up
// to date once. Safe to call from several replicas: the Secret write uses
// optimistic locking and a loser re-reads.
func (m *Manager) Ensure(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	sec, err := m.readSecret(ctx)
	if err != nil {
		return err
	}
	cur := fromSecret(sec)
	s, changed, err := next(cur, m.policy(), m.opts.Clock.Now(), m.injected.Load() && bytes.Equal(cur.Bundle, m.state.Bundle))
	if err != nil {
		return fmt.Errorf("issue webhook certificate: %w", err)
	}
	if changed {
		if err := m.writeSecret(ctx, sec, s); err != nil {
			return err
		}
		log.FromContext(ctx).Info("webhook certificate issued", "notAfter", s.Leaf.Cert.NotAfter, "caRotating", s.NextCA != nil)
	}
	if !bytes.Equal(s.Bundle, m.state.Bundle) {
		m.injected.Store(false)
	}
	m.state = s
	certificateExpiry.Set(float64(s.Leaf.Cert.NotAfter.Unix()))
	if err := m.inject(ctx, s.Bundle); err != nil {
		return err
	}
	m.injected.Store(true)
	tc, err := s.Leaf.tlsCertificate()
	if err != nil {
		return err
	}
	m.serving.Store(tc)
	return nil
}

func (m *Manager) policy() policy {
	return policy{DNSNames: m.opts.DNSNames, IPs: m.opts.IPs, CAValidity: m.opts.CAValidity,
		CertValidity: m.opts.CertValidity, RenewBefore: m.opts.RenewBefore}
}

func (m *Manager) readSecret(ctx context.Context) (*corev1.Secret, error) {
	sec := &corev1.Secret{}
	err := m.reader.Get(ctx, client.ObjectKey{Namespace: m.opts.Namespace, Name: m.opts.SecretName}, sec)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return sec, err
}

func (m *Manager) writeSecret(ctx context.Context, existing *corev1.Secret, s state) error {
	if existing == nil {
		sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: m.opts.Namespace, Name: m.opts.SecretName,
			Labels: map[string]string{"app.kubernetes.io/managed-by": "fsmserve"}}, Type: corev1.SecretTypeOpaque, Data: toSecretData(s)}
		return m.client.Create(ctx, sec)
	}
	existing.Data = toSecretData(s)
	return m.client.Update(ctx, existing)
}

// inject writes the bundle into every webhook of the named configurations.
func (m *Manager) inject(ctx context.Context, bundle []byte) error {
	for _, name := range m.opts.MutatingWebhooks {
		cfg := &admissionregistrationv1.MutatingWebhookConfiguration{}
		if err := m.reader.Get(ctx, client.ObjectKey{Name: name}, cfg); err != nil {
			return fmt.Errorf("mutating webhook configuration %s: %w", name, err)
		}
		changed := false
		for i := range cfg.Webhooks {
			changed = setBundle(&cfg.Webhooks[i].ClientConfig, bundle) || changed
		}
		if changed {
			if err := m.client.Update(ctx, cfg); err != nil {
				return err
			}
		}
	}
	for _, name := range m.opts.ValidatingWebhooks {
		cfg := &admissionregistrationv1.ValidatingWebhookConfiguration{}
		if err := m.reader.Get(ctx, client.ObjectKey{Name: name}, cfg); err != nil {
			return fmt.Errorf("validating webhook configuration %s: %w", name, err)
		}
		changed := false
		for i := range cfg.Webhooks {
			changed = setBundle(&cfg.Webhooks[i].ClientConfig, bundle) || changed
		}
		if changed {
			if err := m.client.Update(ctx, cfg); err != nil {
				return err
			}
		}
	}
	return nil
}

func setBundle(cc *admissionregistrationv1.WebhookClientConfig, bundle []byte) bool {
	if bytes.Equal(cc.CABundle, bundle) {
		return false
	}
	cc.CABundle = bundle
	return true
}

// Start keeps everything current until ctx ends: renewal before expiry and
// re-injection when someone reinstalls the configurations.
func (m *Manager) Start(ctx context.Context) error {
	if err := m.startCache(ctx); err != nil {
		return err
	}
	t := m.opts.Clock.NewTicker(m.opts.Interval)
	defer t.Stop()
	for {
		if err := m.Ensure(ctx); err != nil && ctx.Err() == nil {
			log.FromContext(ctx).Error(err, "webhook certificate not current; retrying")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C():
		case <-m.wake:
		}
	}
}

// startCache starts the cache, wakes the loop on every change of the
// objects it holds, and waits until it has them.
func (m *Manager) startCache(ctx context.Context) error {
	if m.opts.Cache == nil {
		return nil
	}
	wake := toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { m.poke() },
		UpdateFunc: func(any, any) { m.poke() },
		DeleteFunc: func(any) { m.poke() },
	}
	for _, obj := range []client.Object{&corev1.Secret{}, &admissionregistrationv1.MutatingWebhookConfiguration{}, &admissionregistrationv1.ValidatingWebhookConfiguration{}} {
		inf, err := m.opts.Cache.GetInformer(ctx, obj)
		if err != nil {
			return err
		}
		if _, err := inf.AddEventHandler(wake); err != nil {
			return err
		}
	}
	go func() { _ = m.opts.Cache.Start(ctx) }()
	if !m.opts.Cache.WaitForCacheSync(ctx) {
		return errors.New("the webhook certificate cache did not sync")
	}
	return nil
}

func (m *Manager) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// NeedLeaderElection is false: every replica serves webhooks.
func (m *Manager) NeedLeaderElection() bool { return false }

// Ready reports ready once a certificate is served and its CA injected.
func (m *Manager) Ready(*http.Request) error {
	if m.serving.Load() == nil || !m.injected.Load() {
		return errors.New("webhook certificate not yet issued and injected")
	}
	return nil
}
