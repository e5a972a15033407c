// Package localmodel is admission for local model caches: the validators of
// LocalModelCaches and LocalModelNamespaceCaches, and the labeller the
// InferenceService defaulter runs to point an InferenceService at the cache
// that holds its model.
//
// The rules are pure functions (ValidateSpec, InUse, Choose, SetLabels) of the
// object and what the adapters listed; the adapters read the other caches,
// the node groups and the InferenceServices through a client and turn the
// verdict into the API status a user sees in kubectl.
package localmodel
