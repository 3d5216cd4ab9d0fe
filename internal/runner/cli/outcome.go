package cli

// This file holds the one way every experiment turns a mechanism's answer
// into the result words of its JSON, and the one way an experiment says it
// found a violation.

import "fmt"

// Outcome is a call that may be refused, as the runner's JSON reports it:
// the result word, and the refusal's reason when there is one.
type Outcome struct {
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// Refused is the result word of every refusal.
const Refused = "refused"

// OutcomeOf turns the error of a mechanism call into an Outcome: success
// when err is nil; Refused with the reason when reasonOf (the mechanism's
// own ReasonOf) recognises err as a refusal; and err itself for anything
// else, which ends the experiment.
func OutcomeOf[R ~string](success string, err error, reasonOf func(error) (R, bool)) (Outcome, error) {
	if err == nil {
		return Outcome{Result: success}, nil
	}
	if reason, ok := reasonOf(err); ok {
		return Outcome{Result: Refused, Reason: string(reason)}, nil
	}
	return Outcome{}, err
}

// Finding is what an experiment returns, beside its result, when it ran
// to the end and found what it exists to look for: something that must
// not happen, such as the torture run's audit finding a double
// completion. The frame prints the result as usual, so the counts can be
// read, then the finding on stderr as one line, and exits 1.
type Finding struct{ msg string }

func (f *Finding) Error() string { return f.msg }

// Findingf returns a *Finding.
func Findingf(format string, args ...any) error {
	return &Finding{msg: fmt.Sprintf(format, args...)}
}
