package cli

// This file holds misuse: a command line the runner refuses, reported as
// exactly one short line that names what is allowed.

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// UsageError is misuse of the command line: a bad flag value, a stray
// argument. The runner prints it as one line and exits 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a *UsageError; experiments return it from Validate.
func Usagef(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}

// OneOf returns a *UsageError unless v is one of allowed.
func OneOf(flagName, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return Usagef("--%s %q is not allowed: want one of %s", flagName, v, strings.Join(allowed, ", "))
}

// maxEchoed is the most characters of an argument a misuse message
// repeats; a longer one is cut, and its last character is an ellipsis.
const maxEchoed = 64

// Misuse prints msg, a misuse of the command line args, as one line after
// prefix, and returns exit status 2. Whatever produced msg (the flag
// package, an experiment's Validate, the frame itself), each overlong
// argument it repeats is shortened, and no character in it can start a
// second line. drill prints its misuse the same way.
func Misuse(stderr io.Writer, prefix, msg string, args []string) int {
	fmt.Fprintf(stderr, "%s: %s\n", prefix, oneLine(shortenArgs(msg, args)))
	return 2
}

// shortenArgs returns msg with every argument in args that is longer than
// maxEchoed shortened, wherever msg repeats it, whole or in part (a
// flag's name, its value), quoted or not.
func shortenArgs(msg string, args []string) string {
	for _, a := range args {
		for _, part := range argParts(a) {
			if utf8.RuneCountInString(part) <= maxEchoed {
				continue
			}
			short := shorten(part)
			msg = strings.ReplaceAll(msg, strconv.Quote(part), strconv.Quote(short))
			msg = strings.ReplaceAll(msg, part, short)
		}
	}
	return msg
}

// argParts lists what a message may repeat of the argument a, longest
// first: all of it, then without its leading dashes, then a flag's name
// and value on either side of "=".
func argParts(a string) []string {
	bare := strings.TrimLeft(a, "-")
	parts := []string{a, bare}
	if name, value, ok := strings.Cut(bare, "="); ok {
		parts = append(parts, name, value)
	}
	return parts
}

// shorten cuts s to maxEchoed characters, the last an ellipsis, if it is
// longer.
func shorten(s string) string {
	n := 0
	for i := range s {
		if n == maxEchoed-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// oneLine replaces every control character in s (a newline in an
// argument, say) with its escaped form, so s prints as one line.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
