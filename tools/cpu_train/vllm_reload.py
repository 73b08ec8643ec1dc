"""vLLM worker extension: weight sync from the trainer through vLLM's layer-wise reload.

verl's extension (``verl/workers/rollout/vllm_rollout/utils.py``,
``vLLMColocateWorkerExtension.update_weights_from_ipc``) loads each bucket of new weights with
``model.load_weights`` into the live parameters, then runs ``process_weights_after_loading``.
vLLM's CPU build repacks linear weights after the first load (its CPU linear kernels replace
the parameters with packed ones that carry no ``weight_loader``), so the second load fails with
"'Parameter' object has no attribute 'weight_loader'" (verl ``utils.py:405``) and the trainer
waits for the rollout forever. vLLM's own answer for in-place reloads is the layer-wise reload
(``vllm/model_executor/model_loader/reload``, used by vLLM's ``gpu_model_runner.reload_weights``):
restore each layer's original parameters, load, re-run that layer's processing, copy the result
into the kernel tensors. This extension wraps verl's bucket loop in it.

Selected with ``actor_rollout_ref.rollout.engine_kwargs.vllm.worker_extension_cls=
tools.cpu_train.vllm_reload.LayerwiseReloadWorkerExtension`` (verl passes engine_kwargs last,
``vllm_async_server.py:330``), which the launcher's CPU mode adds. LoRA adapter syncs (no base
weights change) keep verl's path.
"""

from __future__ import annotations

from typing import Any

import torch
from verl.workers.rollout.vllm_rollout.utils import vLLMColocateWorkerExtension


class LayerwiseReloadWorkerExtension(vLLMColocateWorkerExtension):
    """verl's colocated worker extension with base-weight updates through vLLM's reload."""

    def update_weights_from_ipc(
        self, peft_config: dict[str, Any] | None = None, base_sync_done: bool = False, use_shm: bool = False
    ) -> None:
        if peft_config and base_sync_done:
            # an adapter sync: the base weights stay as they are
            super().update_weights_from_ipc(
                peft_config=peft_config, base_sync_done=base_sync_done, use_shm=use_shm
            )
            return
        from verl.workers.rollout.vllm_rollout.bucketed_weight_transfer import BucketedWeightReceiver
        from vllm.model_executor.model_loader.reload import (
            finalize_layerwise_reload,
            initialize_layerwise_reload,
        )

        if getattr(self, "device", None) is None:
            self.device = torch.device("cpu")
        model = self.model_runner.model
        model_config = self.model_runner.vllm_config.model_config
        initialize_layerwise_reload(model)
        try:
            receiver = BucketedWeightReceiver(
                zmq_handle=self._get_zmq_handle(), device=self.device, use_shm=use_shm
            )

            def on_bucket(weights: list[tuple[str, torch.Tensor]], is_last: bool) -> None:
                self._update_weights(weights, peft_config=peft_config, base_sync_done=base_sync_done)

            receiver.receive_weights(on_bucket_received=on_bucket)
        finally:
            finalize_layerwise_reload(model, model_config)
