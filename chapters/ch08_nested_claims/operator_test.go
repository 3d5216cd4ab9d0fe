package nestedclaims

// This file holds what the chapter's tests share: the actor they all work
// for, how long its leases last, and a provider that records it ran.

import (
	"context"

	"github.com/fencelab/fencelab/internal/actor"
)

// The actor every test works for, and how long its leases last.
const (
	operator     = "operator-course"
	leaseMinutes = 15
)

// complete is a provider that records it was invoked and completes.
func complete(invoked *bool) actor.Provider {
	return func(context.Context, actor.Assignment) (actor.State, error) {
		*invoked = true
		return actor.Completed, nil
	}
}
