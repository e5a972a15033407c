package config

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  KeyError
		want string
	}{
		{
			name: "key, field, problem and fix",
			err:  KeyError{Key: "ingress", Field: "domainTemplate", Problem: "bad template", Fix: "use {{ .Name }}"},
			want: `inferenceservice-config key "ingress": field "domainTemplate": bad template; fix: use {{ .Name }}`,
		},
		{
			name: "whole value at fault",
			err:  KeyError{Key: "deploy", Problem: "the value is empty", Fix: "write {}"},
			want: `inferenceservice-config key "deploy": the value is empty; fix: write {}`,
		},
		{
			name: "no fix",
			err:  KeyError{Key: "agent", Field: "cpuLimit", Problem: "oops"},
			want: `inferenceservice-config key "agent": field "cpuLimit": oops`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.err.Error())
		})
	}
}

func TestReason(t *testing.T) {
	tests := []struct{ key, want string }{
		{KeyIngress, "InvalidIngressConfig"},
		{KeyDeploy, "InvalidDeployConfig"},
		{KeyInferenceService, "InvalidInferenceServiceConfig"},
		{KeyStorageInitializer, "InvalidStorageInitializerConfig"},
		{KeyCredentials, "InvalidCredentialsConfig"},
		{KeyMultiNode, "InvalidMultiNodeConfig"},
		{KeyOpenTelemetryCollector, "InvalidOpentelemetryCollectorConfig"},
		{KeyMetricsAggregator, "InvalidMetricsAggregatorConfig"},
		{KeyLocalModel, "InvalidLocalModelConfig"},
		{"some-key.x", "InvalidSomeKeyXConfig"},
		{"", "InvalidConfig"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			assert.Equal(t, tt.want, Reason(tt.key))
			assert.Regexp(t, `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`, Reason(tt.key), "must be a valid condition reason")
		})
	}
	assert.Equal(t, "InvalidRouterConfig", (&KeyError{Key: KeyRouter}).Reason())
}

func TestErrorsNilIsEmpty(t *testing.T) {
	var errs *Errors
	assert.Nil(t, errs.For(KeyIngress))
	assert.Empty(t, errs.Keys())
	assert.Equal(t, 0, errs.Len())
	assert.Empty(t, errs.All())
	assert.NoError(t, errs.Err())
}

func TestErrorsCollectsOnePerKeyInOrder(t *testing.T) {
	var errs *Errors
	errs = errs.add(nil)
	assert.Nil(t, errs, "adding nothing keeps the collection nil")
	errs = errs.add(&KeyError{Key: "ingress", Problem: "first"})
	errs = errs.add(&KeyError{Key: "deploy", Problem: "d"})
	errs = errs.add(&KeyError{Key: "ingress", Problem: "second"})

	require.Equal(t, 2, errs.Len())
	assert.Equal(t, []string{"deploy", "ingress"}, errs.Keys())
	assert.Equal(t, "first", errs.For("ingress").Problem, "the first problem of a key wins")
	assert.Nil(t, errs.For("agent"))

	joined := errs.Err()
	require.Error(t, joined)
	var ke *KeyError
	require.True(t, errors.As(joined, &ke))
	assert.Equal(t, "deploy", ke.Key, "errors are joined in key order")
	assert.Contains(t, joined.Error(), `key "ingress"`)
}
