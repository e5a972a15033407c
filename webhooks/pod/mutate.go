package pod

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

// Inputs is everything Mutate needs besides the pod, already read from the
// cluster. The zero value is valid: default configuration, no storage
// containers, no InferenceService and no credentials.
type Inputs struct {
	// Config is inferenceservice-config; nil means the defaults.
	Config *config.Config
	// ConfigErrors are the ConfigMap keys that were rejected. A step that
	// needs one of them fails with the key's message rather than injecting
	// containers built from defaults the operator did not ask for.
	ConfigErrors *config.Errors
	// SystemNamespace is where the control plane runs; only there does the CA
	// bundle ConfigMap keep its configured name.
	SystemNamespace string
	// StorageContainers are the ClusterStorageContainers, in list order.
	StorageContainers []v1alpha1.ClusterStorageContainer
	// InferenceService owns the pod, when it could be read: its predictor's
	// logger settings override the logger config.
	InferenceService *v1beta1.InferenceService
	// StorageCredentials come from the pod's service account (or the secret
	// the pod's storage-secret-name annotation names).
	StorageCredentials credentials.Set
	// LoggerCredentials come from the service account of the logger's blob
	// storage; used only when the logger writes to storage.
	LoggerCredentials credentials.Set
	// StorageConfigSecret is the storage-spec secret (credentials
	// storageSpecSecretName, or the annotated one); nil when it does not exist.
	StorageConfigSecret *corev1.Secret
}

// step is one mutation; each is idempotent.
type step struct {
	name string
	run  func(*corev1.Pod, *Inputs) error
}

// steps run in KServe's order. The Istio step runs once more at the end so
// that the storage initializer the OCI fetch mode adds gets the same user ID
// on the first pass instead of on a reinvocation.
var steps = []step{
	{"GKE accelerator", injectGKEAccelerator},
	{"storage initializer", injectStorageInitializer},
	{"Istio CNI user", setIstioCNIUser},
	{"agent", injectAgent},
	{"metrics aggregation", injectMetricsAggregation},
	{"OCI model", injectOCIModel},
	{"Istio CNI user", setIstioCNIUser},
}

// Mutate applies every mutation to pod in place, using only what in holds.
// Running it again on its own output changes nothing.
func Mutate(pod *corev1.Pod, in Inputs) error {
	if pod == nil {
		return errors.New("no pod to mutate")
	}
	if in.Config == nil {
		in.Config = config.Default()
	}
	if in.SystemNamespace == "" {
		in.SystemNamespace = config.SystemNamespace()
	}
	for _, s := range steps {
		if err := s.run(pod, &in); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

// needKeys fails when one of the ConfigMap keys a step is about to use was
// rejected.
func (in *Inputs) needKeys(keys ...string) error {
	for _, k := range keys {
		if ke := in.ConfigErrors.For(k); ke != nil {
			return fmt.Errorf("cannot use the configuration: %w", ke)
		}
	}
	return nil
}
