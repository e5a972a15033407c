package config

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Source reads inferenceservice-config through a reader (the manager's
// namespace-filtered cache) and parses it once per resourceVersion, so every
// reconcile and admission request sees the current ConfigMap without paying
// for parsing it again.
type Source struct {
	Reader    client.Reader
	Namespace string

	mu   sync.Mutex
	rv   string
	cfg  *Config
	errs *Errors
}

// Load returns the current configuration and the keys that failed to parse. A
// missing ConfigMap means KServe's defaults.
func (s *Source) Load(ctx context.Context) (*Config, *Errors, error) {
	cm := &corev1.ConfigMap{}
	err := s.Reader.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: ConfigMapName}, cm)
	if apierrors.IsNotFound(err) {
		return Default(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg == nil || s.rv != cm.ResourceVersion {
		s.cfg, s.errs = FromConfigMap(cm)
		s.rv = cm.ResourceVersion
	}
	return s.cfg, s.errs, nil
}
