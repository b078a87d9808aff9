# Before: a policy set attached to two workspaces by attachment resources, with hashicorp/tfe.
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
  }
}

provider "tfe" {}

variable "policy_id" {
  type = string
}

variable "app_workspace_id" {
  type = string
}

variable "web_workspace_id" {
  type = string
}

# The set names its policies, not its workspaces: the attachments below do.
resource "tfe_policy_set" "baseline" {
  name       = "baseline"
  policy_ids = [var.policy_id]
}

resource "tfe_workspace_policy_set" "app" {
  policy_set_id = tfe_policy_set.baseline.id
  workspace_id  = var.app_workspace_id
}

resource "tfe_workspace_policy_set" "web" {
  policy_set_id = tfe_policy_set.baseline.id
  workspace_id  = var.web_workspace_id
}
