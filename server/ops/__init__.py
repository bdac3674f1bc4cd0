"""What an operator sees of a process and what keeps it tidy: logs, metrics, the garbage
collector's tuning and ending with a parent that died."""
