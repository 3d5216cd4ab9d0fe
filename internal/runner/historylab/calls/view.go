package calls

// This file holds what one worker has seen of the keys: the tokens it
// last got or saw, and the keys it saw finished, from which it chooses
// its next call.

import (
	"math/rand/v2"

	"github.com/fencelab/fencelab/internal/runner/history"
)

// View is what one worker process has seen: the token it last got or
// saw for each key, and the keys it saw finished. A replaced worker
// starts with none of it, as a restarted process would.
type View struct {
	token    map[string]int64
	finished map[string]bool
	keys     []string
}

// NewView is a worker's view of keys before its first call.
func NewView(keys []string) *View {
	return &View{token: map[string]int64{}, finished: map[string]bool{}, keys: keys}
}

// hot returns one of the first HotKeys keys this worker has not seen
// finished: the workers move along the keys together.
func (v *View) hot(r *rand.Rand) string {
	var open []string
	for _, k := range v.keys {
		if !v.finished[k] {
			open = append(open, k)
			if len(open) == HotKeys {
				break
			}
		}
	}
	if len(open) == 0 {
		return v.keys[len(v.keys)-1]
	}
	return open[r.IntN(len(open))]
}

// guess is a token for key near the last this worker saw: sometimes that
// one, sometimes one below it (stale), sometimes above.
func (v *View) guess(r *rand.Rand, key string) int64 {
	return max(1, v.token[key]+int64(r.IntN(4))-1)
}

// Learn updates what the worker has seen from op's answer.
func (v *View) Learn(op history.Op, out history.Out) {
	key := op.Key
	if op.Kind == history.Apply {
		key = "gate"
	}
	switch {
	case out.Result == history.Unknown:
	case op.Kind == history.Claim && out.Result == history.OK:
		v.token[key] = out.Token
	case op.Kind == history.Read && out.Mark != 0:
		v.token[key] = max(v.token[key], out.Mark)
	case op.Kind == history.Read:
		v.token[key] = max(v.token[key], out.Token)
	case out.Mark != 0:
		v.token[key] = max(v.token[key], out.Mark)
	case op.Kind == history.Apply && (out.Result == "applied" || out.Result == "replayed"):
		v.token[key] = max(v.token[key], op.Token)
	}
	switch out.Reason {
	case "terminal", "finished", "not_claimable":
		v.finished[key] = true
	}
	switch {
	case out.State == "DONE", out.State == "completed":
		v.finished[key] = true
	case (op.Kind == history.Complete || op.Kind == history.Finish) && out.Result == history.OK:
		v.finished[key] = true
	}
}
