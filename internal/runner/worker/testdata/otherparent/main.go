// Command otherparent starts a program as a worker role the way the
// runner does, the socket, the kernel's word on the writer and a
// handshake naming itself all as they should be, but is itself another
// program: only the worker's look at its parent's executable tells it
// apart. handshake_test.go builds and runs it.
//
//	otherparent PROGRAM ROLE TARGET
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: otherparent PROGRAM ROLE TARGET")
		os.Exit(2)
	}
	program, role, target := os.Args[1], os.Args[2], os.Args[3]
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "otherparent:", err)
		os.Exit(1)
	}
	if err := syscall.SetsockoptInt(fds[1], syscall.SOL_SOCKET, syscall.SO_PASSCRED, 1); err != nil {
		fmt.Fprintln(os.Stderr, "otherparent:", err)
		os.Exit(1)
	}
	parent, child := os.NewFile(uintptr(fds[0]), "handshake"), os.NewFile(uintptr(fds[1]), "handshake")
	fmt.Fprintf(parent, `{"role":%q,"parent":%d,"args":[%q]}`+"\n", role, os.Getpid(), target)
	parent.Close()
	cmd := exec.Command(program)
	cmd.Env = append(os.Environ(), "FENCELAB_ROLE="+role)
	cmd.ExtraFiles = []*os.File{child}
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err = cmd.Run()
	if exit, ok := err.(*exec.ExitError); ok {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "otherparent:", err)
		os.Exit(1)
	}
}
