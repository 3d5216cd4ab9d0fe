// Command benchpeers measures what fencing costs against the cycles around
// it, in one process: the course's fenced insert-claim-complete cycle, the
// naive cycle of chapter 1, goqite's send-receive-delete (a queue that does
// not fence), and the floor (three one-statement BEGIN IMMEDIATE
// transactions on a kept connection with prepared statements).
//
// The cycles run in interleaved rounds, each round on fresh files, all
// with the course's SQLite settings, and the report gives microseconds per
// cycle, CPU and wall, with the fenced cycle's ratio to each. A machine's
// load moves every number; measured in the same rounds, the ratios move
// much less.
//
// Usage, from the repository root:
//
//	make bench-peers
//	make bench-peers ARGS='--json'
//	make bench-peers ARGS='--rounds 9 --cycles 2000 --cpuprofile /tmp/fenced.pprof'
//
// make runs it from tools/benchpeers, so a relative --cpuprofile path lands
// there. Read the profile with `go tool pprof -top /tmp/fenced.pprof`.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"text/tabwriter"
	"time"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench-peers:", err)
		}
		os.Exit(2)
	}
}

// config is what the flags set.
type config struct {
	rounds, cycles int
	json           bool
	cpuprofile     string
}

// run parses args, measures, and prints the report to stdout.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench-peers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.IntVar(&cfg.rounds, "rounds", 7, "measured `rounds`, after one warm-up round; each runs every variant once")
	fs.IntVar(&cfg.cycles, "cycles", 1000, "`cycles` per variant per round, each on a new message")
	fs.BoolVar(&cfg.json, "json", false, `print one JSON document: {"variants": [{"name", "cpu_us", "wall_us"}]}`)
	fs.StringVar(&cfg.cpuprofile, "cpuprofile", "", "after the measured rounds, profile the fenced cycle alone (rounds × cycles of it, on a fresh file) into `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 || cfg.rounds < 1 || cfg.cycles < 1 {
		fs.Usage()
		return fmt.Errorf("want only flags, with --rounds and --cycles at least 1")
	}

	dir, err := os.MkdirTemp("", "bench-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := sameSettings(ctx, dir); err != nil {
		return err
	}
	res, err := measure(ctx, cfg, dir)
	if err != nil {
		return err
	}
	if cfg.cpuprofile != "" {
		if err := profileFenced(ctx, cfg, dir); err != nil {
			return err
		}
	}
	if cfg.json {
		return printJSON(stdout, res)
	}
	printTable(stdout, cfg, res)
	return nil
}

// sample is one variant's cost per cycle in one round, in microseconds.
type sample struct{ cpu, wall float64 }

// results holds every measured round: results[name][round].
type results map[string][]sample

// measure runs one warm-up round and cfg.rounds measured ones. Each round
// runs every variant once, starting one variant later than the round
// before, so that no variant always runs first, or always after the same
// neighbour.
func measure(ctx context.Context, cfg config, dir string) (results, error) {
	res := results{}
	for round := -1; round < cfg.rounds; round++ {
		for k := range variants {
			v := variants[(k+max(round, 0))%len(variants)]
			path := filepath.Join(dir, fmt.Sprintf("%s-%d.db", v.name, round+1))
			s, err := once(ctx, v, path, cfg.cycles, nil)
			if err != nil {
				return nil, fmt.Errorf("%s, round %d: %w", v.name, round+1, err)
			}
			if round >= 0 {
				res[v.name] = append(res[v.name], s)
			}
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
		}
	}
	return res, nil
}

// profileFenced runs the fenced cycle rounds × cycles times on a fresh
// file under the CPU profiler, apart from the measured rounds.
func profileFenced(ctx context.Context, cfg config, dir string) error {
	f, err := os.Create(cfg.cpuprofile)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = once(ctx, variants[0], filepath.Join(dir, "profiled.db"), cfg.rounds*cfg.cycles, f)
	if err != nil {
		return fmt.Errorf("fenced, profiled: %w", err)
	}
	return f.Close()
}

