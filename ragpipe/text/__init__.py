"""Text shared by the corpus, retrieval and grading: the one tokenizer, the money-figure parser,
and finding a phrase or a figure in text."""
