#!/usr/bin/env bash
# release-mirror.sh RELEASE_DIR MIRROR_DIR: lays out tfgov's release archives
# as a provider mirror that Terraform installs from, as the guide "Installing
# the provider" (docs/guides/installing.md) describes.
#
# RELEASE_DIR holds what a release publishes (or goreleaser writes to dist/):
# terraform-provider-tfgov_VERSION_SHA256SUMS, its .sig when signed, and the
# terraform-provider-tfgov_VERSION_OS_ARCH.zip of the platforms wanted (not
# necessarily all of them). For every version there, this script
#   1. checks the signature of SHA256SUMS with gpg when a .sig is there (the
#      signer's public key must be in your keyring; set REQUIRE_SIGNATURE=1 to
#      refuse a release without a signature),
#   2. checks every zip present against SHA256SUMS (a zip not listed, or with
#      another hash, is an error),
#   3. copies the zips (once all of them checked out) to MIRROR_DIR/registry.terraform.io/tfgov/tfgov/, the
#      packed layout of a filesystem mirror, and
#   4. writes the network mirror protocol's index.json and VERSION.json next to
#      them (Terraform ignores them in a filesystem mirror; served over HTTPS,
#      the same directory is a network mirror). Versions already in MIRROR_DIR
#      stay: index.json lists every VERSION.json there.
set -euo pipefail
release=${1:?usage: release-mirror.sh RELEASE_DIR MIRROR_DIR}
mirror=${2:?usage: release-mirror.sh RELEASE_DIR MIRROR_DIR}
name=terraform-provider-tfgov
dest=$mirror/registry.terraform.io/tfgov/tfgov

shopt -s nullglob
sums_files=("$release"/"${name}"_*_SHA256SUMS)
if [ ${#sums_files[@]} -eq 0 ]; then
  echo "release-mirror.sh: no ${name}_VERSION_SHA256SUMS in $release" >&2
  exit 1
fi
mkdir -p "$dest"
for sums in "${sums_files[@]}"; do
  version=$(basename "$sums")
  version=${version#"${name}_"}
  version=${version%_SHA256SUMS}
  if [ -e "$sums.sig" ]; then
    log=$(mktemp)
    if ! gpg --batch --verify "$sums.sig" "$sums" 2>"$log"; then
      cat "$log" >&2
      rm -f "$log"
      echo "release-mirror.sh: the signature of $sums does not verify: import the release's public key (gpg --import) and check it is the right one" >&2
      exit 1
    fi
    echo "release-mirror.sh: $version: SHA256SUMS: $(grep -m1 'Good signature' "$log" | sed 's/^gpg: //')"
    rm -f "$log"
  elif [ "${REQUIRE_SIGNATURE:-0}" = 1 ]; then
    echo "release-mirror.sh: $sums has no signature ($sums.sig) and REQUIRE_SIGNATURE=1" >&2
    exit 1
  else
    echo "release-mirror.sh: $version: SHA256SUMS is not signed (no $(basename "$sums").sig): checking the zips against it only"
  fi
  zips=("$release"/"${name}_${version}"_*.zip)
  if [ ${#zips[@]} -eq 0 ]; then
    echo "release-mirror.sh: no ${name}_${version}_OS_ARCH.zip in $release" >&2
    exit 1
  fi
  for zip in "${zips[@]}"; do
    file=$(basename "$zip")
    want=$(awk -v f="$file" '$2 == f { print $1 }' "$sums")
    if [ -z "$want" ]; then
      echo "release-mirror.sh: $file is not listed in $(basename "$sums")" >&2
      exit 1
    fi
    got=$(sha256sum "$zip" | cut -d' ' -f1)
    if [ "$got" != "$want" ]; then
      echo "release-mirror.sh: $file has SHA-256 $got, $(basename "$sums") says $want" >&2
      exit 1
    fi
  done
  # Only once every zip checked out: nothing unchecked enters the mirror.
  for zip in "${zips[@]}"; do
    cp "$zip" "$dest/"
    echo "release-mirror.sh: $version: $(basename "$zip") checked and copied"
  done
  # VERSION.json: every platform of this version now in the mirror.
  {
    echo '{"archives": {'
    sep=
    for zip in "$dest"/"${name}_${version}"_*.zip; do
      file=$(basename "$zip")
      platform=${file#"${name}_${version}_"}
      platform=${platform%.zip}
      printf '%s  "%s": {"url": "%s", "hashes": ["zh:%s"]}' "$sep" "$platform" "$file" "$(sha256sum "$zip" | cut -d' ' -f1)"
      sep=$',\n'
    done
    printf '\n}}\n'
  } >"$dest/$version.json"
done
# index.json: every version with a VERSION.json.
{
  echo '{"versions": {'
  sep=
  for f in "$dest"/*.json; do
    v=$(basename "$f" .json)
    [ "$v" = index ] && continue
    printf '%s  "%s": {}' "$sep" "$v"
    sep=$',\n'
  done
  printf '\n}}\n'
} >"$dest/index.json"
echo "release-mirror.sh: mirror at $mirror:"
(cd "$mirror" && find . -type f | sort | sed 's|^\./|  |')
