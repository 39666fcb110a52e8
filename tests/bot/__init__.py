"""Tests of the Telegram side."""
