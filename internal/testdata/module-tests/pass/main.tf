# A module whose tests pass and need no provider download: terraform_data,
# locals, outputs and a check block only.
variable "name" {
  type    = string
  default = "world"
}

locals {
  greeting = "hello, ${var.name}"
}

resource "terraform_data" "greeting" {
  input = local.greeting
}

output "greeting" {
  value = terraform_data.greeting.output
}

check "name_is_not_blank" {
  assert {
    condition     = trimspace(var.name) != ""
    error_message = "name must not be blank."
  }
}
