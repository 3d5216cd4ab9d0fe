package exercise

// This file sums the learner's progress up per chapter: what `drill
// progress` prints and what a fork's CI job shows.

// Summary is the learner's progress over every exercise.
type Summary struct {
	Current   string `json:"current,omitempty"`
	Exercises int    `json:"exercises"`
	// Solved counts the solutions saved in the current format: what grade
	// checks. Done counts those of them verified in this tree.
	Solved   int               `json:"solved"`
	Done     int               `json:"done"`
	Hints    int               `json:"hints"`
	Chapters []ChapterProgress `json:"chapters"`
}

// ChapterProgress is the learner's progress in one chapter.
type ChapterProgress struct {
	Chapter   string      `json:"chapter"`
	Exercises int         `json:"exercises"`
	Solved    int         `json:"solved"`
	Done      int         `json:"done"`
	Started   int         `json:"started"`
	Hints     int         `json:"hints"`
	Tests     []TestScore `json:"tests"` // the test exercises graded at least once
}

// TestScore is the last score of one test exercise.
type TestScore struct {
	Name    string `json:"name"`
	Caught  int    `json:"caught"`
	Chaffs  int    `json:"broken_copies"`
	Percent int    `json:"percent"`
}

// Summarize sums the learner's progress up over the exercises of set,
// chapter by chapter, in catalog order; chapters without exercises are
// left out. Solved counts saved solutions, committed or not, and Done
// those verified in this tree (see Statuses); hints and scores come from
// the working record.
func Summarize(set *Set, prog *Progress, status map[string]Status) Summary {
	s := Summary{Current: prog.Current, Chapters: []ChapterProgress{}}
	for _, ch := range set.Catalog.Chapters {
		es := set.InChapter(ch.Name)
		if len(es) == 0 {
			continue
		}
		cp := ChapterProgress{Chapter: ch.Name, Exercises: len(es), Tests: []TestScore{}}
		for _, e := range es {
			if status[e.Name].Solved() {
				cp.Solved++
			}
			switch status[e.Name] {
			case Done:
				cp.Done++
			case Started:
				cp.Started++
			}
			r := prog.Exercises[e.Name]
			if r == nil {
				continue
			}
			cp.Hints += r.Hints
			if e.Kind == Test && r.Score != nil {
				cp.Tests = append(cp.Tests, TestScore{Name: e.Name, Caught: r.Score.Caught, Chaffs: r.Score.Chaffs, Percent: r.Score.Percent()})
			}
		}
		s.Exercises += cp.Exercises
		s.Done += cp.Done
		s.Solved += cp.Solved
		s.Hints += cp.Hints
		s.Chapters = append(s.Chapters, cp)
	}
	return s
}

// Next returns the first exercise after e, in list order, that is not
// done; ok is false when every other exercise is done.
func Next(set *Set, status map[string]Status, e *Exercise) (*Exercise, bool) {
	i := 0
	for j, x := range set.Exercises {
		if x == e {
			i = j
		}
	}
	n := len(set.Exercises)
	for k := 1; k < n; k++ {
		x := set.Exercises[(i+k)%n]
		if status[x.Name] != Done {
			return x, true
		}
	}
	return nil, false
}
