package worker

// This file holds Link: the line-per-message JSON channel a coordinator and
// its worker use for their handshakes.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// errLinkClosed is returned by Recv after Close.
var errLinkClosed = errors.New("worker: link closed")

// Link sends and receives JSON messages, one per line. A message is at
// most 1 MiB with its newline; a longer one is an error at the receiver
// (bufio.ErrTooLong).
type Link struct {
	r      io.Reader
	w      io.Writer
	lines  chan []byte
	rerr   chan error
	closed chan struct{}
	eof    chan struct{} // closed when the peer's end is closed and read to its end

	closeSendOnce, closeOnce sync.Once
}

// NewLink returns a link that receives from r and sends to w.
func NewLink(r io.Reader, w io.Writer) *Link {
	l := &Link{r: r, w: w, lines: make(chan []byte), rerr: make(chan error, 1), closed: make(chan struct{}), eof: make(chan struct{})}
	go l.read()
	return l
}

// read feeds received lines to Recv until the peer closes its end or the
// link is closed; it never blocks past Close.
func (l *Link) read() {
	sc := bufio.NewScanner(l.r)
	sc.Buffer(nil, 1<<20) // the scanner grows its buffer up to this as a line needs
	for sc.Scan() {
		select {
		case l.lines <- append([]byte(nil), sc.Bytes()...):
		case <-l.closed:
			return
		}
	}
	err := sc.Err()
	if err == nil {
		err = io.EOF
	}
	close(l.eof)
	l.rerr <- err
}

// PeerClosed is closed once the peer has closed its end of the link (or
// the link broke) and every message it sent before has been received. A
// worker that works on its own, and is never sent a request, learns this
// way that its parent is done with it, or gone, without a Recv that would
// give up after a bounded silence.
func (l *Link) PeerClosed() <-chan struct{} { return l.eof }

// Send writes v as one line.
func (l *Link) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := l.w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("send: %w", err)
	}
	return nil
}

// Recv reads the next message into v. It waits at most a bounded time: a
// peer that says nothing is an error, not a hang. io.EOF means the peer
// closed its end (for a worker: the coordinator is gone or done).
func (l *Link) Recv(v any) error {
	// A link this side closed says so, whatever else is ready: closing
	// also ends the reader with an error of its own, and select would
	// pick between the two at random.
	select {
	case <-l.closed:
		return errLinkClosed
	default:
	}
	select {
	case b := <-l.lines:
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("receive %q: %w", b, err)
		}
		return nil
	case err := <-l.rerr:
		l.rerr <- err // later calls see the same end
		return err
	case <-l.closed:
		return errLinkClosed
	case <-time.After(replyTimeout):
		return fmt.Errorf("receive: no message within %v", replyTimeout)
	}
}

// CloseSend closes the sending end, if it can be closed: the peer reads
// EOF once it has read everything sent before.
func (l *Link) CloseSend() {
	l.closeSendOnce.Do(func() {
		if c, ok := l.w.(io.Closer); ok {
			_ = c.Close()
		}
	})
}

// Close closes both ends and stops the reading goroutine.
func (l *Link) Close() {
	l.CloseSend()
	l.closeOnce.Do(func() {
		close(l.closed)
		if c, ok := l.r.(io.Closer); ok {
			_ = c.Close()
		}
	})
}
