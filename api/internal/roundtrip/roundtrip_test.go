package roundtrip

import (
	"strings"
	"testing"
)

type sample struct {
	Name     string            `json:"name"`
	Count    int               `json:"count,omitempty"`
	Flag     bool              `json:"flag,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Required string            `json:"required"`
}

// quantitySample canonicalises its quantity like resource.Quantity.
type quantitySample struct {
	Q canonical `json:"q"`
}

type canonical string

func (c canonical) MarshalJSON() ([]byte, error) { return []byte(`"1500m"`), nil }

func TestCheck(t *testing.T) {
	cases := []struct {
		name, doc string
		obj       any
		want      string // substring of the differences or error; "" for none
	}{
		{"same", "name: a\ncount: 2\ntags: [x]\nlabels: {k: v}", &sample{}, ""},
		{"zero values added and dropped", "name: a\nflag: false\ncount: 0", &sample{}, ""},
		{"unknown field", "name: a\nextra: 1", &sample{}, `unknown field "extra"`},
		{"wrong case", "Name: a", &sample{}, "unknown field"},
		{"duplicate field", "name: a\nname: b", &sample{}, "already set"},
		{"wrong type", "count: two", &sample{}, "decode"},
		{"canonical quantity", `q: "1.5"`, &quantitySample{}, ""},
		{"changed value", `q: "2"`, &quantitySample{}, `.q: want "2", got "1500m"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse(c.name, []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			diffs, err := Check(d, c.obj)
			got := strings.Join(diffs, "; ")
			if err != nil {
				got = err.Error()
			}
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCompareReportsLostAndAddedValues(t *testing.T) {
	var diffs []string
	compare("", map[string]any{"a": "x", "b": []any{1.0}}, map[string]any{"c": "y", "b": []any{}}, &diffs)
	got := strings.Join(diffs, "; ")
	for _, want := range []string{".a: dropped", ".c: added y", ".b: want"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
