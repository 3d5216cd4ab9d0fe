package worker

// This file holds the handshake that keeps a worker role from being
// entered by hand. The runner accepts no paths, but its workers must be
// told where their databases are; if a worker took its paths from its
// command line, `FENCELAB_ROLE=mailbox-worker fencelab /any/path.db w`
// would create a database anywhere. So a worker takes nothing from its
// command line. Its parent hands it its role and arguments through a Unix
// socket the worker inherits as file descriptor 3, and the worker checks,
// before it opens anything, that:
//
//   - descriptor 3 is a Unix socket (a pipe, a named pipe or a file, which
//     a shell can make, is refused), and the handshake on it names the
//     role its environment names;
//   - where the kernel says who wrote what a socket delivers (Linux,
//     SCM_CREDENTIALS: see credentials_linux.go), every byte of the
//     handshake was written by the process that is its parent: a
//     handshake written by a helper, a shell or socat is refused,
//     whatever pid it names inside;
//   - the handshake names its parent's pid as the writer, and that is the
//     process that is its parent now;
//   - where /proc shows it (Linux), its parent runs the same executable it
//     does: only a fencelab runner starts fencelab workers, and a shell or
//     another program posing as one is refused.
//
// A worker that fails any check exits 2 with one line, having created
// nothing.
//
// What this stops is entering a role by hand: from a shell, with the
// environment variable, a pipe, a named pipe or a helper that writes the
// handshake, and a shell that starts the worker and then becomes fencelab
// itself (exec). It is not a wall against a program of the same user
// that sets out to get in: such a program can write the handshake from
// the parent's pid and then exec fencelab, or trace the worker; nothing a
// process of one user does is hidden from another of the same user.
// Outside Linux the kernel does not name a socket's writer, and the pid
// the handshake names is taken on trust.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// handshakeFD is the descriptor a worker reads its handshake from: the
// first of exec.Cmd.ExtraFiles.
const handshakeFD = 3

// handshakeLimit bounds how much a worker reads from descriptor 3, and
// handshakeWait how long it waits for it. A real parent has written and
// closed its end before the worker reads.
const (
	handshakeLimit = 1 << 20
	handshakeWait  = 5 * time.Second
)

// errNoParent is the error of a worker role entered without its parent.
var errNoParent = errors.New("a worker role was entered without its parent: workers are started by the fencelab runner itself, never by hand")

// handshake is what a parent hands the worker it starts.
type handshake struct {
	Role   string   `json:"role"`
	Parent int      `json:"parent"` // the pid of the process that wrote it
	Args   []string `json:"args"`
}

// attachHandshake arranges for cmd's worker to receive h on descriptor 3.
// Once cmd has started, the caller must call send, which writes h and
// closes the parent's end; if cmd fails to start, it must call send too,
// which then only closes.
func attachHandshake(cmd *exec.Cmd, h handshake) (send func(started bool) error, err error) {
	w, r, err := handshakeSocket()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{r}
	return func(started bool) error {
		// The worker holds its own copy of the read end now.
		r.Close()
		defer w.Close()
		if !started {
			return nil
		}
		return json.NewEncoder(w).Encode(h)
	}, nil
}

// receiveHandshake reads and checks the handshake of a worker that was
// started to play role, and returns the arguments its parent handed it.
func receiveHandshake(role string) ([]string, error) {
	f, ok := inheritedSocket(handshakeFD)
	if !ok {
		return nil, fmt.Errorf("%w (descriptor %d is not a socket from a parent)", errNoParent, handshakeFD)
	}
	defer f.Close()
	data, err := readBounded(f)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", errNoParent, err)
	}
	var h handshake
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("%w (the handshake is not one)", errNoParent)
	}
	switch {
	case h.Role != role:
		return nil, fmt.Errorf("%w (the handshake names another role)", errNoParent)
	case h.Parent != os.Getppid():
		return nil, fmt.Errorf("%w (the handshake was not written by this process's parent)", errNoParent)
	}
	if err := sameProgramAsParent(); err != nil {
		return nil, fmt.Errorf("%w (%v)", errNoParent, err)
	}
	return h.Args, nil
}

// readBounded reads f to its end, at most handshakeLimit bytes and for at
// most handshakeWait, and fails if the kernel says a process other than
// this one's parent wrote any of it.
func readBounded(f *os.File) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		data, err := readWritten(f)
		got <- result{data, err}
	}()
	select {
	case r := <-got:
		return r.data, r.err
	case <-time.After(handshakeWait):
		return nil, fmt.Errorf("no handshake within %v", handshakeWait)
	}
}

// sameProgramAsParent checks, where /proc shows executables, that this
// process's parent runs the same executable as this process.
func sameProgramAsParent() error {
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return nil // no /proc here: the pipe and the pid must do
	}
	parent, err := os.Stat("/proc/" + strconv.Itoa(os.Getppid()) + "/exe")
	if err != nil || !os.SameFile(self, parent) {
		return errors.New("the parent process is not a fencelab runner")
	}
	return nil
}
