#!/usr/bin/env bash
# mirror-check.sh TERRAFORM: proves the filesystem mirror route of
# the guide "Installing the provider" (docs/guides/installing.md) end to end,
# with no dev_overrides and no network:
#   1. the release snapshot of one target (linux_amd64) as make
#      release-snapshot builds it (internal/cmd/snapshot: Go's toolchain,
#      .goreleaser.yml's names and stamping), signed with a throwaway GPG key
#      when gpg is there: the provider's zip, SHA256SUMS (+ .sig) and
#      manifest, and the sandbox's archive, named as a release names them;
#   2. scripts/release-mirror.sh lays them out as a filesystem mirror (checking
#      the signature and the checksums), as the guide tells a user;
#   3. terraform init of examples/guides/install with the guide's
#      filesystem-mirror.tfrc (its path pointed at that mirror), then checks
#      what it installed with the guide's own version constraint (no override): the snapshot's version, from the mirror, locked,
#      and stamped in the binary (-version);
#   4. terraform plan of it against the sandbox from the snapshot's own
#      tfgov-sandbox archive (scripts/with-sandbox.sh: HTTPS, hostname
#      discovery), which must plan the example's policy;
#   5. the same mirror served over HTTPS on the loopback as a network mirror
#      (index.json and VERSION.json from release-mirror.sh): terraform init
#      with the guide's network-mirror.tfrc installs the same version;
#   6. go install of the sandbox at that version from a module proxy (this
#      commit, served from a local directory).
# Everything happens in a temporary directory, removed at the end; the
# repository is left as it was.
set -euo pipefail
terraform=${1:?usage: mirror-check.sh TERRAFORM}
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-mirror-check.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
  fi
  if [ -d "$work/gnupg" ]; then
    GNUPGHOME=$work/gnupg gpgconf --kill all >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
step() { echo "mirror-check: $*"; }
fail() { echo "mirror-check: FAILED: $*" >&2; exit 1; }

# 1. The one-target snapshot, at the version make release-snapshot gives
# it: the CHANGELOG's next release +dev.<commit> (scripts/snapshot-version.sh).
TFGOV_SNAPSHOT_VERSION=${TFGOV_SNAPSHOT_VERSION:-$(bash scripts/snapshot-version.sh)}
export TFGOV_SNAPSHOT_VERSION

if command -v gpg >/dev/null 2>&1; then
  # A throwaway key in a keyring of its own: the release's signs run as in
  # release.yml, and release-mirror.sh verifies them as a user would.
  export GNUPGHOME=$work/gnupg
  mkdir -m 700 "$GNUPGHOME"
  gpg --batch --quiet --passphrase '' --quick-gen-key 'tfgov mirror-check <mirror-check@tfgov.invalid>' rsa2048 sign 1d 2>/dev/null
  GPG_FINGERPRINT=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '/^fpr/ { print $10; exit }')
  export GPG_FINGERPRINT
  step "signing with a throwaway key $GPG_FINGERPRINT"
else
  step "gpg is not on PATH: the snapshot is not signed (checksums only)"
fi
start=$SECONDS
go run ./internal/cmd/snapshot -os linux -arch amd64 -dist "$work/dist" -version "$TFGOV_SNAPSHOT_VERSION" -sign "${GPG_FINGERPRINT:-}" ||
  fail "the release snapshot (internal/cmd/snapshot)"
