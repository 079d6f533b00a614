// Package glob is the one glob engine: the gate's path rules and the glob tool both match with
// it. It runs the "**" segments, as an automaton over whole segments, because callers need
// what a full-path matcher such as doublestar.Match does not say: how few leading segments a
// pattern covers (a directory rule covers what is below it) and whether a folder can still
// hold a match (so a walk can skip it). doublestar.Match also guesses at the end of a name
// ("x*/**" misses "x") and reads "" both as no segment and as one empty segment.
//
// Within a segment the caller's matcher decides: the tool's is doublestar's, with "{a,b}";
// the gate's is path.Match, the syntax people wrote their rules for. doublestar would read
// "{a,b}" and "[!a]" as more, and compares invalid UTF-8 as equal runes, so an allow rule
// would reach paths nobody listed.
package glob

// Match runs pat over segs, both split at "/". A "**" segment matches any number of segments,
// none included; any other segment matches one name segment where seg says so. first is the fewest leading segments of segs that pat matches whole, -1 for none;
// full is whether pat matches all of segs; deeper is whether it could match a path below segs.
//
// The state is the set of pattern positions reachable so far, so "**/a/**/b" costs
// len(pat)·len(segs), never the exponential backtracking a naive recursion has.
func Match(pat, segs []string, seg func(pattern, name string) bool) (first int, full, deeper bool) {
	cur, next := make([]bool, len(pat)+1), make([]bool, len(pat)+1)
	cur[0] = true
	closeStars(pat, cur)
	first = -1
	for j, s := range segs {
		if first < 0 && cur[len(pat)] {
			first = j
		}
		clear(next)
		alive := false
		for i, on := range cur[:len(pat)] {
			switch {
			case !on:
			case pat[i] == "**":
				next[i], alive = true, true
			case seg(pat[i], s):
				next[i+1], alive = true, true
			}
		}
		if !alive {
			return first, false, false
		}
		cur, next = next, cur
		closeStars(pat, cur)
	}
	full = cur[len(pat)]
	if first < 0 && full {
		first = len(segs)
	}
	for _, on := range cur[:len(pat)] {
		deeper = deeper || on
	}
	return first, full, deeper
}

// closeStars lets every reachable "**" also match zero segments.
func closeStars(pat []string, cur []bool) {
	for i := range pat {
		if cur[i] && pat[i] == "**" {
			cur[i+1] = true
		}
	}
}
