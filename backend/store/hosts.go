package store

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// AddHostGrant records that the session approved host for the network proxy.
func (s *Store) AddHostGrant(sessionID, host string) error {
	host, err := checkHost(host)
	if err != nil {
		return err
	}
	return s.addMarkerGrant(sessionID, policy.KindHost, host)
}

// AddHostRule approves host for every session, as a rule listed (and revocable) in Settings.
func (s *Store) AddHostRule(host, source string) (RuleRow, error) {
	host, err := checkHost(host)
	if err != nil {
		return RuleRow{}, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return RuleRow{}, errs.Wrap(errs.Internal, err)
	}
	row := RuleRow{ID: id.String(), Effect: string(policy.Allow), Kind: string(policy.KindHost), Command: host,
		Scope: string(policy.ScopeExact), Source: source, CreatedAt: time.Now().UTC()}
	return row, s.write(func(tx *gorm.DB) error { return tx.Create(&row).Error })
}

// checkHost accepts a host name as the proxy saw it: letters, digits, dots, dashes and the
// brackets and colons of an IPv6 literal.
func checkHost(host string) (string, error) {
	h := policy.NormalHost(host)
	ok := h != "" && len(h) <= 253 && !strings.ContainsFunc(h, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_[]:", r))
	})
	if !ok {
		return "", errs.Invalid("host", host, []string{"registry.npmjs.org"})
	}
	return h, nil
}

// AddSamplingGrant records that the session lets the MCP server sample without asking.
func (s *Store) AddSamplingGrant(sessionID, server string) error {
	if strings.TrimSpace(server) == "" {
		return errs.Invalid("server", server, []string{"the server's name"})
	}
	return s.addMarkerGrant(sessionID, policy.KindSampling, server)
}
