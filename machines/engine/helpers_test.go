package engine

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func ptrTime(t time.Time) *metav1.Time {
	v := metav1.NewTime(t)
	return &v
}
