"""``make demo``: ``demo.sh`` runs the main job on the local cluster; ``summary`` prints what happened."""
