package certs

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

func fixture(t *testing.T) (client.Client, *clocktesting.FakeClock, Options) {
	t.Helper()
	s := runtime.NewScheme()
	_ = corev1.AddToScheme(s)
	_ = admissionregistrationv1.AddToScheme(s)
	mut := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "mut"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{Name: "a.example.com"}, {Name: "b.example.com"}}}
	val := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "val"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{Name: "c.example.com"}}}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(mut, val).Build()
	clk := clocktesting.NewFakeClock(epoch)
	return c, clk, Options{Namespace: "kserve", SecretName: "fsmserve-webhook-cert", DNSNames: []string{"localhost"},
		IPs: []net.IP{net.ParseIP("127.0.0.1")}, MutatingWebhooks: []string{"mut"}, ValidatingWebhooks: []string{"val"},
		CertValidity: 48 * time.Hour, RenewBefore: 24 * time.Hour, Clock: clk}
}

func TestEnsureIssuesStoresInjectsAndServes(t *testing.T) {
	c, _, o := fixture(t)
	m := New(c, o)
	if m.Ready(nil) == nil {
		t.Fatal("not ready before a certificate is issued")
	}
	if err := m.Ensure(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := m.Ready(nil); err != nil {
		t.Fatalf("ready after Ensure: %v", err)
	}
	sec := &corev1.Secret{}
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "kserve", Name: "fsmserve-webhook-cert"}, sec); err != nil {
		t.Fatal(err)
	}
	mut := &admissionregistrationv1.MutatingWebhookConfiguration{}
	_ = c.Get(context.Background(), client.ObjectKey{Name: "mut"}, mut)
	for _, w := range mut.Webhooks {
		if string(w.ClientConfig.CABundle) != string(sec.Data["ca.crt"]) {
			t.Fatalf("webhook %s has no caBundle", w.Name)
		}
	}
	replica := New(c, o)
	if err := replica.Ensure(context.Background()); err != nil {
		t.Fatal(err)
	}
	a, _ := m.getCertificate(nil)
	b, _ := replica.getCertificate(nil)
	if string(a.Certificate[0]) != string(b.Certificate[0]) {
		t.Fatal("a second replica (or a restart) serves the certificate kept in the Secret")
	}
}

func TestEnsureRestoresAnOverwrittenBundle(t *testing.T) {
	c, _, o := fixture(t)
	m := New(c, o)
	ctx := context.Background()
	if err := m.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	val := &admissionregistrationv1.ValidatingWebhookConfiguration{}
	_ = c.Get(ctx, client.ObjectKey{Name: "val"}, val)
	val.Webhooks[0].ClientConfig.CABundle = nil // a reinstall of the manifests
	if err := c.Update(ctx, val); err != nil {
		t.Fatal(err)
	}
	if err := m.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	_ = c.Get(ctx, client.ObjectKey{Name: "val"}, val)
	if len(val.Webhooks[0].ClientConfig.CABundle) == 0 {
		t.Fatal("the caBundle is injected again")
	}
}

func TestMissingConfigurationIsNotReady(t *testing.T) {
	c, _, o := fixture(t)
	o.ValidatingWebhooks = append(o.ValidatingWebhooks, "absent")
	m := New(c, o)
	if err := m.Ensure(context.Background()); err == nil {
		t.Fatal("Ensure fails while a configuration to inject is missing")
	}
	if m.Ready(nil) == nil {
		t.Fatal("not ready until the bundle is injected everywhere")
	}
}

// TestRotationDropsNoRequest rotates the serving certificate several times
// while a client keeps opening new TLS connections; every request succeeds.
func TestRotationDropsNoRequest(t *testing.T) {
	c, clk, o := fixture(t)
	// TLS clients check the real time, so the fake clock starts now and
	// certificates are short-lived enough to renew on every small step.
	clk.SetTime(time.Now())
	o.CertValidity, o.RenewBefore = 2*time.Hour, 2*time.Hour-time.Minute
	m := New(c, o)
	ctx := context.Background()
	if err := m.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	// Serve exactly as the webhook server does: a TLS config whose only
	// certificate source is the manager.
	cfg := &tls.Config{}
	m.TLSOpt(cfg)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }), ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = server.Serve(ln) }()
	defer server.Close()
	url := "https://" + ln.Addr().String()

	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(m.CABundle())
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}, Timeout: 5 * time.Second}
	var ok, failed atomic.Int64
	var mu sync.Mutex
	serials := map[string]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			resp, err := hc.Get(url)
			if err != nil {
				if failed.Add(1) == 1 {
					t.Logf("first failure: %v", err)
				}
				continue
			}
			mu.Lock()
			serials[resp.TLS.PeerCertificates[0].SerialNumber.String()] = true
			mu.Unlock()
			resp.Body.Close()
			ok.Add(1)
		}
	}()
	for i := 0; i < 3; i++ {
		time.Sleep(100 * time.Millisecond)
		clk.Step(2 * time.Minute) // within RenewBefore of expiry: renewed

		if err := m.Ensure(ctx); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()
	if failed.Load() != 0 {
		t.Fatalf("%d of %d requests failed during rotation", failed.Load(), failed.Load()+ok.Load())
	}
	if len(serials) < 3 {
		t.Fatalf("want the rotated certificates served, saw %d distinct serials", len(serials))
	}
	t.Logf("%d requests across %d certificates, none failed", ok.Load(), len(serials))
}
