//go:build unix

package sandbox

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts a process in a process group of its own, so that a
// kill reaches what it starts (plugins, provisioner commands) too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interruptProcess sends SIGINT to p alone: Terraform then stops gracefully,
// letting the operation in progress finish.
func interruptProcess(p *os.Process) error { return p.Signal(os.Interrupt) }

// killProcessGroup sends SIGKILL to p's process group.
func killProcessGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGKILL) }
