package mutate

import (
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/fencelab/fencelab/internal/course/variant"
)

func TestZZJudges(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	r := variant.New("/work/wt-mutate")
	defer r.Close()
	l, err := listPackages(t.Context(), r, fencelabModule, Fencelab)
	if err != nil {
		t.Fatal(err)
	}
	js, err := l.judges()
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range js {
		var u []string
		for p, h := range j.uses {
			u = append(u, fmt.Sprintf("%s:%d", p[9:], h))
		}
		sort.Strings(u)
		fmt.Println(j.Name, u)
	}
}

func TestZZScripts(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	fmt.Println(scriptCommands("/work/wt-mutate/chapters/ch01_naive_claim"))
	r := variant.New("/work/wt-mutate")
	defer r.Close()
	l, _ := listPackages(t.Context(), r, fencelabModule, Fencelab)
	fmt.Println(l.commands())
	p := l.byPath[fencelabModule+"/chapters/ch01_naive_claim"]
	for h := range l.closure(p.testImports(), func(string) bool { return true }) {
		fmt.Println(" ", h)
	}
}
