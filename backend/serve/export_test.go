package serve

// Token is the secret every request must carry.
func (s *Server) Token() string { return s.token }
