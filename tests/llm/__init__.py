"""Tests of the model gateway, its retry policy, and litellm itself over loopback HTTP."""
