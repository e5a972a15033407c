package pod

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

func loggerAnnotations(extra ...string) map[string]string {
	a := map[string]string{
		v1beta1.LoggerInternalAnnotation:        "true",
		v1beta1.LoggerSinkURLInternalAnnotation: "http://message-dumper.models",
		v1beta1.LoggerModeInternalAnnotation:    "request",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		a[extra[i]] = extra[i+1]
	}
	return a
}

func batcherAnnotations(a map[string]string) map[string]string {
	if a == nil {
		a = map[string]string{}
	}
	a[v1beta1.BatcherInternalAnnotation] = "true"
	a[v1beta1.BatcherMaxBatchSizeInternalAnnotation] = "64"
	return a
}

func agentOf(t *testing.T, pod *corev1.Pod) corev1.Container {
	return container(t, pod.Spec.Containers, "agent")
}

// baseLoggerArgs are the flags every logger gets, for the predictor pod.
var baseLoggerArgs = []string{
	"--log-url", "http://message-dumper.models", "--source-uri", "sklearn-predictor-abc", "--log-mode", "request",
	"--inference-service", "sklearn", "--namespace", "models", "--endpoint", "", "--component", "predictor",
}

// agentFixtures are the inputs the agent tables share: the default config,
// a config with every logger setting, and an InferenceService whose logger
// writes to its own storage with its own account.
type agentFixtures struct {
	cfg          *config.Config
	plain        Inputs
	fullLogger   *config.Config
	isvc         *v1beta1.InferenceService
	loggerSet    credentials.Set
	withMetadata *corev1.Pod
	secured      *corev1.Pod
}

func newAgentFixtures(t *testing.T) agentFixtures {
	f := agentFixtures{cfg: config.Default()}
	f.plain = Inputs{Config: f.cfg}
	var errs *config.Errors
	f.fullLogger, errs = parseConfig(t, map[string]string{"logger": `{"caBundle": "logger-ca-bundle", "caCertFile": "service-ca.crt",
		"storage": {"path": "/logs", "parameters": {"format": "json"}}, "marshallerUrl": "http://marshaller.example.svc",
		"batchSize": 10, "batchInterval": "5s"}`})
	require.NoError(t, errs.Err())
	f.isvc = &v1beta1.InferenceService{}
	f.isvc.Spec.Predictor.Logger = &v1beta1.LoggerSpec{
		Storage:   &v1beta1.LoggerStorageSpec{StorageSpec: v1beta1.StorageSpec{Path: ptr.To("/isvc-logs"), Parameters: &map[string]string{"format": "parquet"}}, ServiceAccountName: ptr.To("isvc-logger")},
		BatchSize: ptr.To(50),
	}
	f.loggerSet = saCredentials(nil, secret("blob", map[string]string{"AZURE_STORAGE_ACCESS_KEY": "k"}, nil))
	f.loggerSet.ServiceAccountName = "isvc-logger"
	f.withMetadata = predictorPod(loggerAnnotations(v1beta1.LoggerMetadataHeadersInternalAnnotation, "Foo,Bar",
		v1beta1.LoggerMetadataAnnotationsInternalAnnotation, "team,missing", "team", "ml"))
	f.secured = predictorPod(batcherAnnotations(nil))
	f.secured.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{RunAsNonRoot: ptr.To(true)}
	f.secured.Spec.Containers[0].ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/v2/health/ready", Port: intstr.FromInt32(8080)}}}
	return f
}

