# A parameter every Sentinel policy of the versioned set "baseline" reads as `param region`.
data "tfgov_policy_set" "baseline" {
  name = "baseline"
}

resource "tfgov_policy_set_parameter" "region" {
  policy_set_id = data.tfgov_policy_set.baseline.id
  key           = "region"
  value         = "eu-west-1"
}

# A secret, kept out of the plan and the state (Terraform 1.11 or later):
# bump value_wo_version to send a new value.
variable "cost_api_token" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "tfgov_policy_set_parameter" "token" {
  policy_set_id    = data.tfgov_policy_set.baseline.id
  key              = "cost_api_token"
  value_wo         = var.cost_api_token
  value_wo_version = 1
  sensitive        = true
}
