//go:build !unix

package sandbox

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

// interruptProcess ends p: without Unix signals there is no interrupt that
// reaches a process without a console, so a cancel ends it as a
// force-cancel would.
func interruptProcess(p *os.Process) error { return p.Kill() }

func killProcessGroup(p *os.Process) error { return p.Kill() }
