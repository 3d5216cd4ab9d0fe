//go:build unix

package worker

// This file makes the socket a handshake travels on, and tells whether a
// descriptor this process inherited is one, without wrapping it in an
// *os.File first: a descriptor that is not ours to close (in a worker
// started by hand, descriptor 3 may be one the Go runtime opened) must
// not get a finalizer that closes it.

import (
	"os"
	"syscall"
)

// handshakeSocket returns the two ends of a Unix socket pair: the
// parent's, to write the handshake on, and the child's, which the worker
// inherits as descriptor 3. The child's end already asks the kernel for
// the credentials of whoever writes to it (where the system gives them,
// see passCredentials), so every byte the worker reads arrives with the
// pid of the process that wrote it, which no process can choose.
func handshakeSocket() (parent, child *os.File, err error) {
	// As os.Pipe does where it cannot ask for close-on-exec at once: no
	// fork between the socketpair and the flags.
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("socketpair", err)
	}
	if err := passCredentials(fds[1]); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, os.NewSyscallError("setsockopt", err)
	}
	return os.NewFile(uintptr(fds[0]), "handshake"), os.NewFile(uintptr(fds[1]), "handshake"), nil
}

// inheritedSocket returns descriptor fd as a file if it is an open Unix
// socket, asking the kernel for its writers' credentials from now on.
func inheritedSocket(fd int) (*os.File, bool) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return nil, false
	}
	if sa, err := syscall.Getsockname(fd); err != nil {
		return nil, false
	} else if _, unix := sa.(*syscall.SockaddrUnix); !unix {
		return nil, false
	}
	if passCredentials(fd) != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), "handshake"), true
}
