package router

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Default body limits; each is a flag.
const (
	defaultMaxRequestBytes  = 10 << 20
	defaultMaxResponseBytes = 10 << 20
)

// readRequestBody reads the inbound body, refusing more than limit bytes with
// 413. A declared Content-Length over the limit is refused before reading.
func readRequestBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	tooLarge := func() error {
		return &routeError{
			code: http.StatusRequestEntityTooLarge,
			err:  &limitError{what: "request body", limit: limit, flag: "max-request-bytes"},
		}
	}
	if r.ContentLength > limit {
		return nil, tooLarge()
	}
	body := r.Body
	if r.ContentLength < 0 {
		// Unknown length: the server must also stop reading past the limit.
		body = http.MaxBytesReader(w, r.Body, limit)
	}
	data, err := readLimited(body, r.ContentLength, limit)
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr), errors.Is(err, errBodyTooLarge):
		return nil, tooLarge()
	case err != nil:
		return nil, failf(http.StatusBadRequest, "reading the request body: %v", err)
	}
	return data, nil
}

// readResponseBody reads a downstream body that will be buffered, refusing
// more than limit bytes with 413.
func readResponseBody(resp *http.Response, limit int64, step *planStep) ([]byte, error) {
	tooLarge := func() error {
		return &routeError{
			code: http.StatusRequestEntityTooLarge,
			err:  &limitError{what: "response body of " + step.desc, limit: limit, flag: "max-response-bytes"},
		}
	}
	if resp.ContentLength > limit {
		return nil, tooLarge()
	}
	body, err := readLimited(resp.Body, resp.ContentLength, limit)
	if errors.Is(err, errBodyTooLarge) {
		return nil, tooLarge()
	}
	return body, err
}

var errBodyTooLarge = errors.New("body too large")

// readLimited reads all of r. When the length is known it reads into a buffer
// of exactly that size; otherwise it grows a buffer up to limit bytes.
func readLimited(r io.Reader, length, limit int64) ([]byte, error) {
	if length == 0 {
		return nil, nil
	}
	if length > 0 {
		buf := make([]byte, length)
		n, err := io.ReadFull(r, buf)
		if err != nil {
			return nil, fmt.Errorf("body ended after %d of %d bytes: %w", n, length, err)
		}
		return buf, nil
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, errBodyTooLarge
	}
	return buf.Bytes(), nil
}
