package localmodelnode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/fsmserve/fsmserve/machines/nodecache"
)

func size(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

// capacityCases share one node group, gpu, limited to 10Gi.
var capacityCases = []struct {
	why    string
	models []capacityModel
	fits   map[string]bool
	check  func(t *testing.T, plan map[string]nodecache.Capacity)
}{
	{
		why: "new models are admitted in spec order while they fit",
		models: []capacityModel{
			{Key: "a", StorageKey: "ka", Group: "gpu", Size: size("6Gi")},
			{Key: "b", StorageKey: "kb", Group: "gpu", Size: size("6Gi")},
			{Key: "c", StorageKey: "kc", Group: "gpu", Size: size("3Gi")},
		},
		fits: map[string]bool{"a": true, "b": false, "c": true},
		check: func(t *testing.T, plan map[string]nodecache.Capacity) {
			assert.Equal(t, nodecache.Capacity{NodeGroup: "gpu", Limit: "10Gi", Need: "6Gi", Free: "4Gi", Holders: []string{"a (6Gi)"}}, plan["b"])
		},
	},
	{
		why: "a model holding space keeps it against earlier newcomers",
		models: []capacityModel{
			{Key: "a", StorageKey: "ka", Group: "gpu", Size: size("6Gi")},
			{Key: "b", StorageKey: "kb", Group: "gpu", Size: size("6Gi"), Holds: true},
		},
		fits: map[string]bool{"a": false, "b": true},
	},
	{
		why: "holders keep their space even when the limit was lowered below them",
		models: []capacityModel{
			{Key: "a", StorageKey: "ka", Group: "gpu", Size: size("8Gi"), Holds: true},
			{Key: "b", StorageKey: "kb", Group: "gpu", Size: size("8Gi"), Holds: true},
			{Key: "c", StorageKey: "kc", Group: "gpu", Size: size("1Gi")},
		},
		fits: map[string]bool{"a": true, "b": true, "c": false},
		check: func(t *testing.T, plan map[string]nodecache.Capacity) {
			assert.Equal(t, "-6Gi", plan["c"].Free)
		},
	},
	{
		why: "entries of the same URI share one folder and count once",
		models: []capacityModel{
			{Key: "a", StorageKey: "k", Group: "gpu", Size: size("8Gi"), Holds: true},
			{Key: "team/a", StorageKey: "k", Group: "gpu", Size: size("8Gi")},
		},
		fits: map[string]bool{"a": true, "team/a": true},
	},
	{
		why: "a group without a known limit, or a model of unknown size, is not held back",
		models: []capacityModel{
			{Key: "a", StorageKey: "ka", Group: "cpu", Size: size("80Gi")},
			{Key: "b", StorageKey: "kb", Group: "gpu", Size: size("10Gi")},
			{Key: "c", StorageKey: "kc", Group: "gpu"},
		},
		fits: map[string]bool{"a": true, "b": true, "c": true},
	},
	{
		why: "a model being evicted still holds its space",
		models: []capacityModel{
			{Key: "gone", StorageKey: "kg", Group: "gpu", Size: size("6Gi"), Holds: true},
			{Key: "b", StorageKey: "kb", Group: "gpu", Size: size("6Gi")},
		},
		fits: map[string]bool{"gone": true, "b": false},
	},
}

func TestPlanCapacity(t *testing.T) {
	limits := map[string]resource.Quantity{"gpu": resource.MustParse("10Gi")}
	for _, c := range capacityCases {
		t.Run(c.why, func(t *testing.T) {
			plan := planCapacity(c.models, limits)
			for key, want := range c.fits {
				assert.Equal(t, want, plan[key].Fits, key)
			}
			if c.check != nil {
				c.check(t, plan)
			}
		})
	}
}
