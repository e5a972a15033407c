// Package roundtrip checks that manifests survive decoding into the Go API
// types and encoding back: the tests of the api packages use it to prove
// that no KServe field is missing or renamed.
package roundtrip

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Doc is one YAML document of a sample file.
type Doc struct {
	// Source is file:index, for messages.
	Source string
	// APIVersion and Kind of the object.
	APIVersion, Kind string
	// Raw is the document as written.
	Raw []byte
	// Object is the document as generic JSON.
	Object map[string]any
}

// Name returns the object's metadata.name.
func (d Doc) Name() string {
	meta, _ := d.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}

// Load reads every document of every .yaml file under dir, in file order.
func Load(dir string) ([]Doc, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var docs []Doc
	for _, f := range files {
		fileDocs, err := loadFile(f)
		if err != nil {
			return nil, err
		}
		docs = append(docs, fileDocs...)
	}
	return docs, nil
}

func loadFile(path string) ([]Doc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs []Doc
	for i := 0; ; i++ {
		raw, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		d, err := Parse(fmt.Sprintf("%s#%d", filepath.Base(path), i), raw)
		if err != nil {
			return nil, err
		}
		if d.Object != nil {
			docs = append(docs, d)
		}
	}
}

// Parse reads one YAML document; Object is nil for an empty document.
func Parse(source string, raw []byte) (Doc, error) {
	d := Doc{Source: source, Raw: raw}
	if err := yaml.Unmarshal(raw, &d.Object); err != nil {
		return d, fmt.Errorf("%s: %w", source, err)
	}
	d.APIVersion, _ = d.Object["apiVersion"].(string)
	d.Kind, _ = d.Object["kind"].(string)
	return d, nil
}

// Check decodes the document strictly into obj, as the API server's strict
// field validation does (unknown, duplicate and wrongly cased fields are
// errors), encodes obj again and returns how the result differs from the
// document. The encoder may add values that say nothing (null, "", 0, false,
// {}, [], the zero values of fields without omitempty), drop them (an
// explicit false in an omitempty field) and write a quantity in canonical
// form; none of these counts as a difference. A field the types lack cannot
// hide among them: the strict decode rejects it first.
//
// The YAML is converted to JSON without looking at obj: sigs.k8s.io/yaml's
// UnmarshalStrict converts guided by the target type and, through
// inline-embedded structs, resolves keys against the wrong struct and
// allocates pointers there (batcher.timeout set predictor.timeout to 0).
func Check(d Doc, obj any) ([]string, error) {
	js, err := yaml.YAMLToJSONStrict(d.Raw)
	if err != nil {
		return nil, fmt.Errorf("strict YAML: %w", err)
	}
	strict, err := sigsjson.UnmarshalStrict(js, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if len(strict) > 0 {
		return nil, fmt.Errorf("strict decode: %v", errors.Join(strict...))
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	var again any
	if err := json.Unmarshal(out, &again); err != nil {
		return nil, fmt.Errorf("decode encoded: %w", err)
	}
	var diffs []string
	compare("", any(d.Object), again, &diffs)
	return diffs, nil
}

func compare(path string, want, got any, diffs *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: want an object, got %v", path, got))
			return
		}
		for k, wv := range w {
			gv, found := g[k]
			if !found {
				if !empty(wv) {
					*diffs = append(*diffs, fmt.Sprintf("%s.%s: dropped", path, k))
				}
				continue
			}
			compare(path+"."+k, wv, gv, diffs)
		}
		for k, gv := range g {
			if _, found := w[k]; !found && !empty(gv) {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: added %v", path, k, gv))
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %v, got %v", path, want, got))
			return
		}
		for i := range w {
			compare(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], diffs)
		}
	default:
		if want != got && !sameQuantity(want, got) {
			*diffs = append(*diffs, fmt.Sprintf("%s: want %#v, got %#v", path, want, got))
		}
	}
}

// empty reports whether v carries no information: null, "", 0, false, an
// empty list, or an object of such values.
func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		for _, e := range x {
			if !empty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(x) == 0
	case float64:
		return x == 0
	case bool:
		return !x
	}
	return false
}

// sameQuantity reports whether got is the canonical string of the quantity
// written as want (a number or a string).
func sameQuantity(want, got any) bool {
	g, ok := got.(string)
	if !ok {
		return false
	}
	var w string
	switch x := want.(type) {
	case string:
		w = x
	case float64:
		w = fmt.Sprint(x)
	default:
		return false
	}
	wq, err1 := resource.ParseQuantity(w)
	gq, err2 := resource.ParseQuantity(g)
	return err1 == nil && err2 == nil && wq.Cmp(gq) == 0
}
