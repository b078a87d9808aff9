#!/usr/bin/env bash
# goreleaser-one-target.sh OS ARCH OUT: writes to OUT a copy of
# .goreleaser.yml whose builds (both share the anchors &goos and &goarch)
# target OS_ARCH only. goreleaser's release command has no --single-target
# (only build has), and a release snapshot for every platform takes minutes
# where one takes seconds (make release-snapshot, make mirror-check).
set -euo pipefail
os=${1:?usage: goreleaser-one-target.sh OS ARCH OUT}
arch=${2:?usage: goreleaser-one-target.sh OS ARCH OUT}
out=${3:?usage: goreleaser-one-target.sh OS ARCH OUT}
cd "$(dirname "$0")/.."
sed -e "s/^\( *goos: &goos\) \[.*\]$/\1 [$os]/" \
    -e "s/^\( *goarch: &goarch\) \[.*\]$/\1 [\"$arch\"]/" .goreleaser.yml >"$out"
if [ "$(grep -c "^ *goos: &goos \[$os\]$" "$out")" != 1 ] ||
  [ "$(grep -c "^ *goarch: &goarch \[\"$arch\"\]$" "$out")" != 1 ]; then
  echo "goreleaser-one-target.sh: .goreleaser.yml has no one-line 'goos: &goos [...]' and 'goarch: &goarch [...]' to cut to ${os}_$arch" >&2
  exit 1
fi
