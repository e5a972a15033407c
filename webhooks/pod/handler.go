package pod

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// ConfigLoader returns the current inferenceservice-config and the keys of
// it that were rejected; an error means it could not be read at all.
type ConfigLoader func(ctx context.Context) (*config.Config, *config.Errors, error)

// Mutator is the admission handler for pods of InferenceServices.
type Mutator struct {
	// Reader reads ServiceAccounts, Secrets, ClusterStorageContainers,
	// InferenceServices and, when Config is nil, the ConfigMap. It should
	// not be a cache: a pod is often created right after its secrets.
	Reader client.Reader
	// Config loads the configuration; nil reads inferenceservice-config
	// from SystemNamespace with Reader on every request.
	Config ConfigLoader
	// SystemNamespace is the control plane's namespace; "" means
	// config.SystemNamespace().
	SystemNamespace string
}

var _ admission.Handler = (*Mutator)(nil)

// Handle mutates the pod in the request and answers with a JSON patch, or
// with no patch when nothing changes (a pod that is not an InferenceService's,
// or a reinvocation on a pod already mutated).
func (m *Mutator) Handle(ctx context.Context, req admission.Request) admission.Response {
	if len(req.Object.Raw) == 0 {
		return admission.Allowed("no pod in the request")
	}
	pod := &corev1.Pod{}
	if err := json.Unmarshal(req.Object.Raw, pod); err != nil {
		return admission.Errored(http.StatusBadRequest, fmt.Errorf("decode the pod: %w", err))
	}
	if _, ok := pod.Labels[v1beta1.InferenceServiceLabel]; !ok {
		return admission.Allowed("not the pod of an InferenceService")
	}
	original := pod.DeepCopy()
	// Pods created by a controller arrive without a namespace; the steps need
	// it, the patch must not carry it.
	if pod.Namespace == "" {
		pod.Namespace = req.Namespace
	}
	if err := m.Mutate(ctx, pod); err != nil {
		logf.FromContext(ctx).Info("pod mutation refused", "namespace", pod.Namespace, "inferenceService", pod.Labels[v1beta1.InferenceServiceLabel], "reason", err.Error())
		var re *readError
		if errors.As(err, &re) {
			return admission.Errored(http.StatusInternalServerError, err)
		}
		return admission.Errored(http.StatusBadRequest, err)
	}
	pod.Namespace = original.Namespace
	if equality.Semantic.DeepEqual(original, pod) {
		return admission.Allowed("")
	}
	current, err := json.Marshal(pod)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, fmt.Errorf("encode the mutated pod: %w", err))
	}
	return admission.PatchResponseFromRaw(req.Object.Raw, current)
}

// Mutate reads what the pod needs and mutates it in place. pod.Namespace
// must be set.
func (m *Mutator) Mutate(ctx context.Context, pod *corev1.Pod) error {
	if m.Reader == nil {
		return &readError{errors.New("the pod mutator has no Reader; set Mutator.Reader")}
	}
	cfg, cfgErrs, err := m.loadConfig(ctx)
	if err != nil {
		return &readError{fmt.Errorf("read %s: %w", config.ConfigMapName, err)}
	}
	in := Inputs{Config: cfg, ConfigErrors: cfgErrs, SystemNamespace: m.systemNamespace()}
	if err := m.read(ctx, pod, &in); err != nil {
		return &readError{err}
	}
	return Mutate(pod, in)
}

func (m *Mutator) systemNamespace() string {
	if m.SystemNamespace != "" {
		return m.SystemNamespace
	}
	return config.SystemNamespace()
}

func (m *Mutator) loadConfig(ctx context.Context) (*config.Config, *config.Errors, error) {
	if m.Config != nil {
		cfg, errs, err := m.Config(ctx)
		if err == nil && cfg == nil {
			cfg = config.Default()
		}
		return cfg, errs, err
	}
	return ConfigMapLoader(m.Reader, m.systemNamespace())(ctx)
}

// ConfigMapLoader reads and parses inferenceservice-config from namespace on
// every call; a missing ConfigMap means the defaults.
func ConfigMapLoader(r client.Reader, namespace string) ConfigLoader {
	return func(ctx context.Context) (*config.Config, *config.Errors, error) {
		cm := &corev1.ConfigMap{}
		err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: config.ConfigMapName}, cm)
		if client.IgnoreNotFound(err) != nil {
			return nil, nil, err
		}
		if err != nil {
			cm = nil
		}
		cfg, errs := config.FromConfigMap(cm)
		return cfg, errs, nil
	}
}

// readError marks a failure to read from the API server, as opposed to a pod
// or configuration the user has to fix.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }
