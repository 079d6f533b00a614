package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// One encoder and decoder serve every goroutine (EncodeAll and DecodeAll are safe for that).
var (
	encoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest))
	decoder, _ = zstd.NewReader(nil)
)

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// hashFile hashes a file too large to keep, without holding it in memory.
func hashFile(p string) (string, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// putBlob stores content under its hash unless it is there already; it returns the hash.
func putBlob(tx *gorm.DB, content []byte) (string, error) {
	hash := hashOf(content)
	var n int64
	if err := tx.Raw("SELECT COUNT(*) FROM blobs WHERE hash = ?", hash).Scan(&n).Error; err != nil {
		return "", storeErr(err)
	}
	if n > 0 {
		return hash, nil
	}
	data := encoder.EncodeAll(content, nil)
	err := tx.Exec("INSERT INTO blobs (hash, size, stored, data) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
		hash, len(content), len(data), data).Error
	return hash, storeErr(err)
}

// blob reads one stored content back, checking it against its hash.
func blob(db *gorm.DB, hash string) ([]byte, error) {
	var data []byte
	row := db.Raw("SELECT data FROM blobs WHERE hash = ?", hash).Row()
	if err := row.Scan(&data); err != nil {
		return nil, errs.Wrap(Missing, err, "Hash", hash)
	}
	out, err := decoder.DecodeAll(data, nil)
	if err != nil || hashOf(out) != hash {
		return nil, errs.New(Missing, "Hash", hash)
	}
	return out, nil
}
