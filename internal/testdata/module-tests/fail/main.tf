# A module with one passing and one failing test, offline.
output "answer" {
  value = 41
}
