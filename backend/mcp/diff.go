package mcp

import "strings"

// DiffLine is one line of the difference between an approved definition and the listed one.
type DiffLine struct {
	Op   string `json:"op"` // " " the same, "-" only in the approved one, "+" only in the new one
	Text string `json:"text"`
}

// maxDiffLines bounds the quadratic table; a longer definition shows as removed and added whole.
const maxDiffLines = 2000

// diffLines is a line diff of a and b by longest common subsequence.
func diffLines(a, b string) []DiffLine {
	x, y := splitLines(a), splitLines(b)
	if len(x) > maxDiffLines || len(y) > maxDiffLines {
		return append(lines("-", x), lines("+", y)...)
	}
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []DiffLine
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] == y[j]:
			out = append(out, DiffLine{" ", x[i]})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, DiffLine{"-", x[i]})
			i++
		default:
			out = append(out, DiffLine{"+", y[j]})
			j++
		}
	}
	return append(append(out, lines("-", x[i:])...), lines("+", y[j:])...)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func lines(op string, texts []string) []DiffLine {
	out := make([]DiffLine, len(texts))
	for i, t := range texts {
		out[i] = DiffLine{op, t}
	}
	return out
}
