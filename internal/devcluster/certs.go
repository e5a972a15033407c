package devcluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is what the control plane needs to trust itself and its admin.
type pki struct {
	caCert, caKey           []byte // PEM; also the kube-root-ca and the CSR signer
	servingCert, servingKey []byte // PEM; kube-apiserver's serving pair
	serviceAccountKey       []byte // PEM RSA private key signing service account tokens
	adminToken              string
}

// Names in the apiserver's --cert-dir: with these present, kube-apiserver
// serves them instead of generating its own self-signed pair, so the CA is
// known before it starts.
const (
	servingCertName = "apiserver.crt"
	servingKeyName  = "apiserver.key"
)

func newPKI() (*pki, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating CA key: %w", err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          randomSerial(),
		Subject:               pkix.Name{CommonName: "fsmserve-dev-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(1, 0, 0),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("creating CA certificate: %w", err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	servingCert, servingKey, err := newServingCert(ca, caKey, now)
	if err != nil {
		return nil, err
	}
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("generating service account key: %w", err)
	}
	token := make([]byte, 24)
	if _, err := rand.Read(token); err != nil {
		return nil, fmt.Errorf("generating admin token: %w", err)
	}
	caKeyPEM, err := ecKeyPEM(caKey)
	if err != nil {
		return nil, err
	}
	return &pki{
		caCert:            pemBlock("CERTIFICATE", caDER),
		caKey:             caKeyPEM,
		servingCert:       servingCert,
		servingKey:        servingKey,
		serviceAccountKey: pemBlock("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(saKey)),
		adminToken:        hex.EncodeToString(token),
	}, nil
}

// newServingCert issues kube-apiserver's certificate for every name a client
// inside or outside the cluster may use.
func newServingCert(ca *x509.Certificate, caKey *ecdsa.PrivateKey, now time.Time) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generating serving key: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: randomSerial(),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(1, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
			"kubernetes.default.svc.cluster.local"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, nil, fmt.Errorf("creating serving certificate: %w", err)
	}
	keyPEM, err = ecKeyPEM(key)
	if err != nil {
		return nil, nil, err
	}
	return pemBlock("CERTIFICATE", der), keyPEM, nil
}

func ecKeyPEM(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encoding EC key: %w", err)
	}
	return pemBlock("EC PRIVATE KEY", der), nil
}

func pemBlock(kind string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
}

func randomSerial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// tokenFileLine is the admin's line in kube-apiserver's --token-auth-file:
// token,user,uid,"groups". system:masters bypasses RBAC.
func tokenFileLine(token string) string {
	return fmt.Sprintf("%s,%s,%s,\"system:masters\"\n", token, adminUser, adminUser)
}

const adminUser = "fsmserve-admin"

// write stores the PKI under l with owner-only permissions for the keys.
func (p *pki) write(l layout) error {
	files := []struct {
		path string
		data []byte
		mode os.FileMode
	}{
		{l.caCert, p.caCert, 0o644},
		{l.caKey, p.caKey, 0o600},
		{filepath.Join(l.certDir, servingCertName), p.servingCert, 0o644},
		{filepath.Join(l.certDir, servingKeyName), p.servingKey, 0o600},
		{l.serviceAccountKey, p.serviceAccountKey, 0o600},
		{l.tokenFile, []byte(tokenFileLine(p.adminToken)), 0o600},
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, f.data, f.mode); err != nil {
			return fmt.Errorf("writing %s: %w", f.path, err)
		}
	}
	return nil
}
