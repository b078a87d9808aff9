import {
  to = tfgov_agent_token.ci
  id = "apool-yoGUFz5zcRMMz53i/at-1ydXMKyZaycGmUJZ"
}
