package inferenceservice

import (
	"encoding/json"
	"github.com/fsmserve/fsmserve/internal/admissioncases"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

// fuzzConfigs are the configurations every fuzz input is defaulted and
// validated with: the built-in one, and one with every defaulting knob set.
func fuzzConfigs(t testing.TB) []*config.Config {
	cfg, errs := config.Parse(map[string]string{
		"deploy":           `{"defaultDeploymentMode": "ModelMesh"}`,
		"inferenceService": shippedLimits,
		"security":         `{"autoMountServiceAccountToken": false}`,
		"multiNode":        `{"customGPUResourceTypeList": ["example.com/gpu"]}`,
	})
	if errs != nil {
		t.Fatal(errs.Err())
	}
	return []*config.Config{config.Default(), cfg}
}

// addSeeds adds every manifest of the test data as a seed.
func addSeeds(f *testing.F, add func(json.RawMessage)) {
	for _, file := range []string{"testdata/invalid.yaml", "testdata/invalid-all-capabilities.yaml"} {
		for _, c := range admissioncases.Load[invalidCase](f, file) {
			add(c.Object)
			if c.Old != nil {
				add(c.Old)
			}
		}
	}
	for _, c := range admissioncases.Load[validCase](f, "testdata/valid.yaml") {
		add(c.Object)
	}
}

func FuzzDefaultIsIdempotent(f *testing.F) {
	addSeeds(f, func(raw json.RawMessage) { f.Add([]byte(raw)) })
	f.Add([]byte(`{"spec":{"predictor":{"containers":[{},{"name":"kserve-container"}]}}}`))
	configs := fuzzConfigs(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		isvc := &v1beta1.InferenceService{}
		if json.Unmarshal(data, isvc) != nil {
			return
		}
		for _, cfg := range configs {
			once := isvc.DeepCopy()
			Default(once, cfg)
			twice := once.DeepCopy()
			Default(twice, cfg)
			if !equality.Semantic.DeepEqual(once, twice) {
				t.Fatalf("defaulting twice differs from once\nonce:  %+v\ntwice: %+v", once.Spec, twice.Spec)
			}
		}
	})
}

func FuzzValidateNeverPanics(f *testing.F) {
	var seeds []json.RawMessage
	addSeeds(f, func(raw json.RawMessage) { seeds = append(seeds, raw) })
	for i := range seeds {
		f.Add([]byte(seeds[i]), []byte(seeds[(i+1)%len(seeds)]))
	}
	configs := fuzzConfigs(f)
	f.Fuzz(func(t *testing.T, oldData, newData []byte) {
		old, new := &v1beta1.InferenceService{}, &v1beta1.InferenceService{}
		if json.Unmarshal(oldData, old) != nil || json.Unmarshal(newData, new) != nil {
			return
		}
		for _, cfg := range configs {
			for _, caps := range []Capabilities{CurrentCapabilities(), AllCapabilities(), {}} {
				Validate(new, cfg, caps)
				ValidateUpdate(old, new, cfg, caps)
				Warnings(new)
				defaulted := new.DeepCopy()
				Default(defaulted, cfg)
				Validate(defaulted, cfg, caps)
				ValidateUpdate(new, defaulted, cfg, caps)
			}
		}
	})
}
