package webhooks

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

type recordingReader struct{ calls *[]string }

func (r recordingReader) Get(_ context.Context, _ client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	*r.calls = append(*r.calls, "get")
	return nil
}

func (r recordingReader) List(_ context.Context, _ client.ObjectList, _ ...client.ListOption) error {
	*r.calls = append(*r.calls, "list")
	return nil
}

func TestCredentialsAreReadUncached(t *testing.T) {
	var cached, direct []string
	r := credentialReader{cache: recordingReader{&cached}, api: recordingReader{&direct}}
	ctx := context.Background()
	_ = r.Get(ctx, client.ObjectKey{}, &corev1.Secret{})
	_ = r.Get(ctx, client.ObjectKey{}, &corev1.ServiceAccount{})
	_ = r.List(ctx, &v1alpha1.ClusterStorageContainerList{})
	_ = r.Get(ctx, client.ObjectKey{}, &corev1.ConfigMap{})
	if len(direct) != 2 || len(cached) != 2 {
		t.Fatalf("secrets and service accounts go to the API server, the rest to the cache: direct %v, cached %v", direct, cached)
	}
}
