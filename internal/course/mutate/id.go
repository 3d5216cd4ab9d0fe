package mutate

// This file names mutants. An ID must survive edits elsewhere in the file,
// so it is built from what the mutant is (package, function, operator, the
// snippet before and after), never from where it is (a line number).

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strconv"
	"strings"
)

// assignIDs gives each mutant its ID. Two mutants with the same package,
// function, operator and snippets (the same comparison written twice in
// one function) are told apart by their order in the source.
func assignIDs(ms []*Mutant) {
	seen := map[string]int{}
	for _, m := range ms {
		key := strings.Join([]string{m.Package, m.Func, string(m.Operator), oneLine(m.Original), oneLine(m.Mutated), m.sqlHead}, "\x00")
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
		m.ID = path.Base(m.Package) + ":" + m.Func + ":" + string(m.Operator) + ":" + hex.EncodeToString(sum[:4])
	}
}
