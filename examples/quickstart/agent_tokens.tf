# The agent pool, by name.
data "tfgov_agent_pool" "demo" {
  name = "demo-pool"
}

# A token for the CI agents.
resource "tfgov_agent_token" "ci" {
  agent_pool_id = data.tfgov_agent_pool.demo.id
  description   = "CI agents"
}

# A token rotated every quarter: a new trigger value creates the new token
# before the old one is revoked.
resource "tfgov_agent_token" "build" {
  agent_pool_id     = data.tfgov_agent_pool.demo.id
  description       = "Build agents"
  rotation_triggers = { quarter = "2026-Q4" }

  lifecycle {
    create_before_destroy = true
  }
}

data "tfgov_agent_tokens" "pool" {
  agent_pool_id = data.tfgov_agent_pool.demo.id
  depends_on    = [tfgov_agent_token.ci, tfgov_agent_token.build]
}

output "agent_tokens" {
  description = "The pool's tokens, without secrets."
  value       = { for t in data.tfgov_agent_tokens.pool.tokens : t.id => t.description }
}

output "ci_agent_token" {
  description = "The CI agents' secret (terraform output -raw ci_agent_token)."
  value       = tfgov_agent_token.ci.token
  sensitive   = true
}
