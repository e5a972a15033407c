package localmodel

import (
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

func nodeGroup(name, limit string) *v1alpha1.LocalModelNodeGroup {
	g := &v1alpha1.LocalModelNodeGroup{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if limit != "" {
		g.Spec.StorageLimit = resource.MustParse(limit)
	}
	return g
}

func spec(uri, size string, groups ...string) *v1alpha1.LocalModelCacheSpec {
	return &v1alpha1.LocalModelCacheSpec{SourceModelUri: uri, ModelSize: resource.MustParse(size), NodeGroups: groups}
}

func TestValidateSpec(t *testing.T) {
	groups := map[string]*v1alpha1.LocalModelNodeGroup{
		"gpu": nodeGroup("gpu", "100Gi"), "small": nodeGroup("small", "10Gi"), "unlimited": nodeGroup("unlimited", ""),
	}
	others := []Other{{Name: "llama", SourceModelUri: "hf://meta/llama"}, {Name: "mine", SourceModelUri: "hf://meta/mine"}}
	cases := []struct {
		name  string
		rules Rules
		spec  *v1alpha1.LocalModelCacheSpec
		want  []string // field: message substring
	}{
		{"valid", clusterRules, spec("hf://meta/bert", "5Gi", "gpu", "small"), nil},
		{"the cache's own stored version is not a duplicate", clusterRules, spec("hf://meta/mine", "5Gi", "gpu"), nil},
		{"a duplicate URI names the other cache and the fix", clusterRules, spec("hf://meta/llama", "5Gi", "gpu"),
			[]string{"spec.sourceModelUri: LocalModelCache llama already caches this URI"}},
		{"a prefix is not a duplicate", clusterRules, spec("hf://meta/llama/v2", "5Gi", "gpu"), nil},
		{"a cluster cache may name a node group created later", clusterRules, spec("hf://x", "5Gi", "later"), nil},
		{"a namespace cache may not", namespaceRules, spec("hf://x", "5Gi", "gpu", "later"),
			[]string{"spec.nodeGroups[1]: LocalModelNodeGroup later not found"}},
		{"a node group listed twice", clusterRules, spec("hf://x", "5Gi", "gpu", "gpu"),
			[]string{"spec.nodeGroups[1]: listed twice (also spec.nodeGroups[0])"}},
		{"exactly the limit fits", clusterRules, spec("hf://x", "10Gi", "small"), nil},
		{"larger than a group's limit", clusterRules, spec("hf://x", "11Gi", "gpu", "small"),
			[]string{"spec.modelSize: larger than the storageLimit 10Gi of node group small"}},
		{"a group without a limit takes anything", clusterRules, spec("hf://x", "1Ti", "unlimited"), nil},
		{"every problem at once", namespaceRules, spec("hf://meta/llama", "20Gi", "small", "small", "gone"), []string{
			"spec.sourceModelUri: LocalModelNamespaceCache llama in this namespace already caches",
			"spec.nodeGroups[1]: listed twice", "spec.nodeGroups[2]: LocalModelNodeGroup gone not found",
			"spec.modelSize: larger than the storageLimit 10Gi of node group small"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := ValidateSpec(c.rules, "mine", c.spec, others, groups)
			assert.Len(t, errs, len(c.want), errLines(errs))
			for _, w := range c.want {
				field, msg, _ := strings.Cut(w, ": ")
				assert.True(t, admissioncases.HasError(errs, field, msg), "want %q in\n%s", w, errLines(errs))
			}
		})
	}
}

func TestInUseNamesTheUsersAndTheFix(t *testing.T) {
	assert.NoError(t, InUse(KindCache, "llama", nil))
	err := InUse(KindCache, "llama", []string{"prod/chat", "prod/summarize"})
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `localmodelcaches.serving.kserve.io "llama" is forbidden: LocalModelCache llama is still used by InferenceService prod/chat, prod/summarize; `+
		`delete them, or annotate them with serving.kserve.io/disable-localmodel: "true" so they stop using the cache, then delete it`, err.Error())
	err = InUse(KindNamespaceCache, "bert", []string{"team/qa"})
	assert.Contains(t, err.Error(), `localmodelnamespacecaches.serving.kserve.io "bert" is forbidden: LocalModelNamespaceCache bert is still used by InferenceService team/qa`)
}

func errLines(errs field.ErrorList) string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = "  " + e.Error()
	}
	return strings.Join(lines, "\n")
}
