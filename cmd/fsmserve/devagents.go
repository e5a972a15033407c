package main

import (
	"context"
	"fmt"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/controllers/localmodelnode"
	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/internal/tracing"
)

// devModelsDir holds each fake node's models root under the dev work dir, so
// a user can look at what "landed on the node" with ls.
const devModelsDir = ".fsmserve/nodes"

// startNodeAgents runs the local model agent of every fake node in this
// process, as the agents' DaemonSet would on a real cluster: one agent per
// node, its own caches, downloads simulated (kwok completes the Job's pod;
// the agent writes the folder). Their spans go to the same OTLP endpoint as
// the manager's, under the service fsmserve-localmodel-agent.
func startNodeAgents(ctx context.Context, cfg *rest.Config, systemNamespace string) (stop func(), err error) {
	nodes, err := fakeNodeNames(ctx, cfg)
	if err != nil {
		return nil, err
	}
	tp, shutdown, err := tracing.Setup(ctx, "fsmserve-localmodel-agent")
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	dir, err := filepath.Abs(devModelsDir)
	if err != nil {
		return nil, err
	}
	agents, err := localmodelnode.StartFakeNodes(ctx, cfg, localmodelnode.FakeNodesOptions{
		Nodes: nodes, Dir: dir, SystemNamespace: systemNamespace, TracerProvider: tp,
	})
	if err != nil {
		_ = shutdown(context.Background())
		return nil, fmt.Errorf("local model agents: %w", err)
	}
	return func() {
		agents.Stop()
		_ = shutdown(context.Background())
	}, nil
}

// fakeNodeNames lists the nodes the dev cluster registered for kwok.
func fakeNodeNames(ctx context.Context, cfg *rest.Config) ([]string, error) {
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return nil, err
	}
	list := &corev1.NodeList{}
	if err := c.List(ctx, list, client.MatchingLabels(devcluster.FakeNodeLabels())); err != nil {
		return nil, fmt.Errorf("listing the fake nodes: %w", err)
	}
	names := make([]string, 0, len(list.Items))
	for _, n := range list.Items {
		names = append(names, n.Name)
	}
	return names, nil
}
