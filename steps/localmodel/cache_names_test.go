package localmodel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/labels"
)

func TestVolumeNamesAreKServes(t *testing.T) {
	cluster := CacheRef{Name: "llama"}
	ns := CacheRef{Name: "llama", Namespace: "team"}
	for _, c := range []struct{ got, want string }{
		{DownloadPVName(cluster, "gpu"), "llama-gpu-download"},
		{DownloadPVCName(cluster, "gpu"), "llama-gpu"},
		{DownloadPVName(ns, "gpu"), "llama-gpu-team-download"},
		{DownloadPVCName(ns, "gpu"), "llama-gpu-team-download"},
		{ServingPVName(cluster, "gpu", "prod"), "llama-gpu-prod"},
		{ServingPVCName(cluster, "gpu"), "llama-gpu"},
		{ServingPVName(ns, "gpu", "team"), "llama-gpu-team"},
		{ServingPVCName(ns, "gpu"), "llama-gpu"},
		{StatusKey(cluster), "llama"},
		{StatusKey(ns), "team/llama"},
	} {
		assert.Equal(t, c.want, c.got)
	}
}

func TestVolumeSelectorSeparatesCacheKinds(t *testing.T) {
	cluster := CacheRef{Name: "llama"}
	ns := CacheRef{Name: "llama", Namespace: "team"}
	cases := []struct {
		name   string
		sel    labels.Selector
		labels map[string]string
		want   bool
	}{
		{"cluster cache's own volume", VolumeSelector(cluster, ""), VolumeLabels(cluster, PurposeDownload, "gpu"), true},
		{"a namespace cache of the same name is not the cluster cache's", VolumeSelector(cluster, ""), VolumeLabels(ns, PurposeDownload, "gpu"), false},
		{"namespace cache's own volume", VolumeSelector(ns, PurposeServing), VolumeLabels(ns, PurposeServing, "gpu"), true},
		{"purpose filters", VolumeSelector(ns, PurposeServing), VolumeLabels(ns, PurposeDownload, "gpu"), false},
		{"another namespace's cache", VolumeSelector(ns, ""), VolumeLabels(CacheRef{Name: "llama", Namespace: "other"}, PurposeDownload, "gpu"), false},
		{"not managed by fsmserve", VolumeSelector(cluster, ""), map[string]string{LabelCache: "llama"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.sel.Matches(labels.Set(c.labels)))
		})
	}
}

func TestCacheOfVolume(t *testing.T) {
	ref, ok := CacheOfVolume(VolumeLabels(CacheRef{Name: "llama", Namespace: "team"}, PurposeServing, "gpu"))
	assert.True(t, ok)
	assert.Equal(t, CacheRef{Name: "llama", Namespace: "team"}, ref)
	_, ok = CacheOfVolume(map[string]string{LabelCache: "llama"})
	assert.False(t, ok, "a volume fsmserve does not manage")
	assert.True(t, NodeGroupOfVolume(VolumeLabels(ref, PurposeServing, "gpu"), "gpu"))
}

func TestLongNamesStayValidLabelValues(t *testing.T) {
	long := strings.Repeat("a", 100)
	other := strings.Repeat("a", 99) + "b"
	v1, v2 := labelValue(long), labelValue(other)
	assert.Len(t, v1, 63)
	assert.NotEqual(t, v1, v2, "names that share a prefix stay distinct")
	assert.Equal(t, "short", labelValue("short"))
	sel := VolumeSelector(CacheRef{Name: long}, "")
	assert.True(t, sel.Matches(labels.Set(VolumeLabels(CacheRef{Name: long}, PurposeDownload, long))))
}
