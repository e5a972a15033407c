package inferenceservice

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/config"
)

// ConfigSource reads inferenceservice-config from the (namespace-filtered)
// cache and parses it once per resourceVersion, so every reconcile sees the
// current ConfigMap without paying for parsing it again.
type ConfigSource struct {
	Reader    client.Reader
	Namespace string

	mu   sync.Mutex
	rv   string
	cfg  *config.Config
	errs *config.Errors
}

// Load returns the current configuration and the keys that failed to parse. A
// missing ConfigMap means KServe's defaults.
func (s *ConfigSource) Load(ctx context.Context) (*config.Config, *config.Errors, error) {
	cm := &corev1.ConfigMap{}
	err := s.Reader.Get(ctx, client.ObjectKey{Namespace: s.Namespace, Name: config.ConfigMapName}, cm)
	if apierrors.IsNotFound(err) {
		return config.Default(), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg == nil || s.rv != cm.ResourceVersion {
		s.cfg, s.errs = config.FromConfigMap(cm)
		s.rv = cm.ResourceVersion
	}
	return s.cfg, s.errs, nil
}
