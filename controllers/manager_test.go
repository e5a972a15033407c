package controllers

import "testing"

func TestDomainFromResolvConf(t *testing.T) {
	cases := map[string]string{
		"search ns.svc.corp.internal svc.corp.internal corp.internal\nnameserver 10.0.0.10": "corp.internal",
		"nameserver 1.1.1.1": "cluster.local",
		"search example.com": "cluster.local",
	}
	for in, want := range cases {
		if got := domainFromResolvConf(in); got != want {
			t.Errorf("%q: got %s want %s", in, got, want)
		}
	}
}
