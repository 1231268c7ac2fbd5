"""PDF -> pages, and the corpus around them: manifests, adapters, questions, needles, stats."""
