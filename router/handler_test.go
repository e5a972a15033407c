package router

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestContentTypeOnlyForJSON(t *testing.T) {
	cases := []struct {
		name, body string
		json       bool
	}{
		{"object", `{"a":1}`, true},
		{"array", `[1,2]`, true},
		{"number", `42`, true},
		{"plain text", `hello`, false},
		{"truncated JSON", `{"a":`, false},
		{"empty", ``, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			backend := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/x-anything")
				w.Header().Set("Content-Length", strconv.Itoa(len(tc.body)))
				_, _ = w.Write([]byte(tc.body))
			}))
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL})}))
			got := post(t, r.url, `{}`)
			isJSON := got.header.Get("Content-Type") == "application/json"
			if isJSON != tc.json {
				t.Fatalf("Content-Type = %q for body %q", got.header.Get("Content-Type"), tc.body)
			}
			if got.body != tc.body || got.header.Get("Content-Length") != strconv.Itoa(len(tc.body)) {
				t.Fatalf("body %q with Content-Length %q", got.body, got.header.Get("Content-Length"))
			}
		})
	}
}

func TestAnyMethodAndPathRunsRoot(t *testing.T) {
	rec := &recorder{body: `{"ok":true}`}
	backend := newBackend(t, rec)
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL + "/v1/models/m:predict"})}))
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodPost} {
		req, _ := http.NewRequest(method, r.url+"/some/path?x=1", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", method, resp.StatusCode)
		}
	}
	for _, req := range rec.all() {
		if req.method != http.MethodPost {
			t.Fatalf("downstream method %s, want POST", req.method)
		}
	}
}

func TestErrorResponseShape(t *testing.T) {
	cases := []struct {
		err  error
		code int
	}{
		{failf(http.StatusNotFound, "none matched"), http.StatusNotFound},
		{&routeError{code: http.StatusGatewayTimeout, err: errors.New(`quote " and newline` + "\n")}, http.StatusGatewayTimeout},
		{errors.New("plain"), http.StatusInternalServerError},
	}
	for _, tc := range cases {
		w := httptest.NewRecorder()
		if got := writeError(w, tc.err); got != tc.code {
			t.Fatalf("writeError returned %d, want %d", got, tc.code)
		}
		wantError(t, result{status: w.Code, header: w.Header(), body: w.Body.String()}, tc.code, tc.err.Error())
	}
}
