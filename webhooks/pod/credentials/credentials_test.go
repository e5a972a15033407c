package credentials

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

func data(kv ...string) map[string][]byte {
	out := map[string][]byte{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = []byte(kv[i+1])
	}
	return out
}

func TestKindOf(t *testing.T) {
	shipped := &config.CredentialsConfig{S3: config.S3Config{S3SecretAccessKeyName: "AWS_SECRET_ACCESS_KEY"}}
	cases := []struct {
		name string
		cfg  *config.CredentialsConfig
		data map[string][]byte
		want Kind
	}{
		{"s3 with code-default key names", &config.CredentialsConfig{}, data("awsSecretAccessKey", "s"), KindS3},
		{"s3 with shipped key names", shipped, data("AWS_SECRET_ACCESS_KEY", "s"), KindS3},
		{"shipped names do not match code defaults", shipped, data("awsSecretAccessKey", "s"), KindUnknown},
		{"gcs", &config.CredentialsConfig{}, data("gcloud-application-credentials.json", "{}"), KindGCS},
		{"gcs with a custom file name", &config.CredentialsConfig{GCS: config.GCSConfig{GCSCredentialFileName: "key.json"}}, data("key.json", "{}"), KindGCS},
		{"azure legacy", &config.CredentialsConfig{}, data("AZ_CLIENT_ID", "c"), KindAzure},
		{"azure", &config.CredentialsConfig{}, data("AZURE_CLIENT_ID", "c"), KindAzure},
		{"azure token", &config.CredentialsConfig{}, data("AZURE_ACCESS_TOKEN", "t"), KindAzure},
		{"azure storage key", &config.CredentialsConfig{}, data("AZURE_STORAGE_ACCESS_KEY", "k"), KindAzureKey},
		{"https", &config.CredentialsConfig{}, data("https-host", "h", "headers", "{}"), KindHTTPS},
		{"hdfs", &config.CredentialsConfig{}, data("HDFS_NAMENODE", "nn"), KindHDFS},
		{"hugging face", &config.CredentialsConfig{}, data("HF_TOKEN", "t"), KindHuggingFace},
		{"modelscope", &config.CredentialsConfig{}, data("MODELSCOPE_API_TOKEN", "t"), KindModelScope},
		{"s3 wins over gcs", &config.CredentialsConfig{}, data("awsSecretAccessKey", "s", "gcloud-application-credentials.json", "{}"), KindS3},
		{"image pull secret", &config.CredentialsConfig{}, data(".dockerconfigjson", "{}"), KindUnknown},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, KindOf(tc.cfg, &corev1.Secret{Data: tc.data}))
		})
	}
}

func TestS3Settings(t *testing.T) {
	e := func(n, v string) corev1.EnvVar { return corev1.EnvVar{Name: n, Value: v} }
	cases := []struct {
		name        string
		annotations map[string]string
		data        map[string][]byte
		cfg         config.S3Config
		want        []corev1.EnvVar
	}{
		{name: "nothing set", want: nil},
		{name: "https endpoint decides https", annotations: map[string]string{v1beta1.S3EndpointAnnotation: " https://s3.example.com ", v1beta1.S3UseHTTPSAnnotation: "0"},
			want: []corev1.EnvVar{e("S3_USE_HTTPS", "1"), e("S3_ENDPOINT", "s3.example.com"), e("AWS_ENDPOINT_URL", "https://s3.example.com")}},
		{name: "http endpoint", annotations: map[string]string{v1beta1.S3EndpointAnnotation: "HTTP://minio:9000"},
			want: []corev1.EnvVar{e("S3_USE_HTTPS", "0"), e("S3_ENDPOINT", "minio:9000"), e("AWS_ENDPOINT_URL", "HTTP://minio:9000")}},
		{name: "bare endpoint is https by default", annotations: map[string]string{v1beta1.S3EndpointAnnotation: "minio:9000"},
			want: []corev1.EnvVar{e("S3_ENDPOINT", "minio:9000"), e("AWS_ENDPOINT_URL", "https://minio:9000")}},
		{name: "secret data, then config", data: data("S3_ENDPOINT", "data:9000", "AWS_DEFAULT_REGION", "eu"), cfg: config.S3Config{S3UseHttps: "0", S3Region: "us", S3CABundle: "/ca/b.crt"},
			want: []corev1.EnvVar{e("S3_USE_HTTPS", "0"), e("S3_ENDPOINT", "data:9000"), e("AWS_ENDPOINT_URL", "http://data:9000"), e("AWS_DEFAULT_REGION", "eu"), e("AWS_CA_BUNDLE", "/ca/b.crt")}},
		{name: "every setting, annotations first", cfg: config.S3Config{S3VerifySSL: "1"}, annotations: map[string]string{
			v1beta1.S3VerifySSLAnnotation: "0", v1beta1.S3UseAnonCredentialAnnotation: "true", v1beta1.S3RegionAnnotation: "r",
			v1beta1.S3UseVirtualBucketAnnotation: "false", v1beta1.S3UseAccelerateAnnotation: "true", v1beta1.S3CABundleConfigMapAnnotation: "cm"},
			want: []corev1.EnvVar{e("S3_VERIFY_SSL", "0"), e("awsAnonymousCredential", "true"), e("AWS_DEFAULT_REGION", "r"),
				e("S3_USER_VIRTUAL_BUCKET", "false"), e("S3_USE_ACCELERATE", "true"), e("AWS_CA_BUNDLE_CONFIGMAP", "cm")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, s3Settings(tc.annotations, tc.data, &tc.cfg))
		})
	}
}

