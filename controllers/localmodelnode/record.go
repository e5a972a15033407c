package localmodelnode

import (
	"encoding/json"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/downloadjob"
)

// recordAnnotationPrefix keys the agent's per-model record in
// status.annotations (knative's place for extra status fields):
// localmodel.fsmserve.io/<status key>.
const recordAnnotationPrefix = "localmodel.fsmserve.io/"

// record is what the agent must remember about a model beyond the machines'
// states, because the Job that would tell it may be gone (deleted, or removed
// by its TTL): where the folder is, and the current round of download
// attempts. It is written with the rest of status, once per reconcile.
type record struct {
	// StorageKey names the model's folder, so an evicted model's folder is
	// found after its entry left the spec.
	StorageKey string `json:"storageKey,omitempty"`
	// NodeGroup and Size are the space the model holds, so a model being
	// evicted keeps holding it until its folder is gone.
	NodeGroup string             `json:"nodeGroup,omitempty"`
	Size      *resource.Quantity `json:"size,omitempty"`
	// Attempt is the number of the last Job created in this round.
	Attempt int `json:"attempt,omitempty"`
	// FailedAt is when the last attempt was seen failing (the backoff's start).
	FailedAt *metav1.Time `json:"failedAt,omitempty"`
	// Failure is what the last attempt failed with.
	Failure *downloadjob.Problem `json:"failure,omitempty"`
	// Fingerprint identifies what the failed Job was built from (or the
	// problem that stopped it), so a change of inputs starts a new round.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Rejected is true when the round failed because the Job could not be
	// built or created: only a change of inputs retries it.
	Rejected bool `json:"rejected,omitempty"`
}

func recordKey(model string) string { return recordAnnotationPrefix + model }

// readRecord returns the model's record; a missing or unreadable one is empty.
func readRecord(st *v1alpha1.LocalModelNodeStatus, model string) record {
	var r record
	if raw, ok := st.Annotations[recordKey(model)]; ok {
		_ = json.Unmarshal([]byte(raw), &r)
	}
	return r
}

// writeRecord stores the record, or removes it when it is empty.
func writeRecord(st *v1alpha1.LocalModelNodeStatus, model string, r record) {
	raw, _ := json.Marshal(r)
	if string(raw) == "{}" {
		delete(st.Annotations, recordKey(model))
		return
	}
	if st.Annotations == nil {
		st.Annotations = map[string]string{}
	}
	st.Annotations[recordKey(model)] = string(raw)
}

// newRound forgets the attempts of an earlier round.
func (r *record) newRound() {
	r.Attempt, r.FailedAt, r.Failure, r.Fingerprint, r.Rejected = 0, nil, nil, "", false
}

// failed records a failed attempt at now.
func (r *record) failed(now time.Time, f downloadjob.Problem, fingerprint string, rejected bool) {
	t := metav1.NewTime(now)
	r.FailedAt, r.Failure, r.Fingerprint, r.Rejected = &t, &f, fingerprint, rejected
}

// retryAt is when the next attempt may start; zero when nothing failed.
func (r record) retryAt(p RetryPolicy) time.Time {
	if r.FailedAt == nil {
		return time.Time{}
	}
	return r.FailedAt.Add(p.After(max(r.Attempt, 1)))
}

// lastFailure is the failure kept for messages.
func (r record) lastFailure() downloadjob.Problem {
	if r.Failure == nil {
		return downloadjob.Problem{}
	}
	return *r.Failure
}
