// Package certs gives fsmserve's webhook server its serving certificate when
// no cert-manager provides one: a CA and a leaf certificate kept in a Secret
// (so replicas and restarts share them), served from memory (so rotation is a
// pointer swap and never drops a connection), with the CA injected into the
// webhook configurations and everything renewed well before expiry.
package certs

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"time"
)

// keyPair is a certificate and its key, in PEM and parsed.
type keyPair struct {
	CertPEM, KeyPEM []byte
	Cert            *x509.Certificate
	Key             *ecdsa.PrivateKey
}

// newCA makes a self-signed CA valid from now for validity.
func newCA(now time.Time, validity time.Duration) (*keyPair, error) {
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: "fsmserve-webhook-ca", Organization: []string{"fsmserve"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(validity),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	return sign(tmpl, nil)
}

// newLeaf makes a serving certificate for the names and IPs, signed by ca.
func newLeaf(ca *keyPair, dnsNames []string, ips []net.IP, now time.Time, validity time.Duration) (*keyPair, error) {
	cn := "fsmserve-webhook"
	if len(dnsNames) > 0 {
		cn = dnsNames[0]
	}
	tmpl := &x509.Certificate{
		Subject:     pkix.Name{CommonName: cn},
		DNSNames:    dnsNames,
		IPAddresses: ips,
		NotBefore:   now.Add(-time.Hour),
		NotAfter:    now.Add(validity),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	return sign(tmpl, ca)
}

func sign(tmpl *x509.Certificate, parent *keyPair) (*keyPair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 126))
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	parentCert, parentKey := tmpl, key
	if parent != nil {
		parentCert, parentKey = parent.Cert, parent.Key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parentCert, &key.PublicKey, parentKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &keyPair{
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		Cert:    cert, Key: key,
	}, nil
}

// parseKeyPair reads a PEM certificate and EC key.
func parseKeyPair(certPEM, keyPEM []byte) (*keyPair, error) {
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, errors.New("not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, err
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, err
	}
	return &keyPair{CertPEM: certPEM, KeyPEM: keyPEM, Cert: cert, Key: key}, nil
}

// tlsCertificate turns the leaf into what the TLS server serves.
func (k *keyPair) tlsCertificate() (*tls.Certificate, error) {
	c, err := tls.X509KeyPair(k.CertPEM, k.KeyPEM)
	if err != nil {
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	return &c, nil
}

// covers reports whether the certificate names every DNS name and IP.
func (k *keyPair) covers(dnsNames []string, ips []net.IP) bool {
	for _, n := range dnsNames {
		if k.Cert.VerifyHostname(n) != nil {
			return false
		}
	}
	for _, ip := range ips {
		if k.Cert.VerifyHostname(ip.String()) != nil {
			return false
		}
	}
	return true
}

// expiresWithin reports whether the certificate expires before now+d.
func (k *keyPair) expiresWithin(now time.Time, d time.Duration) bool {
	return !now.Add(d).Before(k.Cert.NotAfter)
}

// verifies reports whether the leaf chains to the CA.
func verifies(leaf *keyPair, caBundle []byte) bool {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caBundle) {
		return false
	}
	_, err := leaf.Cert.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, CurrentTime: leaf.Cert.NotBefore.Add(2 * time.Hour)})
	return err == nil
}
