package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestResourceConfigResources(t *testing.T) {
	tests := []struct {
		name string
		in   ResourceConfig
		want corev1.ResourceRequirements
	}{
		{"empty", ResourceConfig{}, corev1.ResourceRequirements{}},
		{"all four", ResourceConfig{CPULimit: "1", MemoryLimit: "2Gi", CPURequest: "500m", MemoryRequest: "1Gi"},
			corev1.ResourceRequirements{
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("2Gi")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")},
			}},
		{"limits only", ResourceConfig{CPULimit: "2"},
			corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}},
		{"unparsable value built by hand is skipped", ResourceConfig{CPULimit: "lots", MemoryRequest: "1Gi"},
			corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.Resources()
			assert.True(t, equalResources(tt.want, got), "want %v, got %v", tt.want, got)
		})
	}
}

func equalResources(a, b corev1.ResourceRequirements) bool {
	return equalList(a.Limits, b.Limits) && equalList(a.Requests, b.Requests)
}

func equalList(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

func TestSidecarResourcesFromDefaults(t *testing.T) {
	cfg := Default()
	tests := []struct {
		name                 string
		got                  corev1.ResourceRequirements
		cpuReq, cpuLim       string
		memReq, memLim       string
		requestEqualsLimitMC bool
	}{
		{"storage initializer", cfg.StorageInitializer.Resources(), "100m", "1", "100Mi", "1Gi", false},
		{"agent", cfg.Agent.Resources(), "100m", "1", "100Mi", "1Gi", false},
		{"logger", cfg.Logger.Resources(), "100m", "1", "100Mi", "1Gi", false},
		{"batcher", cfg.Batcher.Resources(), "1", "1", "1Gi", "1Gi", false},
		{"router", cfg.Router.Resources(), "100m", "1", "100Mi", "1Gi", false},
		{"modelcar", cfg.StorageInitializer.ModelcarResources(), "10m", "10m", "15Mi", "15Mi", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.cpuReq, tt.got.Requests.Cpu().String())
			assert.Equal(t, tt.cpuLim, tt.got.Limits.Cpu().String())
			assert.Equal(t, tt.memReq, tt.got.Requests.Memory().String())
			assert.Equal(t, tt.memLim, tt.got.Limits.Memory().String())
		})
	}
}

func TestIsKnownGPUResource(t *testing.T) {
	custom := MultiNodeConfig{CustomGPUResourceTypeList: []string{"custom.com/gpu"}}
	tests := []struct {
		name string
		cfg  MultiNodeConfig
		res  string
		want bool
	}{
		{"nvidia", MultiNodeConfig{}, "nvidia.com/gpu", true},
		{"amd", MultiNodeConfig{}, "amd.com/gpu", true},
		{"intel", MultiNodeConfig{}, "intel.com/gpu", true},
		{"gaudi", MultiNodeConfig{}, "habana.ai/gaudi", true},
		{"nvidia MIG slice", MultiNodeConfig{}, "nvidia.com/mig-1g.5gb", true},
		{"cpu", MultiNodeConfig{}, "cpu", false},
		{"custom without config", MultiNodeConfig{}, "custom.com/gpu", false},
		{"custom with config", custom, "custom.com/gpu", true},
		{"built-ins still known with custom", custom, "amd.com/gpu", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.cfg.IsKnownGPUResource(tt.res))
		})
	}
}
