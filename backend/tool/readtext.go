package tool

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// readTextCap bounds what ReadText returns: an external agent reading a file through AgentDesk
// gets it whole, or a clear error, never a silently shortened copy.
const readTextCap = 16 << 20

// ReadText is a text file's content, verbatim, as ACP's fs/read_text_file returns it: from
// line (1-based; 0 means the first) on, at most limit lines (0 means to the end). It takes the
// read tool's way to the file: the workspace root, the path the gate approved (env.Target),
// and no folders, devices or binary files.
func ReadText(env Env, path string, line, limit int) (string, error) {
	if line < 0 || limit < 0 {
		return "", errs.New(InvalidToolInput, "Tool", string(mode.ToolRead), "Problem", "line and limit must not be negative")
	}
	at, err := locate(mode.ToolRead, env, path)
	if err != nil {
		return "", err
	}
	defer at.close()
	f, err := at.openRegular()
	if err != nil {
		return "", err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if isBinary(r) {
		return "", errs.New(BinaryFile, "Path", path)
	}
	data, err := io.ReadAll(io.LimitReader(r, readTextCap+1))
	if err != nil {
		return "", at.fail(err)
	}
	if len(data) > readTextCap {
		return "", errs.New(ToolFailed, "Tool", string(mode.ToolRead), "Problem", "the file is larger than "+strconv.Itoa(readTextCap>>20)+" MiB")
	}
	return string(lines(data, line, limit)), nil
}

// lines is the part of data from line (1-based) on, at most limit lines, endings kept.
func lines(data []byte, line, limit int) []byte {
	start := 0
	for n := 1; n < line && start < len(data); n++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return nil
		}
		start += i + 1
	}
	if limit == 0 {
		return data[start:]
	}
	end := start
	for n := 0; n < limit && end < len(data); n++ {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return data[start:]
		}
		end += i + 1
	}
	return data[start:end]
}
