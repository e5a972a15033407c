package pod

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// typicalS3 is a predictor pod downloading from S3 (MinIO) with the shipped
// config, the default storage container and an account with an S3 secret.
func typicalS3(b *testing.B) (*corev1.Pod, Inputs) {
	s3 := secret("s3-creds", map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"}, map[string]string{
		v1beta1.S3EndpointAnnotation: "minio.models:9000", v1beta1.S3UseHTTPSAnnotation: "0", v1beta1.S3RegionAnnotation: "us-east-1",
	})
	return predictorPod(withURI("s3://models/sklearn/iris")), Inputs{
		Config: shippedConfig(b), SystemNamespace: "kserve",
		StorageContainers:  []v1alpha1.ClusterStorageContainer{defaultStorageContainer(b)},
		StorageCredentials: saCredentials(nil, s3),
	}
}

// BenchmarkMutate is the pure mutation of a typical S3 pod.
func BenchmarkMutate(b *testing.B) {
	pod, in := typicalS3(b)
	b.ReportAllocs()
	for b.Loop() {
		p := pod.DeepCopy()
		if err := Mutate(p, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandle is a whole admission request for the same pod: decode,
// reads (from an in-memory client), mutation and JSON patch.
func BenchmarkHandle(b *testing.B) {
	pod, _ := typicalS3(b)
	m := &Mutator{Reader: cluster(b), SystemNamespace: "kserve"}
	req := admissionRequest(b, pod)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if resp := m.Handle(ctx, req); !resp.Allowed {
			b.Fatal(resp.Result.Message)
		}
	}
}
