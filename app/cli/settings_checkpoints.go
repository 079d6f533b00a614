package cli

import (
	"strconv"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// checkpointSettings are the settings keys of checkpoints and the review of changes.
func checkpointSettings() map[string]setting {
	field := func(get func(store.CheckpointSettings) string, set func(*store.CheckpointSettings, string) error) setting {
		return setting{
			get: func(st *store.Store) (string, error) {
				cs, err := st.CheckpointSettings()
				return get(rewind.Effective(cs)), err
			},
			set: func(st *store.Store, value string) error {
				cs, err := st.CheckpointSettings()
				if err != nil {
					return err
				}
				cs = rewind.Effective(cs)
				if err := set(&cs, value); err != nil {
					return err
				}
				_, err = st.SetCheckpointSettings(cs)
				return err
			},
		}
	}
	return map[string]setting{
		"checkpoint-quota": field(func(cs store.CheckpointSettings) string { return strconv.FormatInt(cs.Quota, 10) },
			func(cs *store.CheckpointSettings, v string) (err error) {
				cs.Quota, err = parseSize("quota", v)
				return err
			}),
		"checkpoint-max-file-size": field(func(cs store.CheckpointSettings) string { return strconv.FormatInt(cs.MaxFileSize, 10) },
			func(cs *store.CheckpointSettings, v string) (err error) {
				cs.MaxFileSize, err = parseSize("large-file limit", v)
				return err
			}),
		"checkpoint-secrets": field(func(cs store.CheckpointSettings) string { return strings.Join(cs.Secrets, "\n") },
			func(cs *store.CheckpointSettings, v string) error { cs.Secrets = splitLines(v); return nil }),
		"review-before-apply": field(func(cs store.CheckpointSettings) string { return strconv.FormatBool(cs.ReviewBeforeApply) },
			func(cs *store.CheckpointSettings, v string) (err error) {
				cs.ReviewBeforeApply, err = strconv.ParseBool(v)
				if err != nil {
					return errs.Invalid("review-before-apply", v, []string{"true", "false"})
				}
				return nil
			}),
	}
}

// parseSize reads a byte count, optionally with a unit: 512MB, 2GB, 1048576.
func parseSize(field, v string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.Invalid(field, v, []string{"a size such as 512MB or 2GB"})
	}
	return n * mult, nil
}
