"""Fixtures shared by the cross-app tests."""
