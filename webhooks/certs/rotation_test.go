package certs

import (
	"net"
	"testing"
	"time"
)

var (
	epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pol   = policy{DNSNames: []string{"fsmserve-webhook.kserve.svc"}, IPs: []net.IP{net.ParseIP("127.0.0.1")},
		CAValidity: 365 * 24 * time.Hour, CertValidity: 90 * 24 * time.Hour, RenewBefore: 30 * 24 * time.Hour}
)

func mustNext(t *testing.T, s state, p policy, now time.Time, injected bool) (state, bool) {
	t.Helper()
	out, changed, err := next(s, p, now, injected)
	if err != nil {
		t.Fatal(err)
	}
	return out, changed
}

func TestIssueFromNothingAndKeep(t *testing.T) {
	s, changed := mustNext(t, state{}, pol, epoch, false)
	if !changed || s.CA == nil || s.Leaf == nil || !verifies(s.Leaf, s.Bundle) {
		t.Fatal("a fresh state issues a CA and a leaf that chains to the bundle")
	}
	if !s.Leaf.covers(pol.DNSNames, pol.IPs) {
		t.Fatal("the leaf covers the service name and the IP")
	}
	again, changed := mustNext(t, s, pol, epoch.Add(24*time.Hour), true)
	if changed || again.Leaf.Cert.SerialNumber.Cmp(s.Leaf.Cert.SerialNumber) != 0 {
		t.Fatal("nothing is reissued while the certificate is fresh")
	}
}

func TestLeafRenewedBeforeExpiryWithTheSameCA(t *testing.T) {
	s, _ := mustNext(t, state{}, pol, epoch, false)
	later := epoch.Add(pol.CertValidity - pol.RenewBefore + time.Hour)
	renewed, changed := mustNext(t, s, pol, later, true)
	if !changed || renewed.Leaf.Cert.SerialNumber.Cmp(s.Leaf.Cert.SerialNumber) == 0 {
		t.Fatal("the leaf is renewed within RenewBefore of its expiry")
	}
	if string(renewed.Bundle) != string(s.Bundle) || !verifies(renewed.Leaf, s.Bundle) {
		t.Fatal("a leaf renewal keeps the CA, so clients need no new bundle")
	}
}

func TestNewNameReissuesTheLeaf(t *testing.T) {
	s, _ := mustNext(t, state{}, pol, epoch, false)
	p := pol
	p.DNSNames = append(p.DNSNames, "fsmserve-webhook.kserve.svc.cluster.local")
	renewed, changed := mustNext(t, s, p, epoch, true)
	if !changed || !renewed.Leaf.covers(p.DNSNames, p.IPs) {
		t.Fatal("a leaf that does not cover a required name is reissued")
	}
}

func TestCARotationSpreadsTheNewCABeforeUsingIt(t *testing.T) {
	s, _ := mustNext(t, state{}, pol, epoch, false)
	nearCAExpiry := epoch.Add(pol.CAValidity - pol.RenewBefore + time.Hour)
	phaseA, changed := mustNext(t, s, pol, nearCAExpiry, true)
	if !changed || phaseA.NextCA == nil {
		t.Fatal("near CA expiry a next CA is created")
	}
	if phaseA.Leaf.Cert.SerialNumber.Cmp(s.Leaf.Cert.SerialNumber) != 0 {
		t.Fatal("the leaf does not change until the new CA has been injected")
	}
	if !verifies(s.Leaf, phaseA.Bundle) || !verifies(mustLeaf(t, phaseA.NextCA), phaseA.Bundle) {
		t.Fatal("the bundle trusts both the old and the next CA")
	}
	notYet, _ := mustNext(t, phaseA, pol, nearCAExpiry, false)
	if notYet.NextCA == nil {
		t.Fatal("without injection the next CA is not promoted")
	}
	phaseB, changed := mustNext(t, phaseA, pol, nearCAExpiry, true)
	if !changed || phaseB.NextCA != nil || phaseB.CA.Cert.SerialNumber.Cmp(phaseA.NextCA.Cert.SerialNumber) != 0 {
		t.Fatal("after injection the next CA becomes the signing CA")
	}
	if !verifies(phaseB.Leaf, phaseB.Bundle) || !verifies(phaseB.Leaf, phaseA.Bundle) {
		t.Fatal("the new leaf verifies against the bundle clients already have")
	}
}

func TestExpiredCAsArePruned(t *testing.T) {
	s, _ := mustNext(t, state{}, pol, epoch, false)
	a, _ := mustNext(t, s, pol, epoch.Add(pol.CAValidity-pol.RenewBefore+time.Hour), true)
	b, _ := mustNext(t, a, pol, epoch.Add(pol.CAValidity-pol.RenewBefore+time.Hour), true)
	pruned, changed := mustNext(t, b, pol, epoch.Add(pol.CAValidity+time.Hour), true)
	if !changed || countCerts(pruned.Bundle) != 1 {
		t.Fatalf("the expired CA leaves the bundle, got %d certificates", countCerts(pruned.Bundle))
	}
}

func mustLeaf(t *testing.T, ca *keyPair) *keyPair {
	t.Helper()
	l, err := newLeaf(ca, pol.DNSNames, pol.IPs, ca.Cert.NotBefore.Add(time.Hour), pol.CertValidity)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func countCerts(bundle []byte) int {
	n := 0
	for rest := bundle; ; {
		var ok bool
		if rest, ok = nextPEM(rest); !ok {
			return n
		}
		n++
	}
}
