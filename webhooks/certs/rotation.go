package certs

import (
	"bytes"
	"encoding/pem"
	"net"
	"time"
)

// state is the PKI as stored in the Secret.
type state struct {
	CA *keyPair
	// NextCA is a CA already in the bundle but not yet signing: CA rotation
	// first spreads the new CA to every client, then switches the leaf.
	NextCA *keyPair
	Leaf   *keyPair
	// Bundle is every CA clients must trust, PEM, newest first.
	Bundle []byte
}

// policy is when to issue and renew.
type policy struct {
	DNSNames     []string
	IPs          []net.IP
	CAValidity   time.Duration
	CertValidity time.Duration
	RenewBefore  time.Duration
}

// next returns the state to move to at now and whether anything changed. A
// new CA joins the bundle first and signs only once the bundle carrying it has
// been injected (injected = true), so no client ever sees a leaf it cannot
// verify; a leaf is reissued from the same CA at once.
func next(cur state, p policy, now time.Time, injected bool) (state, bool, error) {
	s, changed := cur, false
	if s.CA == nil {
		ca, err := newCA(now, p.CAValidity)
		if err != nil {
			return cur, false, err
		}
		s = state{CA: ca, Bundle: ca.CertPEM}
		changed = true
	}
	if s.NextCA == nil && s.CA.expiresWithin(now, p.RenewBefore) {
		nextCA, err := newCA(now, p.CAValidity)
		if err != nil {
			return cur, false, err
		}
		s.NextCA = nextCA
		s.Bundle = joinPEM(nextCA.CertPEM, s.Bundle)
		return s, true, nil
	}
	if s.NextCA != nil && injected {
		s.CA, s.NextCA, s.Leaf = s.NextCA, nil, nil
		changed = true
	}
	if s.Leaf == nil || s.Leaf.expiresWithin(now, p.RenewBefore) || !s.Leaf.covers(p.DNSNames, p.IPs) || !verifies(s.Leaf, s.CA.CertPEM) {
		leaf, err := newLeaf(s.CA, p.DNSNames, p.IPs, now, p.CertValidity)
		if err != nil {
			return cur, false, err
		}
		s.Leaf = leaf
		changed = true
	}
	if pruned := pruneExpired(s.Bundle, now); !bytes.Equal(pruned, s.Bundle) {
		s.Bundle = pruned
		changed = true
	}
	return s, changed, nil
}

func joinPEM(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, bytes.TrimSpace(p)...)
		out = append(out, '\n')
	}
	return out
}

// pruneExpired drops CA certificates that have expired from the bundle.
func pruneExpired(bundle []byte, now time.Time) []byte {
	var kept [][]byte
	rest := bundle
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		enc := pem.EncodeToMemory(block)
		if kp, err := parseKeyPairCertOnly(enc); err == nil && now.After(kp.NotAfter) {
			continue
		}
		kept = append(kept, enc)
	}
	return joinPEM(kept...)
}
