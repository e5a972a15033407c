package admissionbench

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// Targets are the requests timed: KServe's sklearn sample (defaulter and
// validator), a predictor pod with an s3:// model and credentials (the pod
// mutator, reading the service account and its secret), and a ConfigMap (no
// webhook: the API server's own cost).
func Targets(ns string) []Target {
	return []Target{
		{Name: "InferenceService (defaulter+validator)", New: func(i int) client.Object { return sklearn(ns, i) }},
		{Name: "Pod (mutator, s3 credentials)", New: func(i int) client.Object { return modelPod(ns, i) }},
		{Name: "ConfigMap (baseline, no webhook)", New: func(i int) client.Object {
			return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("baseline-%d", i)}, Data: map[string]string{"k": "v"}}
		}},
	}
}

// Baseline names the target without webhooks.
const Baseline = "ConfigMap (baseline, no webhook)"

func sklearn(ns string, i int) *v1beta1.InferenceService {
	uri := "gs://kfserving-examples/models/sklearn/1.0/model"
	return &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("sklearn-%d", i)},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}}}}
}

func modelPod(ns string, i int) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("model-%d", i),
			Labels:      map[string]string{v1beta1.InferenceServiceLabel: "sklearn", "component": "predictor"},
			Annotations: map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: "s3://bucket/model"}},
		Spec: corev1.PodSpec{ServiceAccountName: "models", Containers: []corev1.Container{{Name: v1beta1.PredictorContainerName, Image: "kserve/sklearnserver:latest"}}},
	}
}

// Prepare creates the namespace, the service account and its S3 secret.
func Prepare(ctx context.Context, c client.Client, ns string) error {
	objs := []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "s3-creds", Annotations: map[string]string{v1beta1.S3EndpointAnnotation: "minio:9000"}},
			StringData: map[string]string{"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"}},
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "models"}, Secrets: []corev1.ObjectReference{{Name: "s3-creds"}}},
	}
	for _, o := range objs {
		if err := c.Create(ctx, o); err != nil {
			return err
		}
	}
	return nil
}
