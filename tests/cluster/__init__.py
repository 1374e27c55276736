"""The cluster test: the production topology on one machine (deploy/cluster.py)."""