func TestApplyIsIdempotentAndLaterSecretsWin(t *testing.T) {
	cfg := &config.CredentialsConfig{}
	first := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "one"}, Data: data("awsSecretAccessKey", "s", "awsAccessKeyID", "a")}
	second := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "two"}, Data: data("awsSecretAccessKey", "s", "awsAccessKeyID", "a")}
	gcs := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "g"}, Data: data("gcloud-application-credentials.json", "{}")}
	set := Set{Namespace: "ns", ServiceAccountName: "sa", ServiceAccount: &corev1.ServiceAccount{},
		Secrets: []Secret{{Name: "one", Object: first}, {Name: "two", Object: second}, {Name: "g", Object: gcs}, {Name: "g", Object: gcs}}}
	c := &corev1.Container{}
	var volumes []corev1.Volume
	require.NoError(t, set.Apply(cfg, c, &volumes))
	require.NoError(t, set.Apply(cfg, c, &volumes))
	assert.Equal(t, "two", c.Env[0].ValueFrom.SecretKeyRef.Name)
	assert.Len(t, c.Env, 3)
	assert.Len(t, c.VolumeMounts, 1)
	assert.Len(t, volumes, 1)
}

func TestResolve(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(s))
	objs := []client.Object{
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "ns"}, Secrets: []corev1.ObjectReference{{Name: "a"}, {Name: "gone"}}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "picked", Namespace: "ns"}},
	}
	r := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	cfg := &config.CredentialsConfig{StorageSecretNameAnnotation: v1beta1.StorageSecretNameAnnotation}
	ctx := context.Background()

	set, err := Resolve(ctx, r, cfg, "ns", "", nil)
	require.NoError(t, err)
	assert.Equal(t, "default", set.ServiceAccountName)
	require.Len(t, set.Secrets, 2)
	assert.NotNil(t, set.Secrets[0].Object)
	assert.Nil(t, set.Secrets[1].Object)
	assert.EqualError(t, set.Apply(cfg, &corev1.Container{}, &[]corev1.Volume{}),
		`service account "default" references secret "gone" which does not exist in namespace "ns"; create it or remove it from the service account`)

	set, err = Resolve(ctx, r, cfg, "ns", "nobody", map[string]string{v1beta1.StorageSecretNameAnnotation: "picked"})
	require.NoError(t, err)
	assert.Nil(t, set.ServiceAccount, "a missing account is recorded, not an error")
	assert.Equal(t, []Secret{{Name: "picked", Object: set.Secrets[0].Object}}, set.Secrets)
	assert.Equal(t, v1beta1.StorageSecretNameAnnotation, set.Annotation)

	set, err = Resolve(ctx, r, &config.CredentialsConfig{}, "ns", "nobody", map[string]string{v1beta1.StorageSecretNameAnnotation: "picked"})
	require.NoError(t, err)
	assert.Empty(t, set.Secrets, "without the configured annotation key the annotation means nothing")
}
