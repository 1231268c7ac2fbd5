"""Questions + chunks -> answers: the engines, the run with its log, imported answer sets."""
