# By agent pool and token ID:
terraform import tfgov_agent_token.ci apool-yoGUFz5zcRMMz53i/at-1ydXMKyZaycGmUJZ

# By token ID alone (the pool is found among the provider organization's pools):
terraform import tfgov_agent_token.ci at-1ydXMKyZaycGmUJZ
