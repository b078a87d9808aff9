# A module whose test takes wait_seconds to apply, offline: a local-exec
# provisioner on terraform_data. An interrupt lets the apply in progress
# finish (Terraform's graceful stop), so a canceled run keeps running
# until it does; only a kill ends it sooner. When started_marker is set,
# the provisioner creates that file first, so that a test on the same
# machine knows the wait has begun.
variable "wait_seconds" {
  type    = number
  default = 30
}

variable "started_marker" {
  type    = string
  default = ""
}

resource "terraform_data" "wait" {
  input = var.wait_seconds

  provisioner "local-exec" {
    command = var.started_marker == "" ? "sleep ${var.wait_seconds}" : "touch '${var.started_marker}' && sleep ${var.wait_seconds}"
  }
}

output "waited" {
  value = terraform_data.wait.output
}
