# A policy evaluated locally against an example input, as HCP Terraform
# would evaluate it: no request, no token needed.
data "tfgov_policy_evaluation" "public_ssh" {
  modules = {
    "public_ssh.rego" = <<-EOT
      package terraform.policies.public_ssh

      import input.plan.resource_changes

      deny contains msg if {
        some rc in resource_changes
        rc.type == "aws_security_group_rule"
        rc.change.after.from_port <= 22
        rc.change.after.to_port >= 22
        "0.0.0.0/0" in rc.change.after.cidr_blocks
        msg := sprintf("%s opens SSH to the world", [rc.address])
      }
    EOT
  }
  query = "data.terraform.policies.public_ssh.deny"
  # For a real plan: jsonencode({ plan = jsondecode(file("plan.json")) }),
  # plan.json from terraform show -json of a saved plan.
  input = jsonencode({
    plan = {
      resource_changes = [{
        address = "aws_security_group_rule.ssh"
        type    = "aws_security_group_rule"
        change  = { actions = ["create"], after = { from_port = 22, to_port = 22, cidr_blocks = ["0.0.0.0/0"] } }
      }]
    }
  })
}

check "public_ssh_is_denied" {
  assert {
    condition     = data.tfgov_policy_evaluation.public_ssh.result == "fail" && data.tfgov_policy_evaluation.public_ssh.violations == ["aws_security_group_rule.ssh opens SSH to the world"]
    error_message = "The policy lets SSH open to the world through."
  }
}
