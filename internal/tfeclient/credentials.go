package tfeclient

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hashicorp/hcl"
	svchost "github.com/hashicorp/terraform-svchost"
)

// Terraform CLI's credentials, read where and as Terraform reads them, after the provider's
// own token and TFE_TOKEN: DESIGN.md "The token and the endpoint".

// cliConfigPlaces are the paths Terraform CLI reads its configuration from.
type cliConfigPlaces struct {
	file, fileVar string // the main file, and the variable that named it ("": the default)
	dir           string // its *.tfrc and *.tfrc.json are read only when fileVar is ""
	login         string // the credentials file `terraform login` writes
}

func locateCLIConfig() (cliConfigPlaces, error) {
	var p cliConfigPlaces
	home, err := terraformHomeDir()
	if err != nil {
		return p, err
	}
	if runtime.GOOS == "windows" {
		p.file, p.dir = filepath.Join(home, "terraform.rc"), filepath.Join(home, "terraform.d")
	} else {
		p.file, p.dir = filepath.Join(home, ".terraformrc"), filepath.Join(home, ".terraform.d")
	}
	p.login = filepath.Join(p.dir, "credentials.tfrc.json")
	for _, v := range []string{"TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"} {
		if f := os.Getenv(v); f != "" {
			p.file, p.fileVar = f, v
			break
		}
	}
	return p, nil
}

// terraformHomeDir: HOME (else the user's home directory) on Unix, %APPDATA% on Windows.
func terraformHomeDir() (string, error) {
	if runtime.GOOS == "windows" {
		return os.UserConfigDir()
	}
	if home := os.Getenv("HOME"); home != "" {
		return home, nil
	}
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	if u.HomeDir == "" {
		return "", errors.New("no home directory")
	}
	return u.HomeDir, nil
}

// cliCredentials is what the CLI configuration files hold for one host.
type cliCredentials struct {
	token, file string   // "" when none
	fromLogin   bool     // file is the credentials file of `terraform login`
	looked      []string // each place read and what it held, for a missing token's error
}

// credentialsFromCLIConfig reads a credentials block, then the file of `terraform login`. A
// file that exists but cannot be read or parsed is an error naming it, not a silent miss.
func credentialsFromCLIConfig(places cliConfigPlaces, host svchost.Hostname) (cliCredentials, error) {
	var c cliCredentials
	block := fmt.Sprintf("a credentials %q block", host.ForDisplay())

	files := []string{places.file}
	var dirNote string
	if places.fileVar == "" {
		entries, err := os.ReadDir(places.dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
			dirNote = fmt.Sprintf("the CLI configuration directory %s: not found", places.dir)
		case err != nil:
			return c, fmt.Errorf("reading the CLI configuration directory %s: %w", places.dir, err)
		default:
			n := 0
			for _, e := range entries {
				name := e.Name()
				if name == filepath.Base(places.login) || e.IsDir() ||
					(!strings.HasSuffix(name, ".tfrc") && !strings.HasSuffix(name, ".tfrc.json")) {
					continue
				}
				files = append(files, filepath.Join(places.dir, name))
				n++
			}
			if n == 0 {
				dirNote = fmt.Sprintf("*.tfrc and *.tfrc.json files in %s: none", places.dir)
			}
		}
	} else {
		dirNote = fmt.Sprintf("*.tfrc files in %s: not read, as Terraform does not read them when %s is set", places.dir, places.fileVar)
	}
	for i, f := range files {
		what := "the CLI configuration file " + f
		if i == 0 && places.fileVar != "" {
			what = fmt.Sprintf("the CLI configuration file %s (%s)", f, places.fileVar)
		}
		tok, found, exists, err := readCredentialsBlock(f, host)
		if err != nil {
			return c, err
		}
		switch {
		case !exists:
			c.looked = append(c.looked, fmt.Sprintf("%s in %s: file not found", block, what))
		case !found:
			c.looked = append(c.looked, fmt.Sprintf("%s in %s: none", block, what))
		default:
			// A later file overrides an earlier one, as in Terraform.
			c.token, c.file = tok, f
			c.looked = append(c.looked, fmt.Sprintf("%s in %s: found", block, what))
		}
	}
	if dirNote != "" {
		c.looked = append(c.looked, dirNote)
	}
	if c.token != "" {
		return c, nil
	}
	what := fmt.Sprintf("the credentials file of `terraform login` %s", places.login)
	tok, found, exists, err := readCredentialsBlock(places.login, host)
	if err != nil {
		return c, err
	}
	switch {
	case !exists:
		c.looked = append(c.looked, what+": file not found")
	case !found:
		c.looked = append(c.looked, fmt.Sprintf("%s: no entry for %s", what, host.ForDisplay()))
	default:
		c.token, c.file, c.fromLogin = tok, places.login, true
	}
	return c, nil
}

