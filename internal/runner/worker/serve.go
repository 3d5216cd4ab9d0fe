package worker

// This file holds the worker's side of a conversation: answer the
// parent's requests one at a time until it is done with us.

import (
	"errors"
	"io"
)

// Serve is a worker's loop. It receives a request from the parent, calls
// handle, and sends back the reply, one request at a time, until the
// parent closes its end of the link; then it returns nil. An error from
// handle or from the link ends the loop and is returned: the worker exits
// with status 1 and its parent learns it died before answering.
func Serve[Req, Rep any](link *Link, handle func(Req) (Rep, error)) error {
	for {
		var req Req
		err := link.Recv(&req)
		if errors.Is(err, io.EOF) {
			return nil // the parent is done with us
		}
		if err != nil {
			return err
		}
		rep, err := handle(req)
		if err != nil {
			return err
		}
		if err := link.Send(rep); err != nil {
			return err
		}
	}
}
