//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// jaegerTrace is the part of Jaeger's /api/traces/{id} answer the test reads.
type jaegerTrace struct {
	Data []struct {
		TraceID string `json:"traceID"`
		Spans   []struct {
			SpanID        string `json:"spanID"`
			OperationName string `json:"operationName"`
			References    []struct {
				RefType string `json:"refType"`
				SpanID  string `json:"spanID"`
			} `json:"references"`
			Tags []struct {
				Key   string `json:"key"`
				Value any    `json:"value"`
			} `json:"tags"`
		} `json:"spans"`
	} `json:"data"`
}

func getTrace(traceID string) (*jaegerTrace, error) {
	resp, err := http.Get("http://127.0.0.1:16686/api/traces/" + traceID)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("jaeger answered %s", resp.Status)
	}
	var tr jaegerTrace
	return &tr, json.NewDecoder(resp.Body).Decode(&tr)
}

// span tags as strings.
func tag(tags []struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}, key string) string {
	for _, t := range tags {
		if t.Key == key {
			return fmt.Sprint(t.Value)
		}
	}
	return ""
}

func waitForTrace(traceID string, complete func(*jaegerTrace) string, timeout time.Duration) (*jaegerTrace, string) {
	deadline := time.Now().Add(timeout)
	last := "no answer yet"
	for time.Now().Before(deadline) {
		tr, err := getTrace(traceID)
		switch {
		case err != nil:
			last = err.Error()
		case len(tr.Data) == 0:
			last = "trace not in Jaeger yet"
		default:
			if last = complete(tr); last == "" {
				return tr, ""
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return nil, last
}
