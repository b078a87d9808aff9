# The agent tokens of the build pool that no agent has used for 30 days,
# listed by a dry run of tfgov_agent_token_prune (Terraform 1.14 or later):
# `terraform apply -invoke=action.tfgov_agent_token_prune.stale` lists them,
# and dry_run = false revokes them. Tested against the same seed file
# (../seed.json), whose pool has a token last used 90 days ago.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# The host comes from the environment, as in ../main.tf.
provider "tfgov" {}

data "tfgov_agent_pool" "build" {
  name = "build"
}

action "tfgov_agent_token_prune" "stale" {
  config {
    agent_pool_id = data.tfgov_agent_pool.build.id
    unused_for    = "720h"
    dry_run       = true
  }
}

# terraform test invokes an action through a trigger: this one runs the
# dry run when the test's apply creates it.
resource "terraform_data" "prune" {
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.tfgov_agent_token_prune.stale]
    }
  }
}

data "tfgov_agent_tokens" "build" {
  agent_pool_id = data.tfgov_agent_pool.build.id
}

output "token_descriptions" {
  description = "The descriptions of the pool's tokens."
  value       = sort([for t in data.tfgov_agent_tokens.build.tokens : t.description])
}
