package lockservicelab

import "errors"

// errWantOneArg is what a role says of a handshake that does not carry
// exactly its one JSON argument.
var errWantOneArg = errors.New("want exactly one argument, the role's configuration as JSON")

// errNoLeader is what the cluster says when no running member reports a
// running leader: an election is under way, or no majority is left.
var errNoLeader = errors.New("no member reported a leader that is running")
