#!/usr/bin/env bash
# docs-terraform.sh MIN TERRAFORM INSTALL: prints the path of the Terraform that
# make docs and docs-check use: TERRAFORM when it is MIN (1.14: list
# resources and identities are exported only from 1.14) or later, else the Terraform
# that the INSTALL script prints (../shared/terraform/install.sh beside the
# checkout: 1.15.9, unpacked from the archive kept there, no download), when
# that script exists. Says on stderr which Terraform it chose. Exits 3, with
# nothing printed, when neither is MIN or later.
set -euo pipefail
min=$1 tf=$2 install=$3
version() { "$1" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([0-9.]*\).*/\1/p'; }
new_enough() { [ -n "$1" ] && [ "$(printf '%s\n' "$min" "$1" | sort -V | head -n1)" = "$min" ]; }
v=$(version "$tf")
if new_enough "$v"; then
  echo "docs: Terraform $v at $tf" >&2
  echo "$tf"
  exit 0
fi
[ -f "$install" ] || exit 3
found=$(bash "$install")
fv=$(version "$found")
new_enough "$fv" || { echo "docs: $install gave Terraform ${fv:-of no version} at $found, older than $min" >&2; exit 3; }
echo "docs: Terraform ${v:-of no version} at $tf is older than $min: using Terraform $fv at $found (from $install)" >&2
echo "$found"
