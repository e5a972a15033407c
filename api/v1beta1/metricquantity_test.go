package v1beta1

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestMetricQuantityKeepsWhatWasWritten(t *testing.T) {
	cases := []struct {
		in       string
		original string
		value    string // canonical quantity
	}{
		{in: `"1.5"`, original: "1.5", value: "1500m"},
		{in: `50`, original: "50", value: "50"},
		{in: `"100m"`, original: "100m", value: "100m"},
		{in: `"2Gi"`, original: "2Gi", value: "2Gi"},
		{in: `0.25`, original: "0.25", value: "250m"},
		{in: `"1e3"`, original: "1e3", value: "1e3"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			var m MetricQuantity
			if err := json.Unmarshal([]byte(c.in), &m); err != nil {
				t.Fatal(err)
			}
			if m.Original != c.original || m.String() != c.original {
				t.Errorf("original %q (String %q), want %q", m.Original, m.String(), c.original)
			}
			if want := resource.MustParse(c.value); m.Quantity.Cmp(want) != 0 {
				t.Errorf("quantity %s, want %s", m.Quantity.String(), c.value)
			}
			out, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.in {
				t.Errorf("encoded %s, want %s", out, c.in)
			}
		})
	}
}

func TestMetricQuantityRejectsNonQuantities(t *testing.T) {
	for _, in := range []string{`"ten"`, `true`, `{}`, `"1.5.5"`} {
		var m MetricQuantity
		if err := json.Unmarshal([]byte(in), &m); err == nil {
			t.Errorf("%s: decoded as %q", in, m.Original)
		}
	}
}

func TestMetricQuantityWithoutOriginal(t *testing.T) {
	m := MetricQuantity{Quantity: resource.MustParse("500m")}
	out, err := json.Marshal(m)
	if err != nil || string(out) != `"500m"` {
		t.Fatalf("encoded %s, %v", out, err)
	}
	if _, err := NewMetricQuantity("x"); err == nil {
		t.Error("NewMetricQuantity accepted x")
	}
	n, err := NewMetricQuantity("0.5")
	if err != nil || n.String() != "0.5" || n.Quantity.MilliValue() != 500 {
		t.Errorf("NewMetricQuantity(0.5) = %+v, %v", n, err)
	}
}

// TestMetricQuantityUnstructured checks that the unstructured form, which
// server-side apply and dynamic clients use, keeps the original text too.
func TestMetricQuantityUnstructured(t *testing.T) {
	target := MetricTarget{Type: AverageValueMetricType, AverageValue: &MetricQuantity{}, Value: &MetricQuantity{}}
	if err := json.Unmarshal([]byte(`"1.5"`), target.AverageValue); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`7`), target.Value); err != nil {
		t.Fatal(err)
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&target)
	if err != nil {
		t.Fatal(err)
	}
	if u["averageValue"] != "1.5" || u["value"] != int64(7) {
		t.Errorf("unstructured %v", u)
	}
	copied := target.DeepCopy()
	if copied.AverageValue == target.AverageValue || copied.AverageValue.Original != "1.5" {
		t.Errorf("deep copy %+v", copied.AverageValue)
	}
}
