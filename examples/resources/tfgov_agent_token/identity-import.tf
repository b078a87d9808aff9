import {
  to = tfgov_agent_token.ci
  identity = {
    agent_pool_id = "apool-yoGUFz5zcRMMz53i"
    id            = "at-1ydXMKyZaycGmUJZ"
  }
}