func TestAgentLogger(t *testing.T) {
	f := newAgentFixtures(t)
	cfg, plain, isvc, loggerSet, withMetadata := f.cfg, f.plain, f.isvc, f.loggerSet, f.withMetadata
	shipped, isvcLogger := Inputs{Config: f.fullLogger}, f.fullLogger
	runMutateCases(t, []mutateCase{{
		name: "logger with the default config",
		pod:  predictorPod(loggerAnnotations()), in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, append(append([]string{}, baseLoggerArgs...), "--logger-tls-skip-verify", "false", "--component-port", "8080"), agent.Args)
			assert.Equal(t, "kserve/agent:latest", agent.Image)
			assert.Equal(t, []corev1.ContainerPort{{Name: "agent-port", ContainerPort: 9081, Protocol: corev1.ProtocolTCP}}, agent.Ports)
			assert.Equal(t, &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				HTTPHeaders: []corev1.HTTPHeader{{Name: "K-Network-Probe", Value: "queue"}}, Port: intstr.FromInt32(9081), Path: "/", Scheme: corev1.URISchemeHTTP,
			}}}, agent.ReadinessProbe)
			assert.Equal(t, "1", agent.Resources.Limits.Cpu().String())
			assert.Equal(t, "100Mi", agent.Resources.Requests.Memory().String())
			assert.Empty(t, pod.Spec.Volumes)
		},
	}, {
		name: "logger with a full config: storage, marshaller, batching, CA bundle",
		pod:  predictorPod(loggerAnnotations()), in: shipped,
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, append(append([]string{}, baseLoggerArgs...), "--log-store-path", "/logs", "--log-store-format", "json",
				"--log-marshaller-url", "http://marshaller.example.svc", "--log-batch-size", "10", "--log-batch-interval", "5s",
				"--logger-ca-cert-file", "service-ca.crt", "--logger-tls-skip-verify", "false", "--component-port", "8080"), agent.Args)
			assert.Equal(t, []corev1.VolumeMount{{Name: "agent-ca-bundle", MountPath: "/etc/tls/logger", ReadOnly: true}}, agent.VolumeMounts)
			v := volume(t, pod, "agent-ca-bundle")
			assert.Equal(t, "logger-ca-bundle", v.ConfigMap.Name)
			assert.Equal(t, ptr.To(true), v.ConfigMap.Optional)
		},
	}, {
		name: "the InferenceService's logger storage replaces the config's, with its service account's credentials",
		pod:  predictorPod(loggerAnnotations()),
		in:   Inputs{Config: isvcLogger, InferenceService: isvc, LoggerCredentials: loggerSet},
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, append(append([]string{}, baseLoggerArgs...), "--log-store-path", "/isvc-logs", "--log-store-format", "parquet",
				"--log-marshaller-url", "http://marshaller.example.svc", "--log-batch-size", "50", "--log-batch-interval", "5s",
				"--logger-ca-cert-file", "service-ca.crt", "--logger-tls-skip-verify", "false", "--component-port", "8080"), agent.Args)
			assert.Equal(t, []corev1.EnvVar{secretRef("AZURE_STORAGE_ACCESS_KEY", "blob", "AZURE_STORAGE_ACCESS_KEY")}, agent.Env)
		},
	}, {
		name: "logger metadata headers and annotations",
		pod:  withMetadata, in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			args := agentOf(t, pod).Args
			assert.Equal(t, []string{"--metadata-headers", "Foo,Bar", "--metadata-annotations", "team=ml", "--logger-tls-skip-verify", "false"},
				args[len(baseLoggerArgs):len(baseLoggerArgs)+6])
		},
	}, {
		name: "a missing logger secret is an error",
		pod:  predictorPod(loggerAnnotations()),
		in: Inputs{Config: isvcLogger, InferenceService: isvc, LoggerCredentials: credentials.Set{Namespace: testNamespace,
			ServiceAccountName: "isvc-logger", ServiceAccount: &corev1.ServiceAccount{}, Secrets: []credentials.Secret{{Name: "gone"}}}},
		wantErr: `service account "isvc-logger" references secret "gone" which does not exist`,
	}, {
		name: "a rejected logger key",
		pod:  predictorPod(loggerAnnotations()),
		in: func() Inputs {
			_, errs := parseConfig(t, map[string]string{"logger": `{"defaultUrl": "not a url"}`})
			return Inputs{Config: cfg, ConfigErrors: errs}
		}(),
		wantErr: `inferenceservice-config key "logger": field "defaultUrl"`,
	}})
}

