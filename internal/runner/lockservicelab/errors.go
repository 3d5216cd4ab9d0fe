package lockservicelab

import "errors"

// errWantOneArg is what a role says of a handshake that does not carry
// exactly its one JSON argument.
var errWantOneArg = errors.New("want exactly one argument, the role's configuration as JSON")
