run "greets_by_name" {
  command = plan

  variables {
    name = "tester"
  }

  assert {
    condition     = local.greeting == "hello, tester"
    error_message = "The greeting does not use the name."
  }
}
