# A module without tests: `terraform test` ends at once with nothing to
# run. The data source tests queue many runs of it.
output "nothing" {
  value = null
}
