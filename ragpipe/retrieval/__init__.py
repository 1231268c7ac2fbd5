"""Pages -> chunks -> a BM25 index, and the fingerprints that say when to rebuild it."""
