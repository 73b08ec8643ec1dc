"""`make demo`: the main job end to end on a local emulated cluster (demo.sh, summary, watch)."""
