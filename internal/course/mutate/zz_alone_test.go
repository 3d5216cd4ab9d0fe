package mutate

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestZZAlone(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	root := "/work/wt-mutate"
	dirs := Fencelab.Dirs(Mechanism, Runner, Tooling)
	pkgs, u, err := load(t.Context(), root, dirs)
	if err != nil {
		t.Fatal(err)
	}
	byPkg := map[string]*packages.Package{}
	var all []*Mutant
	for _, p := range pkgs {
		ms, err := generate(root, Fencelab, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, mu := range ms {
			byPkg[mu.Package] = p
			if checkAlone(p, u, mu) == nil {
				all = append(all, mu)
			}
		}
	}
	if err := switchConstants(root, byPkg, u, all); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range all {
		if !m.schema {
			n++
			fmt.Println("alone", m.ID, m.Diff())
		}
	}
	fmt.Println(len(all), "valid;", n, "alone")
}
