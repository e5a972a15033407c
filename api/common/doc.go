// Package common holds the status types shared by every fsmserve kind: KServe's
// duck-typed conditions (wire-compatible with knative.dev/pkg/apis duck v1, so the
// KServe SDK, dashboards and `kubectl wait --for=condition=Ready` read them
// unchanged) and the lifecycle block that shows a kind's state machine.
//
// +kubebuilder:object:generate=true
package common
