package netproxy

import (
	"strings"
)

// NormalHost is how hosts are compared: lower case, without the root's trailing dot.
func NormalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// ValidHost accepts DNS names (letters, digits, '-', '_', dots between non-empty labels) and IP
// literals; anything else (spaces, '*' inside, control characters) is refused before it can
// reach a resolver or a refusal's text.
func ValidHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if isIPLiteral(h) {
		return true
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
