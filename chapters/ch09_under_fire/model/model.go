// Package model holds chapter 9's reference models: the mailbox, and the
// job queue with its destination gate, written down as plain Go maps and
// if-statements from the rules the chapter texts state.
//
// A model shares nothing with the mechanism it judges except the public
// API's types and constants (states, reasons, verdicts, results, the retry
// budget). It opens no database and calls no mechanism code: when it says
// what a claim should return, it says so from its own rules, so a mistake
// in the mechanism's SQL cannot leak into the expected answer.
//
// A model cannot know the mechanism's token numbers, which come from a
// counter in the database. It hands out tokens of its own, 1, 2, 3, in the
// order the rules say new generations begin; the tests bind each one to
// the number the mechanism returned and check that the numbers keep that
// order.
package model

// Token is a fencing token as the model numbers it: its own generations,
// counted from 1. The zero Token is no token at all (a message never
// claimed, or cleared by a retry; a job never claimed).
type Token int64
