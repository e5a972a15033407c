package runtime

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
)

type rtOpt func(*Runtime)

func rt(name string, opts ...rtOpt) Runtime {
	r := Runtime{Name: name, Spec: &v1alpha1.ServingRuntimeSpec{}, Created: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	for _, o := range opts {
		o(&r)
	}
	return r
}

func format(name, version string, auto bool, priority int32) rtOpt {
	return func(r *Runtime) {
		f := v1alpha1.SupportedModelFormat{Name: name, AutoSelect: &auto}
		if version != "" {
			f.Version = &version
		}
		if priority > 0 {
			f.Priority = &priority
		}
		r.Spec.SupportedModelFormats = append(r.Spec.SupportedModelFormats, f)
	}
}

func protocolsOf(ps ...string) rtOpt {
	return func(r *Runtime) {
		for _, p := range ps {
			r.Spec.ProtocolVersions = append(r.Spec.ProtocolVersions, v1alpha1.InferenceServiceProtocol(p))
		}
	}
}

func disabled(r *Runtime) { t := true; r.Spec.Disabled = &t }
func cluster(r *Runtime)  { r.Cluster = true }
func createdAt(d int) rtOpt {
	return func(r *Runtime) { r.Created = metav1.NewTime(r.Created.Add(time.Duration(d) * time.Hour)) }
}

func TestExplicitRuntime(t *testing.T) {
	sk := rt("sk", format("sklearn", "1", false, 0), protocolsOf("v1", "v2"))
	csk := rt("sk", cluster, format("sklearn", "1", true, 0))
	cases := []struct {
		why        string
		req        Request
		ns, cl     []Runtime
		wantName   string
		wantReason string
	}{
		{"namespaced shadows cluster of the same name", Request{Runtime: "sk", Format: "sklearn"}, []Runtime{sk}, []Runtime{csk}, "sk", ""},
		{"falls back to cluster", Request{Runtime: "sk", Format: "sklearn"}, nil, []Runtime{csk}, "sk", ""},
		{"missing", Request{Runtime: "nope", Format: "sklearn"}, []Runtime{sk}, nil, "", ReasonRuntimeNotRecognized},
		{"disabled", Request{Runtime: "sk", Format: "sklearn"}, []Runtime{rt("sk", disabled, format("sklearn", "", true, 0))}, nil, "", ReasonRuntimeDisabled},
		{"protocol unsupported", Request{Runtime: "sk", Format: "sklearn", Protocol: "grpc-v2"}, []Runtime{sk}, nil, "", ReasonNoSupportingRuntime},
		{"format unsupported", Request{Runtime: "sk", Format: "xgboost"}, []Runtime{sk}, nil, "", ReasonNoSupportingRuntime},
		{"explicit ignores autoSelect", Request{Runtime: "sk", Format: "sklearn", Version: "1"}, []Runtime{sk}, nil, "sk", ""},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, fail := Resolve(c.req, c.ns, c.cl)
			if c.wantReason != "" {
				require.NotNil(t, fail)
				assert.Equal(t, c.wantReason, fail.Reason)
				assert.NotEmpty(t, fail.Detail)
				return
			}
			require.Nil(t, fail)
			assert.Equal(t, c.wantName, got.Name)
		})
	}
	got, _ := Resolve(Request{Runtime: "sk", Format: "sklearn"}, []Runtime{sk}, []Runtime{csk})
	assert.False(t, got.Cluster)
}

func TestAutoSelect(t *testing.T) {
	cases := []struct {
		why      string
		req      Request
		ns, cl   []Runtime
		want     string
		wantFail bool
	}{
		{"only autoSelect entries count", Request{Format: "sklearn"}, []Runtime{rt("a", format("sklearn", "", false, 0))}, []Runtime{rt("b", format("sklearn", "", true, 0))}, "b", false},
		{"namespaced before cluster", Request{Format: "sklearn"}, []Runtime{rt("ns", format("sklearn", "", true, 0))}, []Runtime{rt("cl", format("sklearn", "", true, 5))}, "ns", false},
		{"disabled skipped", Request{Format: "sklearn"}, []Runtime{rt("a", disabled, format("sklearn", "", true, 0))}, []Runtime{rt("b", format("sklearn", "", true, 0))}, "b", false},
		{"higher priority wins", Request{Format: "sklearn"}, nil, []Runtime{rt("low", format("sklearn", "", true, 1)), rt("high", format("sklearn", "", true, 2))}, "high", false},
		{"priority beats none", Request{Format: "sklearn"}, nil, []Runtime{rt("none", format("sklearn", "", true, 0)), rt("some", format("sklearn", "", true, 1))}, "some", false},
		{"newest first when tied", Request{Format: "sklearn"}, nil, []Runtime{rt("old", format("sklearn", "", true, 0)), rt("new", createdAt(1), format("sklearn", "", true, 0))}, "new", false},
		{"name breaks ties", Request{Format: "sklearn"}, nil, []Runtime{rt("b", format("sklearn", "", true, 0)), rt("a", format("sklearn", "", true, 0))}, "a", false},
		{"v1 runtimes before v2-only", Request{Format: "sklearn", Protocol: "v2"}, nil, []Runtime{rt("v2only", protocolsOf("v2"), format("sklearn", "", true, 0)), rt("both", protocolsOf("v2", "v1"), format("sklearn", "", true, 0))}, "both", false},
		{"unset protocol matches as v1", Request{Format: "sklearn"}, nil, []Runtime{rt("v2only", protocolsOf("v2"), format("sklearn", "", true, 0))}, "", true},
		{"empty protocol list matches anything", Request{Format: "sklearn", Protocol: "grpc-v2"}, nil, []Runtime{rt("any", format("sklearn", "", true, 0))}, "any", false},
		{"versioned model needs the version", Request{Format: "sklearn", Version: "2"}, nil, []Runtime{rt("v1", format("sklearn", "1", true, 0))}, "", true},
		{"versioned model matches the version", Request{Format: "sklearn", Version: "1"}, nil, []Runtime{rt("v1", format("sklearn", "1", true, 0))}, "v1", false},
		{"multi-node needs a worker runtime", Request{Format: "sklearn", MultiNode: true}, nil, []Runtime{rt("single", format("sklearn", "", true, 0))}, "", true},
		{"nothing supports the format", Request{Format: "pmml"}, nil, []Runtime{rt("sk", format("sklearn", "", true, 0))}, "", true},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, fail := Resolve(c.req, c.ns, c.cl)
			if c.wantFail {
				require.NotNil(t, fail)
				assert.Equal(t, ReasonNoSupportingRuntime, fail.Reason)
				assert.Contains(t, fail.Detail, c.req.Format)
				return
			}
			require.Nil(t, fail, "%v", fail)
			assert.Equal(t, c.want, got.Name)
		})
	}
}

func TestDefaultProtocol(t *testing.T) {
	assert.Equal(t, "v1", DefaultProtocol(rt("x", protocolsOf("v2", "v1")).Spec))
	assert.Equal(t, "", DefaultProtocol(rt("x").Spec))
}
