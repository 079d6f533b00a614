package app

import (
	"io/fs"

	"agentdesk/backend/serve"
)

// Listen prepares the browser bridge over the same facades the window binds.
func Listen(s *Services, addr string, assets fs.FS) (*serve.Server, error) {
	s.Info.Transport = "browser"
	return serve.Listen(serve.Options{
		Addr:      addr,
		Methods:   s.Methods(),
		Assets:    withHead(assets, marksHead),
		Subscribe: s.Bus.SubscribeBatch,
		Describe:  s.Describe,
		Faults:    faults,
	})
}
