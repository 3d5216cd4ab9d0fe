package cli

// This file holds Link: the line-per-message JSON channel a coordinator and
// its worker use for their handshakes.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Link sends and receives JSON messages, one per line.
type Link struct {
	w     io.Writer
	lines chan []byte
	rerr  chan error
}

// NewLink returns a link that receives from r and sends to w.
func NewLink(r io.Reader, w io.Writer) *Link {
	l := &Link{w: w, lines: make(chan []byte), rerr: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			l.lines <- append([]byte(nil), sc.Bytes()...)
		}
		err := sc.Err()
		if err == nil {
			err = io.EOF
		}
		l.rerr <- err
	}()
	return l
}

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
	select {
	case b := <-l.lines:
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("receive %q: %w", b, err)
		}
		return nil
	case err := <-l.rerr:
		l.rerr <- err // later calls see the same end
		return err
	case <-time.After(replyTimeout):
		return fmt.Errorf("receive: no message within %v", replyTimeout)
	}
}
