//go:build !unix

package worker

import "os"

// inheritedPipe reports that there is no inherited pipe: outside Unix the
// runner cannot hand a worker a descriptor, so no worker can prove its
// parent started it, and none runs.
func inheritedPipe(int) (*os.File, bool) { return nil, false }
