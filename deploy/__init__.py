"""Deployment: the nginx template and the one-machine cluster launcher (docs/deploy.md)."""
