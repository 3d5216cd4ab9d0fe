package ledger

// stampLen is an array length a test observes: its mutants cannot be
// switched at run time, are built alone, and are killed.
const stampLen = 4

// Stamp returns a zeroed stamp of stampLen bytes.
func Stamp() []byte {
	var b [stampLen]byte
	return b[:]
}