// readCredentialsBlock returns the token of file's credentials block for host (HCL 1 or JSON,
// parsed as Terraform parses them).
func readCredentialsBlock(file string, host svchost.Hostname) (token string, found, exists bool, err error) {
	raw, err := os.ReadFile(file) // the CLI configuration's own paths
	if errors.Is(err, os.ErrNotExist) {
		return "", false, false, nil
	}
	if err != nil {
		return "", false, true, fmt.Errorf("reading %s: %w", file, err)
	}
	var cfg struct {
		Credentials map[string]map[string]interface{} `hcl:"credentials"`
	}
	obj, err := hcl.Parse(string(raw))
	if err == nil {
		err = hcl.DecodeObject(&cfg, obj)
	}
	if err != nil {
		return "", false, true, fmt.Errorf("parsing the Terraform CLI configuration file %s: %w", file, err)
	}
	for name, attrs := range cfg.Credentials {
		h, err := svchost.ForComparison(name)
		if err != nil || h != host {
			continue
		}
		tok, _ := attrs["token"].(string)
		if tok == "" {
			return "", false, true, fmt.Errorf("%s: the credentials %q block has no token (a string): tfgov reads only `token`, and runs no credentials_helper", file, name)
		}
		return tok, true, true, nil
	}
	return "", false, true, nil
}

// tokenFromEnvVars decodes TF_TOKEN_ variables as Terraform CLI does ("__" is a dash, then "_"
// a dot, svchost normalises) and returns host's; one set through env(1) may carry a port.
func tokenFromEnvVars(environ []string, host svchost.Hostname) (token, name string) {
	const prefix = "TF_TOKEN_"
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || value == "" || !strings.HasPrefix(name, prefix) {
			continue
		}
		raw := strings.ReplaceAll(strings.TrimPrefix(name, prefix), "__", "-")
		raw = strings.ReplaceAll(raw, "_", ".")
		if h, err := svchost.ForComparison(svchost.ForDisplay(raw)); err == nil && h == host {
			return value, name
		}
	}
	return "", ""
}

// TokenEnvName is Terraform's TF_TOKEN_ variable for a hostname:
// app.terraform.io -> TF_TOKEN_app_terraform_io, my-tfe.io -> TF_TOKEN_my__tfe_io.
func TokenEnvName(hostname string) string {
	h := strings.ReplaceAll(hostname, "-", "__")
	return "TF_TOKEN_" + strings.ReplaceAll(h, ".", "_")
}

// exportableTokenEnvName is hostname's TF_TOKEN_ variable, port 443 folded, and whether a
// shell can export it: not with another port, whose colon no variable name may hold.
func exportableTokenEnvName(hostname string) (string, bool) {
	if h, err := svchost.ForComparison(hostname); err == nil {
		hostname = h.String()
	}
	name := TokenEnvName(hostname)
	return name, !strings.Contains(name, ":")
}

