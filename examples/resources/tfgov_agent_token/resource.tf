# A token for the agents of a pool.
resource "tfgov_agent_token" "ci" {
  agent_pool_id = "apool-yoGUFz5zcRMMz53i"
  description   = "CI agents"
}

# Rotate a token every 90 days with the time provider: the new token is
# created before the old one is revoked.
resource "time_rotating" "agent_token" {
  rotation_days = 90
}

resource "tfgov_agent_token" "rotating" {
  agent_pool_id     = "apool-yoGUFz5zcRMMz53i"
  description       = "Build agents"
  rotation_triggers = { rotated = time_rotating.agent_token.id }

  lifecycle {
    create_before_destroy = true
  }
}
