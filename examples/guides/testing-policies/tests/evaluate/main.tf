# Evaluates one policy against one input as HCP Terraform would, locally:
# the module the test's run blocks use, so that they need no token and no
# organization.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

variable "policy" {
  type        = string
  description = "Path of the policy's Rego file."
}

variable "query" {
  type        = string
  description = "The policy's OPA query."
}

variable "input" {
  type        = string
  description = "Path of the input document: what HCP Terraform passes to OPA, its plan from terraform show -json."
}

data "tfgov_policy_evaluation" "this" {
  sources    = [var.policy]
  query      = var.query
  input_file = var.input
}

output "result" {
  description = "pass or fail."
  value       = data.tfgov_policy_evaluation.this.result
}

output "violations" {
  description = "The violations: the messages the policy gives."
  value       = data.tfgov_policy_evaluation.this.violations
}
