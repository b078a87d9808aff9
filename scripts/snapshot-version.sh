#!/usr/bin/env bash
# snapshot-version.sh: the version a build from this checkout stamps before
# a release is tagged: CHANGELOG.md's newest version (0.1.0 in
# "## 0.1.0 (Unreleased)") with the commit as build metadata,
# 0.1.0+dev.abc1234 (.dirty with uncommitted changes). make
# release-snapshot and make mirror-check pass it to goreleaser
# (TFGOV_SNAPSHOT_VERSION, .goreleaser.yml's snapshot); make build stamps it
# until a v* tag exists.
set -euo pipefail
cd "$(dirname "$0")/.."
v=$(sed -n '1s/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\) .*/\1/p' CHANGELOG.md)
[ -n "$v" ] || { echo "snapshot-version.sh: CHANGELOG.md does not open with '## X.Y.Z (...)'" >&2; exit 1; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=
if [ "$commit" != unknown ]; then
  git update-index -q --refresh >/dev/null 2>&1 || true
  git diff-index --quiet HEAD -- 2>/dev/null || dirty=.dirty
fi
echo "$v+dev.$commit$dirty"
