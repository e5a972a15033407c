package router

import (
	"strings"
	"testing"
	"time"
)

func TestParseGraphErrors(t *testing.T) {
	cases := []struct {
		name, graph, want string
	}{
		{"empty", ``, "--graph-json is empty"},
		{"not json", `{"nodes":`, "not a valid InferenceGraph spec"},
		{"no root", `{"nodes":{"a":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x"}]}}}`, `nodes.root is missing`},
		{"empty sequence", `{"nodes":{"root":{"routerType":"Sequence"}}}`, "nodes.root.steps is empty"},
		{"no target", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"name":"a"}]}}}`, "nodes.root.steps[0] has no target; set nodeName or serviceUrl"},
		{"unresolved service name", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceName":"m"}]}}}`, `resolve serviceName "m" into serviceUrl`},
		{"relative url", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"/v1/models/m:predict"}]}}}`, `nodes.root.steps[0].serviceUrl "/v1/models/m:predict" is not an absolute http(s) URL`},
		{"unknown node", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"nodeName":"nope"}]}}}`, `nodes.root.steps[0].nodeName refers to node "nope"`},
		{"negative weight", `{"nodes":{"root":{"routerType":"Splitter","steps":[{"serviceUrl":"http://x","weight":-1}]}}}`, "nodes.root.steps[0].weight is -1"},
		{"negative graph timeout", `{"timeout":-1,"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x"}]}}}`, "is negative"},
		{"bad step timeout", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x","timeout":"soon"}]}}}`, `"soon" is neither a number of seconds nor a duration`},
		{"self cycle", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"nodeName":"root"}]}}}`, "cycle root -> root"},
		{"cycle", `{"nodes":{"root":{"routerType":"Sequence","steps":[{"nodeName":"a"}]},"a":{"routerType":"Sequence","steps":[{"nodeName":"b"}]},"b":{"routerType":"Switch","steps":[{"nodeName":"a"}]}}}`, "cycle a -> b -> a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseGraph([]byte(tc.graph))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseGraphAcceptsKServeSpec(t *testing.T) {
	spec := `{
	  "nodes": {
	    "root": {"routerType": "Sequence", "steps": [
	      {"name": "a", "serviceName": "model-a", "serviceUrl": "http://a.default.svc/v1/models/a:predict", "dependency": "Hard", "timeout": 2},
	      {"name": "b", "nodeName": "pick", "data": "$response", "mapPredictionsToInstances": true}
	    ]},
	    "pick": {"routerType": "Splitter", "steps": [
	      {"serviceUrl": "https://b.example/v2/models/b/infer", "weight": 20},
	      {"serviceUrl": "http://c:8080/", "weight": 80, "timeout": "1500ms"}
	    ]},
	    "odd": {"routerType": "Teleport", "steps": [{"serviceUrl": "http://x"}]}
	  },
	  "timeout": 30,
	  "routerTimeouts": {"serverRead": 5, "serverWrite": 0.5, "serverIdle": 7, "serviceClient": 3},
	  "resources": {"limits": {"cpu": "1"}}, "minReplicas": 1, "scaleMetric": "cpu"
	}`
	g, err := parseGraph([]byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want time.Duration
	}{
		{"timeout", g.Timeout.duration(0), 30 * time.Second},
		{"serverRead", g.RouterTimeouts.ServerRead.duration(0), 5 * time.Second},
		{"serverWrite", g.RouterTimeouts.ServerWrite.duration(0), 500 * time.Millisecond},
		{"serviceClient", g.RouterTimeouts.ServiceClient.duration(0), 3 * time.Second},
		{"step timeout number", g.Nodes["root"].Steps[0].Timeout.duration(0), 2 * time.Second},
		{"step timeout string", g.Nodes["pick"].Steps[1].Timeout.duration(0), 1500 * time.Millisecond},
		{"unset step timeout", g.Nodes["pick"].Steps[0].Timeout.duration(-1), -1},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if s := g.Nodes["root"].Steps[1]; s.NodeName != "pick" || s.Data != dataResponse || !s.MapPredictionsToInstances {
		t.Errorf("step b decoded as %+v", s)
	}
	if w := g.warnings(); len(w) != 1 || !strings.Contains(w[0], `nodes.odd.routerType "Teleport"`) {
		t.Errorf("warnings = %q, want one about the unknown router type", w)
	}
}

func TestServerTimeoutsFromGraph(t *testing.T) {
	step := `"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x"}]}}`
	cases := []struct {
		name                string
		graph               string
		read, write, idle   time.Duration
		clientTimeout, full time.Duration
	}{
		{"KServe defaults", `{` + step + `}`, 60 * time.Second, 60 * time.Second, 180 * time.Second, 0, 0},
		{"overridden", `{` + step + `,"timeout":9,"routerTimeouts":{"serverRead":1,"serverWrite":2,"serverIdle":3,"serviceClient":4}}`,
			time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second, 9 * time.Second},
		{"partly overridden", `{` + step + `,"routerTimeouts":{"serverWrite":2}}`, 60 * time.Second, 2 * time.Second, 180 * time.Second, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewServer(Options{GraphJSON: tc.graph, Logger: quietLogger()})
			if err != nil {
				t.Fatal(err)
			}
			h := s.http
			if h.ReadTimeout != tc.read || h.WriteTimeout != tc.write || h.IdleTimeout != tc.idle {
				t.Errorf("server timeouts = %v/%v/%v, want %v/%v/%v", h.ReadTimeout, h.WriteTimeout, h.IdleTimeout, tc.read, tc.write, tc.idle)
			}
			if s.router.clientTimeout != tc.clientTimeout || s.router.graphTimeout != tc.full {
				t.Errorf("client/graph timeouts = %v/%v, want %v/%v", s.router.clientTimeout, s.router.graphTimeout, tc.clientTimeout, tc.full)
			}
		})
	}
}

func TestTransportIsPooled(t *testing.T) {
	s, err := NewServer(Options{GraphJSON: `{"nodes":{"root":{"routerType":"Sequence","steps":[{"serviceUrl":"http://x"}]}}}`, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if s.router.client == nil || s.router.client.Transport != s.transport {
		t.Fatal("downstream calls must use the server's own transport, not http.DefaultClient")
	}
	if got := s.transport.MaxIdleConnsPerHost; got != defaultMaxIdleConnsPerHost {
		t.Fatalf("MaxIdleConnsPerHost = %d, want %d", got, defaultMaxIdleConnsPerHost)
	}
	if s.router.client.Timeout != 0 {
		t.Fatal("the client must not have a global timeout; deadlines come from contexts")
	}
}
