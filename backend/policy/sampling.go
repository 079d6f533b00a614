package policy

// An MCP server's sampling request (its wish to use the person's model) is asked about every
// time, unless the person allowed that server for the session: a grant of kind KindSampling
// naming the server in its Command field. No call has this kind, so the grant never matches a
// call.

// KindSampling is the kind of a grant that lets an MCP server sample for the session.
const KindSampling Kind = "sampling"

// SamplingAllowed reports whether the session's grants let server sample without asking.
func SamplingAllowed(grants []Grant, server string) bool {
	for _, g := range grants {
		if g.Kind == KindSampling && g.Command == server && server != "" {
			return true
		}
	}
	return false
}
