"""Running experiments: plans, jobs, workers, the run folder's lifecycle and progress."""
