package inferenceservice

import (
	"context"
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
)

func loaderOf(data map[string]string) ConfigLoader {
	return func(context.Context) (*config.Config, *config.Errors, error) {
		cfg, errs := config.Parse(data)
		return cfg, errs, nil
	}
}

func failingLoader(context.Context) (*config.Config, *config.Errors, error) {
	return nil, nil, errors.New("configmaps \"inferenceservice-config\" not found")
}

type labeler struct {
	calls int
	err   error
}

func (l *labeler) Label(_ context.Context, isvc *v1beta1.InferenceService) error {
	l.calls++
	if isvc.Spec.Predictor.Model == nil {
		return errors.New("labelled before the shorthand was converted")
	}
	return l.err
}

func TestDefaulterAdapter(t *testing.T) {
	ctx := context.Background()
	sample := `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`
	for _, tc := range []struct {
		name    string
		loader  ConfigLoader
		labeler *labeler
		wantErr string
	}{
		{name: "nil loader uses the built-in configuration"},
		{name: "labeler runs after the defaults", loader: loaderOf(nil), labeler: &labeler{}},
		{name: "labeler failure rejects", loader: loaderOf(nil), labeler: &labeler{err: errors.New("list caches: forbidden")}, wantErr: "list caches: forbidden"},
		{name: "unreadable ConfigMap rejects", loader: failingLoader, wantErr: "reading inferenceservice-config"},
		{name: "a rejected deploy key rejects", loader: loaderOf(map[string]string{"deploy": `{"defaultDeploymentMode": "Fast"}`}), wantErr: `key "deploy"`},
		{name: "a rejected key the defaulter does not read is ignored", loader: loaderOf(map[string]string{"ingress": `{`})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Defaulter{Config: tc.loader}
			if tc.labeler != nil {
				d.LocalModelLabeler = tc.labeler
			}
			isvc := parseISVC(t, sample)
			err := d.Default(ctx, isvc)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !apierrors.IsInternalError(err) {
					t.Fatalf("error %v, want an internal error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if isvc.Spec.Predictor.Model == nil || isvc.Annotations[v1beta1.DeploymentModeAnnotation] != "Standard" {
				t.Fatalf("not defaulted: %s", toYAML(t, isvc))
			}
			if tc.labeler != nil && tc.labeler.calls != 1 {
				t.Fatalf("labeler called %d times", tc.labeler.calls)
			}
		})
	}
}

func TestDefaulterLeavesObjectsBeingDeleted(t *testing.T) {
	isvc := parseISVC(t, `{metadata: {name: a, finalizers: [f]}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`)
	isvc.DeletionTimestamp = &metav1.Time{}
	before := isvc.DeepCopy()
	d := &Defaulter{Config: failingLoader, LocalModelLabeler: &labeler{err: errors.New("unreachable")}}
	if err := d.Default(context.Background(), isvc); err != nil {
		t.Fatalf("an object being deleted: %v", err)
	}
	if isvc.Spec.Predictor.SKLearn == nil || len(isvc.Annotations) != 0 || before.Name != isvc.Name {
		t.Fatalf("an object being deleted was changed: %s", toYAML(t, isvc))
	}
}

func TestValidatorAdapter(t *testing.T) {
	ctx := context.Background()
	v := &Validator{Config: loaderOf(nil), Capabilities: CurrentCapabilities()}
	bad := parseISVC(t, `{metadata: {name: a}, spec: {predictor: {minReplicas: -1, sklearn: {storageUri: oci://r/m, confidential: {enabled: true}}}}}`)
	Default(bad, nil)
	good := parseISVC(t, `{metadata: {name: a}, spec: {predictor: {sklearn: {storageUri: s3://m}}}}`)
	Default(good, nil)

	warnings, err := v.ValidateCreate(ctx, bad)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), `InferenceService.serving.kserve.io "a" is invalid: spec.predictor.minReplicas`) {
		t.Fatalf("create: %v", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "oci://") {
		t.Fatalf("warnings %v", warnings)
	}
	if _, err := v.ValidateCreate(ctx, good); err != nil {
		t.Fatalf("valid create: %v", err)
	}
	if _, err := v.ValidateUpdate(ctx, good, bad); !apierrors.IsInvalid(err) {
		t.Fatalf("update: %v", err)
	}
	deleting := bad.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{}
	if _, err := v.ValidateUpdate(ctx, good, deleting); err != nil {
		t.Fatalf("update of an object being deleted: %v", err)
	}
	if _, err := v.ValidateDelete(ctx, bad); err != nil {
		t.Fatalf("delete: %v", err)
	}
	broken := &Validator{Config: failingLoader, Capabilities: CurrentCapabilities()}
	if _, err := broken.ValidateCreate(ctx, good); !apierrors.IsInternalError(err) {
		t.Fatalf("unreadable ConfigMap: %v", err)
	}
	badGPU := &Validator{Config: loaderOf(map[string]string{"multiNode": `{"customGPUResourceTypeList": ["not a name"]}`})}
	if _, err := badGPU.ValidateCreate(ctx, good); err == nil || !strings.Contains(err.Error(), `key "multiNode"`) {
		t.Fatalf("rejected multiNode key: %v", err)
	}
}
