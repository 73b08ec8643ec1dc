"""Export a verl checkpoint to a Hugging Face model folder (``python -m tools.export``, ``make export``)."""
