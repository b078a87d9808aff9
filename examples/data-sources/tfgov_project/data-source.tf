# A project by its exact name: its ID for the resources that take a project_id.
data "tfgov_project" "payments" {
  name = "payments"
}

output "payments_project_id" {
  value = data.tfgov_project.payments.id
}
