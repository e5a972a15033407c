package scenariohost

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/podfault"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/scenarios/runner"
	"github.com/fsmserve/fsmserve/webhooks"
)

// startLive is the live host: a cluster where fsmserve already runs, with
// its own Deployment and Job controllers and nodes. The runner starts no
// controllers and installs nothing; it drives the stories through the API
// server as a user would, on the cluster's real clock. Admission is on when
// fsmserve's InferenceService webhook configuration is installed.
func startLive(ctx context.Context, o Options) (*Host, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
	if err != nil {
		return nil, err
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return nil, err
	}
	admission, err := servesAdmission(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("the cluster in %s: %w", o.Kubeconfig, err)
	}
	faults, err := nodesPlayFaults(ctx, c)
	if err != nil {
		return nil, err
	}
	h := &Host{Config: cfg}
	h.Harness = &runner.Harness{Client: c, SystemNamespace: config.SystemNamespace(), Progress: o.Progress,
		Host: runner.Host{Name: "live", Live: true, Admission: admission, PodFaults: faults}}
	return h, nil
}

// nodesPlayFaults reports whether the cluster's nodes play fsmserve's pod
// faults (the dev cluster marks its kwok nodes so).
func nodesPlayFaults(ctx context.Context, c client.Client) (bool, error) {
	nodes := &corev1.NodeList{}
	if err := c.List(ctx, nodes, client.MatchingLabels{podfault.NodeLabel: "true"}, client.Limit(1)); err != nil {
		return false, err
	}
	return len(nodes.Items) > 0, nil
}

// servesAdmission reports whether fsmserve's InferenceService admission is
// installed; it also proves the cluster answers and holds fsmserve's CRDs.
func servesAdmission(ctx context.Context, c client.Client) (bool, error) {
	if err := c.List(ctx, &v1beta1.InferenceServiceList{}, client.Limit(1)); err != nil {
		if meta.IsNoMatchError(err) {
			return false, fmt.Errorf("no InferenceService API: fsmserve is not installed there (make run starts a cluster with it)")
		}
		return false, err
	}
	err := c.Get(ctx, client.ObjectKey{Name: webhooks.ConfigurationISVC}, &admissionv1.ValidatingWebhookConfiguration{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}
