package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// tlsFlags are the HTTPS options: --tls makes a self-signed certificate at
// start and writes it to --tls-cert-out; --tls-cert/--tls-key serve a given
// one instead.
type tlsFlags struct {
	on       bool
	certFile string
	keyFile  string
	certOut  string
}

// config returns the TLS configuration for listen (nil for plain HTTP) and
// the file a client should trust ("" when the certificate was given).
func (f tlsFlags) config(listen string) (*tls.Config, string, error) {
	if f.certFile != "" || f.keyFile != "" {
		if f.certFile == "" || f.keyFile == "" {
			return nil, "", errors.New("--tls-cert and --tls-key go together")
		}
		cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
		if err != nil {
			return nil, "", fmt.Errorf("loading --tls-cert/--tls-key: %w", err)
		}
		return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, "", nil
	}
	if !f.on {
		if f.certOut != "" {
			return nil, "", errors.New("--tls-cert-out needs --tls")
		}
		return nil, "", nil
	}
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, "", fmt.Errorf("--listen %q: %w", listen, err)
	}
	cert, certPEM, err := sandbox.SelfSignedCertificate(host)
	if err != nil {
		return nil, "", err
	}
	out := f.certOut
	if out == "" {
		out = filepath.Join(os.TempDir(), "tfgov-sandbox-cert.pem")
	}
	if out, err = filepath.Abs(out); err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(out, certPEM, 0o600); err != nil {
		return nil, "", fmt.Errorf("writing the certificate: %w", err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, out, nil
}

// writeTLSExports prints a client's exports: the hostname (for service discovery), the certificate
// to trust and, on port 443, TF_TOKEN_<host>; a shell variable's name cannot hold another port.
func writeTLSExports(out *strings.Builder, addr net.Addr, certFile, token string) {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	hostname := net.JoinHostPort(host, port)
	if port == "443" {
		hostname = host
	}
	fmt.Fprintf(out, "# HTTPS: the hostname for `hostname` (service discovery at https://%s/.well-known/terraform.json)\n", hostname)
	fmt.Fprintf(out, "export TFE_HOSTNAME=%s\n", hostname)
	if certFile != "" {
		fmt.Fprintf(out, "# the sandbox's self-signed certificate, for Go programs (Terraform, providers); replaces the system bundle file\nexport SSL_CERT_FILE=%s\n", certFile)
	}
	if port == "443" {
		name := "TF_TOKEN_" + strings.ReplaceAll(strings.ReplaceAll(host, "-", "__"), ".", "_")
		fmt.Fprintf(out, "# the token as Terraform CLI credentials for %s\nexport %s=%s\n", host, name, token)
	} else {
		fmt.Fprintf(out, "# TF_TOKEN_<host> cannot name port %s in a shell; TFE_TOKEN carries the token\n", port)
	}
}
