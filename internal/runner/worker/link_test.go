package worker_test

import (
	"bufio"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/synctest"

	"gotest.tools/v3/assert"

	"github.com/fencelab/fencelab/internal/runner/worker"
)

// maxLine is the longest message a link carries: one line of JSON of
// 1 MiB less one byte, the newline that ends it making the 1 MiB.
const maxLine = 1<<20 - 1

// sendOver sends one JSON string whose encoding is size bytes long over a
// fresh in-memory link, and returns what the receiving end got.
func sendOver(t *testing.T, size int) (string, error) {
	t.Helper()
	r, w := io.Pipe()
	recv := worker.NewLink(r, io.Discard)
	send := worker.NewLink(strings.NewReader(""), w)
	defer recv.Close()
	sent := make(chan error, 1)
	go func() { sent <- send.Send(strings.Repeat("x", size-2)) }() // the quotes are the other two
	var got string
	err := recv.Recv(&got)
	_ = r.Close() // a refused line is not read on: let the sender go
	<-sent
	return got, err
}

// TestALinkCarriesMessagesUpToOneMebibyte: the limit of one message is
// exact: a line of JSON one byte short of 1 MiB arrives whole, and one a
// byte longer is an error at the receiver (bufio.ErrTooLong), never a
// message cut short or a hang.
func TestALinkCarriesMessagesUpToOneMebibyte(t *testing.T) {
	t.Parallel()
	got, err := sendOver(t, maxLine)
	assert.NilError(t, err, "a message of %d bytes, the longest a link carries", maxLine)
	assert.Equal(t, len(got), maxLine-2, "the longest message arrived cut")

	_, err = sendOver(t, maxLine+1)
	assert.Check(t, errors.Is(err, bufio.ErrTooLong), "a message of %d bytes, one over the limit, must be refused as too long; got %v", maxLine+1, err)
}

// TestAMessageThatCannotBeEncodedIsNotSent: Send refuses a value JSON
// cannot encode, and sends nothing, rather than a blank or broken line
// the peer would take for a message.
func TestAMessageThatCannotBeEncodedIsNotSent(t *testing.T) {
	t.Parallel()
	var sent strings.Builder
	l := worker.NewLink(strings.NewReader(""), &sent)
	defer l.Close()

	err := l.Send(math.NaN())

	assert.Check(t, err != nil, "sending NaN, which JSON cannot encode, must fail")
	assert.Equal(t, sent.String(), "", "a message that cannot be encoded must not be sent at all")
}

// TestClosingALinkWakesARecvThatIsWaiting: a Recv already waiting for a
// message when its own side closes the link returns the link's closing
// error, not a message that never came.
func TestClosingALinkWakesARecvThatIsWaiting(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		r, w := io.Pipe()
		// The reader is not an io.Closer, so closing the link wakes the
		// waiting Recv only through the link's own closing.
		l := worker.NewLink(struct{ io.Reader }{r}, io.Discard)
		got := make(chan error, 1)
		var m message
		go func() { got <- l.Recv(&m) }()
		synctest.Wait() // Recv waits; nothing was sent

		l.Close()
		err := <-got
		assert.ErrorContains(t, err, "link closed", "a Recv waiting when the link closed")
		_ = w.Close() // ends the link's reader
	})
}

// TestServeStopsAtARequestItCannotRead: a worker's loop ends with an
// error at a request it cannot decode, and never answers it as if a
// request with no fields had come.
func TestServeStopsAtARequestItCannotRead(t *testing.T) {
	t.Parallel()
	var sent strings.Builder
	l := worker.NewLink(strings.NewReader("the ledger is on fire\n"), &sent)
	defer l.Close()
	handled := 0

	err := worker.Serve(l, func(req message) (message, error) {
		handled++
		return req, nil
	})

	assert.ErrorContains(t, err, `receive "the ledger is on fire"`)
	assert.Equal(t, handled, 0, "a request that could not be read was handled")
	assert.Equal(t, sent.String(), "", "a request that could not be read was answered")
}

// failingWriter fails every write, as a pipe whose reader is gone does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestServeStopsWhenAReplyCannotBeSent: a worker whose reply cannot
// reach its parent stops with that error, rather than going on to the
// next request as if the parent had its answer.
func TestServeStopsWhenAReplyCannotBeSent(t *testing.T) {
	t.Parallel()
	l := worker.NewLink(strings.NewReader("{\"n\":1}\n{\"n\":2}\n"), failingWriter{})
	defer l.Close()
	var handled []int

	err := worker.Serve(l, func(req message) (message, error) {
		handled = append(handled, req.N)
		return req, nil
	})

	assert.Check(t, errors.Is(err, io.ErrClosedPipe), "Serve's error when a reply cannot be sent: %v", err)
	assert.DeepEqual(t, handled, []int{1})
}
