package mutate

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	out := os.Getenv("ZZDUMP")
	if out == "" {
		t.Skip()
	}
	root := "../../.."
	dirs, err := Fencelab.Dirs(Mechanism, Runner, Tooling), error(nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(out)
	defer f.Close()
	ms, err := Generate(t.Context(), root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		src, _ := os.ReadFile(root + "/" + m.File)
		line, col := 1, 1
		for _, c := range src[:m.start] {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		fmt.Fprintf(f, "%s auth=%v schema=%v @%d.%d %s\n", m.ID, m.Authority, m.schema, line, col, m.Diff())
	}
}