// once opens a fresh file for v, runs its cycle n times, and returns the
// cost per cycle. Opening and closing are not measured. The garbage the
// previous variant left is collected first, so that no variant pays for
// another's. With prof non-nil, the cycles run under the CPU profiler.
func once(ctx context.Context, v variant, path string, n int, prof io.Writer) (sample, error) {
	cycle, closeFn, err := v.open(ctx, path)
	if err != nil {
		return sample{}, err
	}
	defer closeFn()
	runtime.GC()
	if prof != nil {
		if err := pprof.StartCPUProfile(prof); err != nil {
			return sample{}, err
		}
		defer pprof.StopCPUProfile()
	}
	cpu0, err := cpuTime()
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	for i := range n {
		if err := cycle(i); err != nil {
			return sample{}, fmt.Errorf("cycle %d: %w", i, err)
		}
	}
	wall := time.Since(start)
	cpu1, err := cpuTime()
	if err != nil {
		return sample{}, err
	}
	return sample{cpu: micros(cpu1-cpu0) / float64(n), wall: micros(wall) / float64(n)}, nil
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// median returns the middle of xs (the mean of the two middle values for
// an even count).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cost is one variant's median cost per cycle over the rounds.
func (r results) cost(name string) sample {
	var cpu, wall []float64
	for _, s := range r[name] {
		cpu, wall = append(cpu, s.cpu), append(wall, s.wall)
	}
	return sample{cpu: median(cpu), wall: median(wall)}
}

// ratio is the median over rounds of fenced's cost divided by name's cost
// in the same round: the pairs share whatever else the machine was doing.
func (r results) ratio(name string) sample {
	var cpu, wall []float64
	for i, f := range r["fenced"] {
		o := r[name][i]
		cpu, wall = append(cpu, f.cpu/o.cpu), append(wall, f.wall/o.wall)
	}
	return sample{cpu: median(cpu), wall: median(wall)}
}

// goals are the ratios the course aims for, fenced's CPU per cycle to each
// peer's (issue 12).
var goals = []struct {
	peer string
	max  float64
}{{"naive", 1.10}, {"floor", 1.2}, {"goqite", 0.4}}

// printTable prints the report for people.
func printTable(w io.Writer, cfg config, r results) {
	fmt.Fprintf(w, "%d rounds of %d cycles per variant, interleaved, fresh files, one process; medians over rounds\n\n", cfg.rounds, cfg.cycles)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "variant\tcpu µs/cycle\twall µs/cycle\tfenced/this cpu\tfenced/this wall\t")
	for _, v := range variants {
		c, q := r.cost(v.name), r.ratio(v.name)
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.2fx\t%.2fx\t\n", v.name, c.cpu, c.wall, q.cpu, q.wall)
	}
	tw.Flush()
	fmt.Fprintln(w, "\ngoals, CPU:")
	for _, g := range goals {
		got := r.ratio(g.peer).cpu
		verdict := "met"
		if got > g.max {
			verdict = "not met"
		}
		fmt.Fprintf(w, "  fenced at most %.2fx %s: %.2fx, %s\n", g.max, g.peer, got, verdict)
	}
}

// printJSON prints the report as one JSON document.
func printJSON(w io.Writer, r results) error {
	type entry struct {
		Name   string  `json:"name"`
		CPUUs  float64 `json:"cpu_us"`
		WallUs float64 `json:"wall_us"`
	}
	doc := struct {
		Variants []entry `json:"variants"`
	}{}
	for _, v := range variants {
		c := r.cost(v.name)
		doc.Variants = append(doc.Variants, entry{Name: v.name, CPUUs: round1(c.cpu), WallUs: round1(c.wall)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// round1 rounds to one decimal: finer digits are noise.
func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }
