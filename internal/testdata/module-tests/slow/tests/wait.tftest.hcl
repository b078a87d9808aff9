run "waits" {
  assert {
    condition     = output.waited == var.wait_seconds
    error_message = "The module did not wait."
  }
}
