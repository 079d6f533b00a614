package app

// System describes the running app to the frontend.
type System struct{ s *Services }

// Info returns the version, data folder, default workspace and transport.
func (f *System) Info() (Info, error) {
	return f.s.Info, nil
}
