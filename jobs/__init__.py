"""Slurm job scripts and their launcher (jobs/lib); Python helpers import as jobs.lib.<name>."""
