"""Reports: pages, charts, comparisons, statistics, summaries and search drawings."""
