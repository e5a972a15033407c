package router

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// call POSTs the step input to the step's service. Transport failures are
// errors (500, or 504 when a deadline fired); any HTTP status is a reply.
func (g *graphRouter) call(ctx context.Context, ex *exchange, s *planStep, input []byte, mayStream bool) (reply, error) {
	cancel := context.CancelFunc(func() {})
	if g.clientTimeout > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, g.clientTimeout, g.clientTimeoutCause)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(input))
	if err != nil {
		cancel()
		return reply{}, failf(http.StatusInternalServerError, "building the request of %s: %v", s.desc, err)
	}
	req.Header = ex.shared
	if req.Header == nil {
		req.Header = outgoingHeaders(ex.headers)
		g.prop.Inject(ctx, headerCarrier(req.Header))
	}

	ex.busy.begin(time.Now())
	resp, err := g.client.Do(req)
	if err != nil {
		ex.busy.end(time.Now())
		cancel()
		return reply{}, callError(ctx, s, err)
	}
	if mayStream && isStreaming(resp) {
		rep := reply{status: resp.StatusCode, stream: &stream{resp: resp}}
		rep.deferUntilDone(func() { ex.busy.end(time.Now()); cancel() })
		return rep, nil
	}
	body, err := readResponseBody(resp, g.maxResponseBytes, s)
	_ = resp.Body.Close() // fully read or abandoned; a close error adds nothing
	ex.busy.end(time.Now())
	if err != nil {
		err = callError(ctx, s, err)
	}
	cancel()
	if err != nil {
		return reply{}, err
	}
	return reply{status: resp.StatusCode, body: body}, nil
}

// callError turns a failed call into a routeError whose status says why:
// 504 when one of the router's deadlines fired, 499 when the client left,
// otherwise 500 (or the status the error already carries, e.g. 413).
func callError(ctx context.Context, s *planStep, err error) error {
	var re *routeError
	if errors.As(err, &re) {
		return err
	}
	if ctx.Err() != nil {
		cause := context.Cause(ctx)
		var te *timeoutError
		if errors.As(cause, &te) {
			if te.step == s {
				return &routeError{code: http.StatusGatewayTimeout, err: te}
			}
			return &routeError{code: http.StatusGatewayTimeout, err: fmt.Errorf("%w while calling %s", te, s.desc)}
		}
		if errors.Is(cause, context.Canceled) {
			return &routeError{code: statusClientClosedRequest, err: fmt.Errorf("the client closed the request while calling %s", s.desc)}
		}
	}
	return &routeError{code: http.StatusInternalServerError, err: err}
}
