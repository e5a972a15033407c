package v1alpha1

import (
	"testing"

	"k8s.io/utils/ptr"
)

func TestServingRuntimeFlags(t *testing.T) {
	var empty ServingRuntimeSpec
	if empty.IsDisabled() || empty.IsMultiModelRuntime() || empty.IsMultiNodeRuntime() {
		t.Error("an empty runtime reports a flag")
	}
	set := ServingRuntimeSpec{Disabled: ptr.To(true), MultiModel: ptr.To(true), WorkerSpec: &WorkerSpec{}}
	if !set.IsDisabled() || !set.IsMultiModelRuntime() || !set.IsMultiNodeRuntime() {
		t.Error("a runtime with every flag misses one")
	}
	off := ServingRuntimeSpec{Disabled: ptr.To(false), MultiModel: ptr.To(false)}
	if off.IsDisabled() || off.IsMultiModelRuntime() {
		t.Error("flags set to false read as true")
	}
}

func TestSupportsProtocol(t *testing.T) {
	listed := ServingRuntimeSpec{ProtocolVersions: []InferenceServiceProtocol{ProtocolV2, ProtocolGRPCV2}}
	cases := []struct {
		spec ServingRuntimeSpec
		p    InferenceServiceProtocol
		want bool
	}{
		{ServingRuntimeSpec{}, ProtocolV1, true},
		{listed, "", true},
		{listed, ProtocolV2, true},
		{listed, ProtocolGRPCV2, true},
		{listed, ProtocolV1, false},
	}
	for _, c := range cases {
		if got := c.spec.SupportsProtocol(c.p); got != c.want {
			t.Errorf("%v supports %q = %v", c.spec.ProtocolVersions, c.p, got)
		}
	}
}

func TestModelFormatPriority(t *testing.T) {
	spec := ServingRuntimeSpec{SupportedModelFormats: []SupportedModelFormat{
		{Name: "sklearn", Priority: ptr.To[int32](2), AutoSelect: ptr.To(true)},
		{Name: "xgboost"},
	}}
	if p := spec.GetPriority("sklearn"); p == nil || *p != 2 {
		t.Errorf("sklearn priority %v", p)
	}
	if p := spec.GetPriority("xgboost"); p != nil {
		t.Errorf("xgboost priority %v", *p)
	}
	if p := spec.GetPriority("onnx"); p != nil {
		t.Errorf("onnx priority %v", *p)
	}
	if !spec.SupportedModelFormats[0].IsAutoSelectEnabled() || spec.SupportedModelFormats[1].IsAutoSelectEnabled() {
		t.Error("autoSelect read wrongly")
	}
}

func TestStorageContainerSupportsURI(t *testing.T) {
	spec := StorageContainerSpec{SupportedUriFormats: []SupportedUriFormat{
		{Prefix: "gs://"},
		{Regex: "https://(.+?).blob.core.windows.net/(.+)"},
	}}
	cases := map[string]bool{
		"gs://bucket/model":                         true,
		"https://acct.blob.core.windows.net/c/m":    true,
		"s3://bucket/model":                         false,
		"https://example.com/gs://not-a-gcs-prefix": false,
	}
	for uri, want := range cases {
		got, err := spec.SupportsURI(uri)
		if err != nil || got != want {
			t.Errorf("SupportsURI(%q) = %v, %v; want %v", uri, got, err, want)
		}
	}
	bad := StorageContainerSpec{SupportedUriFormats: []SupportedUriFormat{{Regex: "("}}}
	if _, err := bad.SupportsURI("x"); err == nil {
		t.Error("a broken regex is not an error")
	}
	csc := ClusterStorageContainer{}
	if csc.IsDisabled() {
		t.Error("disabled by default")
	}
	csc.Disabled = ptr.To(true)
	if !csc.IsDisabled() {
		t.Error("disabled: true not read")
	}
}

func TestMatchStorageURI(t *testing.T) {
	cases := []struct {
		cached, uri string
		want        bool
	}{
		{"s3://b/model", "s3://b/model", true},
		{"s3://b/model/", "s3://b/model", true},
		{"s3://b/model", "s3://b/model/", true},
		{"s3://b/model", "s3://b/model/v1", true},
		{"s3://b/model", "s3://b/model-v2", false},
		{"s3://b/model/v1", "s3://b/model", false},
		{"hf://org/m", "s3://org/m", false},
	}
	for _, c := range cases {
		if got := MatchStorageURI(c.cached, c.uri); got != c.want {
			t.Errorf("MatchStorageURI(%q, %q) = %v", c.cached, c.uri, got)
		}
	}
}

func TestStorageKeyAndStatusKey(t *testing.T) {
	// sha256("hf://meta-llama/Meta-Llama-3-8B"), first 16 hex digits.
	key := GetStorageKey("hf://meta-llama/Meta-Llama-3-8B")
	if key != "c41ae4f29d692d55" {
		t.Errorf("storage key %q", key)
	}
	if key == GetStorageKey("hf://meta-llama/Meta-Llama-3-8B/") {
		t.Error("different URIs share a key")
	}
	if got := (&LocalModelInfo{ModelName: "m"}).GetStatusKey(); got != "m" {
		t.Errorf("cluster cache key %q", got)
	}
	if got := (&LocalModelInfo{ModelName: "m", Namespace: "ns"}).GetStatusKey(); got != "ns/m" {
		t.Errorf("namespace cache key %q", got)
	}
}
