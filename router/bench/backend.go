package bench

import (
	"encoding/json"
	"net"
	"net/http"
	"time"
)

// instance and prediction follow KServe's bgtest sample service, whose
// handlers bind {"instances":[...]} and answer {"from": target, "instances": [...]}.
type instance struct {
	Name   string `json:"name"`
	IntVal int    `json:"intval"`
	StrVal string `json:"strval"`
}

type prediction struct {
	From      string     `json:"from"`
	Instances []instance `json:"instances"`
}

// requestBody is what every benchmark request sends.
const requestBody = `{"instances":[{"name":"blue","intval":1,"strval":"kserve"},{"name":"red","intval":12,"strval":"a-red-server"}]}`

func bgtestHandler(target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p prediction
		_ = json.NewDecoder(r.Body).Decode(&p) // bgtest ignores binding errors too
		p.From = target
		body, err := json.Marshal(p)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
}

// listenLoopback serves h on a fresh loopback port and returns its base URL
// and a function that stops it.
func listenLoopback(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
