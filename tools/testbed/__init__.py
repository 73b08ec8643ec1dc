"""Stand-ins for tests and the demo: a tiny local model (``tiny_model``) and a fake trainer (``fake_trainer``)."""
