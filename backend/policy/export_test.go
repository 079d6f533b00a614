package policy

func newExpander(v View) *expander {
	e := &expander{view: v}
	e.config()
	return e
}
