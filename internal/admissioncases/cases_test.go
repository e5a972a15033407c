package admissioncases

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestLoadIsStrict(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("- name: a\n  operation: CREATE\n  field: spec.x\n  message: bad\n  object: {kind: K}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := Load[Invalid](t, good)
	if len(cases) != 1 || cases[0].Field != "spec.x" || string(cases[0].Object) != `{"kind":"K"}` {
		t.Fatalf("Load = %+v", cases)
	}
	typo := filepath.Join(dir, "typo.yaml")
	if err := os.WriteFile(typo, []byte("- name: a\n  feild: spec.x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inner := &testing.T{}
	done := make(chan struct{})
	go func() { defer close(done); Load[Invalid](inner, typo) }()
	<-done
	if !inner.Failed() {
		t.Fatal("a misspelled key must fail the test")
	}
}

func TestHasErrorMatchesPathAndMessage(t *testing.T) {
	errs := field.ErrorList{field.Invalid(field.NewPath("spec", "minReplicas"), -1, "must be 0 or more")}
	if !HasError(errs, "spec.minReplicas", "0 or more") {
		t.Error("the error at spec.minReplicas is not found")
	}
	if HasError(errs, "spec.maxReplicas", "0 or more") || HasError(errs, "spec.minReplicas", "positive") {
		t.Error("a different path or message matches")
	}
	if got := ErrorLines(errs); got != "  "+errs[0].Error() {
		t.Errorf("ErrorLines = %q", got)
	}
}
