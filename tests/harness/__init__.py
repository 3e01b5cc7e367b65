"""Tests of the test harness itself (the loopback OpenAI-compatible server in
tests/support/), kept apart from the tests of cvagent."""
