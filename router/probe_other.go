//go:build !(linux || darwin)

package router

import "syscall"

const canProbe = false

func newProbe(syscall.RawConn) func() bool { return func() bool { return false } }