// TokenSource says where the provider found its token, and how to fix a wrong one there.
type TokenSource struct {
	Name      string // as the error names it
	Fix       string
	Attribute bool // the provider's `token`
}

// FindToken looks for the token in the documented order; with none, looked lists each place
// and what it held, for the error.
func FindToken(attr, hostname string) (token string, src TokenSource, looked []string, err error) {
	login := fmt.Sprintf("run `terraform login %s`", hostname)
	if attr != "" {
		return attr, TokenSource{
			Name:      "the provider's token attribute",
			Fix:       fmt.Sprintf("Set the token attribute to a valid API token, or better remove it and use TFE_TOKEN or `terraform login %s`.", hostname),
			Attribute: true,
		}, nil, nil
	}
	looked = append(looked, "the provider's token attribute: not set")
	if tok := os.Getenv("TFE_TOKEN"); tok != "" {
		return tok, TokenSource{
			Name: "the TFE_TOKEN environment variable",
			Fix:  "Export TFE_TOKEN with a valid API token, or unset it to use the credentials of `terraform login`.",
		}, nil, nil
	}
	looked = append(looked, "the TFE_TOKEN environment variable: not set")
	host, err := svchost.ForComparison(hostname)
	if err != nil {
		return "", TokenSource{}, append(looked, fmt.Sprintf("Terraform CLI credentials: none can name %q (%s)", hostname, err)), nil
	}
	if tok, name := tokenFromEnvVars(os.Environ(), host); tok != "" {
		return tok, TokenSource{
			Name: "the " + name + " environment variable",
			Fix:  "Export " + name + " with a valid API token, or unset it and " + login + ".",
		}, nil, nil
	}
	if name, ok := exportableTokenEnvName(hostname); ok {
		looked = append(looked, "the "+name+" environment variable: not set")
	} else {
		looked = append(looked, "a TF_TOKEN_ environment variable for "+hostname+": none (a shell cannot export one for a host with a port)")
	}
	places, err := locateCLIConfig()
	if err != nil {
		return "", TokenSource{}, append(looked, "the Terraform CLI configuration: no home directory ("+err.Error()+")"), nil //nolint:nilerr // a missing token, not a failure
	}
	creds, err := credentialsFromCLIConfig(places, host)
	if err != nil {
		return "", TokenSource{}, nil, err
	}
	looked = append(looked, creds.looked...)
	switch {
	case creds.token == "":
		return "", TokenSource{}, looked, nil
	case creds.fromLogin:
		return creds.token, TokenSource{
			Name: "the credentials file " + creds.file + " (written by `terraform login`)",
			Fix:  "Replace the token: " + login + ", or set TFE_TOKEN, which takes precedence.",
		}, nil, nil
	default:
		return creds.token, TokenSource{
			Name: fmt.Sprintf("the credentials %q block of the Terraform CLI configuration file %s", hostname, creds.file),
			Fix:  "Put a valid API token in that block, or set TFE_TOKEN, which takes precedence.",
		}, nil, nil
	}
}

// MissingTokenDetail is the error of a provider that found no token.
func MissingTokenDetail(hostname string, looked []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No API token for %s was found. The provider looked, in this order, at:\n", hostname)
	for _, l := range looked {
		b.WriteString("  - " + l + "\n")
	}
	envName, ok := exportableTokenEnvName(hostname)
	if !ok {
		fmt.Fprintf(&b, "\nSet the TFE_TOKEN environment variable (or the provider's token attribute), or add a credentials %q { token = \"...\" } block to the Terraform CLI configuration. "+
			"A TF_TOKEN_ variable cannot name %s: a shell variable's name cannot hold the port.", hostname, hostname)
		return b.String()
	}
	fmt.Fprintf(&b, "\nSet the provider's token attribute or the TFE_TOKEN environment variable, export %s, add a credentials %q { token = \"...\" } block to the Terraform CLI configuration, or run `terraform login %s`.",
		envName, hostname, hostname)
	return b.String()
}
