package localmodel

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
)

// Reasons a download Job cannot be built.
const (
	ReasonNodeGroupUnknown        = "NodeGroupUnknown"
	ReasonInvalidStorageContainer = "InvalidStorageContainer"
	// TraceParentAnnotation on the Job's pod carries the download episode's
	// trace context.
	TraceParentAnnotation = "fsmserve.io/traceparent"
)

// JobProblem says why a download Job cannot be built, and what to fix.
type JobProblem struct {
	Reason  string
	Message string
}

func (p *JobProblem) Error() string { return p.Reason + ": " + p.Message }

// JobInput is everything a download Job is built from.
type JobInput struct {
	// Node is the LocalModelNode, the Job's owner; its name is the node's.
	Node *v1alpha1.LocalModelNode
	// Model is the spec entry to download.
	Model v1alpha1.LocalModelInfo
	// NodeGroup names the download claim: the entry's, else the cache's first.
	NodeGroup         string
	Config            config.LocalModelConfig
	StorageContainers []v1alpha1.ClusterStorageContainer
	Attempt           int
	TraceParent       string
}

// DownloadJob builds the download Job as KServe builds it: pinned to the
// node, the node group's download claim mounted at /mnt/models with subPath
// models/{storageKey}, arguments [sourceModelUri, /mnt/models], owned by the
// LocalModelNode, removed ttlSecondsAfterFinished after it ends. Credentials
// are the entry's service account on the pod, resolved in the job namespace.
func DownloadJob(in JobInput) (*batchv1.Job, *JobProblem) {
	m := &in.Model
	if in.NodeGroup == "" {
		return nil, &JobProblem{Reason: ReasonNodeGroupUnknown, Message: fmt.Sprintf(
			"model %s names no node group and its cache cannot be read; set nodeGroup in the LocalModelNode entry or create the cache", m.GetStatusKey())}
	}
	container, problem := downloadContainer(m.SourceModelUri, in.Config.DefaultJobImage, in.StorageContainers)
	if problem != nil {
		return nil, problem
	}
	node := in.Node.Name
	container.Args = []string{m.SourceModelUri, DownloadMountPath}
	container.VolumeMounts = []corev1.VolumeMount{{
		Name: DownloadVolumeName, MountPath: DownloadMountPath,
		SubPath: path.Join("models", v1alpha1.GetStorageKey(m.SourceModelUri)),
	}}
	ttl := in.Config.JobTTLSecondsAfterFinished
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name: DownloadJobName(node, m), Namespace: in.Config.JobNamespace,
			Labels:          DownloadJobLabels(node, m, in.Attempt),
			Annotations:     map[string]string{JobAnnotationModelKey: m.GetStatusKey()},
			OwnerReferences: []metav1.OwnerReference{ownerOf(in.Node)},
		},
		Spec: batchv1.JobSpec{
			TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{
				// The pod carries the Job's labels (but the attempt, which
				// must not change the fingerprint) and model key, so the
				// agent's pod cache (scoped like its Job cache) can say why
				// a pod does not run.
				ObjectMeta: metav1.ObjectMeta{Labels: downloadPodLabels(node, m),
					Annotations: map[string]string{JobAnnotationModelKey: m.GetStatusKey()}},
				Spec: corev1.PodSpec{
					NodeSelector:       map[string]string{corev1.LabelHostname: node},
					Containers:         []corev1.Container{container},
					RestartPolicy:      corev1.RestartPolicyNever,
					ServiceAccountName: m.ServiceAccountName,
					SecurityContext:    &corev1.PodSecurityContext{FSGroup: in.Config.FSGroup},
					Volumes: []corev1.Volume{{Name: DownloadVolumeName, VolumeSource: corev1.VolumeSource{
						PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
							ClaimName: DownloadPVCName(CacheRef{Name: m.ModelName, Namespace: m.Namespace}, in.NodeGroup),
						}}}},
				},
			},
		},
	}
	if in.TraceParent != "" {
		job.Spec.Template.Annotations[TraceParentAnnotation] = in.TraceParent
	}
	return job, nil
}

func downloadPodLabels(node string, m *v1alpha1.LocalModelInfo) map[string]string {
	l := DownloadJobLabels(node, m, 0)
	delete(l, JobLabelAttempt)
	return l
}

// ownerOf makes the LocalModelNode the Job's controller, so the Job goes with
// it. BlockOwnerDeletion stays off: it would need update on the node's
// finalizers, which the agent does not otherwise need.
func ownerOf(n *v1alpha1.LocalModelNode) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: v1alpha1.GroupVersion.String(), Kind: "LocalModelNode",
		Name: n.Name, UID: n.UID, Controller: &yes}
}

// JobFingerprint identifies what a download Job is built from, leaving out
// the attempt and the trace context, so a failed download can tell whether a
// retry would build anything different.
func JobFingerprint(job *batchv1.Job) string {
	tmpl := job.Spec.Template.DeepCopy()
	delete(tmpl.Annotations, TraceParentAnnotation)
	raw, _ := json.Marshal(struct {
		Name     string
		Template *corev1.PodTemplateSpec
	}{job.Name, tmpl})
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])[:12]
}

// ProblemFingerprint identifies a problem the same way, so fixing it counts
// as a change.
func ProblemFingerprint(p *JobProblem) string {
	sum := sha256.Sum256([]byte(p.Reason + "\x00" + p.Message))
	return "problem-" + hex.EncodeToString(sum[:])[:12]
}
