package certs

import (
	"crypto/x509"
	"encoding/pem"
	"errors"

	corev1 "k8s.io/api/core/v1"
)

// Secret keys. tls.crt/tls.key/ca.crt follow cert-manager's layout so tools
// that read serving Secrets find them where they expect.
const (
	keyCACert     = "ca.crt"
	keyCAKey      = "ca.key"
	keyCACurrent  = "ca-current.crt"
	keyNextCACert = "ca-next.crt"
	keyNextCAKey  = "ca-next.key"
	keyTLSCert    = "tls.crt"
	keyTLSKey     = "tls.key"
)

// fromSecret reads the state; missing or corrupt parts come back nil so they
// are reissued.
func fromSecret(sec *corev1.Secret) state {
	if sec == nil {
		return state{}
	}
	d := sec.Data
	var s state
	s.CA, _ = parseKeyPair(d[keyCACurrent], d[keyCAKey])
	if s.CA == nil {
		return state{}
	}
	s.NextCA, _ = parseKeyPair(d[keyNextCACert], d[keyNextCAKey])
	s.Leaf, _ = parseKeyPair(d[keyTLSCert], d[keyTLSKey])
	s.Bundle = d[keyCACert]
	if len(s.Bundle) == 0 {
		s.Bundle = s.CA.CertPEM
	}
	return s
}

// toSecretData writes the state.
func toSecretData(s state) map[string][]byte {
	d := map[string][]byte{
		keyCACert: s.Bundle, keyCACurrent: s.CA.CertPEM, keyCAKey: s.CA.KeyPEM,
		keyTLSCert: s.Leaf.CertPEM, keyTLSKey: s.Leaf.KeyPEM,
	}
	if s.NextCA != nil {
		d[keyNextCACert], d[keyNextCAKey] = s.NextCA.CertPEM, s.NextCA.KeyPEM
	}
	return d
}

func parseKeyPairCertOnly(certPEM []byte) (*x509.Certificate, error) {
	b, _ := pem.Decode(certPEM)
	if b == nil {
		return nil, errors.New("not PEM")
	}
	return x509.ParseCertificate(b.Bytes)
}

// nextPEM skips one PEM block, reporting whether there was one.
func nextPEM(b []byte) ([]byte, bool) {
	block, rest := pem.Decode(b)
	return rest, block != nil
}
