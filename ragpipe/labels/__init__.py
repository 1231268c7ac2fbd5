"""People's labels as data: the `human_labels` table, its JSONL import and export."""
