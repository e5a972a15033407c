package v1alpha1

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// GetStorageKey returns the folder name of a cached model: the first 16 hex
// digits of the SHA-256 of its source URI, so caches of the same URI share
// one folder on a node.
func GetStorageKey(sourceModelUri string) string {
	sum := sha256.Sum256([]byte(sourceModelUri))
	return hex.EncodeToString(sum[:])[:16]
}

// MatchStorageURI reports whether storageUri is served by a cache of
// cachedUri: the same URI, or a path below it on a "/" boundary. Trailing
// slashes do not count.
func MatchStorageURI(cachedUri, storageUri string) bool {
	cachedUri = strings.TrimSuffix(cachedUri, "/")
	storageUri = strings.TrimSuffix(storageUri, "/")
	rest, found := strings.CutPrefix(storageUri, cachedUri)
	return found && (rest == "" || rest[0] == '/')
}

// GetStatusKey returns the key of a model in LocalModelNode status: the
// model name for a cluster cache, namespace/name for a namespace cache.
func (m *LocalModelInfo) GetStatusKey() string {
	if m.Namespace == "" {
		return m.ModelName
	}
	return m.Namespace + "/" + m.ModelName
}
