"""Run verl 0.9.1's real GRPO trainer on CPU (vLLM's CPU build for rollouts).

Loaded by verl itself in every process that imports it: the launcher's CPU mode
(jobs/lib/cpu_mode.sh) exports ``VERL_USE_EXTERNAL_MODULES=tools.cpu_train.platform`` and
``VERL_PLATFORM=cpu`` before Ray starts. Nothing here is imported on a GPU cluster.

- :mod:`tools.cpu_train.platform`: the "cpu" platform for verl's platform registry, and the
  two small run-time adjustments verl needs on it (each names the verl line it works around);
- :mod:`tools.cpu_train.vllm_reload`: a vLLM worker extension that updates the rollout
  weights with vLLM's own layer-wise reload (vLLM's CPU build repacks linear weights).
"""
