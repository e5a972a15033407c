package lifecycle

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func TestFreshnessFlagsOnlyTheReplacedVersion(t *testing.T) {
	var f Freshness
	key := types.NamespacedName{Namespace: "ns", Name: "a"}
	other := types.NamespacedName{Namespace: "ns", Name: "b"}
	if f.Stale(key, "1") {
		t.Fatal("nothing written yet, but version 1 is called stale")
	}
	f.Wrote(key, "7")
	if !f.Stale(key, "7") {
		t.Fatal("version 7 was replaced by our write, but is not called stale")
	}
	if !f.Stale(key, "7") {
		t.Fatal("a stale read must stay stale until the cache catches up")
	}
	if f.Stale(other, "7") {
		t.Fatal("another object's version is called stale")
	}
	if f.Stale(key, "8") {
		t.Fatal("the cache caught up (version 8), but it is called stale")
	}
	if f.Stale(key, "7") {
		t.Fatal("once caught up the memory must be dropped")
	}
	f.Wrote(key, "9")
	f.Forget(key)
	if f.Stale(key, "9") {
		t.Fatal("Forget must drop the memory of a deleted object")
	}
}
