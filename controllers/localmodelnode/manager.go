package localmodelnode

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// ManagerOptions are the process-level settings of an agent's manager.
type ManagerOptions struct {
	NodeName        string
	JobNamespace    string
	SystemNamespace string
	// MetricsAddr and HealthAddr serve metrics and probes; "0" or "" disables.
	MetricsAddr string
	HealthAddr  string
}

// NewManager builds an agent's manager. Its caches hold only what one node
// needs: its own LocalModelNode, its download Jobs in the job namespace, and
// inferenceservice-config, so an agent on every node costs the API server
// little.
func NewManager(cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error) {
	orZero := func(s string) string {
		if s == "" {
			return "0"
		}
		return s
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme.New(),
		Cache: cache.Options{ByObject: map[client.Object]cache.ByObject{
			&v1alpha1.LocalModelNode{}: {Field: fields.OneTermEqualSelector("metadata.name", o.NodeName)},
			&batchv1.Job{}:             {Namespaces: map[string]cache.Config{o.JobNamespace: {}}, Label: localmodel.NodeJobSelector(o.NodeName)},
			&corev1.Pod{}:              {Namespaces: map[string]cache.Config{o.JobNamespace: {}}, Label: localmodel.NodeJobSelector(o.NodeName)},
			&corev1.ConfigMap{}:        {Namespaces: map[string]cache.Config{o.SystemNamespace: {}}},
		}},
		Metrics:                metricsserver.Options{BindAddress: orZero(o.MetricsAddr)},
		HealthProbeBindAddress: orZero(o.HealthAddr),
	})
	if err != nil {
		return nil, err
	}
	if orZero(o.HealthAddr) != "0" {
		if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
			return nil, err
		}
		if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
			return nil, err
		}
	}
	return mgr, nil
}

// JobNamespaceFromConfig reads localModel.jobNamespace from
// inferenceservice-config once, at start: the agent's Job cache is scoped to
// it. A missing ConfigMap means the default.
func JobNamespaceFromConfig(ctx context.Context, cfg *rest.Config, systemNamespace string) (string, error) {
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return "", err
	}
	cm := &corev1.ConfigMap{}
	err = c.Get(ctx, client.ObjectKey{Namespace: systemNamespace, Name: config.ConfigMapName}, cm)
	if apierrors.IsNotFound(err) {
		return config.DefaultLocalModelJobNamespace, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s/%s for localModel.jobNamespace: %w", systemNamespace, config.ConfigMapName, err)
	}
	parsed, _ := config.FromConfigMap(cm)
	return parsed.LocalModel.JobNamespace, nil
}

// PrepareModelsRoot checks the models root and creates its models folder, as
// KServe's agent does. A root that does not exist is refused: on a real node
// it means the DaemonSet's hostPath is not mounted where the agent looks, the
// mismatch that otherwise shows up as download Jobs that never leave a folder.
func PrepareModelsRoot(root string) error {
	info, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("models root %s does not exist: mount the node's model directory there (the DaemonSet's hostPath) or pass --models-root", root)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("models root %s is not a directory", root)
	}
	return os.MkdirAll(localmodel.ModelsDir(root), 0o755)
}
