//go:build linux

package worker

// This file is where the kernel says who wrote a handshake: on Linux a
// Unix socket with SO_PASSCRED set delivers, with every message, the
// credentials of the process that sent it (SCM_CREDENTIALS), filled in
// by the kernel at the time of the write: a process can claim no pid but
// its own. A handshake written by anyone but the worker's parent (a
// helper, a shell, socat) is told apart, whatever it says inside.

import (
	"fmt"
	"os"
	"syscall"
)

// passCredentials asks the kernel to attach its writer's credentials to
// everything read from the socket fd.
func passCredentials(fd int) error {
	return syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1)
}

// readWritten reads f, the handshake socket, to its end or to just past
// handshakeLimit bytes, and fails if any of it was written by a process
// other than this process's parent, or came without the kernel's word on
// who wrote it.
func readWritten(f *os.File) ([]byte, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var data []byte
	buf := make([]byte, 64<<10)
	oob := make([]byte, syscall.CmsgSpace(syscall.SizeofUcred))
	var readErr error
	err = raw.Read(func(fd uintptr) bool {
		for len(data) <= handshakeLimit {
			n, oobn, _, _, err := syscall.Recvmsg(int(fd), buf, oob, 0)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false // a descriptor in non-blocking mode: wait for more
			case err != nil:
				readErr = err
				return true
			case n == 0:
				return true
			}
			if readErr = writtenByParent(oob[:oobn]); readErr != nil {
				return true
			}
			data = append(data, buf[:n]...)
		}
		return true
	})
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, err
	}
	return data[:min(len(data), handshakeLimit)], nil
}

// writtenByParent checks the credentials that came with a read: they
// must be there, and name this process's parent.
func writtenByParent(oob []byte) error {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		cred, err := syscall.ParseUnixCredentials(&m)
		if err != nil {
			continue
		}
		if int(cred.Pid) != os.Getppid() {
			return fmt.Errorf("the handshake was written by process %d, not by this process's parent", cred.Pid)
		}
		return nil
	}
	return fmt.Errorf("the handshake came without its writer's credentials")
}
