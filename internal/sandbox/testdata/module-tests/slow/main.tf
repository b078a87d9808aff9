# A module whose test takes wait_seconds to apply, offline: a local-exec
# provisioner on terraform_data. An interrupt lets the apply in progress
# finish (Terraform's graceful stop), so a canceled run keeps running
# until it does; only a kill ends it sooner.
variable "wait_seconds" {
  type    = number
  default = 30
}

resource "terraform_data" "wait" {
  input = var.wait_seconds

  provisioner "local-exec" {
    command = "sleep ${var.wait_seconds}"
  }
}

output "waited" {
  value = terraform_data.wait.output
}
