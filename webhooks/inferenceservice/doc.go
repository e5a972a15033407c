// Package inferenceservice is admission for InferenceServices: the defaulter
// (KServe's mutating webhook) and the validator (KServe's validating webhook
// plus fsmserve's own rule that a field the installation cannot honour is
// rejected, never ignored).
//
// The logic is pure: Default, Validate and ValidateUpdate take the object, the
// parsed inferenceservice-config and the installation's Capabilities, and
// touch nothing else. Defaulter and Validator are the thin adapters that
// controller-runtime's admission.WithDefaulter / admission.WithValidator
// serve; they load the configuration on every request, as KServe does, and
// turn a field.ErrorList into an Invalid status naming every bad field.
package inferenceservice
