run "answer_is_positive" {
  command = plan

  assert {
    condition     = output.answer > 0
    error_message = "The answer is not positive."
  }
}

run "answer_is_42" {
  command = plan

  assert {
    condition     = output.answer == 42
    error_message = "The answer is not 42."
  }
}
