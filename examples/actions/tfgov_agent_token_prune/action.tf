# List the tokens of the pool that no agent has used for 30 days:
#   terraform apply -invoke=action.tfgov_agent_token_prune.ci
# then revoke them with dry_run = false.
action "tfgov_agent_token_prune" "ci" {
  config {
    agent_pool_id       = "apool-yoGUFz5zcRMMz53i"
    unused_for          = "720h"
    description_matches = "^ci-"
    dry_run             = true
  }
}
