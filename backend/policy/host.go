package policy

import "strings"

// A sandboxed command reaches the network only through AgentDesk's proxy, which lets through
// the host names the person approved: once for a command, for the session (a grant of kind
// KindHost) or always (an allow rule of kind KindHost, listed in Settings). The name is kept
// in the Command field; no call has this kind, so such a grant or rule never matches a call.

// KindHost is the kind of a grant or rule that approves a host name for the network proxy.
const KindHost Kind = "host"

// NormalHost is a host name as approvals compare it: lower case, without a trailing dot.
func NormalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
}

// HostApproved reports whether the session's grants or the allow rules approve host. A rule's
// "*.example.com" (which only the person types, in Settings) approves the names below it.
func HostApproved(grants []Grant, rules []Rule, host string) bool {
	host = NormalHost(host)
	for _, g := range grants {
		if g.Kind == KindHost && NormalHost(g.Command) == host {
			return true
		}
	}
	for _, r := range rules {
		if r.Kind == KindHost && r.Effect == Allow && hostMatches(NormalHost(r.Command), host) {
			return true
		}
	}
	return false
}

// HostDenied reports whether a deny rule of kind KindHost names host: it outranks approvals.
func HostDenied(rules []Rule, host string) bool {
	host = NormalHost(host)
	for _, r := range rules {
		if r.Kind == KindHost && r.Effect != Allow && hostMatches(NormalHost(r.Command), host) {
			return true
		}
	}
	return false
}

func hostMatches(pattern, host string) bool {
	if suffix, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+suffix)
	}
	return pattern != "" && pattern == host
}
