package router

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// statusClientClosedRequest is the status recorded (never seen by anyone) when
// the caller went away before the graph finished; nginx made the code common.
const statusClientClosedRequest = 499

// routeError is a failure that ends the request with a given status code.
type routeError struct {
	code int
	err  error
}

func (e *routeError) Error() string { return e.err.Error() }
func (e *routeError) Unwrap() error { return e.err }

func failf(code int, format string, args ...any) error {
	return &routeError{code: code, err: fmt.Errorf(format, args...)}
}

// statusOf returns the response status for an error from the graph.
func statusOf(err error) int {
	var re *routeError
	if errors.As(err, &re) {
		return re.code
	}
	return http.StatusInternalServerError
}

// timeoutError is the cause attached to a context deadline, so that a failed
// call can say which limit fired.
type timeoutError struct {
	limit time.Duration
	what  string    // "graph timeout", "routerTimeouts.serviceClient", "timeout of step ..."
	step  *planStep // the step that owns a per-step timeout
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("%s (%s) exceeded", e.what, e.limit)
}

// limitError reports a body larger than a configured limit.
type limitError struct {
	what  string
	limit int64
	flag  string
}

func (e *limitError) Error() string {
	return fmt.Sprintf("%s exceeds the limit of %d bytes (--%s)", e.what, e.limit, e.flag)
}

// errorBody is the JSON body of every failed request, shaped as KServe's.
type errorBody struct {
	Error string `json:"error"`
	Cause string `json:"cause"`
}

func errorResponse(err error) []byte {
	body, mErr := json.Marshal(errorBody{Error: "Failed to process request", Cause: err.Error()})
	if mErr != nil {
		// Marshalling two strings cannot fail; keep a valid body regardless.
		return []byte(`{"error":"Failed to process request","cause":"unknown"}`)
	}
	return body
}

func isSuccess(code int) bool { return code >= 200 && code <= 299 }
