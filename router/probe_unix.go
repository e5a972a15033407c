//go:build linux || darwin

package router

import "syscall"

// canProbe says whether newProbe works here; elsewhere every call goes
// through http.Transport.
const canProbe = true

// newProbe returns a check of whether an idle connection can carry a
// request: nothing has arrived on it, neither the server's close nor stray
// bytes. It peeks without blocking, so a check costs one system call. The
// closures are made once per connection, not once per check.
func newProbe(raw syscall.RawConn) func() bool {
	if raw == nil {
		return func() bool { return false }
	}
	var alive bool
	var buf [1]byte
	peek := func(fd uintptr) bool {
		_, _, err := syscall.Recvfrom(int(fd), buf[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		alive = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK
		return true // never wait for readiness
	}
	return func() bool {
		alive = false
		return raw.Read(peek) == nil && alive
	}
}
