package inferenceservice

import (
	"context"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// repairInterval spaces out pod deletions while repairing, so a pod mutator
// that is still down does not make the ReplicaSet churn pods.
const repairInterval = 10 * time.Second

// uninjectedPods names the predictor pods that lack what the pod mutator
// injects: a storage initializer for a model it must download, an agent for a
// logger or batcher. The mutator fails open so it can never block pod
// creation; this is how fsmserve notices what it missed.
func uninjectedPods(pods []corev1.Pod) []string {
	var out []string
	for i := range pods {
		p := &pods[i]
		if p.DeletionTimestamp == nil && missesInjection(p) {
			out = append(out, p.Name)
		}
	}
	return out
}

func missesInjection(p *corev1.Pod) bool {
	ann := p.Annotations
	// A model puller (agent annotation) replaces the storage initializer.
	puller := ann[v1beta1.AgentInternalAnnotation] == "true"
	if uri, ok := ann[v1beta1.StorageInitializerSourceURIAnnotation]; ok && !puller && downloads(uri, p) && !hasContainer(p.Spec.InitContainers, v1beta1.StorageInitializerContainerName) {
		return true
	}
	needsAgent := ann[v1beta1.LoggerInternalAnnotation] == "true" || ann[v1beta1.BatcherInternalAnnotation] == "true"
	return needsAgent && !hasContainer(p.Spec.Containers, "agent")
}

// downloads reports whether the model reaches the pod through the storage
// initializer (not a mounted claim, an OCI image or a local model cache).
func downloads(uri string, p *corev1.Pod) bool {
	if _, local := p.Labels[v1beta1.LocalModelLabel]; local {
		return false
	}
	return !strings.HasPrefix(uri, "pvc://") && !strings.HasPrefix(uri, "oci")
}

func hasContainer(cs []corev1.Container, name string) bool {
	for _, c := range cs {
		if c.Name == name {
			return true
		}
	}
	return false
}

// repairPods keeps the predictor applied and deletes one pod the mutator
// missed, so its ReplicaSet recreates it through the mutator, and asks to be
// called again after repairInterval.
func repairPods(ctx context.Context, r *run) outcome.Outcome {
	out := ensurePredictor(ctx, r)
	names := uninjectedPods(r.World.pods)
	if len(names) == 0 {
		return out
	}
	end := r.Spans.Start("Step RecreateUninjectedPod", attribute.String("k8s.pod.name", names[0]))
	pod := &corev1.Pod{}
	pod.Namespace, pod.Name = r.Object.Namespace, names[0]
	err := client.IgnoreNotFound(r.Client.Delete(ctx, pod))
	end(err)
	return out.Then(outcome.Error(err)).Then(outcome.OK(err == nil)).After(repairInterval)
}