dist=$work/dist
version=$(grep -o '"version": *"[^"]*"' "$dist/metadata.json" | head -n1 | sed 's/.*"\([^"]*\)"$/\1/')
[ -n "$version" ] || fail "no version in $dist/metadata.json"
step "release snapshot $version in $((SECONDS - start))s:"
for f in "$dist"/*.zip "$dist"/*.tar.gz "$dist"/*.sig "$dist"/*SHA256SUMS; do echo "  $(basename "$f")"; done

# The registry reads SHA256SUMS: the provider's zip and the manifest, never
# the sandbox's archive.
sums=$dist/terraform-provider-tfgov_${version}_SHA256SUMS
grep -q " terraform-provider-tfgov_${version}_linux_amd64.zip$" "$sums" || fail "$sums lacks the provider's zip"
grep -q " terraform-provider-tfgov_${version}_manifest.json$" "$sums" || fail "$sums lacks the manifest"
! grep -q tfgov-sandbox "$sums" || fail "$sums lists the sandbox's archive: the registry would read it"
sandbox_archive=$dist/tfgov-sandbox_${version}_linux_amd64.tar.gz
[ -f "$sandbox_archive" ] || fail "no $sandbox_archive"
if [ -n "${GPG_FINGERPRINT:-}" ]; then
  [ -f "$sums.sig" ] || fail "no $sums.sig"
  gpg --batch --verify "$sandbox_archive.sig" "$sandbox_archive" 2>/dev/null || fail "$sandbox_archive.sig does not verify"
fi

# 2. The mirror, as the guide lays it out.
REQUIRE_SIGNATURE=$([ -n "${GPG_FINGERPRINT:-}" ] && echo 1 || echo 0) \
  bash scripts/release-mirror.sh "$dist" "$work/mirror"

# 3. terraform init from the mirror, with the guide's CLI configuration.
rc=$work/terraformrc
sed "s|/opt/terraform/providers|$work/mirror|" examples/guides/install/filesystem-mirror.tfrc >"$rc"
grep -q "path *= \"$work/mirror\"" "$rc" || fail "examples/guides/install/filesystem-mirror.tfrc has no path = \"/opt/terraform/providers\" to point at the mirror"
! grep -q dev_overrides "$rc" || fail "the CLI configuration has dev_overrides"
cfg=$work/config
mkdir "$cfg"
cp examples/guides/install/*.tf "$cfg/"
# No override of the version: the guide's own constraint (~> 0.1) must
# select the snapshot, as it will a release.
tf() {
  env -u TF_PLUGIN_CACHE_DIR -u TF_CLI_CONFIG_FILE TF_CLI_CONFIG_FILE="$rc" CHECKPOINT_DISABLE=1 "$terraform" -chdir="$cfg" "$@"
}
out=$(tf init -input=false -no-color 2>&1) || { echo "$out" >&2; fail "terraform init from the mirror"; }
echo "$out" | grep -E 'Installing|Installed' | sed 's/^/  /'
echo "$out" | grep -q "Installed tfgov/tfgov v$version" || { echo "$out" >&2; fail "terraform init did not install tfgov/tfgov v$version with the constraint of examples/guides/install/main.tf"; }
! echo "$out" | grep -qi 'development overrides' || fail "terraform init ran with dev_overrides"
binary=$cfg/.terraform/providers/registry.terraform.io/tfgov/tfgov/$version/linux_amd64/terraform-provider-tfgov_v$version
[ -x "$binary" ] || fail "no $binary after init"
# The release stamps its version into the binary, as a tag's build does.
got=$("$binary" -version) || fail "$binary -version"
[ "$got" = "terraform-provider-tfgov $version" ] || fail "$binary -version printed '$got', want 'terraform-provider-tfgov $version'"
grep -q "version *= \"$version\"" "$cfg/.terraform.lock.hcl" || fail ".terraform.lock.hcl does not lock $version"
grep -q '"h1:' "$cfg/.terraform.lock.hcl" || fail ".terraform.lock.hcl has no h1: hash"
step "terraform init installed tfgov/tfgov v$version from the mirror, with the guide's constraint $(grep -o 'version *= "[^"]*"' examples/guides/install/main.tf), and locked it"

# 4. A plan against the snapshot's own sandbox.
sandbox_dir=$work/sandbox
mkdir "$sandbox_dir"
tar -xzf "$sandbox_archive" -C "$sandbox_dir"
got=$("$sandbox_dir/tfgov-sandbox" -version) || fail "tfgov-sandbox -version"
[ "$got" = "tfgov-sandbox $version" ] || fail "the archive's tfgov-sandbox -version printed '$got', want 'tfgov-sandbox $version'"
status=0
out=$(bash scripts/with-sandbox.sh "$sandbox_dir/tfgov-sandbox" \
  env -u TF_PLUGIN_CACHE_DIR TF_CLI_CONFIG_FILE="$rc" CHECKPOINT_DISABLE=1 \
  "$terraform" -chdir="$cfg" plan -detailed-exitcode -input=false -no-color 2>&1) || status=$?
if [ "$status" -ne 2 ]; then
  echo "$out" >&2
  fail "terraform plan exited $status, want 2 (changes: the example's policy)"
fi
echo "$out" | grep -q 'data.tfgov_policies.all: Read complete' || { echo "$out" >&2; fail "the plan did not read data.tfgov_policies.all"; }
echo "$out" | grep -q 'Plan: 1 to add, 0 to change, 0 to destroy' || { echo "$out" >&2; fail "the plan does not add the example's policy"; }
step "terraform plan with the mirrored provider against tfgov-sandbox $version: $(echo "$out" | grep -m1 '^Plan:')"

# 5. The same mirror as a network mirror: served over HTTPS on the loopback
# (a throwaway certificate that SSL_CERT_FILE makes Terraform trust), with
# the guide's network-mirror.tfrc pointed at it.
if command -v openssl >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$work/mirror-key.pem" -out "$work/mirror-cert.pem" >/dev/null 2>&1 || fail "openssl could not make a certificate"
  python3 - "$work/mirror" "$work/mirror-cert.pem" "$work/mirror-key.pem" "$work/mirror-port" >"$work/mirror-server.log" 2>&1 <<'PY' &
import functools, http.server, os, ssl, sys
root, cert, key, portfile = sys.argv[1:5]
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
server.socket = ctx.wrap_socket(server.socket, server_side=True)
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(portfile + ".tmp", portfile)
server.timeout = 1
deadline = __import__("time").time() + 120  # stops by itself
while __import__("time").time() < deadline:
    server.handle_request()
PY
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/mirror-port" ] && break; sleep 0.1; done
  [ -s "$work/mirror-port" ] || { cat "$work/mirror-server.log" >&2; fail "the HTTPS mirror server did not start"; }
  url=https://127.0.0.1:$(cat "$work/mirror-port")/
  rc_net=$work/terraformrc-network
  sed "s|https://terraform-mirror.example.com/providers/|$url|" examples/guides/install/network-mirror.tfrc >"$rc_net"
  grep -q "url *= \"$url\"" "$rc_net" || fail "examples/guides/install/network-mirror.tfrc has no url = \"https://terraform-mirror.example.com/providers/\" to point at the mirror"
  cfg_net=$work/config-network
  mkdir "$cfg_net"
  cp "$cfg"/*.tf "$cfg_net/"
  status=0
  out=$(env -u TF_PLUGIN_CACHE_DIR TF_CLI_CONFIG_FILE="$rc_net" SSL_CERT_FILE="$work/mirror-cert.pem" CHECKPOINT_DISABLE=1 \
    "$terraform" -chdir="$cfg_net" init -input=false -no-color 2>&1) || status=$?
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  if [ "$status" -ne 0 ] || ! echo "$out" | grep -q "Installed tfgov/tfgov v$version"; then
    echo "$out" >&2
    cat "$work/mirror-server.log" >&2
    fail "terraform init from the network mirror $url"
  fi
  grep -q "version *= \"$version\"" "$cfg_net/.terraform.lock.hcl" || fail "the network mirror's .terraform.lock.hcl does not lock $version"
  step "terraform init installed tfgov/tfgov v$version from the network mirror $url ($(grep -c 'GET /registry.terraform.io/tfgov/tfgov/' "$work/mirror-server.log") requests: index.json, $version.json, the zip)"
else
  step "network mirror: not checked (it needs openssl and python3 for a local HTTPS server)"
fi

# 6. go install …/cmd/tfgov-sandbox@VERSION, as the guide tells a user: this
# commit (git archive HEAD) served as module version v$modversion (the
# release the snapshot comes before: a Go module version has no build
# metadata) by a file
# proxy, the dependencies from the local module cache (offline), into a
# module cache of its own (the real one is left as it was).
module=$(go list -m)
modversion=${version%%+*}
proxy=$work/goproxy/$module/@v
mkdir -p "$proxy"
echo "v$modversion" >"$proxy/list"
printf '{"Version":"v%s","Time":"%s"}\n' "$modversion" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$proxy/v$modversion.info"
cp go.mod "$proxy/v$modversion.mod"
# A module's zip leaves out every directory holding a go.mod of its own
# (a nested module, such as internal/tfestandin), as the Go proxy's do.
nested=()
while IFS= read -r m; do
  nested+=(":(exclude)$(dirname "$m")")
done < <(git ls-files '*/go.mod')
git archive --format=zip --prefix="$module@v$modversion/" -o "$proxy/v$modversion.zip" HEAD -- . "${nested[@]}"
status=0
out=$(env GOBIN="$work/gobin" GOMODCACHE="$work/gomodcache" GOFLAGS=-trimpath CGO_ENABLED=0 \
  GOPROXY="file://$work/goproxy,file://$(go env GOMODCACHE)/cache/download,off" GOSUMDB=off \
  go install "$module/cmd/tfgov-sandbox@v$modversion" 2>&1) || status=$?
chmod -R u+w "$work/gomodcache" 2>/dev/null || true
if [ "$status" -ne 0 ] || [ ! -x "$work/gobin/tfgov-sandbox" ]; then
  echo "$out" >&2
  fail "go install $module/cmd/tfgov-sandbox@v$modversion"
fi
help=$("$work/gobin/tfgov-sandbox" --help 2>&1 || true)
grep -q -- '-seed' <<<"$help" || { echo "$help" >&2; fail "the go-installed tfgov-sandbox does not run"; }
# go install stamps no ldflags: the version is the module version it recorded.
got=$("$work/gobin/tfgov-sandbox" -version) || fail "the go-installed tfgov-sandbox -version"
[ "$got" = "tfgov-sandbox $modversion" ] || fail "the go-installed tfgov-sandbox -version printed '$got', want 'tfgov-sandbox $modversion'"
step "go install $module/cmd/tfgov-sandbox@v$modversion works (module proxy layout, offline)"
step "passed in ${SECONDS}s"
