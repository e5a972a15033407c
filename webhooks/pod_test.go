package webhooks_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// modelPod is a predictor pod as its ReplicaSet creates it from the
// InferenceService controller's template.
func modelPod(ns, name, sa string, annotations map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations,
			Labels: map[string]string{v1beta1.InferenceServiceLabel: "model", "component": "predictor"}},
		Spec: corev1.PodSpec{ServiceAccountName: sa, Containers: []corev1.Container{{Name: v1beta1.PredictorContainerName, Image: "kserve/sklearnserver:latest",
			Ports: []corev1.ContainerPort{{ContainerPort: 8080}}}}},
	}
}

func createPod(t *testing.T, p *corev1.Pod) *corev1.Pod {
	t.Helper()
	ctx := context.Background()
	if err := cluster.Create(ctx, p); err != nil {
		t.Fatalf("create pod: %v", err)
	}
	got := &corev1.Pod{}
	if err := cluster.Get(ctx, client.ObjectKeyFromObject(p), got); err != nil {
		t.Fatal(err)
	}
	return got
}

func createCredentials(t *testing.T, ns, sa string, secret *corev1.Secret) {
	t.Helper()
	ctx := context.Background()
	secret.Namespace = ns
	if err := cluster.Create(ctx, secret); err != nil {
		t.Fatal(err)
	}
	account := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sa},
		Secrets: []corev1.ObjectReference{{Name: secret.Name}}}
	if err := cluster.Create(ctx, account); err != nil {
		t.Fatal(err)
	}
}

func initContainer(p *corev1.Pod, name string) *corev1.Container {
	for i := range p.Spec.InitContainers {
		if p.Spec.InitContainers[i].Name == name {
			return &p.Spec.InitContainers[i]
		}
	}
	return nil
}

func envOf(c *corev1.Container, name string) *corev1.EnvVar {
	for i := range c.Env {
		if c.Env[i].Name == name {
			return &c.Env[i]
		}
	}
	return nil
}

func TestS3CredentialsReachTheStorageInitializer(t *testing.T) {
	ns := newNamespace(t)
	createCredentials(t, ns, "s3-sa", &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "s3-creds", Annotations: map[string]string{
			v1beta1.S3EndpointAnnotation: "minio.example.com:9000", v1beta1.S3UseHTTPSAnnotation: "0"}},
		StringData: map[string]string{"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"},
	})
	got := createPod(t, modelPod(ns, "s3-model", "s3-sa", map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: "s3://bucket/model"}))
	si := initContainer(got, v1beta1.StorageInitializerContainerName)
	if si == nil {
		t.Fatalf("no storage initializer injected: %+v", got.Spec.InitContainers)
	}
	if strings.Join(si.Args, " ") != "s3://bucket/model /mnt/models" {
		t.Errorf("args %v", si.Args)
	}
	key := envOf(si, "AWS_SECRET_ACCESS_KEY")
	if key == nil || key.ValueFrom == nil || key.ValueFrom.SecretKeyRef.Name != "s3-creds" {
		t.Errorf("AWS_SECRET_ACCESS_KEY not from the secret: %+v", key)
	}
	if e := envOf(si, "S3_ENDPOINT"); e == nil || e.Value != "minio.example.com:9000" {
		t.Errorf("S3_ENDPOINT from the secret's annotation: %+v", e)
	}
	if e := envOf(si, "S3_USE_HTTPS"); e == nil || e.Value != "0" {
		t.Errorf("S3_USE_HTTPS: %+v", e)
	}
}

func TestGCSCredentialsMountTheKeyFile(t *testing.T) {
	ns := newNamespace(t)
	createCredentials(t, ns, "gcs-sa", &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "gcs-creds"},
		StringData: map[string]string{"gcloud-application-credentials.json": "{}"}})
	got := createPod(t, modelPod(ns, "gcs-model", "gcs-sa", map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: "gs://bucket/model"}))
	si := initContainer(got, v1beta1.StorageInitializerContainerName)
	if si == nil || envOf(si, "GOOGLE_APPLICATION_CREDENTIALS") == nil {
		t.Fatalf("no GCS credentials on the storage initializer: %+v", si)
	}
	found := false
	for _, v := range got.Spec.Volumes {
		found = found || (v.Name == "user-gcp-sa" && v.Secret != nil && v.Secret.SecretName == "gcs-creds")
	}
	if !found {
		t.Errorf("no user-gcp-sa secret volume: %+v", got.Spec.Volumes)
	}
}

func TestPVCIsMountedReadOnlyWithoutDownload(t *testing.T) {
	ns := newNamespace(t)
	got := createPod(t, modelPod(ns, "pvc-model", "", map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: "pvc://models-claim/iris"}))
	if initContainer(got, v1beta1.StorageInitializerContainerName) != nil {
		t.Fatal("a pvc:// model needs no download")
	}
	var claim *corev1.Volume
	for i := range got.Spec.Volumes {
		if got.Spec.Volumes[i].PersistentVolumeClaim != nil {
			claim = &got.Spec.Volumes[i]
		}
	}
	if claim == nil || claim.PersistentVolumeClaim.ClaimName != "models-claim" || !claim.PersistentVolumeClaim.ReadOnly {
		t.Fatalf("claim not mounted read-only: %+v", got.Spec.Volumes)
	}
	for _, m := range got.Spec.Containers[0].VolumeMounts {
		if m.Name == claim.Name && (!m.ReadOnly || m.SubPath != "iris" || m.MountPath != "/mnt/models") {
			t.Errorf("mount %+v", m)
		}
	}
}

func TestLoggerAndBatcherAddTheAgent(t *testing.T) {
	ns := newNamespace(t)
	got := createPod(t, modelPod(ns, "logged", "", map[string]string{
		v1beta1.LoggerInternalAnnotation: "true", v1beta1.LoggerSinkURLInternalAnnotation: "http://sink.example.com",
		v1beta1.LoggerModeInternalAnnotation: "all", v1beta1.BatcherInternalAnnotation: "true",
		v1beta1.BatcherMaxBatchSizeInternalAnnotation: "16", v1beta1.BatcherMaxLatencyInternalAnnotation: "300",
	}))
	var agent *corev1.Container
	for i := range got.Spec.Containers {
		if got.Spec.Containers[i].Name == "agent" {
			agent = &got.Spec.Containers[i]
		}
	}
	if agent == nil {
		t.Fatal("no agent container")
	}
	args := strings.Join(agent.Args, " ")
	for _, want := range []string{"--log-url http://sink.example.com", "--enable-batcher", "--max-batchsize 16", "--max-latency 300"} {
		if !strings.Contains(args, want) {
			t.Errorf("agent args lack %q: %s", want, args)
		}
	}
}

func TestPodsOfTheSystemNamespaceAreLeftAlone(t *testing.T) {
	got := createPod(t, modelPod(config.DefaultSystemNamespace, "control-plane-pod", "", map[string]string{v1beta1.StorageInitializerSourceURIAnnotation: "gs://bucket/model"}))
	if initContainer(got, v1beta1.StorageInitializerContainerName) != nil {
		t.Fatal("the namespace selector excludes the system namespace")
	}
}
