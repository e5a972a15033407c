package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestNormalizeDeploymentMode(t *testing.T) {
	tests := []struct {
		in     string
		want   DeploymentMode
		wantOK bool
	}{
		{"Standard", Standard, true},
		{"RawDeployment", Standard, true},
		{"Knative", Knative, true},
		{"Serverless", Knative, true},
		{"ModelMesh", ModelMesh, true},
		{"", "", false},
		{"standard", "", false},
		{"Raw", "", false},
		{" Standard", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := NormalizeDeploymentMode(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantOK, ok)
		})
	}
}

func TestParseDeployModes(t *testing.T) {
	tests := []struct {
		name  string
		value string
		want  DeploymentMode
	}{
		{"legacy RawDeployment becomes Standard", `{"defaultDeploymentMode": "RawDeployment"}`, Standard},
		{"legacy Serverless becomes Knative", `{"defaultDeploymentMode": "Serverless"}`, Knative},
		{"Standard", `{"defaultDeploymentMode": "Standard"}`, Standard},
		{"Knative", `{"defaultDeploymentMode": "Knative"}`, Knative},
		{"ModelMesh", `{"defaultDeploymentMode": "ModelMesh"}`, ModelMesh},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := Parse(map[string]string{KeyDeploy: tt.value})
			require.Nil(t, errs)
			assert.Equal(t, tt.want, cfg.Deploy.DefaultDeploymentMode)
		})
	}
}

func TestDefaultRollout(t *testing.T) {
	rollout := `"deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "25%", "maxUnavailable": "1"}}`
	tests := []struct {
		name          string
		value         string
		wantNil       bool
		wantSurge     intstr.IntOrString
		wantUnavailab intstr.IntOrString
	}{
		{"Standard with rollout", `{"defaultDeploymentMode": "Standard", ` + rollout + `}`, false, intstr.FromString("25%"), intstr.FromInt32(1)},
		{"legacy RawDeployment with rollout", `{"defaultDeploymentMode": "RawDeployment", ` + rollout + `}`, false, intstr.FromString("25%"), intstr.FromInt32(1)},
		{"Knative ignores the rollout", `{"defaultDeploymentMode": "Knative", ` + rollout + `}`, true, intstr.IntOrString{}, intstr.IntOrString{}},
		{"Standard without rollout", `{"defaultDeploymentMode": "Standard"}`, true, intstr.IntOrString{}, intstr.IntOrString{}},
		{"Standard with empty strategy", `{"defaultDeploymentMode": "Standard", "deploymentRolloutStrategy": {}}`, true, intstr.IntOrString{}, intstr.IntOrString{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, errs := Parse(map[string]string{KeyDeploy: tt.value})
			require.Nil(t, errs)
			got := cfg.Deploy.DefaultRollout()
			if tt.wantNil {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tt.wantSurge, *got.MaxSurge)
			assert.Equal(t, tt.wantUnavailab, *got.MaxUnavailable)
		})
	}
}

func TestDefaultRolloutOmitsUnsetField(t *testing.T) {
	cfg, errs := Parse(map[string]string{KeyDeploy: `{"defaultDeploymentMode": "Standard",
		"deploymentRolloutStrategy": {"defaultRollout": {"maxSurge": "0"}}}`})
	require.Nil(t, errs, "an unset maxUnavailable is not zero, so a zero maxSurge is allowed")
	got := cfg.Deploy.DefaultRollout()
	require.NotNil(t, got)
	assert.Nil(t, got.MaxUnavailable)
	assert.Equal(t, intstr.FromInt32(0), *got.MaxSurge)
}

func TestModeFor(t *testing.T) {
	knativeDefault := DeployConfig{DefaultDeploymentMode: Knative}
	tests := []struct {
		name        string
		cfg         DeployConfig
		status      string
		annotations map[string]string
		want        DeploymentMode
	}{
		{"configured default", knativeDefault, "", nil, Knative},
		{"zero config means Standard", DeployConfig{}, "", nil, Standard},
		{"annotation wins over default", knativeDefault, "", map[string]string{DeploymentModeAnnotation: "Standard"}, Standard},
		{"legacy annotation normalised", knativeDefault, "", map[string]string{DeploymentModeAnnotation: "RawDeployment"}, Standard},
		{"unknown annotation falls back", knativeDefault, "", map[string]string{DeploymentModeAnnotation: "Fast"}, Knative},
		{"status wins over annotation", knativeDefault, "ModelMesh", map[string]string{DeploymentModeAnnotation: "Standard"}, ModelMesh},
		{"legacy status normalised", DeployConfig{DefaultDeploymentMode: Standard}, "Serverless", nil, Knative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.cfg.ModeFor(tt.status, tt.annotations))
		})
	}
}