func TestAgentBatcherPullerAndKnative(t *testing.T) {
	f := newAgentFixtures(t)
	cfg, plain, secured := f.cfg, f.plain, f.secured
	runMutateCases(t, []mutateCase{{
		name: "batcher: security context and readiness probe of the model server",
		pod:  secured, in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, []string{"--enable-batcher", "--max-batchsize", "64", "--max-latency", "5000", "--component-port", "8080"}, agent.Args)
			assert.Equal(t, secured.Spec.Containers[0].SecurityContext, agent.SecurityContext)
			assert.Equal(t, []corev1.EnvVar{env("SERVING_READINESS_PROBE", `{"httpGet":{"path":"/v2/health/ready","port":8080}}`)}, agent.Env)
			assert.Equal(t, "/v2/health/ready", agent.ReadinessProbe.HTTPGet.Path)
		},
	}, {
		name: "logger and batcher together, with credentials from the pod's account",
		pod:  predictorPod(batcherAnnotations(loggerAnnotations())),
		in:   Inputs{Config: cfg, StorageCredentials: saCredentials(nil, secret("hf", map[string]string{"HF_TOKEN": "t"}, nil))},
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			want := append([]string{"--enable-batcher", "--max-batchsize", "64", "--max-latency", "5000"}, baseLoggerArgs...)
			assert.Equal(t, append(want, "--logger-tls-skip-verify", "false", "--component-port", "8080"), agent.Args)
			assert.Equal(t, []corev1.EnvVar{secretRef("HF_TOKEN", "hf", "HF_TOKEN")}, agent.Env)
			assert.Equal(t, []string{v1beta1.PredictorContainerName, "agent"}, names(pod.Spec.Containers))
		},
	}, {
		name: "Knative: the agent takes queue-proxy's environment, queue-proxy sends to the agent",
		pod: func() *corev1.Pod {
			p := predictorPod(batcherAnnotations(nil))
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "queue-proxy", Env: []corev1.EnvVar{env("USER_PORT", "8080"), env("SERVING_SERVICE", "x")}})
			return p
		}(),
		in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			assert.Equal(t, []corev1.EnvVar{env("USER_PORT", "8080"), env("SERVING_SERVICE", "x")}, agentOf(t, pod).Env)
			assert.Equal(t, []corev1.EnvVar{env("USER_PORT", "9081"), env("SERVING_SERVICE", "x")}, container(t, pod.Spec.Containers, "queue-proxy").Env)
		},
	}, {
		name: "a transformer's port and probe",
		pod: func() *corev1.Pod {
			p := predictorPod(batcherAnnotations(nil))
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: v1beta1.TransformerContainerName,
				Ports:          []corev1.ContainerPort{{ContainerPort: 8081}},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8081)}}}})
			return p
		}(),
		in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, []string{"--component-port", "8081"}, agent.Args[len(agent.Args)-2:])
			assert.Equal(t, []corev1.EnvVar{env("SERVING_READINESS_PROBE", `{"tcpSocket":{"port":8081}}`)}, agent.Env)
		},
	}, {
		name: "model puller",
		pod: predictorPod(map[string]string{v1beta1.AgentInternalAnnotation: "true", v1beta1.AgentModelDirInternalAnnotation: "/mnt/models",
			v1beta1.AgentConfigMountPathInternalAnnotation: "/mnt/configs", v1beta1.AgentConfigVolumeNameInternalAnnotation: "modelconfig-sklearn-0"}),
		in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			agent := agentOf(t, pod)
			assert.Equal(t, []string{"--enable-puller", "--config-dir", "/mnt/configs", "--model-dir", "/mnt/models", "--component-port", "8080"}, agent.Args)
			assert.Equal(t, []corev1.VolumeMount{{Name: "model-dir", MountPath: "/mnt/models"}, {Name: "model-config", MountPath: "/mnt/configs"}}, agent.VolumeMounts)
			assert.Equal(t, []corev1.VolumeMount{{Name: "model-dir", MountPath: "/mnt/models"}}, pod.Spec.Containers[0].VolumeMounts)
			assert.Equal(t, "modelconfig-sklearn-0", volume(t, pod, "model-config").ConfigMap.Name)
		},
	}, {
		name:    "model puller without its annotations",
		pod:     predictorPod(map[string]string{v1beta1.AgentInternalAnnotation: "true"}),
		in:      plain,
		wantErr: `needs annotation "internal.serving.kserve.io/modelDir"`,
	}, {
		name: "a pod without containers gets an agent without a security context",
		pod: func() *corev1.Pod {
			p := predictorPod(batcherAnnotations(nil))
			p.Spec.Containers = nil
			return p
		}(),
		in: plain,
		check: func(t *testing.T, pod *corev1.Pod) {
			require.Len(t, pod.Spec.Containers, 1)
			assert.Nil(t, pod.Spec.Containers[0].SecurityContext)
		},
	}})
}
