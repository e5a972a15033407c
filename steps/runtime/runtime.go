// Package runtime chooses the serving runtime for a predictor, as KServe does:
// an explicit model.runtime (a namespaced ServingRuntime shadows a
// ClusterServingRuntime of the same name), or auto-selection by model format,
// version, protocol, autoSelect and priority. It is pure: the caller lists the
// runtimes.
package runtime

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

// Failure reasons, as KServe writes them in modelStatus.lastFailureInfo.reason.
const (
	ReasonRuntimeNotRecognized = "RuntimeNotRecognized"
	ReasonRuntimeDisabled      = "RuntimeDisabled"
	ReasonNoSupportingRuntime  = "NoSupportingRuntime"
)

// Runtime is a candidate runtime, namespaced or cluster-wide.
type Runtime struct {
	Name string
	// Cluster is true for a ClusterServingRuntime.
	Cluster     bool
	Spec        *v1alpha1.ServingRuntimeSpec
	Annotations map[string]string
	Created     metav1.Time
}

// FromServingRuntimes wraps namespaced runtimes.
func FromServingRuntimes(list []v1alpha1.ServingRuntime) []Runtime {
	out := make([]Runtime, 0, len(list))
	for i := range list {
		sr := &list[i]
		out = append(out, Runtime{Name: sr.Name, Spec: &sr.Spec, Annotations: sr.Annotations, Created: sr.CreationTimestamp})
	}
	return out
}

// FromClusterServingRuntimes wraps cluster runtimes.
func FromClusterServingRuntimes(list []v1alpha1.ClusterServingRuntime) []Runtime {
	out := make([]Runtime, 0, len(list))
	for i := range list {
		csr := &list[i]
		out = append(out, Runtime{Name: csr.Name, Cluster: true, Spec: &csr.Spec, Annotations: csr.Annotations, Created: csr.CreationTimestamp})
	}
	return out
}

// Request is what a predictor asks of a runtime.
type Request struct {
	// Runtime is model.runtime; "" selects automatically.
	Runtime string
	// Format and Version of the model.
	Format  string
	Version string
	// Protocol is protocolVersion; "" is matched as v1 during auto-selection.
	Protocol string
	// MultiNode is true when the predictor has a workerSpec.
	MultiNode bool
}

// Failure says why no runtime could be used, in KServe's words.
type Failure struct {
	Reason  string
	Message string
	// Detail names the runtime and what to do, for the lifecycle message.
	Detail string
}

func (f *Failure) Error() string { return f.Detail }
