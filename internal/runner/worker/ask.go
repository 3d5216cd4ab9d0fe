package worker

// This file holds the parent's side of one exchange with a worker.

// Ask sends req to the worker p and returns its reply: one request, one
// answer, which is the handshake that orders every story the runner
// tells. A worker that dies before answering is reported as such.
func Ask[Rep any](p *Process, req any) (Rep, error) {
	var rep Rep
	if err := p.Send(req); err != nil {
		return rep, err
	}
	err := p.Recv(&rep)
	return rep, err
}
