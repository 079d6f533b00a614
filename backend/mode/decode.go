package mode

import (
	"maps"
	"slices"
)

// Unrecognized names a stored value the decoders could not read, so callers can show it
// (for example `unrecognized_mode: "<raw>"`) instead of hiding it.
type Unrecognized struct {
	Field string // "interaction_mode" or "execution_override"
	Raw   string
}

// Decoded is a stored preference after folding.
type Decoded struct {
	Preference   Preference
	Unrecognized []Unrecognized // empty when every field was recognized
}

// Recognized reports whether every stored field was canonical or a known retired spelling.
func (d Decoded) Recognized() bool { return len(d.Unrecognized) == 0 }

// retiredInteraction maps the retired spellings of the old single "mode" column to what they mean
// now (R-DATA-3). "chat" is both retired and canonical and needs no entry.
var retiredInteraction = map[string]Preference{
	"agent":     {Interaction: Smart},
	"read-only": {Interaction: Smart, Override: Analyze},
	"plan":      {Interaction: Smart, Override: Plan},
}

// DecodeInteraction is the decoder of the stored interaction_mode column. It returns the
// interaction mode and, for retired spellings that also pinned an execution mode ("read-only",
// "plan"), the override they imply. Anything unknown reads as Smart · Analyze with ok false.
func DecodeInteraction(raw string) (m InteractionMode, implied Override, ok bool) {
	if InteractionMode(raw).Valid() {
		return InteractionMode(raw), None, true
	}
	if p, retired := retiredInteraction[raw]; retired {
		return p.Interaction, p.Override, true
	}
	return readOnlySurface.Interaction, readOnlySurface.Override, false
}

// DecodeOverride is the decoder of the stored execution_override column. There are no retired
// override spellings; anything not canonical reads as Analyze with ok false.
func DecodeOverride(raw string) (o Override, ok bool) {
	if Override(raw).Valid() {
		return Override(raw), true
	}
	return Analyze, false
}

// DecodePreference reads a stored preference from its two columns, folding retired spellings and
// failing closed on anything else. It never widens what is stored:
//   - an unknown interaction mode reads as Smart · Analyze, whatever the override column holds;
//   - an unknown override reads as Analyze, under Smart;
//   - a retired spelling that implied an override ("read-only", "plan") wins over the column,
//     because those rows predate the column;
//   - Chat stored with an override is not a valid combination; it reads as plain Chat (no tools at
//     all, narrower than any override) and the override is reported as unrecognized.
func DecodePreference(rawInteraction, rawOverride string) Decoded {
	var d Decoded
	m, implied, ok := DecodeInteraction(rawInteraction)
	if !ok {
		d.Unrecognized = append(d.Unrecognized, Unrecognized{Field: "interaction_mode", Raw: rawInteraction})
		d.Preference = readOnlySurface
		return d
	}
	d.Preference = Preference{Interaction: m, Override: implied}
	if implied.IsSet() {
		return d
	}
	o, ok := DecodeOverride(rawOverride)
	if ok && !o.IsSet() {
		return d
	}
	if !ok || m == Chat {
		d.Unrecognized = append(d.Unrecognized, Unrecognized{Field: "execution_override", Raw: rawOverride})
	}
	if m != Chat {
		d.Preference.Override = o
	}
	return d
}

// Rewrite is what boot maintenance writes back over a retired spelling.
type Rewrite struct {
	InteractionMode   string
	ExecutionOverride string
}

// RetiredInteractions lists every retired spelling of the interaction column, sorted: boot
// maintenance looks up just the rows that hold one (RetiredPreference rewrites no other).
func RetiredInteractions() []string {
	return slices.Sorted(maps.Keys(retiredInteraction))
}

// RetiredPreference tells boot maintenance (R-DATA-4) whether a stored row holds an unambiguous
// retired spelling and what to write instead. It answers false for canonical rows (nothing to do)
// and for unknown or ambiguous ones — those stay as stored and read fail-closed — so a second run
// over rewritten data changes nothing. A "read-only" or "plan" row is ambiguous when its override
// column already holds a different value. A rewrite never changes how the row decodes.
func RetiredPreference(rawInteraction, rawOverride string) (Rewrite, bool) {
	p, retired := retiredInteraction[rawInteraction]
	if !retired {
		return Rewrite{}, false
	}
	if !p.Override.IsSet() {
		// "agent" only renames the interaction column; the override column is left as stored.
		return Rewrite{InteractionMode: string(p.Interaction), ExecutionOverride: rawOverride}, true
	}
	if rawOverride != "" && Override(rawOverride) != p.Override {
		return Rewrite{}, false
	}
	return Rewrite{InteractionMode: string(p.Interaction), ExecutionOverride: string(p.Override)}, true
}
