# After: one tfgov_policy_set whose scope names both workspaces. The set moves;
# each attachment is forgotten, not detached, as the scope now holds it.
terraform {
  required_providers {
    tfe = {
      source  = "hashicorp/tfe"
      version = "~> 0.79"
    }
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfe" {}

provider "tfgov" {}

variable "policy_id" {
  type = string
}

variable "app_workspace_id" {
  type = string
}

variable "web_workspace_id" {
  type = string
}

resource "tfgov_policy_set" "baseline" {
  name       = "baseline"
  policy_ids = [var.policy_id]
  scope = {
    workspace_ids = [var.app_workspace_id, var.web_workspace_id]
  }
}

moved {
  from = tfe_policy_set.baseline
  to   = tfgov_policy_set.baseline
}

# destroy = false: Terraform forgets the attachment and leaves the workspace attached.
removed {
  from = tfe_workspace_policy_set.app
  lifecycle {
    destroy = false
  }
}

removed {
  from = tfe_workspace_policy_set.web
  lifecycle {
    destroy = false
  }
}
